/**
 * The role lattice of API.md: the levels that carry roles, their role names
 * and the ranks (0..3) the access rules compare. Pure: no imports, so stores,
 * domain modules and the HTTP layer can all share it.
 * @module
 */

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
