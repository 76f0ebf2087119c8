/**
 * The access lookup: "what is this principal's effective role on this
 * resource" (a rank of the role lattice, ./roles.ts), answered by the database
 * function `effective_rank` (sql/002_access.sql) in one round trip. A store:
 * the domain's access rules (the `lookup.ts` and `access.ts` modules) call it.
 * @module
 */
import type { Db } from "../db/database.ts";
import type { Level } from "./roles.ts";
import { type Principal, principalKey } from "./principal.ts";

/** A resource an access question is about. */
export interface ResourceRef {
  kind: Exclude<Level, "system">;
  id: string;
}

/** Effective rank (0..3) of a principal on a resource. */
export async function effectiveRank(db: Db, principal: Principal, resource: ResourceRef): Promise<number> {
  const p = principalKey(principal);
  const [row] = await db`SELECT effective_rank(${p.kind}, ${p.id}::uuid, ${resource.kind}, ${resource.id}::uuid) AS rank`;
  return Number(row?.rank ?? 0);
}
