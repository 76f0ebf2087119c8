/**
 * Trusted attributes of an organization: declare a schema, set and delete
 * user and group values. Reading needs the organization modeler role (models
 * use the attributes), changing needs organization admin.
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, orgParams, pageQuery } from "../http/params.ts";
import { security } from "../http/security.ts";
import { organizationRules } from "../organizations/route_rules.ts";
import { isMember } from "../organizations/store.ts";
import { findGroup } from "../groups/store.ts";
import {
  ATTRIBUTE_TYPES,
  checkValue,
  deleteGroupValue,
  deleteUserValue,
  listAttributes,
  putAttribute,
  putGroupValue,
  putUserValue,
} from "./store.ts";

const attrParams = t.Object({ org: name("organizationName"), attr: name("attributeName") });
const userParams = t.Object({ org: name("organizationName"), attr: name("attributeName"), userName: name("userName") });
const groupParams = t.Object({ org: name("organizationName"), attr: name("attributeName"), group: name("groupName") });
const tags = ["attributes"];

/** The attribute `{attr}` of the organization the route's `orgAccess` resolved (404 when not declared). */
async function attributeFor(ctx: AppContext, org: { id: string }, params: { org: string; attr: string }) {
  const [attr] = await listAttributes(ctx.sql, org.id, { limit: 1, name: params.attr });
  if (!attr) throw notFound(`attribute '${params.attr}' is not declared in organization '${params.org}'; declare it with PUT first`);
  return { org, attr };
}

function withoutId<T extends { id: string }>(row: T): Omit<T, "id"> {
  const { id: _id, ...view } = row;
  return view;
}

/** Routes of the attributes group. */
export function attributeRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/organizations/:org/attributes" })
    .use(security(ctx))
    .use(organizationRules(ctx))
    .get(
      "/",
      async ({ org, query, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listAttributes(ctx.sql, org.id, { limit, after: decodeCursor(query.cursor) });
        return pageResponse(request, rows.map(withoutId), { limit, key: (a) => a.name, set });
      },
      {
        params: orgParams,
        orgAccess: "modeler",
        query: pageQuery,
        detail: { summary: "List attributes (pages over names; every value of each is embedded, not bounded by the page)", tags },
      },
    )
    .get(
      "/:attr",
      async ({ org, params }) => withoutId((await attributeFor(ctx, org, params)).attr),
      { params: attrParams, orgAccess: "modeler", detail: { summary: "Get an attribute with its user and group values", tags } },
    )
    .put(
      "/:attr",
      async ({ org, params, body, set }) => {
        if (body.defaultValue !== undefined && body.defaultValue !== null) checkValue(body.type, body.defaultValue, "defaultValue");
        const created = await ctx.sql.begin((tx) => putAttribute(tx, org.id, { name: params.attr, type: body.type, defaultValue: body.defaultValue }));
        set.status = created ? 201 : 200;
        const [attr] = await listAttributes(ctx.sql, org.id, { limit: 1, name: params.attr });
        return withoutId(attr!);
      },
      {
        params: attrParams,
        orgAccess: "admin",
        body: t.Object({
          type: t.Union(ATTRIBUTE_TYPES.map((v) => t.Literal(v)), { error: `type must be one of ${ATTRIBUTE_TYPES.join(", ")}` }),
          defaultValue: t.Optional(t.Any()),
        }),
        detail: {
          summary: "Declare or replace an attribute's schema (organization admin)",
          description:
            "201 when declared, 200 when replaced (same type: user and group values stay). Changing the type while user or group values exist answers 409 CONFLICT naming how many values and which published sources bind the attribute with #(bind); delete the values first. Boolean, number, string and string_list values are stored and returned as JSON of that type.",
          tags,
        },
      },
    )
    .put(
      "/:attr/users/:userName",
      async ({ org, params, body }) => {
        const { attr } = await attributeFor(ctx, org, params);
        checkValue(attr.type, body.value, "value");
        const [user] = await ctx.sql`SELECT id FROM users WHERE user_name = ${params.userName}`;
        if (!user || !(await isMember(ctx.sql, user.id as string, org.id))) {
          throw notFound(`user '${params.userName}' is not a member of organization '${params.org}'`);
        }
        await ctx.sql.begin((tx) => putUserValue(tx, attr.id, { userId: user.id as string, value: body.value }));
        return { userName: params.userName, value: body.value };
      },
      {
        params: userParams,
        orgAccess: "admin",
        body: t.Object({ value: t.Any() }),
        detail: { summary: "Set a user's value (type-checked against the attribute)", tags },
      },
    )
    .delete(
      "/:attr/users/:userName",
      async ({ org, params, set }) => {
        const { attr } = await attributeFor(ctx, org, params);
        await ctx.sql.begin((tx) => deleteUserValue(tx, attr.id, params.userName));
        set.status = 204;
      },
      { params: userParams, orgAccess: "admin", detail: { summary: "Delete a user's value (idempotent: 204 also when there was none)", tags } },
    )
    .put(
      "/:attr/groups/:group",
      async ({ org, params, body }) => {
        const { attr } = await attributeFor(ctx, org, params);
        checkValue(attr.type, body.value, "value");
        const group = await findGroup(ctx.sql, org.id, params.group);
        if (!group) throw notFound(`group '${params.group}' not found in organization '${params.org}'`);
        const rank = body.rank ?? null;
        await ctx.sql.begin((tx) => putGroupValue(tx, attr.id, { groupId: group.id, value: body.value, rank }));
        return { groupName: group.name, value: body.value, rank };
      },
      {
        params: groupParams,
        orgAccess: "admin",
        body: t.Object({
          value: t.Any(),
          rank: t.Optional(t.Union([t.Integer({ minimum: -1_000_000, maximum: 1_000_000 }), t.Null()], { error: "rank must be an integer or null" })),
        }),
        detail: {
          summary: "Set a group's value and rank (lower rank wins among scalar group values; null ranks last)",
          tags,
        },
      },
    )
    .delete(
      "/:attr/groups/:group",
      async ({ org, params, set }) => {
        const { attr } = await attributeFor(ctx, org, params);
        await ctx.sql.begin((tx) => deleteGroupValue(tx, attr.id, params.group));
        set.status = 204;
      },
      { params: groupParams, orgAccess: "admin", detail: { summary: "Delete a group's value (idempotent)", tags } },
    );
}

