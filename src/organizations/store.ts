/**
 * SQL of organizations.
 * @module
 */
import type { Db } from "../db/database.ts";
import { type Principal, principalKey } from "../access/principal.ts";
import { roleName } from "../access/roles.ts";
import { lockRunsBeforeDelete } from "../db/lock_order.ts";

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

/** An organization as {@link orgColumns} reads it; `rank` only where the query computes it. */
interface OrganizationRecord {
  id: string;
  name: string;
  displayName: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
  rank?: number;
}

/** The columns of {@link OrganizationRecord}, from the organization row aliased `o`. */
function orgColumns(db: Db) {
  return db`o.id, o.name, o.display_name AS "displayName", o.description, o.created_at AS "createdAt", o.updated_at AS "updatedAt"`;
}

function toOrg(r: OrganizationRecord): OrganizationRow {
  const row: OrganizationRow = {
    id: r.id,
    name: r.name,
    displayName: r.displayName,
    description: r.description,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
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
  const [r] = await db<(OrganizationRecord & { rank: number })[]>`
    SELECT ${orgColumns(db)}, effective_rank(${p.kind}, ${p.id}::uuid, 'organization', o.id) AS rank
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
  const [r] = await db<OrganizationRecord[]>`
    INSERT INTO organizations AS o (name, display_name, description, created_by)
    VALUES (${org.name}, ${org.displayName ?? org.name}, ${org.description ?? ""}, ${creatorUserId})
    RETURNING ${orgColumns(db)}`;
  if (creatorUserId) {
    await db`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
             VALUES ('organization', ${r!.id}, 'user', ${creatorUserId}, 'admin')`;
  }
  return { ...toOrg(r!), permission: creatorUserId ? "admin" : null };
}

/** Organizations the principal can see (all for a system admin), ordered by name, keyset-paged. */
export async function listOrganizations(db: Db, principal: Principal, page: { limit: number; after?: string }): Promise<OrganizationRow[]> {
  const p = principalKey(principal);
  const rows = await db<OrganizationRecord[]>`
    SELECT * FROM (
      SELECT ${orgColumns(db)}, effective_rank(${p.kind}, ${p.id}::uuid, 'organization', o.id) AS rank FROM organizations o
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
  const [r] = await db<OrganizationRecord[]>`
    UPDATE organizations AS o SET
      display_name = coalesce(${patch.displayName ?? null}, display_name),
      description = coalesce(${patch.description ?? null}, description),
      updated_at = now()
    WHERE id = ${id} RETURNING ${orgColumns(db)}`;
  return toOrg(r!);
}

/** Deletes an organization and everything under it (cascades and grant triggers). */
export async function deleteOrganization(db: Db, id: string): Promise<void> {
  await lockRunsBeforeDelete(db, { orgId: id });
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
  const rows = await db<(Omit<MemberView, "permission"> & { rank: number })[]>`
    WITH members AS (
      SELECT principal_id AS user_id FROM grants
       WHERE resource_kind = 'organization' AND resource_id = ${orgId} AND principal_kind = 'user' AND NOT pending
      UNION
      SELECT gm.member_user_id FROM group_members gm JOIN groups g ON g.id = gm.group_id
       WHERE g.org_id = ${orgId} AND gm.member_user_id IS NOT NULL)
    SELECT u.user_name AS "userName", u.email, u.first_name AS "firstName", u.last_name AS "lastName",
           effective_rank('user', u.id, 'organization', ${orgId}::uuid) AS rank
      FROM users u JOIN members m ON m.user_id = u.id
     WHERE u.user_name > ${options.after ?? ""}
       AND (${options.userName ?? null}::text IS NULL OR u.user_name = ${options.userName ?? null})
     ORDER BY u.user_name LIMIT ${options.limit + 1}`;
  return rows.map((r) => ({
    userName: r.userName,
    email: r.email,
    firstName: r.firstName,
    lastName: r.lastName,
    permission: roleName("organization", Number(r.rank)),
  }));
}
