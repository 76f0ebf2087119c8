/**
 * Looking up an organization for an operation: 404 when the caller cannot see
 * it, 403 when its role is too low (domain errors, mapped to HTTP in one place).
 * @module
 */
import { roleName } from "../http/access.ts";
import type { AppContext } from "../http/context.ts";
import type { Principal } from "../http/principal.ts";
import { NotFoundError, ForbiddenError } from "../errors.ts";
import { findOrganization } from "./store.ts";

/** Loads an organization the caller can see (404 otherwise) and checks the rank it needs (403). */
export async function organizationFor(ctx: AppContext, principal: Principal, orgName: string, need = 1) {
  const org = await findOrganization(ctx.sql, orgName, principal);
  if (!org || org.rank < 1) throw new NotFoundError(`organization '${orgName}' not found`);
  if (org.rank < need) throw new ForbiddenError(`organization '${orgName}': this operation needs the ${roleName("organization", need)} role; you are ${org.permission}`);
  return org;
}
