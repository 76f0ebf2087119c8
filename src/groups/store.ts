/**
 * SQL of groups, their members (users and nested groups) and their tokens.
 * @module
 */
import type { Db } from "../db/database.ts";
import type { PrincipalRef } from "../access/principal.ts";

/** A group as the API shows it. */
export interface GroupView {
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

/** A group row with its ids. */
export interface GroupRow extends GroupView {
  id: string;
  orgId: string;
}

/** A group as {@link groupColumns} reads it. */
interface GroupRecord extends Omit<GroupRow, "createdAt" | "updatedAt"> {
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of {@link GroupRecord} (table `groups`). */
function groupColumns(db: Db) {
  return db`id, org_id AS "orgId", name, description, created_at AS "createdAt", updated_at AS "updatedAt"`;
}

function toGroup(r: GroupRecord): GroupRow {
  return {
    id: r.id,
    orgId: r.orgId,
    name: r.name,
    description: r.description,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Strips the ids for responses. */
export function groupView(g: GroupRow): GroupView {
  const { id: _id, orgId: _org, ...view } = g;
  return view;
}

/** A group of an organization by name. */
export async function findGroup(db: Db, orgId: string, name: string): Promise<GroupRow | null> {
  const [r] = await db<GroupRecord[]>`SELECT ${groupColumns(db)} FROM groups WHERE org_id = ${orgId} AND name = ${name}`;
  return r ? toGroup(r) : null;
}

/** Groups of an organization ordered by name, keyset-paged (`limit + 1` rows). */
export async function listGroups(db: Db, orgId: string, page: { limit: number; after?: string }): Promise<GroupRow[]> {
  const rows = await db<GroupRecord[]>`
    SELECT ${groupColumns(db)} FROM groups WHERE org_id = ${orgId} AND name > ${page.after ?? ""} ORDER BY name LIMIT ${page.limit + 1}`;
  return rows.map(toGroup);
}

/** Inserts a group; a duplicate name raises 23505. */
export async function insertGroup(db: Db, orgId: string, group: { name: string; description?: string }): Promise<GroupRow> {
  const [r] = await db<GroupRecord[]>`
    INSERT INTO groups (org_id, name, description) VALUES (${orgId}, ${group.name}, ${group.description ?? ""}) RETURNING ${groupColumns(db)}`;
  return toGroup(r!);
}

/** Applies a partial update (name, description). */
export async function updateGroup(db: Db, id: string, patch: { name?: string; description?: string }): Promise<GroupRow> {
  const [r] = await db<GroupRecord[]>`
    UPDATE groups SET name = coalesce(${patch.name ?? null}, name), description = coalesce(${patch.description ?? null}, description),
           updated_at = now() WHERE id = ${id} RETURNING ${groupColumns(db)}`;
  return toGroup(r!);
}

/** Deletes a group (members, tokens, attribute values cascade; grants go with the trigger). */
export async function deleteGroup(db: Db, id: string): Promise<void> {
  await db`DELETE FROM groups WHERE id = ${id}`;
}

/** A member of a group as the API shows it. */
export interface MemberView {
  userGroupId: string;
  status: "admin" | "member";
}

/** Members of a group ordered by `kind:name`. */
export async function listGroupMembers(db: Db, groupId: string): Promise<MemberView[]> {
  const rows = await db<{ ref: string; status: MemberView["status"] }[]>`
    SELECT gm.status, coalesce('user:' || u.user_name, 'group:' || g.name) AS ref
      FROM group_members gm LEFT JOIN users u ON u.id = gm.member_user_id LEFT JOIN groups g ON g.id = gm.member_group_id
     WHERE gm.group_id = ${groupId} ORDER BY ref`;
  return rows.map((r) => ({ userGroupId: r.ref, status: r.status }));
}

/** Serializes membership changes of one organization (cycle checks stay valid under concurrency). */
export async function lockMemberships(db: Db, orgId: string): Promise<void> {
  await db`SELECT pg_advisory_xact_lock(hashtext('group_members:' || ${orgId}))`;
}

/** A member's row id: a user (any user) or a group of the same organization; null when it names nothing. */
export async function memberId(db: Db, orgId: string, ref: PrincipalRef): Promise<string | null> {
  const [r] = ref.kind === "user"
    ? await db<{ id: string }[]>`SELECT id FROM users WHERE user_name = ${ref.name}`
    : await db<{ id: string }[]>`SELECT id FROM groups WHERE org_id = ${orgId} AND name = ${ref.name}`;
  return r ? r.id : null;
}

/** Whether making group `memberGroupId` a member of `groupId` closes a cycle (recursive, within the transaction). */
export async function wouldCycle(db: Db, groupId: string, memberGroupId: string): Promise<boolean> {
  if (groupId === memberGroupId) return true;
  const [r] = await db`
    WITH RECURSIVE below(id) AS (
        SELECT member_group_id FROM group_members WHERE group_id = ${memberGroupId} AND member_group_id IS NOT NULL
      UNION
        SELECT gm.member_group_id FROM group_members gm JOIN below b ON gm.group_id = b.id WHERE gm.member_group_id IS NOT NULL)
    SELECT EXISTS (SELECT 1 FROM below WHERE id = ${groupId}) AS cycle`;
  return Boolean(r?.cycle);
}

/** Options of {@link putMember}. */
export interface PutMemberOptions {
  kind: "user" | "group";
  id: string;
  status: "admin" | "member";
}

/** Adds a member or changes its status. */
export async function putMember(db: Db, groupId: string, member: PutMemberOptions): Promise<void> {
  if (member.kind === "user") {
    await db`INSERT INTO group_members (group_id, member_user_id, status) VALUES (${groupId}, ${member.id}, ${member.status})
             ON CONFLICT (group_id, member_user_id) WHERE member_user_id IS NOT NULL
             DO UPDATE SET status = excluded.status, updated_at = now()`;
  } else {
    await db`INSERT INTO group_members (group_id, member_group_id, status) VALUES (${groupId}, ${member.id}, ${member.status})
             ON CONFLICT (group_id, member_group_id) WHERE member_group_id IS NOT NULL
             DO UPDATE SET status = excluded.status, updated_at = now()`;
  }
}

/** Changes the status of an existing member; returns whether it was a member. */
export async function setMemberStatus(db: Db, groupId: string, member: PutMemberOptions): Promise<boolean> {
  const rows = await db`
    UPDATE group_members SET status = ${member.status}, updated_at = now()
     WHERE group_id = ${groupId} AND (member_user_id = ${member.id} OR member_group_id = ${member.id}) RETURNING group_id`;
  return rows.length > 0;
}

/** Removes a member (no error when it was not one). */
export async function removeMember(db: Db, groupId: string, memberId: string): Promise<void> {
  await db`DELETE FROM group_members WHERE group_id = ${groupId} AND (member_user_id = ${memberId} OR member_group_id = ${memberId})`;
}

/** A group token as the API shows it (never the secret, except at creation). */
export interface TokenView {
  name: string;
  groupName: string;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
  secret?: string;
}

/** A group token as read (never the secret hash). */
interface TokenRecord {
  name: string;
  createdAt: Date;
  expiresAt: Date;
}

function toToken(r: TokenRecord, groupName: string): TokenView {
  return {
    name: r.name,
    groupName,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
    expired: r.expiresAt.getTime() <= Date.now(),
  };
}

/** Inserts a token with the sha256 hex of its secret; a duplicate name raises 23505. */
export async function insertToken(db: Db, group: GroupRow, token: { name: string; secretHash: string; expiresAt: Date }): Promise<TokenView> {
  const [r] = await db<TokenRecord[]>`INSERT INTO group_tokens (group_id, name, secret_hash, expires_at)
                       VALUES (${group.id}, ${token.name}, ${token.secretHash}, ${token.expiresAt})
                       RETURNING name, created_at AS "createdAt", expires_at AS "expiresAt"`;
  return toToken(r!, group.name);
}

/** Tokens of a group ordered by name. */
export async function listTokens(db: Db, group: GroupRow): Promise<TokenView[]> {
  const rows = await db<TokenRecord[]>`
    SELECT name, created_at AS "createdAt", expires_at AS "expiresAt" FROM group_tokens WHERE group_id = ${group.id} ORDER BY name`;
  return rows.map((r) => toToken(r, group.name));
}

/** Deletes a token by name; returns whether it existed. */
export async function deleteToken(db: Db, groupId: string, name: string): Promise<boolean> {
  const rows = await db`DELETE FROM group_tokens WHERE group_id = ${groupId} AND name = ${name} RETURNING id`;
  return rows.length > 0;
}
