/**
 * The one permission-routes factory: list, create (or request), get, update
 * and delete grants on a resource of any level. Each level supplies its path,
 * its path-parameter schemas and a resolver from path parameters to the
 * resource id (see `levels.ts`).
 * @module
 */
import { Elysia, t, type TSchema } from "elysia";
import type { Db } from "../db/database.ts";
import type { AppContext } from "../http/context.ts";
import { effectiveRank, isSystemAdmin, ROLES, roleName } from "../http/access.ts";
import { required } from "../http/auth.ts";
import { badRequest, conflict, forbidden, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { pageQuery, parsePrincipal, principalParam, type PrincipalRef } from "../http/params.ts";
import type { Principal } from "../http/principal.ts";
import { security } from "../http/security.ts";
import { isMember } from "../organizations/store.ts";
import { deleteGrant, findGrant, listGrants, principalId, putGrant, type GrantPrincipal, type GrantTarget } from "./store.ts";

/** A resource found from path parameters. */
export interface ResolvedResource {
  id: string;
  orgId: string;
}

/** Everything the factory needs to know about one level. */
export interface PermissionLevel {
  level: GrantTarget["kind"];
  /** Path of the resource relative to `/api/v0`, e.g. `/organizations/:org/workspaces/:ws`. */
  path: string;
  /** TypeBox schemas of the path parameters of {@link PermissionLevel.path}. */
  params: Record<string, TSchema>;
  /** OpenAPI tag. */
  tag: string;
  /** How the resource is named in messages, e.g. `workspace 'sales'`. */
  label(params: Record<string, string>): string;
  /** Finds the resource (null when it does not exist). */
  resolve(db: Db, params: Record<string, string>): Promise<ResolvedResource | null>;
  /** Principal kinds a grant may target. */
  principalKinds: readonly PrincipalRef["kind"][];
  /** Rank needed to grant (admin, manager or editor; package modelers may not). */
  manage: number;
}

const ROLE_RANK: Record<string, number> = { admin: 3, manager: 3, editor: 3, modeler: 2, viewer: 1, member: 1 };

interface Located {
  target: GrantTarget;
  orgId: string;
  rank: number;
  label: string;
}

async function locate(ctx: AppContext, spec: PermissionLevel, principal: Principal, params: Record<string, string>): Promise<Located> {
  const label = spec.label(params);
  const found = await spec.resolve(ctx.sql, params);
  if (!found) throw notFound(`${label} not found`);
  const rank = await effectiveRank(ctx.sql, principal, { kind: spec.level, id: found.id });
  return { target: { kind: spec.level, id: found.id }, orgId: found.orgId, rank, label };
}

/** 404 when the caller cannot see the resource, 403 when it sees it but may not manage its permissions. */
function requireManage(spec: PermissionLevel, loc: Located): void {
  if (loc.rank < 1) throw notFound(`${loc.label} not found`);
  if (loc.rank < spec.manage) {
    throw forbidden(`${loc.label}: managing permissions needs the ${roleName(spec.level, spec.manage)} role; you have ${roleName(spec.level, loc.rank)}. ` +
      "Create with ?requestPermission=true to request access for yourself");
  }
}

function checkRole(spec: PermissionLevel, role: string): number {
  if (!ROLES[spec.level].includes(role)) {
    throw badRequest(`permission '${role}' is not a role of ${spec.level}s; use one of ${ROLES[spec.level].join(", ")}`);
  }
  return ROLE_RANK[role]!;
}

function checkKind(spec: PermissionLevel, ref: PrincipalRef): void {
  if (!spec.principalKinds.includes(ref.kind)) {
    throw badRequest(`${spec.level} permissions target ${spec.principalKinds.map((k) => `${k}:<name>`).join(" or ")}, not ${ref.kind}:`);
  }
}

function self(principal: Principal): GrantPrincipal & { ref: string } {
  return principal.kind === "user"
    ? { kind: "user", id: principal.userId, ref: `user:${principal.userName}` }
    : { kind: "group", id: principal.groupId, ref: `group:${principal.groupName}` };
}

/** Whether the caller may see its own grant or request here: it sees the resource or is a member of its organization. */
async function seesOwn(ctx: AppContext, principal: Principal, loc: Located): Promise<boolean> {
  if (loc.rank >= 1) return true;
  return principal.kind === "user" && await isMember(ctx.sql, principal.userId, loc.orgId);
}

/**
 * Row id of the principal a grant is about. A user must be a member of the
 * organization; at the organization level a system administrator may also
 * grant to any user (that is how a user joins), and an admin may approve the
 * user's own pending request. A user who does not exist and one who is not a
 * member get the same 400 (no enumeration of other organizations' users).
 */
async function grantee(ctx: AppContext, spec: PermissionLevel, ref: PrincipalRef, loc: Located, caller: Principal): Promise<GrantPrincipal> {
  const id = await principalId(ctx.sql, ref, loc.orgId);
  if (ref.kind === "user") {
    const allowed = id !== null && (
      await isMember(ctx.sql, id, loc.orgId) ||
      (spec.level === "organization" && (isSystemAdmin(caller) || (await findGrant(ctx.sql, loc.target, { kind: "user", id }))?.pending === true))
    );
    if (!allowed) {
      throw badRequest(`user '${ref.name}' is not a member of this organization; a system administrator grants the user an organization role first`);
    }
    return { kind: "user", id: id! };
  }
  if (!id) throw badRequest(`userGroupId '${ref.kind}:${ref.name}' names no ${ref.kind} of this organization; create it first`);
  return { kind: ref.kind, id };
}

const grantBody = t.Object({
  userGroupId: principalParam,
  permission: t.String({ maxLength: 32, error: "permission must be a role name of this level" }),
  requestPermission: t.Optional(t.Boolean()),
});
const requestQuery = t.Object({
  requestPermission: t.Optional(t.BooleanString({ error: "requestPermission must be true or false" })),
});

/**
 * Permission routes of one level: `GET`/`POST {path}/permissions` and
 * `GET`/`PATCH`/`DELETE {path}/permissions/{principal}`.
 */
export function permissionRoutes(ctx: AppContext, spec: PermissionLevel) {
  const params = t.Object(spec.params);
  const oneParams = t.Object({ ...spec.params, principal: principalParam });
  const tags = [spec.tag];
  return new Elysia({ prefix: `${spec.path}/permissions` })
    .use(security(ctx))
    .get(
      "/",
      async ({ params, query, principal, request, set }) => {
        const p = required(principal);
        const loc = await locate(ctx, spec, p, params as Record<string, string>);
        let only: GrantPrincipal | undefined;
        if (loc.rank < spec.manage) {
          if (!(await seesOwn(ctx, p, loc))) throw notFound(`${loc.label} not found`);
          only = self(p);
        }
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listGrants(ctx.sql, loc.target, { limit, after: decodeCursor(query.cursor), only });
        return pageResponse(request, rows, { limit, key: (r) => r.userGroupId, set });
      },
      {
        params,
        query: pageQuery,
        detail: {
          summary: `List ${spec.level} permissions (callers who may not manage them see only their own grant or request)`,
          tags,
        },
      },
    )
    .post(
      "/",
      async ({ params, query, body, principal, set }) => {
        const p = required(principal);
        const ref = parsePrincipal(body.userGroupId);
        checkKind(spec, ref);
        const roleRank = checkRole(spec, body.permission);
        const loc = await locate(ctx, spec, p, params as Record<string, string>);
        const asRequest = query.requestPermission === true || body.requestPermission === true;
        if (loc.rank >= spec.manage) {
          if (roleRank > loc.rank) throw forbidden(`${loc.label}: you cannot grant '${body.permission}', a stronger role than your own`);
          const who = await grantee(ctx, spec, ref, loc, p);
          const grant = await ctx.sql.begin(async (tx) => {
            const existing = await findGrant(tx, loc.target, who);
            if (existing && !existing.pending) {
              throw conflict(`${body.userGroupId} already has ${existing.permission} on ${loc.label}; change it with PATCH .../permissions/${body.userGroupId}`);
            }
            return await putGrant(tx, loc.target, { ...who, role: body.permission, pending: false });
          });
          set.status = 201;
          return grant;
        }
        if (!asRequest) requireManage(spec, loc);
        if (!(await seesOwn(ctx, p, loc))) throw notFound(`${loc.label} not found`);
        if (p.kind !== "user") throw forbidden("API keys act as their group and cannot request access; use a user's access token");
        if (body.userGroupId !== `user:${p.userName}`) {
          throw forbidden(`an access request is for yourself: set userGroupId to user:${p.userName}, or ask an admin to grant ${body.userGroupId}`);
        }
        const me = self(p);
        const grant = await ctx.sql.begin(async (tx) => {
          const existing = await findGrant(tx, loc.target, me);
          if (existing && !existing.pending) {
            throw conflict(`you already have ${existing.permission} on ${loc.label}; ask an admin to change it`);
          }
          return await putGrant(tx, loc.target, { ...me, role: body.permission, pending: true });
        });
        set.status = 201;
        return grant;
      },
      {
        params,
        query: requestQuery,
        body: grantBody,
        detail: {
          summary: `Grant a ${spec.level} permission, or request it for yourself`,
          description: `Grants \`permission\` (${ROLES[spec.level].join(", ")}) to \`userGroupId\`; 409 when it already has a grant ` +
            "(use PATCH). A pending request for that principal is approved (pending cleared). Callers who may not manage " +
            "permissions add `?requestPermission=true` (or body `requestPermission: true`) to record a pending access request " +
            "for themselves (userGroupId must be `user:<you>`); it confers nothing until an admin approves it by creating or " +
            "updating the grant. Without the flag such callers get 403 (404 when they cannot see the resource). You cannot " +
            "grant a role stronger than your own.",
          tags,
        },
      },
    )
    .get(
      "/:principal",
      async ({ params, principal }) => {
        const p = required(principal);
        const all = params as Record<string, string>;
        const loc = await locate(ctx, spec, p, all);
        const me = self(p);
        if (all.principal === me.ref) {
          if (!(await seesOwn(ctx, p, loc))) throw notFound(`${loc.label} not found`);
        } else requireManage(spec, loc);
        const id = await principalId(ctx.sql, parsePrincipal(all.principal!), loc.orgId);
        const grant = id ? await findGrant(ctx.sql, loc.target, { kind: parsePrincipal(all.principal!).kind, id }) : null;
        if (!grant) throw notFound(`${all.principal} has no permission on ${loc.label}`);
        return grant;
      },
      { params: oneParams, detail: { summary: `Get the ${spec.level} permission of a principal`, tags } },
    )
    .patch(
      "/:principal",
      async ({ params, body, principal }) => {
        const p = required(principal);
        const all = params as Record<string, string>;
        const roleRank = checkRole(spec, body.permission);
        const loc = await locate(ctx, spec, p, all);
        requireManage(spec, loc);
        if (roleRank > loc.rank) throw forbidden(`${loc.label}: you cannot grant '${body.permission}', a stronger role than your own`);
        const ref = parsePrincipal(all.principal!);
        const id = await principalId(ctx.sql, ref, loc.orgId);
        return await ctx.sql.begin(async (tx) => {
          const existing = id ? await findGrant(tx, loc.target, { kind: ref.kind, id }) : null;
          if (!existing || !id) throw notFound(`${all.principal} has no permission on ${loc.label}; create one with POST`);
          return await putGrant(tx, loc.target, { kind: ref.kind, id, role: body.permission, pending: false });
        });
      },
      {
        params: oneParams,
        body: t.Object({ permission: t.String({ maxLength: 32, error: "permission must be a role name of this level" }) }),
        detail: { summary: `Change a ${spec.level} permission (approves a pending request)`, tags },
      },
    )
    .delete(
      "/:principal",
      async ({ params, principal, set }) => {
        const p = required(principal);
        const all = params as Record<string, string>;
        const loc = await locate(ctx, spec, p, all);
        if (all.principal === self(p).ref) {
          if (!(await seesOwn(ctx, p, loc))) throw notFound(`${loc.label} not found`);
        } else requireManage(spec, loc);
        const ref = parsePrincipal(all.principal!);
        const id = await principalId(ctx.sql, ref, loc.orgId);
        const gone = id ? await ctx.sql.begin((tx) => deleteGrant(tx, loc.target, { kind: ref.kind, id })) : false;
        if (!gone) throw notFound(`${all.principal} has no permission on ${loc.label}`);
        set.status = 204;
      },
      {
        params: oneParams,
        detail: { summary: `Revoke a ${spec.level} permission (or withdraw your own request or grant)`, tags },
      },
    );
}
