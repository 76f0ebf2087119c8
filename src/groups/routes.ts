/**
 * Groups of an organization and their members (users and nested groups).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { ADMIN } from "../access/roles.ts";
import { isSystemAdmin, type Principal } from "../access/principal.ts";
import { required } from "../http/auth.ts";
import { badRequest, conflict, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { groupParams, name, orgParams, pageQuery, parsePrincipal, userGroupParam } from "../http/params.ts";
import { security } from "../http/security.ts";
import { routeAccess } from "../http/route_access.ts";
import { groupRules } from "./route_rules.ts";
import { organizationRules } from "../organizations/route_rules.ts";
import { organizationFor } from "../organizations/lookup.ts";
import { isMember } from "../organizations/store.ts";
import { checkRename, groupFor } from "./access.ts";
import {
  deleteGroup,
  findGroup,
  groupView,
  insertGroup,
  listGroupMembers,
  listGroups,
  lockMemberships,
  memberId,
  putMember,
  removeMember,
  setMemberStatus,
  updateGroup,
  wouldCycle,
  type GroupRow,
} from "./store.ts";
import type { Db } from "../db/database.ts";

const status = t.Union([t.Literal("admin"), t.Literal("member")], { error: "status must be admin or member" });
const memberItem = t.Object({
  principal: t.Optional(userGroupParam),
  userGroupId: t.Optional(userGroupParam),
  status: t.Optional(status),
});
const membersBody = t.Object({ members: t.Array(memberItem, { minItems: 1, maxItems: 1000, error: "members must be a list of 1 to 1000 { principal, status }" }) });
const memberParams = t.Object({ org: name("organizationName"), group: name("groupName"), principal: userGroupParam });
const tags = ["groups"];

/**
 * Resolves a member reference of a request to its kind and id: a group of the
 * organization, or a user who is a member of the organization. A user who does
 * not exist and one who is not a member get the same 400, so the answer tells
 * nothing about users of other organizations. A system administrator (who
 * may grant any user an organization role) may add any user.
 */
async function member(db: Db, group: GroupRow, text: string | undefined, caller?: Principal) {
  if (!text) throw badRequest("each member needs principal: user:<userName> or group:<groupName>");
  const ref = parsePrincipal(text);
  const id = await memberId(db, group.orgId, ref);
  const operator = caller !== undefined && isSystemAdmin(caller);
  if (ref.kind === "user" && (!id || !(operator || (await isMember(db, id, group.orgId))))) {
    throw badRequest(`member '${text}' is not a member of this organization; a system administrator grants the user an organization role first`);
  }
  if (!id) throw badRequest(`member '${text}' names no group of this organization; create it first`);
  return { kind: ref.kind as "user" | "group", id, text };
}

/** Routes of the groups group (tokens are in `token_routes.ts`). */
export function groupRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/organizations/:org/groups" })
    .use(security(ctx))
    .use(routeAccess(ctx))
    .use(groupRules(ctx))
    .use(organizationRules(ctx))
    .get(
      "/",
      async ({ org, query, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listGroups(ctx.sql, org.id, { limit, after: decodeCursor(query.cursor) });
        return pageResponse(request, rows.map(groupView), { limit, key: (g) => g.name, set });
      },
      { params: orgParams, orgAccess: "member", query: pageQuery, detail: { summary: "List the groups of an organization (members)", tags } },
    )
    .post(
      "/",
      async ({ org, params, body, set }) => {
        const group = await ctx.sql.begin(async (tx) => {
          if (await findGroup(tx, org.id, body.name)) throw conflict(`group '${body.name}' already exists in organization '${params.org}'`);
          return await insertGroup(tx, org.id, body);
        });
        set.status = 201;
        return groupView(group);
      },
      {
        params: orgParams,
        orgAccess: "admin",
        body: t.Object({ name: name("name"), description: t.Optional(t.String({ maxLength: 4000 })) }),
        detail: { summary: "Create a group (organization admins only; modelers may not)", tags },
      },
    )
    .get(
      "/:group",
      ({ group }) => groupView(group),
      { params: groupParams, groupAccess: "member", detail: { summary: "Get a group (organization members)", tags } },
    )
    .patch(
      "/:group",
      async ({ group, params, body, principal }) => {
        if (body.name !== undefined && body.name !== group.name) await checkRename(ctx, required(principal), group);
        const updated = await ctx.sql.begin(async (tx) => {
          if (body.name && body.name !== group.name && (await findGroup(tx, group.orgId, body.name))) {
            throw conflict(`group '${body.name}' already exists in organization '${params.org}'`);
          }
          return await updateGroup(tx, group.id, body);
        });
        return groupView(updated);
      },
      {
        params: groupParams,
        groupAccess: "admin",
        body: t.Object({ name: t.Optional(name("name")), description: t.Optional(t.String({ maxLength: 4000 })) }),
        detail: {
          summary: "Update a group (group admins and organization admins; renaming: organization admins only)",
          description: "A group's name is what `#(authorize) groups=[...]` of models trusts, so only organization admins change it (403 otherwise).",
          tags,
        },
      },
    )
    .delete(
      "/:group",
      async ({ params, principal, set }) => {
        const p = required(principal);
        await organizationFor(ctx, p, params.org, { need: ADMIN });
        const group = await groupFor(ctx, p, params);
        await ctx.sql.begin((tx) => deleteGroup(tx, group.id));
        set.status = 204;
      },
      { params: groupParams, access: "custom:organization-admin-then-group", detail: { summary: "Delete a group, its memberships, tokens and grants (organization admins)", tags } },
    )
    .get(
      "/:group/members",
      async ({ group }) => {
        return { members: await listGroupMembers(ctx.sql, group.id) };
      },
      { params: groupParams, groupAccess: "member", detail: { summary: "Get the members of a group", tags } },
    )
    .post(
      "/:group/members",
      async ({ group, body, principal }) => {
        const members = await ctx.sql.begin(async (tx) => {
          await lockMemberships(tx, group.orgId);
          for (const item of body.members) {
            const m = await member(tx, group, item.principal ?? item.userGroupId, principal ?? undefined);
            if (m.kind === "group" && (await wouldCycle(tx, group.id, m.id))) {
              throw badRequest(`adding ${m.text} to group '${group.name}' would make a cycle of nested groups`);
            }
            await putMember(tx, group.id, { kind: m.kind, id: m.id, status: item.status ?? "member" });
          }
          return await listGroupMembers(tx, group.id);
        });
        return { members };
      },
      {
        params: groupParams,
        groupAccess: "admin",
        body: membersBody,
        detail: {
          summary: "Add members (users or groups of the organization); an existing member gets the given status",
          description: "Body `{ members: [{ principal: \"user:x\" | \"group:y\", status?: \"admin\" | \"member\" }] }` " +
            "(`userGroupId` is accepted for `principal`). All or nothing. A nested group that would make a cycle is 400. " +
            "Answers the group's members.",
          tags,
        },
      },
    )
    .delete(
      "/:group/members",
      async ({ group, body, principal }) => {
        const members = await ctx.sql.begin(async (tx) => {
          await lockMemberships(tx, group.orgId);
          for (const item of body.members) await removeMember(tx, group.id, (await member(tx, group, item.principal ?? item.userGroupId)).id);
          return await listGroupMembers(tx, group.id);
        });
        return { members };
      },
      {
        params: groupParams,
        groupAccess: "admin",
        body: membersBody,
        detail: { summary: "Remove members (idempotent for principals that are not members); answers the remaining members", tags },
      },
    )
    .patch(
      "/:group/members/:principal",
      async ({ group, params, body }) => {
        const m = await member(ctx.sql, group, params.principal);
        const ok = await ctx.sql.begin((tx) => setMemberStatus(tx, group.id, { kind: m.kind, id: m.id, status: body.status }));
        if (!ok) throw notFound(`${params.principal} is not a member of group '${group.name}'`);
        return { userGroupId: params.principal, status: body.status };
      },
      { params: memberParams, body: t.Object({ status }), groupAccess: "admin", detail: { summary: "Change a member's status (admin or member)", tags } },
    );
}
