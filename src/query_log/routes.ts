/**
 * `GET /organizations/{org}/query-log` (organization admins): the queries of
 * the organization, newest first, filtered by `?principal=`,
 * `?packageName=`, `?status=`, paged with `?limit=` and `?cursor=`.
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { badRequest } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, orgParams, pageQuery } from "../http/params.ts";
import { security } from "../http/security.ts";
import { organizationRules } from "../organizations/route_rules.ts";
import { listEntries } from "./store.ts";

const logQuery = t.Object({
  ...pageQuery.properties,
  principal: t.Optional(t.String({ pattern: "^(user|group):[a-zA-Z0-9_-]+$", error: "principal must be user:<userName> or group:<groupName>" })),
  packageName: t.Optional(name("packageName")),
  status: t.Optional(t.Union([t.Literal("ok"), t.Literal("error"), t.Literal("refused"), t.Literal("timeout")], { error: "status must be ok, error, refused or timeout" })),
});

/** The query log route. */
export function queryLogRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/organizations/:org/query-log" })
    .use(security(ctx))
    .use(organizationRules(ctx))
    .get(
      "/",
      async ({ org, query, principal, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const before = decodeCursor(query.cursor);
        if (before !== undefined && !/^[0-9]{1,19}$/.test(before)) throw badRequest("cursor is not valid; use the value from the Link rel=next header");
        const rows = await listEntries(ctx.sql, org.id, { limit, before, principal: query.principal, packageName: query.packageName, status: query.status });
        return pageResponse(request, rows, { limit, key: (r) => r.id, set });
      },
      {
        params: orgParams,
        orgAccess: "admin",
        query: logQuery,
        detail: {
          summary: "The organization's query log, newest first (organization admins): [{ id, at, principal, via, environmentName, packageName, versionId, modelPath, query, queryName, sourceName, boundAttributes, rows, ms, status, error }]",
          tags: ["query-log"],
        },
      },
    );
}
