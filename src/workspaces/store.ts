/**
 * SQL of workspaces (shared and personal) and of their package access: a
 * package grant with principal `workspace:<ws>`, role viewer, which the query
 * runner and the retrieval search read.
 * @module
 */
import type { Db } from "../db/database.ts";
import { principalKey, type Principal } from "../access/principal.ts";
import { roleName } from "../access/roles.ts";

/** A workspace as the API shows it. */
export interface WorkspaceView {
  name: string;
  description: string;
  /** True for a personal workspace: private to its owner. */
  personal: boolean;
  createdAt: string;
  updatedAt: string;
  /** The caller's role here: manager or viewer. */
  permission: string | null;
}

/** A workspace row with its ids and the caller's rank. */
export interface WorkspaceRow extends WorkspaceView {
  id: string;
  orgId: string;
  rank: number;
}

/** Prefix of personal workspace names; shared workspaces may not use it. */
export const PERSONAL_PREFIX = "personal-";

/** A workspace as {@link workspaceColumns} reads it, with the caller's rank. */
interface WorkspaceRecord {
  id: string;
  orgId: string;
  name: string;
  description: string;
  personal: boolean;
  createdAt: Date;
  updatedAt: Date;
  rank: number | null;
}

/** The columns of {@link WorkspaceRecord} but `rank`, from the workspace row aliased `w`. */
function workspaceColumns(db: Db) {
  return db`w.id, w.org_id AS "orgId", w.name, w.description, w.owner_user_id IS NOT NULL AS personal,
            w.created_at AS "createdAt", w.updated_at AS "updatedAt"`;
}

function toWorkspace(r: WorkspaceRecord): WorkspaceRow {
  const rank = Number(r.rank ?? 0);
  return {
    id: r.id,
    orgId: r.orgId,
    name: r.name,
    description: r.description,
    personal: r.personal,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    permission: roleName("workspace", rank),
    rank,
  };
}

/** Strips ids and rank for responses. */
export function workspaceView(w: WorkspaceRow): WorkspaceView {
  return {
    name: w.name,
    description: w.description,
    personal: w.personal,
    createdAt: w.createdAt,
    updatedAt: w.updatedAt,
    permission: w.permission,
  };
}

/** A workspace by id with the caller's rank on it, or null. */
export async function workspaceById(db: Db, principal: Principal, id: string): Promise<WorkspaceRow | null> {
  const p = principalKey(principal);
  const [r] = await db<WorkspaceRecord[]>`SELECT ${workspaceColumns(db)}, effective_rank(${p.kind}, ${p.id}::uuid, 'workspace', w.id) AS rank
                         FROM workspaces w WHERE w.id = ${id}`;
  return r ? toWorkspace(r) : null;
}

/** Options of {@link listWorkspaces}. */
export interface ListWorkspaceOptions {
  orgId: string;
  /** Minimum rank (1: readable, 3: writable). */
  need: number;
  limit: number;
  /** Name of the last workspace of the previous page. */
  after?: string;
}

/** The workspaces of an organization the caller reaches with `need`, by name, keyset-paged (`limit + 1` rows). */
export async function listWorkspaces(db: Db, principal: Principal, options: ListWorkspaceOptions): Promise<WorkspaceRow[]> {
  const p = principalKey(principal);
  const rows = await db<WorkspaceRecord[]>`
    SELECT * FROM (
      SELECT ${workspaceColumns(db)}, effective_rank(${p.kind}, ${p.id}::uuid, 'workspace', w.id) AS rank
        FROM workspaces w
       WHERE w.org_id = ${options.orgId} AND w.name > ${options.after ?? ""}
         AND (w.owner_user_id IS NULL OR (${p.kind} = 'user' AND w.owner_user_id = ${p.id}::uuid))) x
     WHERE rank >= ${options.need}
     ORDER BY name
     LIMIT ${options.limit + 1}`;
  return rows.map(toWorkspace);
}

/** Fields of a new workspace. */
export interface NewWorkspace {
  orgId: string;
  name: string;
  description?: string;
}

/** Inserts a shared workspace and makes its creator (a user, or an API key's group) its manager. */
export async function insertWorkspace(db: Db, principal: Principal, ws: NewWorkspace): Promise<WorkspaceRow> {
  const p = principalKey(principal);
  const [r] = await db<WorkspaceRecord[]>`
    INSERT INTO workspaces AS w (org_id, name, description) VALUES (${ws.orgId}, ${ws.name}, ${ws.description ?? ""})
    RETURNING ${workspaceColumns(db)}, 3 AS rank`;
  await db`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
           VALUES ('workspace', ${r!.id}, ${p.kind}, ${p.id}, 'manager')`;
  return toWorkspace(r!);
}

/** Outcome of {@link personalWorkspace}. */
export interface PersonalOutcome {
  workspace: WorkspaceRow | null;
  created: boolean;
}

/**
 * The user's personal workspace in an organization, created when missing
 * (`personal-<userName>`). `workspace` is null when that name is taken by a
 * shared workspace.
 */
export async function personalWorkspace(db: Db, user: { userId: string; userName: string }, orgId: string): Promise<PersonalOutcome> {
  const inserted = await db<WorkspaceRecord[]>`
    INSERT INTO workspaces AS w (org_id, name, owner_user_id, description)
    VALUES (${orgId}, ${PERSONAL_PREFIX + user.userName}, ${user.userId}, 'Personal workspace')
    ON CONFLICT DO NOTHING RETURNING ${workspaceColumns(db)}, 3 AS rank`;
  if (inserted.length > 0) return { workspace: toWorkspace(inserted[0]!), created: true };
  const [r] = await db<WorkspaceRecord[]>`
    SELECT ${workspaceColumns(db)}, 3 AS rank FROM workspaces w WHERE w.org_id = ${orgId} AND w.owner_user_id = ${user.userId}`;
  return { workspace: r ? toWorkspace(r) : null, created: false };
}

/** Applies a partial update (only provided fields change). */
export async function updateWorkspace(db: Db, ws: WorkspaceRow, patch: { description?: string }): Promise<WorkspaceRow> {
  const [r] = await db<WorkspaceRecord[]>`
    UPDATE workspaces AS w SET description = coalesce(${patch.description ?? null}::text, description), updated_at = now()
     WHERE w.id = ${ws.id} RETURNING ${workspaceColumns(db)}`;
  return toWorkspace({ ...r!, rank: ws.rank });
}

/**
 * Deletes a workspace with its documents, their grants, its package access
 * and the bookmarks that point at it. Run it in a transaction.
 */
export async function deleteWorkspace(db: Db, ws: WorkspaceRow): Promise<void> {
  await db`DELETE FROM bookmarks WHERE org_id = ${ws.orgId} AND bookmark_type = 'workspace' AND object_id = ${ws.name}`;
  // grants of the documents and of the workspace (as resource and as principal) go with the rows (drop_grants_of)
  await db`DELETE FROM documents WHERE workspace_id = ${ws.id}`;
  await db`DELETE FROM workspaces WHERE id = ${ws.id}`;
}

/** A package of an organization with the caller's rank on it. */
export interface PackageRef {
  id: string;
  environmentName: string;
  packageName: string;
  rank: number;
}

/** The package `{env}/{pkg}` of an organization with the caller's rank on it, or null. */
export async function findPackage(db: Db, principal: Principal, where: { orgId: string; env: string; pkg: string }): Promise<PackageRef | null> {
  const p = principalKey(principal);
  const [r] = await db<PackageRef[]>`
    SELECT pk.id, e.name AS "environmentName", pk.name AS "packageName", effective_rank(${p.kind}, ${p.id}::uuid, 'package', pk.id) AS rank
      FROM packages pk JOIN environments e ON e.id = pk.env_id
     WHERE e.org_id = ${where.orgId} AND e.name = ${where.env} AND pk.name = ${where.pkg}`;
  return r ? { id: r.id, environmentName: r.environmentName, packageName: r.packageName, rank: Number(r.rank) } : null;
}

/** A package a workspace has access to, as the API shows it. */
export interface PackageAccessView {
  environmentName: string;
  packageName: string;
  createdAt: string;
}

/** A package access as read: the grant's creation time as a Date. */
interface AccessRecord extends Omit<PackageAccessView, "createdAt"> {
  createdAt: Date;
}

function toAccess(r: AccessRecord): PackageAccessView {
  return { environmentName: r.environmentName, packageName: r.packageName, createdAt: r.createdAt.toISOString() };
}

/** Gives a workspace access to a package (idempotent); `created` is false when it already had it. */
export async function addPackageAccess(db: Db, workspaceId: string, pkg: PackageRef): Promise<{ access: PackageAccessView; created: boolean }> {
  const inserted = await db<{ created_at: Date }[]>`
    INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
    VALUES ('package', ${pkg.id}, 'workspace', ${workspaceId}, 'viewer')
    ON CONFLICT (resource_kind, coalesce(resource_id, '00000000-0000-0000-0000-000000000000'::uuid), principal_kind, principal_id)
    DO NOTHING RETURNING created_at`;
  const [r] = inserted.length > 0 ? inserted : await db<{ created_at: Date }[]>`
    SELECT created_at FROM grants WHERE resource_kind = 'package' AND resource_id = ${pkg.id}
       AND principal_kind = 'workspace' AND principal_id = ${workspaceId}`;
  return {
    access: toAccess({ environmentName: pkg.environmentName, packageName: pkg.packageName, createdAt: r!.created_at }),
    created: inserted.length > 0,
  };
}

/** Removes a workspace's access to a package; returns whether it had it. */
export async function removePackageAccess(db: Db, workspaceId: string, packageId: string): Promise<boolean> {
  const rows = await db`
    DELETE FROM grants WHERE resource_kind = 'package' AND resource_id = ${packageId}
       AND principal_kind = 'workspace' AND principal_id = ${workspaceId} RETURNING id`;
  return rows.length > 0;
}

/** Options of {@link listPackageAccess}. */
export interface ListAccessOptions {
  limit: number;
  /** `env/pkg` of the last row of the previous page. */
  after?: string;
}

/**
 * The packages a workspace has access to that the caller can read, by
 * `env/pkg`, keyset-paged (`limit + 1` rows).
 */
export async function listPackageAccess(db: Db, principal: Principal, workspaceId: string, options: ListAccessOptions): Promise<PackageAccessView[]> {
  const p = principalKey(principal);
  const rows = await db<AccessRecord[]>`
    SELECT e.name AS "environmentName", pk.name AS "packageName", g.created_at AS "createdAt"
      FROM grants g JOIN packages pk ON pk.id = g.resource_id JOIN environments e ON e.id = pk.env_id
     WHERE g.resource_kind = 'package' AND g.principal_kind = 'workspace' AND g.principal_id = ${workspaceId}
       AND NOT g.pending
       AND e.name || '/' || pk.name > ${options.after ?? ""}
       AND effective_rank(${p.kind}, ${p.id}::uuid, 'package', pk.id) >= 1
     ORDER BY e.name || '/' || pk.name
     LIMIT ${options.limit + 1}`;
  return rows.map(toAccess);
}

/**
 * Whether the workspace `workspace` of organization `orgName` is one the
 * principal sees and was given the package `envName/packageName`: what the
 * MCP endpoint `/mcp/{org}/workspace/{ws}` reaches of that package.
 */
export async function workspaceReaches(
  db: Db,
  principal: Principal,
  where: { orgName: string; workspace: string; envName: string; packageName: string },
): Promise<boolean> {
  const p = principalKey(principal);
  const [row] = await db`
    SELECT 1 FROM workspaces w JOIN organizations o ON o.id = w.org_id
      JOIN environments e ON e.org_id = o.id JOIN packages pk ON pk.env_id = e.id
      JOIN grants g ON g.resource_kind = 'package' AND g.resource_id = pk.id AND g.principal_kind = 'workspace' AND g.principal_id = w.id
     WHERE o.name = ${where.orgName} AND w.name = ${where.workspace} AND e.name = ${where.envName} AND pk.name = ${where.packageName}
       AND NOT g.pending AND effective_rank(${p.kind}, ${p.id}::uuid, 'workspace', w.id) >= 1`;
  return row !== undefined;
}
