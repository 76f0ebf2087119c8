/**
 * Who may read and manage the permissions of a resource, at every level: the
 * resource is located from its path, the caller's rank on it is read once, and
 * the decision (manage, own grant or request) is taken here. Used by the
 * `permissionAccess` rule of the permission routes (./route_rules.ts).
 * @module
 */
import type { Db } from "../db/database.ts";
import type { AppContext } from "../context.ts";
import { ADMIN, ROLES, roleName } from "../access/roles.ts";
import { effectiveRank } from "../access/store.ts";
import type { PrincipalRef, Principal } from "../access/principal.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors.ts";
import { isMember } from "../organizations/store.ts";
import { findGrant, type GrantPrincipal, type GrantTarget } from "./store.ts";

/** A resource found from path parameters. */
interface ResolvedResource {
  id: string;
  orgId: string;
}

/** Everything the permission routes need to know about one level. */
export interface PermissionLevel {
  level: GrantTarget["kind"];
  /** Path of the resource relative to `/api/v0`, e.g. `/organizations/:org/workspaces/:ws`. */
  path: string;
  /** TypeBox schemas of the path parameters of {@link PermissionLevel.path}. */
  params: Record<string, import("elysia").TSchema>;
  /** OpenAPI tag. */
  tag: string;
  /** How the resource is named in messages, e.g. `workspace 'sales'`. */
  label(params: Record<string, string>): string;
  /** Finds the resource (null when it does not exist). */
  resolve(db: Db, params: Record<string, string>): Promise<ResolvedResource | null>;
  /** Principal kinds a grant may target. */
  principalKinds: readonly PrincipalRef["kind"][];
  /** Rank needed to manage permissions: grant any role, change and revoke grants (admin, manager or editor). */
  manage: number;
  /**
   * Rank that may also share the resource: create grants of a role no
   * stronger than its own and read the grants (package modelers); absent
   * when only managers grant.
   */
  share?: number;
}

/** The resource of a permission route, located for the caller. */
export interface Located {
  target: GrantTarget;
  orgId: string;
  /** The caller's effective rank on the resource. */
  rank: number;
  label: string;
}

const ROLE_RANK: Record<string, number> = { admin: 3, manager: 3, editor: 3, modeler: 2, viewer: 1, member: 1 };

/** Finds the resource of a permission route and the caller's rank on it (404 when it does not exist). */
export async function locate(ctx: AppContext, spec: PermissionLevel, principal: Principal, params: Record<string, string>): Promise<Located> {
  const label = spec.label(params);
  const found = await spec.resolve(ctx.sql, params);
  if (!found) throw new NotFoundError(`${label} not found`);
  const rank = await effectiveRank(ctx.sql, principal, { kind: spec.level, id: found.id });
  return { target: { kind: spec.level, id: found.id }, orgId: found.orgId, rank, label };
}

/** 404 when the caller cannot see the resource, 403 when it sees it but may not manage its permissions. */
export function requireManage(spec: PermissionLevel, loc: Located): void {
  if (loc.rank < 1) throw new NotFoundError(`${loc.label} not found`);
  if (loc.rank < spec.manage) {
    throw new ForbiddenError(`${loc.label}: managing permissions needs the ${roleName(spec.level, spec.manage)} role; you have ${roleName(spec.level, loc.rank)}. ` +
      "Create with ?requestPermission=true to request access for yourself");
  }
}

/** Whether the caller may share the resource: it manages its permissions, or holds the level's sharing rank. */
export function mayShare(spec: PermissionLevel, loc: Located): boolean {
  return loc.rank >= spec.manage || (spec.share !== undefined && loc.rank >= spec.share);
}

/** The rank of a role name of the level (400 when the level has no such role). */
export function checkRole(spec: PermissionLevel, role: string): number {
  if (!ROLES[spec.level].includes(role)) {
    throw new ValidationError(`permission '${role}' is not a role of ${spec.level}s; use one of ${ROLES[spec.level].join(", ")}`);
  }
  return ROLE_RANK[role]!;
}

/** 400 when the level's grants may not target this kind of principal. */
export function checkKind(spec: PermissionLevel, ref: PrincipalRef): void {
  if (!spec.principalKinds.includes(ref.kind)) {
    throw new ValidationError(`${spec.level} permissions target ${spec.principalKinds.map((k) => `${k}:<name>`).join(" or ")}, not ${ref.kind}:`);
  }
}

/** The caller as a grant principal, with its `user:<name>`/`group:<name>` reference. */
export function self(principal: Principal): GrantPrincipal & { ref: string } {
  return principal.kind === "user"
    ? { kind: "user", id: principal.userId, ref: `user:${principal.userName}` }
    : { kind: "group", id: principal.groupId, ref: `group:${principal.groupName}` };
}

/**
 * Whether the caller may see its own grant or request here: it sees the
 * resource; or, for an environment or a package, it is a member of the
 * organization (it may ask to see one it has not been given); or, for an
 * organization, it holds a request there. A workspace or a document the
 * caller cannot see stays hidden (404).
 */
async function seesOwn(ctx: AppContext, principal: Principal, loc: Located): Promise<boolean> {
  if (loc.rank >= 1) return true;
  if (principal.kind !== "user") return false;
  if (loc.target.kind === "environment" || loc.target.kind === "package") return await isMember(ctx.sql, principal.userId, loc.orgId);
  if (loc.target.kind === "organization") return (await findGrant(ctx.sql, loc.target, { kind: "user", id: principal.userId })) !== null;
  return false;
}

/** 404 unless the caller may see its own grant or request here. */
export async function requireOwn(ctx: AppContext, principal: Principal, loc: Located): Promise<void> {
  if (!(await seesOwn(ctx, principal, loc))) throw new NotFoundError(`${loc.label} not found`);
}

/**
 * 404 unless the caller may file an access request here: what lets it see
 * its own grant, and at the organization level any signed-in user (asking
 * to join reveals nothing but the request itself).
 */
export async function requireRequester(ctx: AppContext, principal: Principal, loc: Located): Promise<void> {
  if (loc.target.kind === "organization" && principal.kind === "user") return;
  await requireOwn(ctx, principal, loc);
}

/**
 * Whether the caller manages the workspace `id` (its managers, organization
 * admins; a personal workspace only its owner). A `workspace:` grant on a
 * package puts the package in the workspace's MCP endpoint and context
 * searches, so it needs what `POST .../workspaces/{ws}/packages` needs.
 */
export async function managesWorkspace(db: Db, principal: Principal, id: string): Promise<boolean> {
  return (await effectiveRank(db, principal, { kind: "workspace", id })) >= ADMIN;
}
