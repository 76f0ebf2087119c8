/**
 * The one permission-routes factory: list, create (or request), get, update
 * and delete grants on a resource of any level. Each level supplies its path,
 * its path-parameter schemas and a resolver from path parameters to the
 * resource id (see `levels.ts`).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { isSystemAdmin, type PrincipalRef, type Principal } from "../access/principal.ts";
import { ROLES } from "../access/roles.ts";
import { required } from "../http/auth.ts";
import { environmentScoped } from "../http/aliases.ts";
import { badRequest, conflict, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { pageQuery, parsePrincipal, principalParam } from "../http/params.ts";
import { permissionRules } from "./route_rules.ts";
import { security } from "../http/security.ts";
import { isMember } from "../organizations/store.ts";
import { managesWorkspace, self, type Located, type PermissionLevel } from "./access.ts";
import { documentLevel, environmentLevel, organizationLevel, packageLevel, workspaceLevel } from "./levels.ts";
import { deleteGrant, findGrant, listGrants, principalId, putGrant, requestOnTop, type GrantPrincipal } from "./store.ts";

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
  if (ref.kind === "workspace") {
    // the twin of POST .../workspaces/{ws}/packages: the workspace's manager decides what it holds (a personal one: its owner)
    if (!id || !(await managesWorkspace(ctx.sql, caller, id))) {
      throw badRequest(`userGroupId 'workspace:${ref.name}' names no workspace of this organization that you manage; a workspace manager adds the package with POST .../workspaces/${ref.name}/packages`);
    }
    return { kind: ref.kind, id };
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
function permissionRoutes(ctx: AppContext, spec: PermissionLevel) {
  const params = t.Object(spec.params);
  const oneParams = t.Object({ ...spec.params, principal: principalParam });
  const tags = [spec.tag];
  return new Elysia({ prefix: `${spec.path}/permissions` })
    .use(security(ctx))
    .use(permissionRules(ctx))
    .get(
      "/",
      async ({ grants: { loc, only }, query, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listGrants(ctx.sql, loc.target, { limit, after: decodeCursor(query.cursor), only });
        return pageResponse(request, rows, { limit, key: (r) => r.userGroupId, set });
      },
      {
        params,
        query: pageQuery,
        permissionAccess: { level: spec, need: "manage-or-own" },
        detail: {
          summary: `List ${spec.level} permissions (callers who may not manage them see only their own grant or request)`,
          tags,
        },
      },
    )
    .post(
      "/",
      async ({ grants: { loc, mode }, body, principal, set }) => {
        const p = required(principal);
        const ref = parsePrincipal(body.userGroupId);
        if (mode === "grant") {
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
        const me = self(p);
        const grant = await ctx.sql.begin(async (tx) => {
          const existing = await findGrant(tx, loc.target, me);
          // a grant already held stays until the request is approved
          if (existing && (existing.currentPermission !== undefined || !existing.pending)) {
            return await requestOnTop(tx, loc.target, { ...me, role: body.permission });
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
        permissionAccess: { level: spec, need: "manage-or-request" },
        detail: {
          summary: `Grant a ${spec.level} permission, or request it for yourself`,
          description: `Grants \`permission\` (${ROLES[spec.level].join(", ")}) to \`userGroupId\`; 409 when it already has a grant ` +
            "(use PATCH). A pending request for that principal is approved (pending cleared). " +
            (spec.share !== undefined ? "Package modelers may share the package too: grant viewer or modeler (never a role above their own: 403). " : "") +
            "Any caller may ask for more than it holds: `?requestPermission=true` (or body `requestPermission: true`) with " +
            "userGroupId `user:<you>` records a pending request (201, `pending: true`; `currentPermission` names a grant already " +
            "held, which stays until an admin approves by creating or updating the grant); 409 when the caller already holds " +
            "that role or a stronger one. " +
            (spec.level === "organization"
              ? "A signed-in user who is not a member may ask to join. "
              : spec.level === "workspace" || spec.level === "document"
              ? "A caller who cannot see the resource gets 404. "
              : "Members of the organization may ask even when they cannot see it; others get 404. ") +
            "Without the flag, callers who may not grant get 403 (404 when they cannot see the resource). You cannot " +
            "grant a role stronger than your own.",
          tags,
        },
      },
    )
    .get(
      "/:principal",
      async ({ grants: { loc }, params }) => {
        const all = params as Record<string, string>;
        const id = await principalId(ctx.sql, parsePrincipal(all.principal!), loc.orgId);
        const grant = id ? await findGrant(ctx.sql, loc.target, { kind: parsePrincipal(all.principal!).kind, id }) : null;
        if (!grant) throw notFound(`${all.principal} has no permission on ${loc.label}`);
        return grant;
      },
      { params: oneParams, permissionAccess: { level: spec, need: "manage-or-own" }, detail: { summary: `Get the ${spec.level} permission of a principal`, tags } },
    )
    .patch(
      "/:principal",
      async ({ grants: { loc }, params, body }) => {
        const all = params as Record<string, string>;
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
        permissionAccess: { level: spec, need: "manage" },
        detail: { summary: `Change a ${spec.level} permission (approves a pending request)`, tags },
      },
    )
    .delete(
      "/:principal",
      async ({ grants: { loc }, params, set }) => {
        const all = params as Record<string, string>;
        const ref = parsePrincipal(all.principal!);
        const id = await principalId(ctx.sql, ref, loc.orgId);
        const gone = id ? await ctx.sql.begin((tx) => deleteGrant(tx, loc.target, { kind: ref.kind, id })) : false;
        if (!gone) throw notFound(`${all.principal} has no permission on ${loc.label}`);
        set.status = 204;
      },
      {
        params: oneParams,
        permissionAccess: { level: spec, need: "manage-or-own" },
        detail: { summary: `Revoke a ${spec.level} permission (or withdraw your own request or grant)`, tags },
      },
    );
}

/** Permission routes of every level below the system. */
export function permissionLevelRoutes(ctx: AppContext) {
  return new Elysia()
    .use(permissionRoutes(ctx, organizationLevel))
    .use(environmentScoped((prefix) => permissionRoutes(ctx, environmentLevel(prefix))))
    .use(environmentScoped((prefix) => permissionRoutes(ctx, packageLevel(prefix))))
    .use(permissionRoutes(ctx, workspaceLevel))
    .use(permissionRoutes(ctx, documentLevel));
}
