/**
 * Users: create (system admin), get (self or system admin), update, delete.
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { required } from "../http/auth.ts";
import { badRequest, conflict, forbidden, notFound } from "../http/errors.ts";
import { checkPassword } from "../auth/signin.ts";
import { name } from "../http/params.ts";
import type { Principal } from "../access/principal.ts";
import { routeAccess } from "../http/route_access.ts";
import { userRules } from "./route_rules.ts";
import { security } from "../http/security.ts";
import { deleteUser, findUser, insertUser, updateUser, userView } from "./store.ts";

const email = t.String({ format: "email", maxLength: 320, error: "email must be an email address" });
const password = t.String({ minLength: 8, maxLength: 1024, error: "password must be 8 to 1024 characters" });
const userParams = t.Object({ userName: name("userName") });

function isSelf(p: Principal, userName: string): boolean {
  return p.kind === "user" && p.userName === userName;
}

/** Routes of the users group. */
export function userRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/users" })
    .use(security(ctx))
    .use(routeAccess(ctx))
    .use(userRules(ctx))
    .post(
      "/",
      async ({ body, set }) => {
        const user = await ctx.sql.begin(async (tx) => {
          const [dup] = await tx`SELECT user_name FROM users WHERE user_name = ${body.userName} OR lower(email) = lower(${body.email})`;
          if (dup) throw conflict(dup.user_name === body.userName ? `user '${body.userName}' already exists` : `email '${body.email}' is already used`);
          const { password: plain, ...fields } = body;
          return await insertUser(tx, { ...fields, passwordHash: plain ? await ctx.identity.passwords.hash(plain) : null });
        });
        set.status = 201;
        return userView(user);
      },
      {
        body: t.Object({
          userName: name("userName"),
          email,
          firstName: t.Optional(t.String({ maxLength: 200 })),
          lastName: t.Optional(t.String({ maxLength: 200 })),
          password: t.Optional(password),
          systemAdmin: t.Optional(t.Boolean()),
        }),
        access: "system:admin",
        detail: { summary: "Create a user (system admin)", tags: ["users"] },
      },
    )
    .get(
      "/:userName",
      async ({ params }) => {
        const user = await findUser(ctx.sql, params.userName);
        if (!user) throw notFound(`user '${params.userName}' not found`);
        return userView(user);
      },
      { params: userParams, userAccess: "self-or-admin", detail: { summary: "Get a user (self or system admin)", tags: ["users"] } },
    )
    .patch(
      "/:userName",
      async ({ params, body, principal, request }) => {
        const p = required(principal);
        const { password: plain, currentPassword, ...fields } = body;
        // the email is a credential too (sign-in by email, JWT_USER_CLAIM=email): an access token alone changes neither
        const self = isSelf(p, params.userName);
        const newEmail = self && body.email !== undefined &&
          (await findUser(ctx.sql, params.userName))?.email.toLowerCase() !== body.email.toLowerCase();
        if (self && (plain !== undefined || newEmail)) {
          const what = plain !== undefined ? "password" : "email";
          if (!currentPassword) throw badRequest(`changing your own ${what} needs currentPassword`);
          if (!(await checkPassword(ctx, request, { userName: params.userName }, currentPassword))) {
            throw forbidden(`currentPassword is wrong; your ${what} was not changed`);
          }
        }
        const passwordHash = plain !== undefined ? await ctx.identity.passwords.hash(plain) : undefined;
        const user = await ctx.sql.begin(async (tx) => {
          if (body.email) {
            const [dup] = await tx`SELECT 1 FROM users WHERE lower(email) = lower(${body.email}) AND user_name <> ${params.userName}`;
            if (dup) throw conflict(`email '${body.email}' is already used`);
          }
          return await updateUser(tx, params.userName, { ...fields, passwordHash });
        });
        if (!user) throw notFound(`user '${params.userName}' not found`);
        return userView(user);
      },
      {
        params: userParams,
        body: t.Object({
          email: t.Optional(email),
          firstName: t.Optional(t.String({ maxLength: 200 })),
          lastName: t.Optional(t.String({ maxLength: 200 })),
          password: t.Optional(password),
          currentPassword: t.Optional(t.String({ minLength: 1, maxLength: 1024 })),
          systemAdmin: t.Optional(t.Boolean()),
        }),
        userAccess: "self-or-admin",
        detail: {
          summary: "Update a user: self for profile fields, system admin for everything",
          description: "Changing one's own password or email needs `currentPassword` (missing: 400; wrong: 403, counted as a failed sign-in). " +
            "A new password (own change or an administrator's reset) ends every access token of the user and revokes " +
            "the user's OAuth grants and refresh tokens; group API keys stay.",
          tags: ["users"],
        },
      },
    )
    .delete(
      "/:userName",
      async ({ params, set }) => {
        await ctx.sql.begin(async (tx) => {
          const user = await findUser(tx, params.userName);
          if (!user) throw notFound(`user '${params.userName}' not found`);
          if (user.systemAdmin) {
            const [r] = await tx`SELECT count(*)::int AS n FROM users WHERE system_admin`;
            if ((r!.n as number) <= 1) throw conflict("cannot delete the last system administrator");
          }
          await deleteUser(tx, params.userName);
        });
        set.status = 204;
      },
      { params: userParams, access: "system:admin", detail: { summary: "Delete a user (irreversible; their tokens stop working at once)", tags: ["users"] } },
    );
}
