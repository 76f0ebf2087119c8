/**
 * The OAuth 2.1 authorization server of the MCP endpoints (MCP authorization
 * spec): metadata (RFC 8414), dynamic client registration (RFC 7591), the
 * authorization endpoint with its sign-in and consent page, the token endpoint
 * (authorization code + PKCE S256, refresh rotation) and revocation (RFC 7009).
 * Access tokens are bound to one MCP resource (RFC 8707) and accepted only there.
 * @module
 */
import { publicAccess } from "../http/route_access.ts";
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { requestMeta } from "../http/request_meta.ts";
import { createRateLimiter } from "../http/rate_limit.ts";
import { ApiError } from "../http/errors.ts";
import { oauthError } from "./params.ts";
import { discoveryCacheControl, serviceOrigin } from "../mcp/protected_resource.ts";
import { showAuthorization, submitAuthorization } from "./authorize.ts";
import { authorizationServerMetadata } from "./metadata.ts";
import { registerClient } from "./register.ts";
import { revokeEndpoint, tokenEndpoint } from "./token.ts";

/** Client registrations a client address may make per minute (less when `RATE_LIMIT_PER_MINUTE` is lower; 0 disables). */
const REGISTRATIONS_PER_MINUTE = 20;

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "content-type, authorization, mcp-protocol-version",
  "access-control-max-age": "600",
};

/**
 * Token requests that fail (unknown, reused or expired codes and refresh tokens, unknown clients) count
 * toward the client address's failed authentications (`AUTH_MAX_FAILURES_PER_MINUTE`); over it: 429.
 */
async function countedFailures(ctx: AppContext, request: Request, handle: () => Promise<Response>): Promise<Response> {
  const key = `address:${requestMeta(request)?.address ?? "unknown"}`;
  try {
    ctx.identity.authFailures.check(key);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const response = oauthError("too_many_requests", error.message, 429);
    for (const [k, v] of Object.entries(error.headers)) response.headers.set(k, v);
    return response;
  }
  const response = await handle();
  if (response.status === 400 || response.status === 401) {
    const body = (await response.clone().json().catch(() => ({}))) as { error?: string };
    if (body.error === "invalid_grant" || body.error === "invalid_client") ctx.identity.authFailures.fail(key);
  }
  return response;
}

/** Elysia plugin of the authorization server endpoints. */
export function oauthRoutes(ctx: AppContext) {
  const perMinute = ctx.config.rateLimitPerMinute;
  // Registrations have their own bucket: they never use up the sign-in attempts of the address (those are
  // counted on failure by the sign-in guard, per account and per address).
  const registrations = createRateLimiter(perMinute === 0 ? 0 : Math.min(perMinute, REGISTRATIONS_PER_MINUTE));
  const detail = (summary: string) => ({ summary, tags: ["oauth"], security: [] });
  const route = (request: Request, path: string) => {
    const meta = requestMeta(request);
    if (meta) meta.route = path;
  };
  const metadata = ({ request }: { request: Request }) =>
    Response.json(authorizationServerMetadata(serviceOrigin(ctx.config, request)), {
      headers: { "cache-control": discoveryCacheControl(ctx.config), "access-control-allow-origin": "*" },
    });
  const preflight = () => new Response(null, { status: 204, headers: CORS });
  return new Elysia({ name: "oauth", seed: ctx.id })
    .use(publicAccess)
    .get("/.well-known/oauth-authorization-server", metadata, { detail: detail("Authorization server metadata (RFC 8414)") })
    .options("/.well-known/oauth-authorization-server", preflight)
    .post("/oauth/register", ({ request }) => {
      route(request, "/oauth/register");
      registrations.take(`address:${requestMeta(request)?.address ?? "unknown"}`);
      return registerClient(ctx.sql, request);
    }, { parse: "none", access: "public", detail: detail("Dynamic client registration (RFC 7591) of a public client") })
    .options("/oauth/register", preflight)
    .get("/oauth/authorize", ({ request }) => showAuthorization(ctx, request), {
      access: "public", detail: detail("Authorization endpoint: sign-in and consent page (authorization code, PKCE S256, resource required)"),
    })
    .post("/oauth/authorize", ({ request }) => submitAuthorization(ctx, request), {
      parse: "none",
      access: "public", detail: detail("Submits the sign-in and consent form; redirects back with code and state"),
    })
    .post("/oauth/token", ({ request }) => countedFailures(ctx, request, () => tokenEndpoint(ctx, request)), {
      parse: "none",
      access: "public", detail: detail("Token endpoint: authorization_code (with code_verifier) and refresh_token grants"),
    })
    .options("/oauth/token", preflight)
    .post("/oauth/revoke", ({ request }) => revokeEndpoint(ctx, request), {
      parse: "none",
      access: "public", detail: detail("Token revocation (RFC 7009): ends the authorization of a refresh or access token"),
    })
    .options("/oauth/revoke", preflight);
}
