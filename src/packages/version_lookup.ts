/**
 * Looking up a package version for an operation (404 / 403 as `packageFor`).
 * @module
 */
import type { AppContext } from "../context.ts";
import type { Principal } from "../access/principal.ts";
import { NotFoundError } from "../errors.ts";
import { packageFor } from "./lookup.ts";
import type { PackageRow } from "./store.ts";
import { findVersion, type VersionRow } from "../versions/store.ts";

/**
 * The package and version of a route's `{org}/{env}/{pkg}/versions/{versionId}`
 * when the caller may act on them (404 / 403 as `packageFor`).
 */
export async function versionFor(
  ctx: AppContext,
  principal: Principal,
  params: { org: string; env: string; pkg: string; versionId: string; need?: number },
): Promise<{ pkg: PackageRow; version: VersionRow }> {
  const pkg = await packageFor(ctx, principal, params);
  const version = await findVersion(ctx.sql, pkg.id, params.versionId);
  if (!version) throw new NotFoundError(`version ${params.versionId} of package '${params.pkg}' not found; list versions with GET .../packages/${params.pkg}/versions`);
  return { pkg, version };
}
