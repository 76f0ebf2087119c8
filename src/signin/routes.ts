/**
 * Browser sign-in: `GET /signin` (the form), `POST /signin` (password; sets the
 * browser session cookie and returns to `return`) and `POST /signout`. The
 * landing page `GET /` is the console's (src/console/routes.ts).
 * @module
 */
import { Elysia } from "elysia";
import { clearSessionCookie, sessionCookie } from "../apps/session.ts";
import type { AppContext } from "../context.ts";
import { requestMeta } from "../http/request_meta.ts";
import { checkPassword } from "../auth/signin.ts";
import { RateLimitedError } from "../errors.ts";
import { publicAccess } from "../http/route_access.ts";
import { PAGE_HEADERS, signInPage } from "./page.ts";
import { foreignOrigin, safeReturn } from "../apps/signin_links.ts";

function html(body: string, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...PAGE_HEADERS, ...extra } });
}

/** The sign-in and sign-out routes. */
export function signInRoutes(ctx: AppContext) {
  const idpUrl = ctx.config.idpSigninUrl;
  return new Elysia()
    .use(publicAccess)
    .get("/signin", ({ query }) => html(signInPage({ returnTo: safeReturn(query.return), idpUrl })), {
      access: "public",
      detail: { summary: "Sign-in page of browsers (password; the identity provider's link when IDP_SIGNIN_URL is set); `?return=` a path of this service", tags: ["auth"], security: [] },
    })
    .post("/signin", async ({ request, body }) => {
      if (foreignOrigin(ctx, request)) return html(signInPage({ returnTo: "/", error: "sign-in from another site is refused", idpUrl }), 403);
      ctx.limiter.take(`address:${requestMeta(request)?.address ?? "unknown"}`);
      const form = (body ?? {}) as Record<string, unknown>;
      const returnTo = safeReturn(form.return);
      const login = typeof form.userName === "string" ? form.userName.trim() : "";
      const password = typeof form.password === "string" ? form.password : "";
      if (!login || !password || login.length > 320 || password.length > 1024) {
        return html(signInPage({ returnTo, error: "give your user name (or email) and password", userName: login, idpUrl }), 400);
      }
      // the same check as POST /auth/token: per-account and per-address failure limits, bounded argon2
      let user;
      try {
        user = await checkPassword(ctx, request, login.includes("@") ? { email: login } : { userName: login }, password);
      } catch (error) {
        if (!(error instanceof RateLimitedError)) throw error;
        return html(signInPage({ returnTo, error: "too many failed sign-ins; try again later", userName: login, idpUrl }), 429, { "retry-after": String(error.retryAfterSeconds) });
      }
      if (!user) {
        return html(signInPage({ returnTo, error: "user name or password is wrong", userName: login, idpUrl }), 401);
      }
      const cookie = await sessionCookie(ctx, request, { kind: "user", userId: user.id, userName: user.userName, systemAdmin: false });
      return new Response(null, { status: 303, headers: { location: returnTo, "set-cookie": cookie, "cache-control": "no-store" } });
    }, { access: "public", detail: { summary: "Sign in a browser (form: userName, password, return); sets the HttpOnly, SameSite=Strict session cookie", tags: ["auth"], security: [] } })
    .post("/signout", ({ request }) => {
      if (foreignOrigin(ctx, request)) return html(signInPage({ returnTo: "/", error: "sign-out from another site is refused", idpUrl }), 403);
      return new Response(null, { status: 303, headers: { location: "/", "set-cookie": clearSessionCookie(ctx, request), "cache-control": "no-store" } });
    }, { access: "public", detail: { summary: "Sign a browser out (clears the session cookie)", tags: ["auth"], security: [] } });
}
