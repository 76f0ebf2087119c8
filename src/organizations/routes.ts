/**
 * Organizations: create, list, get (with the caller's permission), update, delete.
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { required, requiredUser } from "../http/auth.ts";
import { conflict, notFound } from "../http/errors.ts";
import { DEFAULT_LIMIT, decodeCursor, pageResponse } from "../http/paging.ts";
import { name, orgParams, pageQuery } from "../http/params.ts";
import { security } from "../http/security.ts";
import { routeAccess } from "../http/route_access.ts";
import { organizationRules } from "./route_rules.ts";
import { linkInvite, redeemInvite } from "../invites/store.ts";
import { archivesOf, extractionDir, removeUnusedExtractions } from "../archives/store.ts";
import { guardedInvite } from "../invites/redeem.ts";
import { redeemWithPassword } from "./redeem.ts";
import {
  deleteOrganization,
  insertOrganization,
  listMembers,
  listOrganizations,
  organizationView,
  updateOrganization,
} from "./store.ts";
import { beginRetrying } from "../db/lock_order.ts";

const orgBody = t.Object({
  name: name("name"),
  displayName: t.Optional(t.String({ maxLength: 200 })),
  description: t.Optional(t.String({ maxLength: 4000 })),
  /** Redeeming an invite without a session (src/invites/redeem.ts). */
  user: t.Optional(t.Object({
    userName: name("userName"),
    password: t.String({ minLength: 8, maxLength: 1024, error: "user.password must be 8 to 1024 characters" }),
    email: t.Optional(t.String({ format: "email", maxLength: 320, error: "user.email must be an email address" })),
    firstName: t.Optional(t.String({ maxLength: 200 })),
    lastName: t.Optional(t.String({ maxLength: 200 })),
  })),
});

const orgPatch = t.Object({
  displayName: t.Optional(t.String({ maxLength: 200 })),
  description: t.Optional(t.String({ maxLength: 4000 })),
});

/** Routes of the organizations group. */
export function organizationRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/organizations" })
    .use(security(ctx))
    .use(routeAccess(ctx))
    .use(organizationRules(ctx))
    .post(
      "/",
      async ({ body, principal, request, set }) => {
        const invite = request.headers.get("x-invite-token");
        if (!principal && invite !== null && body.user) {
          const { user, ...fields } = body;
          set.status = 201;
          return organizationView(await redeemWithPassword(ctx, request, { invite, org: fields, user }));
        }
        const user = requiredUser(required(principal));
        const create = () => ctx.sql.begin(async (tx) => {
          if (invite !== null) await redeemInvite(tx, invite, user.userId);
          const [exists] = await tx`SELECT 1 FROM organizations WHERE name = ${body.name}`;
          if (exists) throw conflict(`organization '${body.name}' already exists; pick another name`);
          const { user: _redeemer, ...fields } = body;
          const created = await insertOrganization(tx, fields, user.userId);
          if (invite !== null) await linkInvite(tx, invite, created.id);
          return created;
        });
        // an invite token is a secret guessed like a password, with or without a session
        const org = invite !== null ? await guardedInvite(ctx, request, invite, create) : await create();
        set.status = 201;
        return organizationView(org);
      },
      {
        body: orgBody,
        headers: t.Object({ "x-invite-token": t.Optional(t.String({ maxLength: 64 })) }),
        orgCreateAccess: "invite-or-system-admin",
        detail: {
          summary: "Create an organization (system admin, or any logged-in user with an invite)",
          description: "A system admin creates organizations freely. Any other user needs a Bearer access token and header " +
            "`X-Invite-Token`: the invite is consumed in the same transaction (each token creates exactly one organization, " +
            "also under concurrent requests; a failed creation leaves it unconsumed) and the caller becomes the organization's " +
            "admin. Unknown token: 403; used token: 409. A system admin sending the header consumes the invite too. " +
            "Without a session, send `user: { userName, password, email }` in the body: a new user name creates that user " +
            "(who becomes the admin), an existing one signs in with its password; failed attempts and unknown tokens count " +
            "toward the sign-in limits of the client address (429 with Retry-After).",
          tags: ["organizations"],
        },
      },
    )
    .get(
      "/",
      async ({ principal, query, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listOrganizations(ctx.sql, required(principal), { limit, after: decodeCursor(query.cursor) });
        return pageResponse(request, rows.map(organizationView), { limit, key: (r) => r.name, set });
      },
      { query: pageQuery, access: "authenticated", detail: { summary: "List the organizations the caller belongs to", tags: ["organizations"] } },
    )
    .get(
      "/:org",
      ({ org }) => organizationView(org),
      { params: orgParams, orgAccess: "member", detail: { summary: "Get an organization with the caller's permission", tags: ["organizations"] } },
    )
    .patch(
      "/:org",
      async ({ org, body }) => {
        return { ...organizationView(await updateOrganization(ctx.sql, org.id, body)), permission: org.permission };
      },
      { params: orgParams, orgAccess: "admin", body: orgPatch, detail: { summary: "Update an organization (partial)", tags: ["organizations"] } },
    )
    .delete(
      "/:org",
      async ({ org, set }) => {
        const archives = await archivesOf(ctx.sql, { orgId: org.id });
        await beginRetrying(ctx.sql, (tx) => deleteOrganization(tx, org.id));
        // extracted package folders no version uses any more go too
        await removeUnusedExtractions(ctx.sql, extractionDir(ctx.config), archives);
        set.status = 204;
      },
      { params: orgParams, orgAccess: "admin", detail: { summary: "Delete an organization and everything in it (irreversible)", tags: ["organizations"] } },
    )
    .get(
      "/:org/users",
      async ({ org, query, request, set }) => {
        const limit = query.limit ?? DEFAULT_LIMIT;
        const rows = await listMembers(ctx.sql, org.id, { limit, after: decodeCursor(query.cursor) });
        return pageResponse(request, rows, { limit, key: (r) => r.userName, set });
      },
      {
        params: orgParams,
        orgAccess: "member",
        query: pageQuery,
        detail: {
          summary: "List the members of an organization (userName, email, their role)",
          description: "Members hold an approved organization grant (directly) or belong to one of its groups.",
          tags: ["organizations"],
        },
      },
    )
    .get(
      "/:org/users/:userName",
      async ({ org, params }) => {
        const [member] = await listMembers(ctx.sql, org.id, { limit: 1, userName: params.userName });
        if (!member) throw notFound(`user '${params.userName}' is not a member of organization '${params.org}'`);
        return member;
      },
      {
        params: t.Object({ org: name("organizationName"), userName: name("userName") }),
        orgAccess: "member",
        detail: { summary: "Get a member of an organization (caller and target must both be members)", tags: ["organizations"] },
      },
    );
}
