/**
 * `POST /auth/token`: exchanges a user name (or email) and password for an access token.
 * Failed attempts are limited per account and per client address (429 with `Retry-After`).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../http/context.ts";
import { unauthenticated, badRequest } from "../http/errors.ts";
import { security } from "../http/security.ts";
import { routeAccess } from "../http/route_access.ts";
import { accessTokenClaims, checkPassword } from "./signin.ts";

/** Routes of the auth family. */
export function authRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/auth" }).use(security(ctx)).use(routeAccess(ctx)).post(
    "/token",
    async ({ body, signer, request }) => {
      if (!body.userName && !body.email) throw badRequest("give userName or email, and password");
      const user = await checkPassword(ctx, request, body.userName ? { userName: body.userName } : { email: body.email }, body.password);
      if (!user) throw unauthenticated("user name or password is wrong");
      const accessToken = await signer.sign(accessTokenClaims(user));
      return { accessToken, tokenType: "Bearer", expiresIn: ctx.config.jwtTtlSeconds };
    },
    {
      access: "public",
      body: t.Object({
        userName: t.Optional(t.String({ minLength: 1, maxLength: 128 })),
        email: t.Optional(t.String({ minLength: 1, maxLength: 320 })),
        password: t.String({ minLength: 1, maxLength: 1024, error: "password is required" }),
      }),
      detail: {
        summary: "Get an access token",
        description: "Failed sign-ins are limited per account (LOGIN_MAX_FAILURES_ACCOUNT) and per client address " +
          "(LOGIN_MAX_FAILURES_ADDRESS) within LOGIN_FAILURE_WINDOW_SECONDS: over either, 429 with Retry-After.",
        tags: ["auth"],
        security: [],
      },
    },
  );
}
