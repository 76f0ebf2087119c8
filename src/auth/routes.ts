/**
 * `POST /auth/token`: exchanges a user name (or email) and password for an access token.
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../http/context.ts";
import { unauthenticated, badRequest } from "../http/errors.ts";
import { security } from "../http/security.ts";
import { findLogin } from "../users/store.ts";

// Verified against when the user does not exist, so both paths cost the same.
const DUMMY_HASH = await Bun.password.hash("not-a-real-password", { algorithm: "argon2id" });

/** Routes of the auth family. */
export function authRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/auth" }).use(security(ctx)).post(
    "/token",
    async ({ body, signer }) => {
      if (!body.userName && !body.email) throw badRequest("give userName or email, and password");
      const user = await findLogin(ctx.sql, body);
      const ok = await Bun.password.verify(body.password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !user.passwordHash || !ok) throw unauthenticated("user name or password is wrong");
      const accessToken = await signer.sign({ sub: user.id, name: user.userName });
      return { accessToken, tokenType: "Bearer", expiresIn: ctx.config.jwtTtlSeconds };
    },
    {
      body: t.Object({
        userName: t.Optional(t.String({ minLength: 1, maxLength: 128 })),
        email: t.Optional(t.String({ minLength: 1, maxLength: 320 })),
        password: t.String({ minLength: 1, maxLength: 1024, error: "password is required" }),
      }),
      detail: { summary: "Get an access token", tags: ["auth"], security: [] },
    },
  );
}
