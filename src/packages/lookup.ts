/**
 * Looking up a package for an operation: 404 when it (or its environment or
 * organization) does not exist or is invisible to the caller, 403 when visible
 * but the role is too low.
 * @module
 */
import { MODEL, READ, roleName } from "../access/roles.ts";
import type { AppContext } from "../context.ts";
import type { Db } from "../db/database.ts";
import type { Principal } from "../access/principal.ts";
import { ForbiddenError, NotFoundError } from "../errors.ts";
import { environmentFor } from "../environments/lookup.ts";
import type { EnvironmentRow } from "../environments/store.ts";
import { findPackage, type PackageRow } from "./store.ts";

/**
 * The package of a route's `{org}/{env}/{pkg}` when the caller may act on it:
 * 404 when it (or its environment or organization) does not exist or is
 * invisible to the caller, 403 when visible but the role is too low.
 */
export async function packageFor(
  ctx: AppContext,
  principal: Principal,
  params: { org: string; env: string; pkg: string; need?: number },
): Promise<PackageRow> {
  const missing = () => new NotFoundError(`package '${params.pkg}' not found in environment '${params.env}'`);
  const [env] = await ctx.sql`SELECT e.id FROM environments e JOIN organizations o ON o.id = e.org_id
                               WHERE o.name = ${params.org} AND e.name = ${params.env}`;
  if (!env) throw missing();
  const pkg = await findPackage(ctx.sql, principal, { envId: env.id as string, name: params.pkg });
  if (!pkg || pkg.rank < READ) throw missing();
  const need = params.need ?? READ;
  if (pkg.rank < need) {
    throw new ForbiddenError(`package '${params.pkg}': this operation needs the ${roleName("package", need)} role; you have ${pkg.permission ?? "none"}`);
  }
  return pkg;
}

/** The package `name` of an environment the caller sees (viewer or more; 404 otherwise). */
export async function visiblePackage(db: Db, principal: Principal, where: { env: { id: string; name: string }; name: string }): Promise<PackageRow> {
  const pkg = await findPackage(db, principal, { envId: where.env.id, name: where.name });
  if (!pkg || pkg.rank < READ) throw new NotFoundError(`package '${where.name}' not found in environment '${where.env.name}'`);
  return pkg;
}

/**
 * The environment a version of `{org}/{env}/{pkg}` is published into: the
 * caller is a modeler of the package, or, when the package is new (or invisible
 * to it), a modeler of the environment. 404 when it cannot see the environment
 * (nor any of its packages), 403 when it sees it without the role.
 */
export async function publishTarget(
  ctx: AppContext,
  principal: Principal,
  params: { org: string; env: string; pkg: string },
): Promise<EnvironmentRow> {
  const env = await environmentFor(ctx, principal, { ...params, visibleThroughPackages: true });
  const existing = await findPackage(ctx.sql, principal, { envId: env.id, name: params.pkg });
  if (existing && existing.rank >= READ) await packageFor(ctx, principal, { ...params, need: MODEL });
  else if (env.rank < MODEL) {
    if (env.rank < READ) throw new NotFoundError(`environment '${params.env}' not found`);
    throw new ForbiddenError(`environment '${params.env}': publishing needs the modeler or admin role; you have ${env.permission ?? "none"}`);
  }
  return env;
}
