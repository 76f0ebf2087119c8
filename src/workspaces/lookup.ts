/**
 * Looking up a workspace for an operation: 404 when it does not exist or the
 * caller cannot see it, 403 when visible but the rank is too low.
 * @module
 */
import { ADMIN, MODEL, READ, roleName } from "../access/roles.ts";
import type { AppContext } from "../context.ts";
import type { Principal } from "../access/principal.ts";
import { ForbiddenError, NotFoundError } from "../errors.ts";
import { workspaceLevel } from "../permissions/levels.ts";
import { findPackage, workspaceById, type PackageRef, type WorkspaceRow } from "./store.ts";

/** Options of {@link workspaceFor}. */
export interface WorkspaceForOptions {
  /** Rank the operation needs (1 viewer, 3 manager). */
  need?: number;
  /** What the operation is, for the 403 message, e.g. `deleting it`. */
  action?: string;
}

/**
 * The workspace `{org}/{ws}` of a route when the caller may act on it: 404 when
 * it does not exist or the caller cannot see it (personal workspaces of others
 * included), 403 when visible but the rank is too low.
 */
export async function workspaceFor(
  ctx: AppContext,
  principal: Principal,
  params: { org: string; ws: string } & WorkspaceForOptions,
): Promise<WorkspaceRow> {
  const missing = `workspace '${params.ws}' not found in organization '${params.org}'`;
  const found = await workspaceLevel.resolve(ctx.sql, { org: params.org, ws: params.ws });
  const ws = found ? await workspaceById(ctx.sql, principal, found.id) : null;
  if (!ws || ws.rank < READ) throw new NotFoundError(missing);
  const need = params.need ?? READ;
  if (ws.rank < need) {
    throw new ForbiddenError(`workspace '${params.ws}': ${params.action ?? "this operation"} needs the ${roleName("workspace", need)} role; ` +
      `you are ${ws.permission}. Ask a workspace manager or an organization admin`);
  }
  return ws;
}

/**
 * The workspace and package of a package-access change (`{org}/{ws}`, package
 * `environmentName/packageName`): 404 for either one the caller cannot see, 403
 * unless it manages the workspace and may share the package (package admin or modeler).
 */
export async function shareTarget(
  ctx: AppContext,
  principal: Principal,
  where: { org: string; ws: string; environmentName: string; packageName: string },
): Promise<{ ws: WorkspaceRow; pkg: PackageRef }> {
  const ws = await workspaceFor(ctx, principal, { org: where.org, ws: where.ws });
  const label = `package '${where.environmentName}/${where.packageName}'`;
  const pkg = await findPackage(ctx.sql, principal, { orgId: ws.orgId, env: where.environmentName, pkg: where.packageName });
  if (!pkg || pkg.rank < READ) throw new NotFoundError(`${label} not found in organization '${where.org}'`);
  if (ws.rank < ADMIN) {
    throw new ForbiddenError(`workspace '${where.ws}': changing its package access needs the manager role; you are ${ws.permission}`);
  }
  if (pkg.rank < MODEL) {
    throw new ForbiddenError(`${label}: sharing it with a workspace needs the package admin or modeler role; you are a viewer. Ask a package admin`);
  }
  return { ws, pkg };
}
