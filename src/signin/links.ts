/**
 * Links to the sign-in page and the browser test, shared by the sign-in and
 * app routes (so the app routes do not import the sign-in route module).
 * @module
 */

/**
 * A same-origin path to return to after sign-in: an absolute path of this
 * service (`/...`, never `//host` or `/\host`), `/` otherwise.
 */
export function safeReturn(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return "/";
  try {
    const url = new URL(value, "http://service.invalid");
    if (url.origin !== "http://service.invalid") return "/";
    return url.pathname + url.search + url.hash;
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
