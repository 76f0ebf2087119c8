/**
 * Materializations of a version (one per `#@ persist` source, built by
 * runs): list, most recently changed first, and get.
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { environmentScoped } from "../http/aliases.ts";
import { notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, pageQuery, uuid, versionIdParam } from "../http/params.ts";
import { security } from "../http/security.ts";
import { packageRules } from "../packages/route_rules.ts";
import { versionParams } from "../http/resource_params.ts";
import { required } from "../http/auth.ts";
import { builtViews } from "../rls/visibility.ts";
import { findMaterialization, listMaterializations, materializationCursor, type MaterializationView } from "./store.ts";

/** A materialization as a caller may see it: its row count is data of its source (see `builtViews`). */
function shown(m: MaterializationView, view: string): MaterializationView {
  return view === "full" ? m : { ...m, rowCount: null };
}

function materializationPlugin(ctx: AppContext, prefix: string) {
  const tags = ["materializations"];
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(packageRules(ctx))
    .get(
      "/:env/packages/:pkg/versions/:versionId/materializations",
      async ({ pkg, version, principal, query, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listMaterializations(ctx.sql, version.uuid, { limit, before: decodeCursor(query.cursor) });
        const view = await builtViews(ctx.sql, required(principal), { versionUuids: [version.uuid], rank: pkg.rank });
        // materializations of sources hidden from the caller (#(authorize)) are left out; the page and its cursor stay as read
        return pageResponse(request, rows, { limit, key: materializationCursor, set })
          .map((m) => ({ m, v: view(version.uuid, m.modelFilePath, m.sourceName) }))
          .filter(({ v }) => v !== "hidden")
          .map(({ m, v }) => shown(m, v));
      },
      { params: versionParams, versionAccess: "viewer", query: pageQuery, detail: { summary: "List the materializations of a version, most recent first", tags } },
    )
    .get(
      "/:env/packages/:pkg/versions/:versionId/materializations/:materializationId",
      async ({ pkg, version, principal, params }) => {
        const found = await findMaterialization(ctx.sql, version.uuid, params.materializationId);
        const view = found ? (await builtViews(ctx.sql, required(principal), { versionUuids: [version.uuid], rank: pkg.rank }))(version.uuid, found.modelFilePath, found.sourceName) : "hidden";
        if (!found || view === "hidden") {
          throw notFound(`materialization ${params.materializationId} of version ${params.versionId} not found; list them with GET .../versions/${params.versionId}/materializations`);
        }
        return shown(found, view);
      },
      {
        params: t.Object({
          org: name("organizationName"),
          env: name("environmentName"),
          pkg: name("packageName"),
          versionId: versionIdParam,
          materializationId: uuid("materializationId"),
        }),
        versionAccess: "viewer",
        detail: { summary: "Get a materialization (source, model file, location, row count, status)", tags },
      },
    );
}

/** Routes of materializations under both `/environments` and `/projects`. */
export function materializationRoutes(ctx: AppContext) {
  return environmentScoped((prefix) => materializationPlugin(ctx, prefix));
}
