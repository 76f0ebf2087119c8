/**
 * The consumption MCP server over the Streamable HTTP transport:
 * `/mcp/{org}` (packages of the organization the caller may read) and
 * `/mcp/{org}/workspace/{workspace_name}` (only that workspace's packages),
 * plus their protected resource metadata (RFC 9728) under
 * `/.well-known/oauth-protected-resource/mcp/...`.
 *
 * Stateless: every POST builds a fresh server and transport
 * (`sessionIdGenerator: undefined`) and answers with one JSON body
 * (`enableJsonResponse: true`), except a POST of one `tools/call` request,
 * answered by the same tool code without them (./direct_call.ts), so any copy of the service can answer any
 * request and nothing is kept between requests. GET (a standalone SSE stream)
 * and DELETE (ending a session) have nothing to serve here: `405`.
 * @module
 */
import { Elysia, t } from "elysia";
import { publicAccess } from "../http/route_access.ts";
import { jwt } from "@elysiajs/jwt";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { required } from "../http/auth.ts";
import { authenticate, externalIdp } from "../credentials/authenticate.ts";
import type { TokenSigner } from "../context.ts";
import type { AppContext } from "../context.ts";
import { requestMeta } from "../http/request_meta.ts";
import { ApiError, forbidden, notFound } from "../http/errors.ts";
import { name } from "../http/params.ts";
import { principalLabel, rateLimitKey, type Principal } from "../access/principal.ts";
import { organizationFor } from "../organizations/lookup.ts";
import { challenge, discoveryCacheControl, mcpPath, originAllowed, serviceOrigin, resourceMetadata } from "./protected_resource.ts";
import { createMcpServer } from "./server.ts";
import { directToolCall, extraMessages } from "./direct_call.ts";
import { visibleWorkspace } from "./store.ts";
import type { ContextSearcher, QueryRunner, ToolScope } from "./tools.ts";

/** Options of {@link mcpRoutes}: the implementations behind the tools (absent until built). */
export interface McpRoutesOptions {
  queryRunner?: QueryRunner;
  contextSearcher?: ContextSearcher;
}

/** Largest JSON-RPC body accepted (bytes). */
const MAX_BODY_BYTES = 1024 * 1024;

const orgOnly = t.Object({ org: name("organizationName") });
const orgAndWorkspace = t.Object({ org: name("organizationName"), workspace_name: name("workspace_name") });

interface McpParams {
  org: string;
  workspace_name?: string;
}

/**
 * The organization of an API key's own endpoint without another lookup: the
 * key's group belongs to that organization, and belonging to a group of an
 * organization makes a member of it (`effective_rank`), so the key always
 * sees it. The group and its organization were read with the token (or from
 * the credentials cache, which any change of them drops: http/auth_cache.ts),
 * so a deleted key or group still fails on the next request.
 */
function ownOrganization(principal: Principal, orgName: string): { id: string; name: string } | undefined {
  return principal.kind === "group" && principal.orgName === orgName ? { id: principal.orgId, name: principal.orgName } : undefined;
}

/** Who calls which endpoint: a 401 with the endpoint's challenge, or the principal and scope. */
async function resolveCaller(ctx: AppContext, request: Request, params: McpParams, signer: TokenSigner): Promise<{ principal: Principal; scope: ToolScope }> {
  const origin = serviceOrigin(ctx.config, request);
  const path = mcpPath(params.org, params.workspace_name);
  if (!originAllowed(request, ctx.config.mcpAllowedOrigins)) {
    throw forbidden(`Origin '${request.headers.get("origin")}' may not call this MCP endpoint; an administrator can allow it with MCP_ALLOWED_ORIGINS`);
  }
  const idp = externalIdp(ctx.config);
  const oauth = { secret: ctx.jwtSecret, issuer: origin, resource: `${origin}${path}` };
  const failures = ctx.identity.authFailures;
  const address = requestMeta(request)?.address;
  const since = requestMeta(request)?.start ?? performance.now();
  const found = await authenticate({ sql: ctx.sql, signer, idp, oauth, challenge: challenge(origin, path, { invalidToken: true }), failures, address, since }, request);
  if (!found) ctx.limiter.take(`address:${requestMeta(request)?.address ?? "unknown"}`);
  const principal = required(found, challenge(origin, path));
  const meta = requestMeta(request);
  if (meta) {
    meta.principal = principalLabel(principal);
    meta.route = params.workspace_name === undefined ? "/mcp/:org" : "/mcp/:org/workspace/:workspace_name";
  }
  ctx.limiter.take(rateLimitKey(principal));
  const org = ownOrganization(principal, params.org) ?? await organizationFor(ctx, principal, params.org, { since });
  const scope: ToolScope = { orgId: org.id, orgName: org.name, signal: request.signal, since };
  if (params.workspace_name !== undefined) {
    const workspace = await visibleWorkspace(ctx.sql, principal, { orgId: org.id, name: params.workspace_name });
    if (!workspace) throw notFound(`workspace '${params.workspace_name}' not found in organization '${params.org}'`);
    scope.workspace = workspace;
  }
  return { principal, scope };
}

/**
 * Server-to-server clients that follow the seed send `Content-Type:
 * application/json` and often no `Accept` (or `*\/*`); the transport wants both
 * JSON and SSE listed. Every answer here is JSON, so such a request is treated
 * as accepting both. An `Accept` that excludes JSON is left for the transport to refuse (406).
 */
function acceptingJson(request: Request): Request {
  const accept = request.headers.get("accept") ?? "";
  if (accept.includes("application/json") && accept.includes("text/event-stream")) return request;
  if (accept !== "" && !accept.includes("*/*") && !accept.includes("application/json")) return request;
  const headers = new Headers(request.headers);
  headers.set("accept", "application/json, text/event-stream");
  return new Request(request, { headers });
}

/** Answers one MCP request. */
async function serve(ctx: AppContext, request: Request, params: McpParams, signer: TokenSigner, options: McpRoutesOptions): Promise<Response> {
  const { principal, scope } = await resolveCaller(ctx, request, params, signer);
  if (request.method !== "POST") {
    throw new ApiError("VALIDATION_ERROR", `${request.method} is not served: this MCP endpoint is stateless; send JSON-RPC messages with POST`, {
      status: 405,
      headers: { allow: "POST" },
    });
  }
  const requestId = requestMeta(request)?.id;
  const serverOptions = { ...options, scope, requestId, log: (line: Record<string, unknown>) => ctx.log(line) };
  // one tools/call request (nearly every request of an agent) is answered without an SDK server and transport
  const direct = await directToolCall(acceptingJson(request), principal, { ...serverOptions, maxBodyBytes: MAX_BODY_BYTES });
  if (direct instanceof Response) return direct;
  // the rate limit counts messages, not POSTs: each message of a batch past the first takes a token of its own
  const extra = extraMessages(direct.text);
  if (extra > 0) ctx.limiter.take(rateLimitKey(principal), extra);
  const server = createMcpServer(principal, serverOptions);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await server.connect(transport);
  try {
    return await transport.handleRequest(direct.request);
  } finally {
    await server.close();
  }
}

/** Elysia plugin of the MCP endpoints and their protected resource metadata. */
export function mcpRoutes(ctx: AppContext, options: McpRoutesOptions = {}) {
  const detail = (summary: string) => ({ summary, tags: ["mcp"] });
  const metadata = ({ request, params }: { request: Request; params: McpParams }) =>
    Response.json(resourceMetadata(serviceOrigin(ctx.config, request), mcpPath(params.org, params.workspace_name)), {
      headers: { "cache-control": discoveryCacheControl(ctx.config) },
    });
  type Handler = { request: Request; params: McpParams; jwt: unknown };
  const handler = ({ request, params, jwt: signer }: Handler) => serve(ctx, request, params, signer as TokenSigner, options);
  const app = new Elysia({ name: "mcp", seed: ctx.id })
    .use(publicAccess)
    .use(jwt({ name: "jwt", secret: ctx.jwtSecret, alg: "HS256", exp: `${ctx.config.jwtTtlSeconds}s` }))
    .get("/.well-known/oauth-protected-resource/mcp/:org", metadata, {
      params: orgOnly,
      detail: detail("Protected resource metadata (RFC 9728) of an organization's MCP endpoint"),
    })
    .get("/.well-known/oauth-protected-resource/mcp/:org/workspace/:workspace_name", metadata, {
      params: orgAndWorkspace,
      detail: detail("Protected resource metadata (RFC 9728) of a workspace's MCP endpoint"),
    });
  for (const [path, params] of [["/mcp/:org", orgOnly], ["/mcp/:org/workspace/:workspace_name", orgAndWorkspace]] as const) {
    app
      // resolveCaller: a bearer token (or API key) whose principal sees the organization, or the workspace (404 otherwise)
      .post(path, handler, { params, parse: "none", access: "custom:mcp-caller", detail: detail("MCP Streamable HTTP endpoint (JSON-RPC 2.0 over POST)") })
      .get(path, handler, { params, access: "custom:mcp-caller", detail: detail("Not served (stateless endpoint): 405") })
      .delete(path, handler, { params, access: "custom:mcp-caller", detail: detail("Not served (stateless endpoint): 405") });
  }
  return app;
}
