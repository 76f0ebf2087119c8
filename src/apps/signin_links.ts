/**
 * Links to the sign-in page and the browser test, shared by the sign-in,
 * token, console and app routes. They sit with the browser session
 * (`session.ts`) below both the sign-in page and the token routes, so
 * neither `signin/` nor `auth/` imports the other's folder for them.
 * @module
 */
import type { AppContext } from "../context.ts";
import { publicOrigin } from "../mcp/protected_resource.ts";

/** Whether a path would be read by a browser as another host (`//host`, `/\host`; tabs and newlines, which URL parsers drop, left out first). */
function readsAsHost(path: string): boolean {
  const squeezed = path.replace(/[\t\n\r]/g, "");
  return !squeezed.startsWith("/") || squeezed.startsWith("//") || squeezed.startsWith("/\\");
}

/**
 * A same-origin path to return to after sign-in: an absolute path of this
 * service (`/...`, never `//host` or `/\host`), `/` otherwise. The value is
 * resolved as a browser resolves it (dot segments, `%2e`, backslashes) and the
 * result is checked again, so `/.//host` or `/a/..\host`, which resolve to
 * `//host`, are refused too.
 */
export function safeReturn(value: unknown): string {
  if (typeof value !== "string" || readsAsHost(value)) return "/";
  try {
    const url = new URL(value, "http://service.invalid");
    if (url.origin !== "http://service.invalid") return "/";
    const path = url.pathname + url.search + url.hash;
    return readsAsHost(path) ? "/" : path;
  } catch {
    return "/";
  }
}

/** The URL of the sign-in page that returns to `returnTo`. */
export function signInUrl(returnTo: string): string {
  return `/signin?return=${encodeURIComponent(safeReturn(returnTo))}`;
}

/** Whether a request comes from a browser that wants a page (Accept names text/html). */
export function wantsHtml(request: Request): boolean {
  return (request.headers.get("accept") ?? "").includes("text/html");
}

/**
 * Whether a request comes from another site: an `Origin` whose host is not
 * this service's. This service's host is the request's own, or
 * `X-Forwarded-Host` only with `TRUST_PROXY` (a client could send that header
 * itself), or the host of `PUBLIC_URL`. A request without `Origin` is not foreign.
 */
export function foreignOrigin(ctx: AppContext, request: Request): boolean {
  const origin = request.headers.get("origin");
  if (!origin) return false;
  const own = new Set([new URL(publicOrigin(request, { trustProxy: ctx.config.trustProxy })).host]);
  if (ctx.config.publicUrl) own.add(new URL(ctx.config.publicUrl).host);
  try {
    return !own.has(new URL(origin).host);
  } catch {
    return true;
  }
}
