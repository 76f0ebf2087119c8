/**
 * `APP_ORIGIN`: in-package apps on an origin of their own. When it is set:
 *
 * - the app origin serves app files only (`GET` and the launch `POST` of
 *   `.../packages/{pkg}/app/...`): every other request there is a 404, so it
 *   serves no REST API, no MCP, no sign-in; `Authorization` and `Cookie` are
 *   removed from its requests before routing, so no credential of the
 *   platform (access token, API key, browser session) is valid there;
 * - the platform origin (`PUBLIC_URL`) serves no app file: it signs the
 *   viewer in and sends the browser to the app origin (a launch form for
 *   pages, a redirect for other files).
 *
 * The app files keep the sandbox CSP on both origins. The data-app runtime
 * (`/sdk/publisher.js`, no credential in it) is served on both.
 * @module
 */
import type { AppContext } from "../context.ts";
import { publicOrigin } from "../mcp/protected_resource.ts";

const APP_FILE_PATH = /^\/api\/v0\/organizations\/[^/]+\/(?:environments|projects)\/[^/]+\/packages\/[^/]+\/app(?:\/.*)?$/;

/** Where the runtime of Publisher-style data apps is served (`./sdk_routes.ts`). */
export const SDK_PATH = "/sdk/publisher.js";

/** Whether a path is an app file route (`.../packages/{pkg}/app` or below). */
function isAppFilePath(pathname: string): boolean {
  return APP_FILE_PATH.test(pathname);
}

/** Whether a request was sent to `APP_ORIGIN` (by its host, or `X-Forwarded-Host` with `TRUST_PROXY`). */
export function atAppOrigin(ctx: AppContext, request: Request): boolean {
  const appOrigin = ctx.config.appOrigin;
  if (!appOrigin) return false;
  return new URL(publicOrigin(request, { trustProxy: ctx.config.trustProxy })).host === new URL(appOrigin).host;
}

function notHere(): Response {
  return Response.json(
    { code: "RESOURCE_NOT_FOUND", message: "this origin (APP_ORIGIN) serves in-package app files only; the API is at PUBLIC_URL" },
    { status: 404, headers: { "cache-control": "no-store", "x-content-type-options": "nosniff" } },
  );
}

/**
 * The gate of the app origin, run before routing: the request to route
 * (without `Authorization` and `Cookie`) when it is an app file request, a
 * 404 for anything else. Requests to any other host pass unchanged.
 */
export async function appOriginGate(ctx: AppContext, request: Request): Promise<Request | Response> {
  if (!atAppOrigin(ctx, request)) return request;
  const { pathname } = new URL(request.url);
  if (pathname === SDK_PATH && request.method === "GET") return request;
  if (!isAppFilePath(pathname) || (request.method !== "GET" && request.method !== "POST")) return notHere();
  const headers = new Headers(request.headers);
  headers.delete("authorization");
  headers.delete("cookie");
  const body = request.method === "POST" ? await request.arrayBuffer() : undefined;
  return new Request(request.url, { method: request.method, headers, body, signal: request.signal });
}
