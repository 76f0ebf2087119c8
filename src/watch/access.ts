/**
 * Who may see and drive watch mode (the lookups of the `watchAccess` and
 * `watchStartAccess` rules in ./route_rules.ts): the decisions the
 * watch-mode handlers used to write by hand, with domain errors.
 * @module
 */
import { effectiveRank } from "../access/store.ts";
import { isSystemAdmin, principalKey, type Principal } from "../access/principal.ts";
import { MODEL, READ } from "../access/roles.ts";
import type { AppContext } from "../context.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors.ts";
import { environmentFor, organizationRank } from "../environments/lookup.ts";
import type { EnvironmentRow } from "../environments/store.ts";
import { watchedEnvironment, watchingOrganizations, type WatchStatus } from "./watcher.ts";
import { visiblePackage } from "../packages/lookup.ts";
import { compileProblemsWithheld, WITHHELD_COMPILE_ERROR } from "../rls/visibility.ts";

/** The watch a status or stop request is about, and what the caller may see of it. */
export interface WatchScope {
  /** The organization (id) the request is about; `null` when the caller reads no watch and named none. */
  orgId: string | null;
  /** The caller reads the watched environment: names and packages are shown. */
  reads: boolean;
  /** The system administrator, who configures `WATCH_ROOT`: the folder is shown. */
  systemAdmin: boolean;
}

/** The organization of `environmentName` when the body names none: the caller's only visible environment of that name. */
async function organizationOf(ctx: AppContext, principal: Principal, environmentName: string): Promise<string> {
  if (principal.kind === "group") return principal.orgName;
  const p = principalKey(principal);
  const rows = await ctx.sql<{ name: string }[]>`
    SELECT o.name FROM environments e JOIN organizations o ON o.id = e.org_id
     WHERE e.name = ${environmentName}
       AND effective_rank(${p.kind}, ${p.id}::uuid, 'environment', e.id) >= ${READ}
     ORDER BY o.name LIMIT 2`;
  if (rows.length === 0) throw new NotFoundError(`environment '${environmentName}' not found`);
  if (rows.length > 1) {
    throw new ValidationError(`environment '${environmentName}' exists in several of your organizations; add organizationName to the body`);
  }
  return rows[0]!.name;
}

/** Whether the caller may read the environment an organization watches. */
async function readsWatched(ctx: AppContext, principal: Principal, orgId: string): Promise<boolean> {
  const watched = watchedEnvironment(ctx, orgId);
  if (!watched) return false;
  if (isSystemAdmin(principal)) return true;
  return await effectiveRank(ctx.sql, principal, { kind: "environment", id: watched.envId }) >= READ;
}

/**
 * The organization a status or stop request is about: the named one (404 when
 * the caller can't see it), a group key's own, or else the one watch the
 * caller can read (none: `null`, several: 400 asking for the name). Watches
 * the caller can't read are never counted, so the answer tells nothing about
 * other organizations.
 */
async function targetOrganization(ctx: AppContext, principal: Principal, orgName: string | undefined): Promise<string | null> {
  if (orgName) {
    const org = await organizationRank(ctx.sql, principal, orgName);
    if (org.rank < READ && !(await readsWatched(ctx, principal, org.id))) throw new NotFoundError(`organization '${orgName}' not found`);
    return org.id;
  }
  if (principal.kind === "group") return (await organizationRank(ctx.sql, principal, principal.orgName)).id;
  const readable: string[] = [];
  for (const orgId of watchingOrganizations(ctx)) if (await readsWatched(ctx, principal, orgId)) readable.push(orgId);
  if (readable.length > 1) throw new ValidationError("watch mode is on in several of your organizations; add ?organizationName=");
  return readable[0] ?? null;
}

/**
 * The watch of `?organizationName=` as the caller may see it (`reader`), or
 * may stop it (`modeler`: the system administrator, or an admin or modeler of
 * the watched environment; 403 otherwise).
 */
export async function watchScope(ctx: AppContext, principal: Principal, options: { orgName?: string; need: "reader" | "modeler" }): Promise<WatchScope> {
  const orgId = await targetOrganization(ctx, principal, options.orgName);
  const systemAdmin = isSystemAdmin(principal);
  const watched = orgId ? watchedEnvironment(ctx, orgId) : null;
  if (options.need === "modeler" && watched && !systemAdmin) {
    const rank = await effectiveRank(ctx.sql, principal, { kind: "environment", id: watched.envId });
    if (rank < MODEL) throw new ForbiddenError("stopping watch mode needs the admin or modeler role on the watched environment");
  }
  return { orgId, reads: orgId !== null && (await readsWatched(ctx, principal, orgId)), systemAdmin };
}

/**
 * The environment a start request names (`organizationName` optional when the
 * caller sees one environment of that name), when the caller is its admin or
 * modeler (404/403 otherwise), with its organization's name.
 */
export async function watchStartTarget(
  ctx: AppContext,
  principal: Principal,
  body: { organizationName?: string; environmentName: string },
): Promise<{ env: EnvironmentRow; orgName: string }> {
  const orgName = body.organizationName ?? await organizationOf(ctx, principal, body.environmentName);
  const env = await environmentFor(ctx, principal, { org: orgName, env: body.environmentName, need: MODEL });
  return { env, orgName };
}

/** The status as the caller may see it: names and packages only with read access to the watched environment, the folder only for the system administrator. */
export function visibleStatus(status: WatchStatus, scope: WatchScope): WatchStatus {
  if (scope.systemAdmin) return status;
  const withoutRoot = { ...status, root: "" };
  if (!scope.orgId || !status.enabled || scope.reads) return withoutRoot;
  return { ...withoutRoot, organizationName: null, environmentName: null, packages: [] };
}

/**
 * The status with each package's `lastError` as the caller may read it: a
 * compile error quotes the models' field names, so for a package whose newest
 * version has sources restricted by `#(authorize)` or `#(bind)` callers below
 * package modeler read {@link WITHHELD_COMPILE_ERROR} instead (as on the
 * package's event stream); so does a caller who cannot see the package.
 */
export async function statusErrorsAsSeen(ctx: AppContext, principal: Principal, status: WatchStatus, scope: WatchScope): Promise<WatchStatus> {
  const watched = scope.orgId ? watchedEnvironment(ctx, scope.orgId) : null;
  if (!watched || !status.packages.some((p) => p.lastError !== null)) return status;
  const env = { id: watched.envId, name: status.environmentName ?? "" };
  const packages = await Promise.all(status.packages.map(async (p) => {
    if (p.lastError === null) return p;
    const pkg = await visiblePackage(ctx.sql, principal, { env, name: p.name }).catch(() => null);
    const withheld = !pkg || (await compileProblemsWithheld(ctx.sql, { rank: pkg.rank, packageId: pkg.id }));
    return withheld ? { ...p, lastError: WITHHELD_COMPILE_ERROR } : p;
  }));
  return { ...status, packages };
}
