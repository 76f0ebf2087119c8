/**
 * Models of a package version: list their paths, and the compiled model info
 * (sources, fields with types and docs, views, named queries) from the
 * metadata stored at publish.
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { environmentScoped } from "../http/aliases.ts";
import { required } from "../http/auth.ts";
import { notFound } from "../http/errors.ts";
import { versionIdParam } from "../http/params.ts";
import { security } from "../http/security.ts";
import { packageRules } from "../packages/route_rules.ts";
import { pkgParams } from "../http/resource_params.ts";
import { resolveVersion, type VersionRow } from "../versions/store.ts";
import { visibleModel, visibleNames } from "../rls/visibility.ts";
import { findModel, listModels } from "./store.ts";

const versionQuery = t.Object({ versionId: t.Optional(versionIdParam) });

import { checkModelPath } from "./model_path.ts";

/** The version a models request names (latest by default): 404 when there is none. */
async function versionFor(ctx: AppContext, pkg: { id: string; name: string }, versionId?: string): Promise<VersionRow> {
  const version = await resolveVersion(ctx.sql, pkg.id, versionId);
  if (!version) {
    throw notFound(versionId
      ? `version ${versionId} of package '${pkg.name}' not found`
      : `package '${pkg.name}' has no unarchived version; name one with ?versionId=`);
  }
  return version;
}

function modelPlugin(ctx: AppContext, prefix: string) {
  const tags = ["models"];
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(packageRules(ctx))
    .get(
      "/:env/packages/:pkg/models",
      async ({ pkg, principal, query }) => {
        const p = required(principal);
        const version = await versionFor(ctx, pkg, query.versionId);
        const models = await listModels(ctx.sql, version.uuid);
        const out = [];
        for (const m of models) {
          // sources of #(authorize) the caller may not query are hidden from viewers
          const meta = await findModel(ctx.sql, version.uuid, m.path);
          const names = meta ? await visibleNames(ctx.sql, p, meta, { rank: pkg.rank, envId: pkg.envId }) : {};
          out.push({ ...m, kind: m.path.endsWith(".malloynb") ? "notebook" : "model", ...names, packageName: pkg.name, versionId: version.id });
        }
        return out;
      },
      { params: pkgParams, pkgAccess: "viewer", query: versionQuery, detail: { summary: "List the models and notebooks of a version (latest by default); `kind` is `model` (.malloy) or `notebook` (.malloynb)", tags } },
    )
    .get(
      "/:env/packages/:pkg/models/*",
      async ({ pkg, params, principal, query }) => {
        const modelPath = checkModelPath((params as typeof params & { "*": string })["*"]);
        const p = required(principal);
        const version = await versionFor(ctx, pkg, query.versionId);
        const meta = await findModel(ctx.sql, version.uuid, modelPath);
        if (!meta) throw notFound(`model '${modelPath}' not found in version ${version.id} of package '${pkg.name}'`);
        return { ...(await visibleModel(ctx.sql, p, meta, { rank: pkg.rank, envId: pkg.envId })), packageName: pkg.name, versionId: version.id };
      },
      {
        // the wildcard is checked by checkModelPath (a "*" key in the schema breaks Elysia's mirror)
        params: t.Object({ ...pkgParams.properties }, { additionalProperties: true }),
        pkgAccess: "viewer",
        query: versionQuery,
        detail: { summary: "Get a compiled model's info: sources, fields with types and docs, views, named queries", tags },
      },
    );
}

/** Routes of models under both `/environments` and `/projects`. */
export function modelRoutes(ctx: AppContext) {
  return environmentScoped((prefix) => modelPlugin(ctx, prefix));
}
