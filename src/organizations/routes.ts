/**
 * Organizations: create, list, get (with the caller's permission), update, delete.
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../http/context.ts";
import { ADMIN, isSystemAdmin } from "../http/access.ts";
import { required } from "../http/auth.ts";
import { conflict, forbidden, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, orgParams, pageQuery } from "../http/params.ts";
import type { Principal } from "../http/principal.ts";
import { security } from "../http/security.ts";
import {
  deleteOrganization,
  findOrganization,
  insertOrganization,
  listOrganizations,
  organizationView,
  updateOrganization,
} from "./store.ts";

const orgBody = t.Object({
  name: name("name"),
  displayName: t.Optional(t.String({ maxLength: 200 })),
  description: t.Optional(t.String({ maxLength: 4000 })),
});

const orgPatch = t.Object({
  displayName: t.Optional(t.String({ maxLength: 200 })),
  description: t.Optional(t.String({ maxLength: 4000 })),
});

/** Loads an organization the caller can see (404 otherwise) and checks the rank it needs (403). */
export async function organizationFor(ctx: AppContext, principal: Principal, orgName: string, need = 1) {
  const org = await findOrganization(ctx.sql, orgName, principal);
  if (!org || org.rank < 1) throw notFound(`organization '${orgName}' not found`);
  if (org.rank < need) throw forbidden(`organization '${orgName}': this operation needs the admin role; you are ${org.permission}`);
  return org;
}

/** Routes of the organizations group. */
export function organizationRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/organizations" })
    .use(security(ctx))
    .post(
      "/",
      async ({ body, principal, set }) => {
        const p = required(principal);
        if (!isSystemAdmin(p)) throw forbidden("only a system administrator can create organizations (or use an invite token)");
        const org = await ctx.sql.begin(async (tx) => {
          const [exists] = await tx`SELECT 1 FROM organizations WHERE name = ${body.name}`;
          if (exists) throw conflict(`organization '${body.name}' already exists`);
          return await insertOrganization(tx, body, p.kind === "user" ? p.userId : null);
        });
        set.status = 201;
        return organizationView(org);
      },
      { body: orgBody, detail: { summary: "Create an organization", tags: ["organizations"] } },
    )
    .get(
      "/",
      async ({ principal, query, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listOrganizations(ctx.sql, required(principal), { limit, after: decodeCursor(query.cursor) });
        return pageResponse(request, rows.map(organizationView), { limit, key: (r) => r.name, set });
      },
      { query: pageQuery, detail: { summary: "List the organizations the caller belongs to", tags: ["organizations"] } },
    )
    .get(
      "/:org",
      async ({ params, principal }) => organizationView(await organizationFor(ctx, required(principal), params.org)),
      { params: orgParams, detail: { summary: "Get an organization with the caller's permission", tags: ["organizations"] } },
    )
    .patch(
      "/:org",
      async ({ params, body, principal }) => {
        const org = await organizationFor(ctx, required(principal), params.org, ADMIN);
        return { ...organizationView(await updateOrganization(ctx.sql, org.id, body)), permission: org.permission };
      },
      { params: orgParams, body: orgPatch, detail: { summary: "Update an organization (partial)", tags: ["organizations"] } },
    )
    .delete(
      "/:org",
      async ({ params, principal, set }) => {
        const org = await organizationFor(ctx, required(principal), params.org, ADMIN);
        await ctx.sql.begin((tx) => deleteOrganization(tx, org.id));
        set.status = 204;
      },
      { params: orgParams, detail: { summary: "Delete an organization and everything in it (irreversible)", tags: ["organizations"] } },
    );
}
