/**
 * The browser session: the sign-in page sets it as an `HttpOnly`,
 * `SameSite=Strict` cookie (`Secure` behind https), and only the app-token
 * endpoint, the app files and the sign-in pages read it. The REST API and MCP
 * read `Authorization` only, so no cross-site request acts with the cookie.
 * @module
 */
import { principalOf } from "./scope.ts";
import { signCredential, subjectOf, verifyCredential } from "./credentials.ts";
import type { AppContext } from "../context.ts";
import type { Principal } from "../access/principal.ts";

/** Name of the browser session cookie. */
const SESSION_COOKIE = "mp_session";

/** The value of a cookie of a request. */
function cookieValue(request: Request, cookieName: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === cookieName) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** Whether the browser reached the service over https (the URL, or `X-Forwarded-Proto` with `TRUST_PROXY`). */
function overHttps(ctx: AppContext, request: Request): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  return ctx.config.trustProxy && request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https";
}

/** The caller of the browser session cookie, `null` without a valid one. */
export async function sessionPrincipal(ctx: AppContext, request: Request): Promise<Principal | null> {
  const token = cookieValue(request, SESSION_COOKIE);
  if (!token) return null;
  const claims = await verifyCredential(ctx.jwtSecret, "session", token);
  return claims ? await principalOf(ctx.sql, claims.subject) : null;
}

/** The `Set-Cookie` value of a new browser session of a principal. */
export async function sessionCookie(ctx: AppContext, request: Request, principal: Principal): Promise<string> {
  const ttl = ctx.config.sessionTtlSeconds;
  const { token } = await signCredential(ctx.jwtSecret, "session", { subject: await subjectOf(ctx.sql, principal), ttlSeconds: ttl });
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${ttl}; HttpOnly; SameSite=Strict${overHttps(ctx, request) ? "; Secure" : ""}`;
}

/** The `Set-Cookie` value that ends the browser session. */
export function clearSessionCookie(ctx: AppContext, request: Request): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${overHttps(ctx, request) ? "; Secure" : ""}`;
}
