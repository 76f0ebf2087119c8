/**
 * System permissions: the system admin role, held by users only
 * (`users.system_admin`, which the access core reads).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { badRequest, conflict } from "../http/errors.ts";
import { parsePrincipal, userGroupParam } from "../http/params.ts";
import { routeAccess } from "../http/route_access.ts";
import { security } from "../http/security.ts";

/** A system administrator's row. */
type AdminRow = { user_name: string; created_at: Date; updated_at: Date };

function view(r: AdminRow) {
  return {
    userGroupId: `user:${r.user_name}`,
    permission: "admin",
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

/** `POST /permissions` (grant or revoke system admin) and `GET /permissions` (list system admins). */
export function systemPermissionRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/permissions" })
    .use(security(ctx))
    .use(routeAccess(ctx))
    .get(
      "/",
      async () => {
        const rows = await ctx.sql<AdminRow[]>`SELECT user_name, created_at, updated_at FROM users WHERE system_admin ORDER BY user_name`;
        return rows.map(view);
      },
      { access: "system:admin", detail: { summary: "List system permissions (system admins)", tags: ["permissions"] } },
    )
    .post(
      "/",
      async ({ body, set }) => {
        const ref = parsePrincipal(body.userGroupId);
        if (ref.kind !== "user") throw badRequest("the system admin role is held by users only: use userGroupId user:<userName>");
        if (body.permission !== "admin") throw badRequest(`permission '${body.permission}' is not a system role; the only one is admin`);
        const row = await ctx.sql.begin(async (tx) => {
          await tx`SELECT 1 FROM users WHERE system_admin FOR UPDATE`;
          const [u] = await tx<{ id: string; system_admin: boolean }[]>`SELECT id, system_admin FROM users WHERE user_name = ${ref.name} FOR UPDATE`;
          if (!u) throw badRequest(`userGroupId '${body.userGroupId}' names no user; create it first with POST /users`);
          if (body.revoke && u.system_admin) {
            const [n] = await tx<{ n: number }[]>`SELECT count(*)::int AS n FROM users WHERE system_admin`;
            if (n!.n <= 1) throw conflict("cannot revoke the last system administrator; grant another user first");
          }
          const [r] = await tx<AdminRow[]>`UPDATE users SET system_admin = ${!body.revoke}, updated_at = now()
                                WHERE id = ${u.id} RETURNING user_name, created_at, updated_at`;
          return r!;
        });
        if (body.revoke) {
          set.status = 204;
          return;
        }
        set.status = 201;
        return view(row);
      },
      {
        body: t.Object({
          userGroupId: userGroupParam,
          permission: t.String({ maxLength: 32, error: "permission must be admin" }),
          revoke: t.Optional(t.Boolean()),
        }),
        access: "system:admin",
        detail: {
          summary: "Grant or revoke the system admin role",
          description: "Body `{ userGroupId: \"user:<name>\", permission: \"admin\", revoke?: true }`. Granting answers 201 with " +
            "the permission (idempotent); revoking answers 204 (idempotent); revoking the last system admin is 409. " +
            "Only users hold the system role. Takes effect on the user's next request.",
          tags: ["permissions"],
        },
      },
    );
}
