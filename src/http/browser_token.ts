/**
 * Credentials of browser pages that cannot set `Authorization`: an in-package
 * web app (a navigation) and its `EventSource` of package events. Those two
 * GET routes also accept the access token (or API key) as `?access_token=`,
 * and the app route then sets it as an HttpOnly, SameSite=Strict cookie scoped
 * to the package's path, so the app's own relative assets and its events
 * stream are authenticated too. No other route reads the query or the cookie.
 * @module
 */
import { authenticate, type TokenSigner, externalIdp } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { requestMeta } from "./context.ts";
import type { Principal } from "./principal.ts";

/** Name of the package-path cookie. */
export const APP_TOKEN_COOKIE = "pkg_app_token";

/** Where a browser credential came from. */
export interface BrowserCredential {
  principal: Principal | null;
  /** The token when it came from `?access_token=` (to set as the cookie). */
  fromQuery?: string;
}

function cookieValue(request: Request, cookieName: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === cookieName) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/**
 * The caller of a browser route: the `Authorization` principal when present,
 * else `?access_token=`, else the package-path cookie. A token that looks like
 * a JWT is a Bearer token, anything else an API key. Invalid credentials: 401.
 */
export async function browserPrincipal(
  ctx: AppContext,
  request: Request,
  options: { principal: Principal | null; signer: TokenSigner },
): Promise<BrowserCredential> {
  if (options.principal) return { principal: options.principal };
  const fromQuery = new URL(request.url).searchParams.get("access_token") ?? undefined;
  const token = fromQuery ?? cookieValue(request, APP_TOKEN_COOKIE);
  if (!token) return { principal: null };
  const scheme = token.split(".").length === 3 ? "Bearer" : "ApiKey";
  const idp = externalIdp(ctx.config);
  const probe = new Request(request.url, { headers: { authorization: `${scheme} ${token}` } });
  const failures = ctx.identity.authFailures;
  const principal = await authenticate({ sql: ctx.sql, signer: options.signer, idp, failures, address: requestMeta(request)?.address }, probe);
  return { principal, fromQuery };
}

/** The `Set-Cookie` value that stores a query token for the package's path. */
export function appTokenCookie(token: string, options: { path: string }): string {
  return `${APP_TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=${options.path}; HttpOnly; SameSite=Strict`;
}
