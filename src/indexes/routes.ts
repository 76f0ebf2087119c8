/**
 * Indexes of a version (one per `#(index)` dimension, built by runs): list,
 * most recently changed first, and get (with its values).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { environmentScoped } from "../http/aliases.ts";
import { notFound } from "../http/errors.ts";
import { required } from "../http/auth.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, pageQuery, uuid, versionIdParam } from "../http/params.ts";
import { security } from "../http/security.ts";
import { packageRules } from "../packages/route_rules.ts";
import { versionParams } from "../http/resource_params.ts";
import { builtViews } from "../rls/visibility.ts";
import { findIndex, indexCursor, type IndexView, listIndexes } from "./store.ts";

/** An index as a caller who may not read its source's data sees it: what was built, without values or counts. */
function withoutData(index: IndexView): IndexView {
  return { ...index, valueCount: null, distinctCount: null, ...(index.values ? { values: [] } : {}) };
}

function indexPlugin(ctx: AppContext, prefix: string) {
  const tags = ["indexes"];
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(packageRules(ctx))
    .get(
      "/:env/packages/:pkg/versions/:versionId/indexes",
      async ({ pkg, version, principal, query, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listIndexes(ctx.sql, version.uuid, { limit, before: decodeCursor(query.cursor) });
        // indexes of sources hidden from the caller (#(authorize)) are left out; the page and its cursor stay as read
        const view = await builtViews(ctx.sql, required(principal), { versionUuids: [version.uuid], rank: pkg.rank });
        const page = pageResponse(request, rows, { limit, key: indexCursor, set });
        return page.flatMap((r) => {
          const seen = view(version.uuid, r.modelPath, r.sourceName);
          return seen === "hidden" ? [] : seen === "no-data" ? [withoutData(r)] : [r];
        });
      },
      { params: versionParams, versionAccess: "viewer", query: pageQuery, detail: { summary: "List the indexes of a version, most recent first", tags } },
    )
    .get(
      "/:env/packages/:pkg/versions/:versionId/indexes/:indexId",
      async ({ pkg, version, principal, params }) => {
        const index = await findIndex(ctx.sql, version.uuid, params.indexId);
        const view = index ? (await builtViews(ctx.sql, required(principal), { versionUuids: [version.uuid], rank: pkg.rank }))(version.uuid, index.modelPath, index.sourceName) : "hidden";
        if (!index || view === "hidden") throw notFound(`index ${params.indexId} of version ${params.versionId} not found; list them with GET .../versions/${params.versionId}/indexes`);
        // values and their counts are data of the source: only for callers who may query it, never of a bound source
        return view === "full" ? index : withoutData(index);
      },
      {
        params: t.Object({
          org: name("organizationName"),
          env: name("environmentName"),
          pkg: name("packageName"),
          versionId: versionIdParam,
          indexId: uuid("indexId"),
        }),
        versionAccess: "viewer",
        detail: { summary: "Get an index with its values (most frequent first)", tags },
      },
    );
}

/** Routes of indexes under both `/environments` and `/projects`. */
export function indexRoutes(ctx: AppContext) {
  return environmentScoped((prefix) => indexPlugin(ctx, prefix));
}
