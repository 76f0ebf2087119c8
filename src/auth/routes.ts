/**
 * `POST /auth/token`: exchanges a user name (or email) and password for an access token.
 * Failed attempts are limited per account and per client address (429 with `Retry-After`).
 * With `{ grantType: "session" }` and the browser session cookie of the sign-in page, it
 * answers a short-lived access token of the signed-in user instead (the console's token).
 * @module
 */
import { Elysia, t } from "elysia";
import type { AppContext } from "../context.ts";
import { unauthenticated, badRequest, forbidden } from "../http/errors.ts";
import { security } from "../http/security.ts";
import type { TokenSigner } from "../context.ts";
import { routeAccess } from "../http/route_access.ts";
import { accessTokenClaims, checkPassword } from "./signin.ts";
import { sessionPrincipal } from "../apps/session.ts";
import { subjectOf } from "../apps/credentials.ts";
import { foreignOrigin } from "../apps/signin_links.ts";

/** Lifetime of a token got with the browser session (seconds; JWT_TTL_S when that is shorter). */
const SESSION_TOKEN_TTL_S = 900;

/** A short-lived access token for the user of the browser session cookie. */
async function sessionToken(ctx: AppContext, request: Request, signer: TokenSigner) {
  if (foreignOrigin(ctx, request)) throw forbidden("a session token is given to pages of this service only, not to another site");
  const principal = await sessionPrincipal(ctx, request);
  if (!principal || principal.kind !== "user") {
    throw unauthenticated("grantType session needs the browser session: sign in at /signin, then ask again from this service's pages");
  }
  const subject = await subjectOf(ctx.sql, principal);
  const ttl = Math.min(SESSION_TOKEN_TTL_S, ctx.config.jwtTtlSeconds);
  const claims = accessTokenClaims({ id: principal.userId, userName: principal.userName, tokenVersion: subject.version ?? -1 });
  const accessToken = await signer.sign({ ...claims, exp: Math.floor(Date.now() / 1000) + ttl });
  return { accessToken, tokenType: "Bearer", expiresIn: ttl };
}

/** Routes of the auth family. */
export function authRoutes(ctx: AppContext) {
  return new Elysia({ prefix: "/auth" }).use(security(ctx)).use(routeAccess(ctx)).post(
    "/token",
    async ({ body, signer, request }) => {
      if (body.grantType === "session") {
        if (body.userName || body.email || body.password) throw badRequest("grantType session takes no userName, email or password: the browser session says who you are");
        return await sessionToken(ctx, request, signer);
      }
      if (!body.userName && !body.email) throw badRequest("give userName or email, and password");
      if (!body.password) throw badRequest("password is required");
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
        password: t.Optional(t.String({ minLength: 1, maxLength: 1024, error: "password is required" })),
        grantType: t.Optional(t.Literal("session", { error: "grantType must be 'session' (or left out to sign in with a password)" })),
      }),
      detail: {
        summary: "Get an access token",
        description: "With `userName` (or `email`) and `password`: a token of JWT_TTL_S seconds. With `{ grantType: \"session\" }` " +
          "and the browser session cookie of `/signin` (sent by this service's own pages only; another site's `Origin` is 403): " +
          "a token of the signed-in user for at most 900 seconds, which the console renews. Failed sign-ins are limited per account (LOGIN_MAX_FAILURES_ACCOUNT) and per client address " +
          "(LOGIN_MAX_FAILURES_ADDRESS) within LOGIN_FAILURE_WINDOW_SECONDS: over either, 429 with Retry-After.",
        tags: ["auth"],
        security: [],
      },
    },
  );
}
