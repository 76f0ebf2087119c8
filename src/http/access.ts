/**
 * The access core: the role lattice of API.md and the question "what is this
 * principal's effective role on this resource", answered by the database
 * function `effective_rank` (sql/002_access.sql) in one round trip.
 * @module
 */
import type { Db } from "../db/database.ts";
import type { Principal } from "./principal.ts";

/** Levels that carry roles. */
export type Level = "system" | "organization" | "environment" | "package" | "workspace" | "document" | "group";

/** Roles of each level, strongest first. */
export const ROLES: Record<Exclude<Level, "group">, readonly string[]> = {
  system: ["admin"],
  organization: ["admin", "modeler", "member"],
  environment: ["admin", "modeler", "viewer"],
  package: ["admin", "modeler", "viewer"],
  workspace: ["manager", "viewer"],
  document: ["editor", "viewer"],
};

/** Rank needed to read a resource. */
export const READ = 1;
/** Rank needed to publish and change models (modeler). */
export const MODEL = 2;
/** Rank of admin, workspace manager and document editor. */
export const ADMIN = 3;

/** A resource an access question is about. */
export interface ResourceRef {
  kind: Exclude<Level, "system">;
  id: string;
}

const RANK_NAMES: Record<Level, Record<number, string>> = {
  system: { 3: "admin" },
  organization: { 3: "admin", 2: "modeler", 1: "member" },
  environment: { 3: "admin", 2: "modeler", 1: "viewer" },
  package: { 3: "admin", 2: "modeler", 1: "viewer" },
  workspace: { 3: "manager", 1: "viewer" },
  document: { 3: "editor", 1: "viewer" },
  group: { 3: "admin", 1: "member" },
};

/** Name of a rank at a level (`null` for 0). A rank the level lacks rounds down. */
export function roleName(level: Level, rank: number): string | null {
  for (let r = rank; r > 0; r--) {
    const name = RANK_NAMES[level][r];
    if (name) return name;
  }
  return null;
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
