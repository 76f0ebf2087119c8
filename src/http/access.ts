/**
 * The access core: the question "what is this principal's effective role on
 * this resource" (a rank of the role lattice, src/access/roles.ts), answered
 * by the database function `effective_rank` (sql/002_access.sql) in one round
 * trip.
 * @module
 */
import type { Db } from "../db/database.ts";
import type { Level } from "../access/roles.ts";
import type { Principal } from "./principal.ts";

/** A resource an access question is about. */
export interface ResourceRef {
  kind: Exclude<Level, "system">;
  id: string;
}

/** The principal's kind and id as the SQL function expects them. */
export function principalKey(principal: Principal): { kind: "user" | "group"; id: string } {
  return principal.kind === "user"
    ? { kind: "user", id: principal.userId }
    : { kind: "group", id: principal.groupId };
}

/** Effective rank (0..3) of a principal on a resource. */
export async function effectiveRank(db: Db, principal: Principal, resource: ResourceRef): Promise<number> {
  const p = principalKey(principal);
  const [row] = await db`SELECT effective_rank(${p.kind}, ${p.id}::uuid, ${resource.kind}, ${resource.id}::uuid) AS rank`;
  return Number(row?.rank ?? 0);
}

/** Whether the principal is a system administrator. */
export function isSystemAdmin(principal: Principal): boolean {
  return principal.kind === "user" && principal.systemAdmin;
}
