/**
 * SQL of organizations.
 * @module
 */
import type { Db } from "../db/database.ts";
import type { Principal } from "../http/principal.ts";
import { principalKey, roleName } from "../http/access.ts";

/** An organization as the API shows it. */
export interface OrganizationView {
  name: string;
  displayName: string;
  description: string;
  createdAt: string;
  updatedAt: string;
  /** The caller's level here: admin, modeler or member. */
  permission?: string | null;
}

/** An organization row with its id. */
export interface OrganizationRow extends OrganizationView {
  id: string;
}

function toOrg(r: Record<string, unknown>): OrganizationRow {
  const row: OrganizationRow = {
    id: r.id as string,
    name: r.name as string,
    displayName: r.display_name as string,
    description: r.description as string,
    createdAt: (r.created_at as Date).toISOString(),
    updatedAt: (r.updated_at as Date).toISOString(),
  };
  if (r.rank !== undefined) row.permission = roleName("organization", Number(r.rank));
  return row;
}

/** Strips the id for responses. */
export function organizationView(o: OrganizationRow): OrganizationView {
  const { id: _id, ...view } = o;
  return view;
}

/** Finds an organization by name with the caller's rank on it. */
export async function findOrganization(db: Db, name: string, principal: Principal): Promise<OrganizationRow & { rank: number } | null> {
  const p = principalKey(principal);
  const [r] = await db`
    SELECT o.*, effective_rank(${p.kind}, ${p.id}::uuid, 'organization', o.id) AS rank
      FROM organizations o WHERE o.name = ${name}`;
  return r ? { ...toOrg(r), rank: Number(r.rank) } : null;
}

/** Fields of a new organization. */
export interface NewOrganization {
  name: string;
  displayName?: string;
  description?: string;
}

/** Inserts an organization and makes the creating user its admin (one transaction by the caller). */
export async function insertOrganization(db: Db, org: NewOrganization, creatorUserId: string | null): Promise<OrganizationRow> {
  const [r] = await db`
    INSERT INTO organizations (name, display_name, description, created_by)
    VALUES (${org.name}, ${org.displayName ?? org.name}, ${org.description ?? ""}, ${creatorUserId})
    RETURNING *`;
  if (creatorUserId) {
    await db`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
             VALUES ('organization', ${r!.id as string}, 'user', ${creatorUserId}, 'admin')`;
  }
  return { ...toOrg(r!), permission: creatorUserId ? "admin" : null };
}

/** Organizations the principal can see (all for a system admin), ordered by name, keyset-paged. */
export async function listOrganizations(db: Db, principal: Principal, page: { limit: number; after?: string }): Promise<OrganizationRow[]> {
  const p = principalKey(principal);
  const rows = await db`
    SELECT * FROM (
      SELECT o.*, effective_rank(${p.kind}, ${p.id}::uuid, 'organization', o.id) AS rank FROM organizations o
       WHERE o.name > ${page.after ?? ""}) x
     WHERE rank >= 1 ORDER BY name LIMIT ${page.limit + 1}`;
  return rows.map(toOrg);
}

/** Changes of an organization. */
export interface OrganizationPatch {
  displayName?: string;
  description?: string;
}

/** Applies a partial update. */
export async function updateOrganization(db: Db, id: string, patch: OrganizationPatch): Promise<OrganizationRow> {
  const [r] = await db`
    UPDATE organizations SET
      display_name = coalesce(${patch.displayName ?? null}, display_name),
      description = coalesce(${patch.description ?? null}, description),
      updated_at = now()
    WHERE id = ${id} RETURNING *`;
  return toOrg(r!);
}

/** Deletes an organization and everything under it (cascades and grant triggers). */
export async function deleteOrganization(db: Db, id: string): Promise<void> {
  await db`DELETE FROM organizations WHERE id = ${id}`;
}
