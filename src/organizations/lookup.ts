/**
 * Looking up an organization for an operation: 404 when the caller cannot see
 * it, 403 when its role is too low (domain errors, mapped to HTTP in one place).
 * @module
 */
import { roleName } from "../access/roles.ts";
import type { AppContext } from "../context.ts";
import { type Principal, principalKey } from "../access/principal.ts";
import { NotFoundError, ForbiddenError } from "../errors.ts";
import { authGeneration, decisionCache } from "../http/auth_cache.ts";
import { findOrganization } from "./store.ts";

/** Options of {@link organizationFor}. */
export interface OrganizationForOptions {
  /** Rank the operation needs (default: member). */
  need?: number;
  /**
   * `performance.now()` when the request arrived: the organization and the caller's
   * rank then come from a cache that is fresh as of that moment (http/auth_cache.ts).
   */
  since?: number;
}

async function findCached(ctx: AppContext, principal: Principal, orgName: string, since: number | undefined) {
  if (since === undefined) return await findOrganization(ctx.sql, orgName, principal);
  const generation = await authGeneration(ctx.sql, since);
  const cache = decisionCache<{ org: Awaited<ReturnType<typeof findOrganization>> }>(ctx.sql, "organization-rank");
  const p = principalKey(principal);
  const key = `${p.kind}:${p.id}:${orgName}`;
  const hit = cache.get(key, generation);
  if (hit) return hit.org;
  const org = await findOrganization(ctx.sql, orgName, principal);
  cache.set(key, generation, Object.freeze({ org: org && Object.freeze(org) }));
  return org;
}

/** Loads an organization the caller can see (404 otherwise) and checks the rank it needs (403). */
export async function organizationFor(ctx: AppContext, principal: Principal, orgName: string, options: OrganizationForOptions = {}) {
  const need = options.need ?? 1;
  const org = await findCached(ctx, principal, orgName, options.since);
  if (!org || org.rank < 1) throw new NotFoundError(`organization '${orgName}' not found`);
  if (org.rank < need) throw new ForbiddenError(`organization '${orgName}': this operation needs the ${roleName("organization", need)} role; you are ${org.permission}`);
  return org;
}
