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

/**
 * Whether a user is a member of an organization (same rule as {@link listMembers}): a
 * user is a member of an organization when it holds an approved grant on it or
 * belongs to one of its groups (nested groups stay within one organization, so
 * direct membership of some group of it covers transitive membership). System
 * administrators see every organization but are not members by that alone.
 */
export async function isMember(db: Db, userId: string, orgId: string): Promise<boolean> {
  const [r] = await db`
    SELECT EXISTS (SELECT 1 FROM grants WHERE resource_kind = 'organization' AND resource_id = ${orgId}
                     AND principal_kind = 'user' AND principal_id = ${userId} AND NOT pending)
        OR EXISTS (SELECT 1 FROM group_members gm JOIN groups g ON g.id = gm.group_id
                    WHERE g.org_id = ${orgId} AND gm.member_user_id = ${userId}) AS member`;
  return Boolean(r?.member);
}

/** A member of an organization as the API shows it. */
export interface MemberView {
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  /** The member's role in the organization: admin, modeler or member. */
  permission: string | null;
}

/** Options of {@link listMembers}. */
export interface MemberListOptions {
  limit: number;
  /** userName of the last row of the previous page. */
  after?: string;
  /** Only this user (get one member). */
  userName?: string;
}

/** Members of an organization ordered by userName, keyset-paged (`limit + 1` rows). */
export async function listMembers(db: Db, orgId: string, options: MemberListOptions): Promise<MemberView[]> {
  const rows = await db`
    WITH members AS (
      SELECT principal_id AS user_id FROM grants
       WHERE resource_kind = 'organization' AND resource_id = ${orgId} AND principal_kind = 'user' AND NOT pending
      UNION
      SELECT gm.member_user_id FROM group_members gm JOIN groups g ON g.id = gm.group_id
       WHERE g.org_id = ${orgId} AND gm.member_user_id IS NOT NULL)
    SELECT u.user_name, u.email, u.first_name, u.last_name,
           effective_rank('user', u.id, 'organization', ${orgId}::uuid) AS rank
      FROM users u JOIN members m ON m.user_id = u.id
     WHERE u.user_name > ${options.after ?? ""}
       AND (${options.userName ?? null}::text IS NULL OR u.user_name = ${options.userName ?? null})
     ORDER BY u.user_name LIMIT ${options.limit + 1}`;
  return rows.map((r) => ({
    userName: r.user_name as string,
    email: r.email as string,
    firstName: r.first_name as string,
    lastName: r.last_name as string,
    permission: roleName("organization", Number(r.rank)),
  }));
}
