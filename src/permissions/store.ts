/**
 * SQL of permission grants (table `grants`) at every level that carries roles.
 * @module
 */
import type { Db } from "../db/database.ts";
import type { PrincipalRef } from "../access/principal.ts";

/** The resource a grant is on. */
export interface GrantTarget {
  kind: "organization" | "environment" | "package" | "workspace" | "document";
  id: string;
}

/** A principal as stored: its kind and row id. */
export interface GrantPrincipal {
  kind: "user" | "group" | "workspace";
  id: string;
}

/** A permission as the API shows it. */
export interface GrantView {
  userGroupId: string;
  permission: string;
  createdAt: string;
  updatedAt: string;
  /** Present (true) on an access request that an admin has not approved yet (`permission` is the role asked for). */
  pending?: true;
  /** On a request from a principal that already holds a grant here: the role it holds until the request is approved. */
  currentPermission?: string;
}

function toGrant(r: Record<string, unknown>): GrantView {
  const view: GrantView = {
    userGroupId: `${r.principal_kind}:${r.principal_name}`,
    permission: (r.requested_role ?? r.role) as string,
    createdAt: (r.created_at as Date).toISOString(),
    updatedAt: (r.updated_at as Date).toISOString(),
  };
  if (r.pending || r.requested_role) view.pending = true;
  if (r.requested_role) view.currentPermission = r.role as string;
  return view;
}

/** Options of {@link listGrants}. */
export interface ListGrantOptions {
  limit: number;
  /** Sort key (`kind:name`) of the last row of the previous page. */
  after?: string;
  /** Only the grant of this principal (callers who may not manage the resource). */
  only?: GrantPrincipal;
}

/** Grants on a resource ordered by `kind:name`, keyset-paged (`limit + 1` rows). */
export async function listGrants(db: Db, target: GrantTarget, options: ListGrantOptions): Promise<GrantView[]> {
  const rows = await db`
    SELECT * FROM (
      SELECT g.principal_kind, g.role, g.pending, g.requested_role, g.created_at, g.updated_at, g.principal_id,
             coalesce(u.user_name, gr.name, w.name) AS principal_name
        FROM grants g
        LEFT JOIN users u ON g.principal_kind = 'user' AND u.id = g.principal_id
        LEFT JOIN groups gr ON g.principal_kind = 'group' AND gr.id = g.principal_id
        LEFT JOIN workspaces w ON g.principal_kind = 'workspace' AND w.id = g.principal_id
       WHERE g.resource_kind = ${target.kind} AND g.resource_id = ${target.id}) x
     WHERE principal_kind || ':' || principal_name > ${options.after ?? ""}
       AND (${options.only?.id ?? null}::uuid IS NULL OR (principal_kind = ${options.only?.kind ?? ""} AND principal_id = ${options.only?.id ?? null}::uuid))
     ORDER BY principal_kind || ':' || principal_name
     LIMIT ${options.limit + 1}`;
  return rows.map(toGrant);
}

/** The grant of one principal on a resource, or null. */
export async function findGrant(db: Db, target: GrantTarget, principal: GrantPrincipal): Promise<GrantView | null> {
  const [r] = await db`
    SELECT g.principal_kind, g.role, g.pending, g.requested_role, g.created_at, g.updated_at,
           coalesce(u.user_name, gr.name, w.name) AS principal_name
      FROM grants g
      LEFT JOIN users u ON g.principal_kind = 'user' AND u.id = g.principal_id
      LEFT JOIN groups gr ON g.principal_kind = 'group' AND gr.id = g.principal_id
      LEFT JOIN workspaces w ON g.principal_kind = 'workspace' AND w.id = g.principal_id
     WHERE g.resource_kind = ${target.kind} AND g.resource_id = ${target.id}
       AND g.principal_kind = ${principal.kind} AND g.principal_id = ${principal.id}
     FOR UPDATE OF g`;
  return r ? toGrant(r) : null;
}

/** Options of {@link putGrant}. */
export interface PutGrantOptions {
  role: string;
  /** An access request (confers nothing until an admin approves it). */
  pending: boolean;
}

/** Creates or replaces the grant of a principal on a resource (an approval clears a request on top of it). */
export async function putGrant(db: Db, target: GrantTarget, grant: GrantPrincipal & PutGrantOptions): Promise<GrantView> {
  await db`
    INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role, pending)
    VALUES (${target.kind}, ${target.id}, ${grant.kind}, ${grant.id}, ${grant.role}, ${grant.pending})
    ON CONFLICT (resource_kind, coalesce(resource_id, '00000000-0000-0000-0000-000000000000'::uuid), principal_kind, principal_id)
    DO UPDATE SET role = excluded.role, pending = excluded.pending, requested_role = NULL, updated_at = now()`;
  return (await findGrant(db, target, grant))!;
}

/**
 * Records a request for `role` by a principal that holds a (weaker) grant on
 * the resource: the grant stays as it is until an admin approves.
 */
export async function requestOnTop(db: Db, target: GrantTarget, grant: GrantPrincipal & { role: string }): Promise<GrantView> {
  await db`UPDATE grants SET requested_role = ${grant.role}, updated_at = now()
            WHERE resource_kind = ${target.kind} AND resource_id = ${target.id}
              AND principal_kind = ${grant.kind} AND principal_id = ${grant.id} AND NOT pending`;
  return (await findGrant(db, target, grant))!;
}

/** Deletes the grant of a principal on a resource; returns whether it existed. */
export async function deleteGrant(db: Db, target: GrantTarget, principal: GrantPrincipal): Promise<boolean> {
  const rows = await db`
    DELETE FROM grants WHERE resource_kind = ${target.kind} AND resource_id = ${target.id}
       AND principal_kind = ${principal.kind} AND principal_id = ${principal.id} RETURNING id`;
  return rows.length > 0;
}

/** Row id of a principal reference within an organization (users are global), or null. */
export async function principalId(db: Db, ref: PrincipalRef, orgId: string): Promise<string | null> {
  const [r] = ref.kind === "user"
    ? await db`SELECT id FROM users WHERE user_name = ${ref.name}`
    : ref.kind === "group"
    ? await db`SELECT id FROM groups WHERE org_id = ${orgId} AND name = ${ref.name}`
    : await db`SELECT id FROM workspaces WHERE org_id = ${orgId} AND name = ${ref.name}`;
  return r ? (r.id as string) : null;
}
