/**
 * Packages: list in an environment or across an organization, get, update
 * metadata, delete, and download the exact archive of a version (publishing a
 * version is src/publishing/routes.ts).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { MODEL, READ } from "../access/roles.ts";
import { environmentScoped } from "../http/aliases.ts";
import { required } from "../http/auth.ts";
import { forbidden, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, pageQuery, versionIdParam } from "../http/params.ts";
import { security } from "../http/security.ts";
import { environmentRules } from "../environments/route_rules.ts";
import { packageRules } from "./route_rules.ts";
import { envParams } from "../http/resource_params.ts";
import { evictVersions, versionUuidsOf } from "../archives/compiled_models.ts";
import { resolveVersion } from "../versions/store.ts";
import { archiveChunks, findArchive } from "../archives/store.ts";
import { versionRestricted } from "../rls/visibility.ts";
import { archivesOf, extractionDir, removeUnusedExtractions } from "../archives/store.ts";
import {
  deletePackage,
  listOrganizationPackages,
  listPackages,
  packageView,
  updatePackage,
} from "./store.ts";

import { pkgParams } from "../http/resource_params.ts";

import { packageFor } from "./lookup.ts";

import { beginRetrying } from "../db/lock_order.ts";

const packagePatch = t.Object({
  description: t.Optional(t.String({ maxLength: 4000, error: "description must be at most 4000 characters" })),
}, { additionalProperties: true });

function packagePlugin(ctx: AppContext, prefix: string) {
  const tags = ["packages"];
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(environmentRules(ctx))
    .use(packageRules(ctx))
    .get(
      "/:env/packages",
      async ({ env, principal, query, request, set }) => {
        const p = required(principal);
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listPackages(ctx.sql, p, { envId: env.id, limit, after: decodeCursor(query.cursor) });
        return pageResponse(request, rows, { limit, key: (r) => r.name, set }).map(packageView);
      },
      { params: envParams, envAccess: "package-viewer", query: pageQuery, detail: { summary: "List the packages of an environment the caller can read", tags } },
    )
    .get(
      "/:env/packages/:pkg",
      ({ pkg }) => packageView(pkg),
      { params: pkgParams, pkgAccess: "viewer", detail: { summary: "Get a package", tags } },
    )
    .patch(
      "/:env/packages/:pkg",
      async ({ pkg, params, principal, body }) => {
        const p = required(principal);
        const { description, name: _n, ...metadata } = body as Record<string, unknown>;
        await updatePackage(ctx.sql, pkg.id, { description: description as string | undefined, metadata });
        return packageView(await packageFor(ctx, p, params));
      },
      { params: pkgParams, pkgAccess: "modeler", body: packagePatch, detail: { summary: "Update a package's metadata (description and other fields; admin or modeler)", tags } },
    )
    .delete(
      "/:env/packages/:pkg",
      async ({ pkg, set }) => {
        const versions = await versionUuidsOf(ctx, { packageId: pkg.id });
        const archives = await archivesOf(ctx.sql, { packageId: pkg.id });
        await beginRetrying(ctx.sql, (tx) => deletePackage(tx, pkg.id));
        evictVersions(ctx, versions);
        await removeUnusedExtractions(ctx.sql, extractionDir(ctx.config), archives);
        set.status = 204;
      },
      { params: pkgParams, pkgAccess: "admin", detail: { summary: "Delete a package and all its versions (irreversible; package or environment admin)", tags } },
    )
    .get(
      "/:env/packages/:pkg/source",
      async ({ pkg, params, query }) => {
        const version = await resolveVersion(ctx.sql, pkg.id, query.versionId);
        if (!version) {
          throw notFound(query.versionId
            ? `version ${query.versionId} of package '${params.pkg}' not found`
            : `package '${params.pkg}' has no unarchived version; name one with ?versionId=`);
        }
        // the zip is every row of every data file: past #(authorize) and #(bind) when the version has them,
        // so then only those who may query the package's connections directly (modelers, admins) read it
        if (pkg.rank < MODEL && (await versionRestricted(ctx.sql, version.uuid))) {
          throw forbidden(`version ${version.id} of package '${params.pkg}' has sources restricted by #(authorize) or #(bind), and its archive holds all their rows; downloading it needs package modeler or admin`);
        }
        const archive = await findArchive(ctx.sql, version.blobSha256);
        if (!archive) throw notFound(`the archive of version ${version.id} is missing`);
        // streamed chunk by chunk (4 MiB) from the database, never whole in memory
        const chunks = archiveChunks(ctx.sql, archive);
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            const next = await chunks.next();
            if (next.done) controller.close();
            else controller.enqueue(next.value);
          },
          async cancel() {
            await chunks.return(undefined);
          },
        });
        return new Response(body, {
          headers: {
            "content-type": "application/zip",
            "content-length": String(archive.size),
            "content-disposition": `attachment; filename="${params.pkg}-${version.id}.zip"`,
            "x-version-id": version.id,
            etag: `"${version.blobSha256}"`,
          },
        });
      },
      {
        params: pkgParams,
        pkgAccess: "viewer",
        query: t.Object({ versionId: t.Optional(versionIdParam) }),
        detail: {
          summary: "Download the zip uploaded for a version (latest by default). Package viewers; for a version with #(authorize) or #(bind) sources, package modelers and admins only (403): the zip holds every row of the package's data files",
          tags,
        },
      },
    );
}

function organizationPackagesPlugin(ctx: AppContext) {
  return new Elysia({ prefix: "/organizations" })
    .use(security(ctx))
    .use(environmentRules(ctx))
    .use(packageRules(ctx))
    .get(
      "/:org/packages",
      async ({ orgSeen: org, principal, query, request, set }) => {
        const p = required(principal);
        const limit = query.limit ?? DEFAULT_LIMIT;
        const shareable = query.onlyShareable !== false;
        const rows = await listOrganizationPackages(ctx.sql, p, {
          orgId: org.id,
          minRank: shareable ? MODEL : READ,
          limit,
          after: decodeCursor(query.cursor),
        });
        return pageResponse(request, rows, { limit, key: (r) => `${r.environmentName}/${r.name}`, set }).map(packageView);
      },
      {
        params: t.Object({ org: name("organizationName") }),
        orgListingAccess: "package-viewer",
        query: t.Composite([pageQuery, t.Object({ onlyShareable: t.Optional(t.BooleanString({ default: true, description: "true (default): only packages the caller can share (admin or modeler); false: every package the caller can read", error: "onlyShareable must be true or false" })) })]),
        detail: { summary: "List packages across an organization: shareable ones (admin or modeler) by default, all readable with onlyShareable=false", tags: ["packages"] },
      },
    );
}

/** Routes of packages (environment-scoped under both spellings, plus the organization-wide list). */
export function packageRoutes(ctx: AppContext) {
  return new Elysia().use(environmentScoped((prefix) => packagePlugin(ctx, prefix))).use(organizationPackagesPlugin(ctx));
}
