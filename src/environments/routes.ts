/**
 * Environments (served as `/environments` and `/projects`): list, create, get,
 * update (partial), delete (with packages, versions and connections).
 * @module
 */
import { Elysia, t } from "elysia";
import { environmentScoped } from "../http/aliases.ts";
import { required } from "../http/auth.ts";
import type { AppContext } from "../context.ts";
import { conflict, } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, pageQuery } from "../http/params.ts";
import { security } from "../http/security.ts";
import { environmentRules } from "./route_rules.ts";
import { organizationRules } from "../organizations/route_rules.ts";
import { evictVersions, versionUuidsOf } from "../archives/compiled_models.ts";
import { archivesOf, extractionDir, removeUnusedExtractions } from "../archives/store.ts";
import {
  deleteEnvironment,
  environmentView,
  insertEnvironment,
  listEnvironments,
  updateEnvironment,
} from "./store.ts";

import { envParams } from "../http/resource_params.ts";
import { beginRetrying } from "../db/lock_order.ts";

const envBody = t.Object({
  name: name("name"),
  description: t.Optional(t.String({ maxLength: 4000, error: "description must be at most 4000 characters" })),
});
const envPatch = t.Object({
  description: t.Optional(t.String({ maxLength: 4000, error: "description must be at most 4000 characters" })),
});

function environmentPlugin(ctx: AppContext, prefix: string) {
  const tags = ["environments"];
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(environmentRules(ctx))
    .use(organizationRules(ctx))
    .get(
      "/",
      async ({ orgSeen: org, principal, query, request, set }) => {
        const p = required(principal);
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listEnvironments(ctx.sql, p, { orgId: org.id, limit, after: decodeCursor(query.cursor) });
        return pageResponse(request, rows, { limit, key: (r) => r.name, set }).map(environmentView);
      },
      {
        params: t.Object({ org: name("organizationName") }),
        query: pageQuery,
        // the organization's members, or callers granted one of its environments directly
        orgListingAccess: "environment-viewer",
        detail: { summary: "List the environments of an organization the caller can read", tags },
      },
    )
    .post(
      "/",
      async ({ params, body, principal, org, set }) => {
        const p = required(principal);
        const env = await ctx.sql.begin(async (tx) => {
          const [dup] = await tx`SELECT 1 FROM environments WHERE org_id = ${org.id} AND name = ${body.name}`;
          if (dup) throw conflict(`environment '${body.name}' already exists in organization '${params.org}'; choose another name`);
          return await insertEnvironment(tx, { orgId: org.id, ...body }, { creatorUserId: p.kind === "user" ? p.userId : null });
        });
        set.status = 201;
        return environmentView(env);
      },
      {
        params: t.Object({ org: name("organizationName") }),
        body: envBody,
        orgAccess: "modeler",
        detail: { summary: "Create an environment (organization admin or modeler; the creator becomes its admin)", tags },
      },
    )
    .get(
      "/:env",
      ({ env }) => environmentView(env),
      { params: envParams, envAccess: "package-viewer", detail: { summary: "Get an environment", tags } },
    )
    .patch(
      "/:env",
      async ({ env, body }) => environmentView(await updateEnvironment(ctx.sql, env, body)),
      { params: envParams, body: envPatch, envAccess: "modeler", detail: { summary: "Update an environment (partial; admin or modeler)", tags } },
    )
    .delete(
      "/:env",
      async ({ env, set }) => {
        const versions = await versionUuidsOf(ctx, { envId: env.id });
        const archives = await archivesOf(ctx.sql, { envId: env.id });
        await beginRetrying(ctx.sql, (tx) => deleteEnvironment(tx, env.id));
        evictVersions(ctx, versions);
        // extracted package folders no version uses any more go too
        await removeUnusedExtractions(ctx.sql, extractionDir(ctx.config), archives);
        set.status = 204;
      },
      {
        params: envParams,
        envAccess: "admin",
        detail: { summary: "Delete an environment with its packages, versions and connections (irreversible; admin)", tags },
      },
    );
}

/** Routes of environments under both `/environments` and `/projects`. */
export function environmentRoutes(ctx: AppContext) {
  return environmentScoped((prefix) => environmentPlugin(ctx, prefix));
}
