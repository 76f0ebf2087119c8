/**
 * Effective trusted-attribute values (API.md, "Trusted attributes in
 * queries"): `GET /organizations/{org}/users/{userName}/attributes` (the
 * organization's admins and the user itself) and
 * `GET /organizations/{org}/groups/{group}/attributes` (the group's admins
 * and the organization's admins), answering `[{ name, type, value, from }]`.
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { notFound } from "../http/errors.ts";
import { name } from "../http/params.ts";
import { security } from "../http/security.ts";
import { groupRules } from "../groups/route_rules.ts";
import { organizationRules } from "../organizations/route_rules.ts";
import { isMember } from "../organizations/store.ts";
import { effectiveValues } from "../attributes/effective.ts";

const tags = ["attributes"];

/** Routes of the effective values. */
export function effectiveValueRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/organizations/:org" })
    .use(security(ctx))
    .use(groupRules(ctx))
    .use(organizationRules(ctx))
    .get(
      "/users/:userName/attributes",
      async ({ org, params }) => {
        const [user] = await ctx.sql`SELECT id FROM users WHERE user_name = ${params.userName}`;
        if (!user || !(await isMember(ctx.sql, user.id as string, org.id))) {
          throw notFound(`user '${params.userName}' is not a member of organization '${params.org}'`);
        }
        return await effectiveValues(ctx.sql, { kind: "user", id: user.id as string }, { orgId: org.id });
      },
      {
        params: t.Object({ org: name("organizationName"), userName: name("userName") }),
        orgAccess: "admin-or-self",
        detail: { summary: "Effective attribute values of a user: [{ name, type, value, from }] with from user, group:<name> or default", tags },
      },
    )
    .get(
      "/groups/:group/attributes",
      async ({ group }) => {
        return await effectiveValues(ctx.sql, { kind: "group", id: group.id }, { orgId: group.orgId });
      },
      {
        params: t.Object({ org: name("organizationName"), group: name("groupName") }),
        groupAccess: "admin",
        detail: { summary: "Effective attribute values of a group (what its API keys query with): [{ name, type, value, from }]", tags },
      },
    );
}
