/**
 * Versions of a package: list (newest first), get, and update status (archive
 * or unarchive; every other field is read-only).
 * @module
 */
import { emitPackageEvent } from "../events/hub.ts";
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { environmentScoped } from "../http/aliases.ts";
import { badRequest, forbidden, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { pageQuery } from "../http/params.ts";
import { security } from "../http/security.ts";
import { packageRules } from "../packages/route_rules.ts";
import { pkgParams } from "../http/resource_params.ts";
import { runInFlight } from "../runs/store.ts";
import { evictVersions } from "../archives/compiled_models.ts";
import {
  findVersion,
  listVersions,
  setArchiveStatus,
  unarchivedCount,
  versionCursor,
  type VersionRow,
  versionView,
} from "./store.ts";

import { versionParams } from "../http/resource_params.ts";

const versionBody = t.Object({
  id: t.Optional(t.String()),
  createdAt: t.Optional(t.String()),
  updatedAt: t.Optional(t.String()),
  archiveStatus: t.Optional(t.Union([t.Literal("archive"), t.Literal("unarchive"), t.Literal("error_state")], {
    error: "archiveStatus must be archive or unarchive",
  })),
  indexStatus: t.Optional(t.Union([t.Literal("unknown"), t.Literal("indexing"), t.Literal("indexed"), t.Literal("failed")], {
    error: "indexStatus must be unknown, indexing, indexed or failed (and it is read-only)",
  })),
  isLatest: t.Optional(t.Boolean()),
});

type VersionPatch = typeof versionBody.static;

function sameInstant(a: string, b: string): boolean {
  const x = Date.parse(a);
  return !Number.isNaN(x) && x === Date.parse(b);
}

/**
 * Checks a Version body against the stored version: read-only fields must be
 * equal (400 otherwise); returns the archive status to set, if it changes.
 */
function archiveChange(current: VersionRow, body: VersionPatch): "archive" | "unarchive" | undefined {
  if (body.id !== undefined && body.id !== current.id) {
    throw badRequest(`id is read-only: this is version ${current.id}, the body says ${body.id}; leave id out or send the same value`);
  }
  for (const field of ["createdAt", "updatedAt"] as const) {
    const value = body[field];
    if (value !== undefined && !sameInstant(value, current[field])) {
      throw badRequest(`${field} is read-only (it is ${current[field]}); leave it out or send the same value`);
    }
  }
  if (body.indexStatus !== undefined && body.indexStatus !== current.indexStatus) {
    throw badRequest(`indexStatus is read-only (it is ${current.indexStatus}); it follows the version's runs`);
  }
  if (body.isLatest !== undefined && body.isLatest !== current.isLatest) {
    throw badRequest("isLatest is read-only; publish with pinLatest or archive versions to change which version is latest");
  }
  const wanted = body.archiveStatus;
  if (wanted === undefined || wanted === current.archiveStatus) return undefined;
  if (wanted === "error_state") {
    throw badRequest("archiveStatus error_state is set by the service, when a version's stored archive is found damaged on load (it can no longer be served); send archive or unarchive");
  }
  if (current.archiveStatus === "error_state") {
    throw badRequest(`version ${current.id} is in error_state and cannot be ${wanted}d; publish a fixed version instead`);
  }
  return wanted;
}

function versionPlugin(ctx: AppContext, prefix: string) {
  const tags = ["versions"];
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(packageRules(ctx))
    .get(
      "/:env/packages/:pkg/versions",
      async ({ pkg, query, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listVersions(ctx.sql, pkg.id, { limit, before: decodeCursor(query.cursor) });
        return pageResponse(request, rows, { limit, key: versionCursor, set }).map(versionView);
      },
      { params: pkgParams, pkgAccess: "viewer", query: pageQuery, detail: { summary: "List the versions of a package, newest first", tags } },
    )
    .get(
      "/:env/packages/:pkg/versions/:versionId",
      async ({ pkg, params }) => {
        const version = await findVersion(ctx.sql, pkg.id, params.versionId);
        if (!version) throw notFound(`version ${params.versionId} of package '${params.pkg}' not found`);
        return versionView(version);
      },
      { params: versionParams, pkgAccess: "viewer", detail: { summary: "Get a version", tags } },
    )
    .patch(
      "/:env/packages/:pkg/versions/:versionId",
      async ({ pkg, params, body }) => {
        let archived: string | undefined;
        const view = await ctx.sql.begin(async (tx) => {
          const [locked] = await tx`SELECT id FROM packages WHERE id = ${pkg.id} FOR UPDATE`;
          if (!locked) throw notFound(`package '${params.pkg}' not found`);
          const version = await findVersion(tx, pkg.id, params.versionId);
          if (!version) throw notFound(`version ${params.versionId} of package '${params.pkg}' not found`);
          const change = archiveChange(version, body);
          if (!change) return versionView(version);
          // Archiving the only unarchived version while a run of it is in flight is 403 (API.md).
          if (change === "archive" && version.archiveStatus === "unarchive" && (await unarchivedCount(tx, pkg.id)) === 1 &&
            (await runInFlight(tx, version.uuid))) {
            throw forbidden(`version ${version.id} is the only unarchived version of package '${params.pkg}' and a run of it is queued or running; wait for the run to end or cancel it (POST .../runs/{runId}?action=cancel), then archive`);
          }
          await setArchiveStatus(tx, version.uuid, change);
          // an archived version cannot be queried: free its compiled models now
          if (change === "archive") evictVersions(ctx, [version.uuid]);
          if (change === "archive") archived = version.id;
          return versionView((await findVersion(tx, pkg.id, params.versionId))!);
        });
        if (archived) await emitPackageEvent(ctx, { envId: pkg.envId, packageName: pkg.name }, { event: "archived", data: { versionId: archived } });
        return view;
      },
      {
        params: versionParams,
        pkgAccess: "modeler",
        body: versionBody,
        detail: {
          summary: "Update a version's status: archiveStatus archive or unarchive; other fields are read-only (admin or modeler)",
          description: "`archive` takes the version out of service (queries of it are 400; the latest version is the newest unarchived one); " +
            "`unarchive` puts it back. `error_state` is set by the service only: when a node loads a version whose stored archive no longer " +
            "matches the sha256 recorded at publish (damaged in the platform database), every version stored as that archive is put in " +
            "error_state and the request that found it answers 409. Such a version cannot be queried, archived or unarchived (400): publish " +
            "the package again as a new version. A failed run does not set it (it sets indexStatus failed).",
          tags,
        },
      },
    );
}

/** Routes of versions under both `/environments` and `/projects`. */
export function versionRoutes(ctx: AppContext) {
  return environmentScoped((prefix) => versionPlugin(ctx, prefix));
}
