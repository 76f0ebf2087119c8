/**
 * Looking up an organization's rank and an environment for an operation:
 * 404 when the caller cannot see it, 403 when its role is too low.
 * @module
 */
import { principalKey, type Principal } from "../access/principal.ts";
import { READ } from "../access/roles.ts";
import type { AppContext } from "../context.ts";
import type { Db } from "../db/database.ts";
import { NotFoundError } from "../errors.ts";
import { findOrganization } from "../organizations/store.ts";
import { requireEnvironment, type EnvironmentRow } from "./store.ts";

/** An organization by name with the caller's rank on it (404 when it does not exist). */
export async function organizationRank(db: Db, principal: Principal, orgName: string): Promise<{ id: string; rank: number }> {
  const org = await findOrganization(db, orgName, principal);
  if (!org) throw new NotFoundError(`organization '${orgName}' not found`);
  return { id: org.id, rank: org.rank };
}

/** Options of {@link environmentFor}. */
export interface EnvironmentForOptions {
  need?: number;
  visibleThroughPackages?: boolean;
}

/** The environment of a route's `{org}/{env}` when the caller may act on it (404/403 otherwise). */
export async function environmentFor(
  ctx: AppContext,
  principal: Principal,
  params: { org: string; env: string } & EnvironmentForOptions,
): Promise<EnvironmentRow> {
  const org = await organizationRank(ctx.sql, principal, params.org);
  return await requireEnvironment(ctx.sql, principal, {
    orgId: org.id,
    name: params.env,
    need: params.need ?? READ,
    visibleThroughPackages: params.visibleThroughPackages,
  });
}

/**
 * The organization `{org}` of a listing open to its members and to callers
 * who see one of its environments (or packages) through a direct grant:
 * 404 for anyone else, as for an organization that does not exist.
 */
export async function organizationSeenThrough(
  db: Db,
  principal: Principal,
  orgName: string,
  through: "environment" | "package",
): Promise<{ id: string; rank: number }> {
  const org = await organizationRank(db, principal, orgName);
  if (org.rank >= READ) return org;
  const k = principalKey(principal);
  const [any] = through === "environment"
    ? await db`SELECT 1 FROM environments e
                WHERE e.org_id = ${org.id} AND effective_rank(${k.kind}, ${k.id}::uuid, 'environment', e.id) >= 1 LIMIT 1`
    : await db`SELECT 1 FROM packages pk JOIN environments e ON e.id = pk.env_id
                WHERE e.org_id = ${org.id} AND effective_rank(${k.kind}, ${k.id}::uuid, 'package', pk.id) >= 1 LIMIT 1`;
  if (!any) throw new NotFoundError(`organization '${orgName}' not found`);
  return org;
}
