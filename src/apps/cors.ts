/**
 * CORS of the routes an in-package app calls: a sandboxed app's requests come
 * from the opaque origin `null` (or from `APP_ORIGIN` when apps are served
 * there). Only the app-token endpoint, the events stream and the package's
 * models and query routes answer them, and never with credentials: the app
 * sends its app token as `Authorization`, cookies are not allowed.
 * @module
 */
import type { AppContext } from "../context.ts";
import { appRouteOf } from "./scope.ts";

function allowedOrigin(ctx: AppContext, request: Request): string | null {
  const origin = request.headers.get("origin");
  if (!origin) return null;
  if (origin === "null") return "null";
  return ctx.config.appOrigin && origin === ctx.config.appOrigin ? origin : null;
}

/** The answer to a CORS preflight of an app route, `null` for any other request. */
export function appPreflight(ctx: AppContext, request: Request): Response | null {
  if (request.method !== "OPTIONS") return null;
  const method = request.headers.get("access-control-request-method");
  const origin = allowedOrigin(ctx, request);
  if (!method || !origin || !appRouteOf(method, new URL(request.url).pathname)) return null;
  return new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": method === "POST" ? "POST" : "GET",
      "access-control-allow-headers": "authorization, content-type, last-event-id",
      "access-control-max-age": "600",
      vary: "Origin",
    },
  });
}

/** Adds the CORS headers of an app route's response (errors included, so the app can read a 401). */
export function withAppCors(ctx: AppContext, request: Request, response: Response): Response {
  const origin = allowedOrigin(ctx, request);
  if (!origin || !appRouteOf(request.method, new URL(request.url).pathname)) return response;
  const set = (r: Response) => {
    r.headers.set("access-control-allow-origin", origin);
    r.headers.set("access-control-expose-headers", "x-version-id, x-request-id");
    r.headers.append("vary", "Origin");
    r.headers.delete("access-control-allow-credentials");
  };
  try {
    set(response);
    return response;
  } catch {
    const copy = new Response(response.body, response);
    set(copy);
    return copy;
  }
}
