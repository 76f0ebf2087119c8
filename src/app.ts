/**
 * Builds the Elysia app without listening: `main.ts` serves it, tests call
 * {@link createHandler} with plain `Request`s.
 * @module
 */
import { Elysia } from "elysia";
import { openapi } from "@elysiajs/openapi";
import type { Config } from "./config.ts";
import type { Sql } from "./db/database.ts";
import type { AppContext } from "./context.ts";
import { beginRequest, requestMeta } from "./http/request_meta.ts";
import { handleError } from "./http/error_handler.ts";
import { carriesJson, edgeLimits, guardRequest, type EdgeLimits } from "./http/edge.ts";
import { checkJsonBody } from "./http/json_body.ts";
import { ApiError, errorResponse } from "./http/errors.ts";
import { setCursorSecret } from "./http/paging.ts";
import { addEdgeResponses } from "./http/edge_openapi.ts";
import { addServerRoot, hideServerPaths, mayHoldServerPath } from "./http/server_paths.ts";
import { createRateLimiter } from "./http/rate_limit.ts";
import { createIdentityServices } from "./auth/identity.ts";
import { appCredentialPrincipal } from "./apps/scope.ts";
import { authenticate, externalIdp } from "./credentials/authenticate.ts";
import { clientAddressResolver } from "./http/client_address.ts";
import { authRoutes } from "./auth/routes.ts";
import { statusRoutes } from "./status/routes.ts";
import { organizationRoutes } from "./organizations/routes.ts";
import { userRoutes } from "./users/routes.ts";
import { environmentRoutes } from "./environments/routes.ts";
import { connectionRoutes } from "./connections/routes.ts";
import { packageRoutes } from "./packages/routes.ts";
import { publishRoutes } from "./publishing/routes.ts";
import { versionRoutes } from "./versions/routes.ts";
import { modelRoutes } from "./models/routes.ts";
import { queryRoutes } from "./query/routes.ts";
import { groupRoutes } from "./groups/routes.ts";
import { groupTokenRoutes } from "./groups/token_routes.ts";
import { permissionLevelRoutes } from "./permissions/routes.ts";
import { systemPermissionRoutes } from "./permissions/system_routes.ts";
import { inviteRoutes } from "./invites/routes.ts";
import { attributeRoutes } from "./attributes/routes.ts";
import { effectiveValueRoutes } from "./rls/routes.ts";
import { queryLogRoutes } from "./query_log/routes.ts";
import { mcpRoutes, type McpRoutesOptions } from "./mcp/routes.ts";
import { oauthRoutes } from "./oauth/routes.ts";
import type { ContextSearcher, QueryRunner } from "./mcp/tools.ts";
import { createContextSearcher } from "./retrieval/search.ts";
import { createQueryRunner } from "./query/service.ts";
import { retrievalRoutes } from "./retrieval/routes.ts";
import { workspaceRoutes } from "./workspaces/routes.ts";
import { workspacePackageRoutes } from "./workspaces/package_routes.ts";
import { documentRoutes } from "./documents/routes.ts";
import { bookmarkRoutes } from "./bookmarks/routes.ts";
import { codingRoutes, extensionVersionRoutes } from "./coding/routes.ts";
import { connectionEntityRoutes } from "./retrieval/connections/routes.ts";
import { watchRoutes } from "./watch/routes.ts";
import { eventRoutes } from "./events/routes.ts";
import { appRoutes } from "./apps/routes.ts";
import { demoRoutes } from "./demo/routes.ts";
import { runRoutes } from "./runs/routes.ts";
import { indexRoutes } from "./indexes/routes.ts";
import { materializationRoutes } from "./materializations/routes.ts";
import { signInRoutes } from "./signin/routes.ts";
import { consoleRoutes } from "./console/routes.ts";
import { docsRoutes } from "./docs/routes.ts";
import { sdkRoutes } from "./apps/sdk_routes.ts";
import { appPreflight, withAppCors } from "./apps/cors.ts";
import { documentResponses } from "./docs/responses.ts";
import { appOriginGate } from "./apps/origin.ts";

/** Options of {@link buildApp}. */
export interface BuildOptions {
  sql: Sql;
  config: Config;
  dbKind: "embedded" | "server";
  jwtSecret: string;
  /** Log sink (default: one JSON line on stdout). */
  log?: (line: Record<string, unknown>) => void;
}

function defaultLog(line: Record<string, unknown>): void {
  console.log(JSON.stringify({ time: new Date().toISOString(), ...line }));
}

/** Creates the shared services of one app instance. */
export function createContext(options: BuildOptions): AppContext {
  addServerRoot(options.config.dataDir);
  setCursorSecret(options.jwtSecret);
  addServerRoot(options.config.watchRoot);
  const ctx: AppContext = {
    id: crypto.randomUUID(),
    sql: options.sql,
    config: options.config,
    dbKind: options.dbKind,
    jwtSecret: options.jwtSecret,
    limiter: createRateLimiter(options.config.rateLimitPerMinute),
    identity: createIdentityServices(options.sql, options.config),
    // who the caller is: an in-package app's token (or an OAuth token at the app-token endpoint), else an access token or API key
    authenticators: [
      async (request) => (await appCredentialPrincipal(ctx, request)) ?? null,
      async (request, auth) => await authenticate({ sql: ctx.sql, idp: externalIdp(ctx.config), ...auth }, request),
    ],
    startedAt: new Date(),
    log: options.log ?? defaultLog,
  };
  return ctx;
}

/** Builds the app's routes on a context; `options.mcp` supplies the MCP tools' implementations. */
export function buildApp(ctx: AppContext, options: { mcp?: McpRoutesOptions } = {}) {
  return new Elysia()
    .onError(handleError(ctx))
    // every route's parsed body: malformed JSON and bodies that are not objects are 400 (json_body.ts)
    .onTransform(checkJsonBody)
    .use(
      openapi({
        path: "/api/v0/docs",
        specPath: "/api/v0/openapi.json",
        // the page is served by docsRoutes with a locally bundled Swagger UI (works offline)
        provider: null,
        documentation: {
          info: {
            title: "Malloy data-modeling platform",
            version: "0.1.0",
            description: "Administration API (v0), data, coding and retrieval families. Errors are `{ code, message }`. " +
              "Every request passes the HTTP edge first: `400 INVALID_PATH` (dot segments in any encoding, NUL, control " +
              "characters, invalid UTF-8), `400` for JSON deeper than 64 levels or holding NUL, `413` over the body limit, " +
              "`400 INVALID_CURSOR` for a cursor this service did not issue, and `503 SERVICE_UNAVAILABLE` with `Retry-After` " +
              "while the platform database is unreachable (`GET /health/ready` tells readiness, `GET /health` liveness).",
          },
          components: {
            securitySchemes: {
              bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" },
              apiKey: { type: "apiKey", in: "header", name: "Authorization", description: "ApiKey <group token>" },
            },
          },
          security: [{ bearer: [] }, { apiKey: [] }],
        },
      }),
    )
    .use(statusRoutes(ctx))
    .use(docsRoutes())
    .use(sdkRoutes())
    .use(signInRoutes(ctx))
    .use(consoleRoutes(ctx))
    .group("/api/v0", (api) =>
      api
        .use(authRoutes(ctx))
        .use(organizationRoutes(ctx))
        .use(userRoutes(ctx))
        .use(environmentRoutes(ctx))
        .use(connectionRoutes(ctx))
        .use(packageRoutes(ctx))
        .use(publishRoutes(ctx))
        .use(versionRoutes(ctx))
        .use(runRoutes(ctx))
        .use(indexRoutes(ctx))
        .use(materializationRoutes(ctx))
        .use(modelRoutes(ctx))
        .use(queryRoutes(ctx))
        .use(groupRoutes(ctx))
        .use(groupTokenRoutes(ctx))
        .use(permissionLevelRoutes(ctx))
        .use(systemPermissionRoutes(ctx))
        .use(inviteRoutes(ctx))
        .use(attributeRoutes(ctx))
        .use(effectiveValueRoutes(ctx))
        .use(queryLogRoutes(ctx))
        .use(workspaceRoutes(ctx))
        .use(workspacePackageRoutes(ctx))
        .use(documentRoutes(ctx))
        .use(bookmarkRoutes(ctx))
        .use(retrievalRoutes(ctx))
        .use(connectionEntityRoutes(ctx))
        .use(extensionVersionRoutes(ctx))
        .use(codingRoutes(ctx))
        .use(watchRoutes(ctx))
        .use(eventRoutes(ctx))
        .use(appRoutes(ctx))
        .use(demoRoutes(ctx)))
    .use(oauthRoutes(ctx))
    .use(mcpRoutes(ctx, { queryRunner: mcpQueryRunner(ctx), contextSearcher: mcpContextSearcher(ctx), ...options.mcp }));
}

/** `get_context` of the MCP server: the same search as `POST /retrieval/context`. */
function mcpContextSearcher(ctx: AppContext): ContextSearcher {
  const searcher = createContextSearcher(ctx);
  return {
    search: (principal, args, scope) =>
      searcher.search(principal, { ...args, organization: scope.orgName, workspace: scope.workspace?.name }),
  };
}

/** `execute_query` of the MCP server: the same runner as the REST query route. */
function mcpQueryRunner(ctx: AppContext): QueryRunner {
  const runner = createQueryRunner(ctx);
  return {
    run: (principal, args, scope) =>
      runner.run(principal, { ...args, organization: scope.orgName, workspace: scope.workspace?.name }, { signal: scope.signal, via: "mcp", since: scope.since }),
  };
}

/** Where the OpenAPI document is served; the edge's responses are added to each of its operations. */
const OPENAPI_PATH = "/api/v0/openapi.json";

/** Largest JSON response whose text is checked for server paths (larger ones are query data, passed as they are). */
const SCRUB_LIMIT = 8 * 1024 * 1024;

/**
 * Rewrites server file paths in a JSON error response (see `http/server_paths.ts`);
 * successful answers and streams (event streams, files, zips) pass untouched.
 */
async function withoutServerPaths(response: Response): Promise<Response> {
  const type = response.headers.get("content-type") ?? "";
  // Errors only: a successful answer carries the caller's data (query rows may hold any text); the query
  // engine rewrites its own generated SQL and errors at the source (engine/problems.ts, query/service.ts).
  if (response.status < 400 || !/^application\/(json|problem\+json)/i.test(type) || !response.body) return response;
  const length = Number(response.headers.get("content-length") ?? 0);
  if (length > SCRUB_LIMIT) return response;
  const text = await response.text();
  if (!mayHoldServerPath(text)) return new Response(text, response);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(hideServerPaths(text), { status: response.status, statusText: response.statusText, headers });
}

/** The app as the server type of Elysia sees it (for plugins that need it). */
export type App = ReturnType<typeof buildApp>;

/** Options of {@link createHandler}. */
export interface HandlerOptions {
  /** Address of the client of a request (the server's socket address). */
  addressOf?: (request: Request) => string | undefined;
  /** Body limits of the edge (default: `MAX_BODY_BYTES`, `MAX_UPLOAD_BYTES` from the environment). */
  edge?: EdgeLimits;
}

/**
 * Wraps the app's fetch: assigns the request id (`X-Request-Id`), records the
 * client address and writes one structured log line per request.
 */
export function createHandler(ctx: AppContext, app: App, options: HandlerOptions = {}): (request: Request) => Promise<Response> {
  const limits = options.edge ?? edgeLimits();
  const resolveAddress = clientAddressResolver(ctx.config);
  return async (original: Request) => {
    const address = resolveAddress(original, options.addressOf?.(original));
    // The edge runs before routing: a refused request reaches no handler.
    let request = original;
    let refused: ApiError | undefined;
    try {
      request = await guardRequest(original, limits);
    } catch (error) {
      refused = error instanceof ApiError ? error : new ApiError("VALIDATION_ERROR", "request body could not be read");
    }
    const json = !refused && carriesJson(request);
    // APP_ORIGIN serves app files only, and reads no credential of the platform (apps/origin.ts)
    let gate: Response | undefined;
    if (!refused) {
      const gated = await appOriginGate(ctx, request);
      if (gated instanceof Response) gate = gated;
      else request = gated;
    }
    const meta = beginRequest(request, address);
    meta.jsonBody = json;
    // in-package apps (origin `null` or APP_ORIGIN) call the app-token, events, models and query routes
    const preflight = refused || gate ? undefined : appPreflight(ctx, request);
    let response = gate ?? withAppCors(ctx, request, refused ? errorResponse(refused, meta.id) : await withoutServerPaths(preflight ?? await app.handle(request)));
    if (!refused && response.ok && request.method === "GET" && new URL(request.url).pathname === OPENAPI_PATH) {
      const headers = new Headers(response.headers);
      headers.delete("content-length");
      // the OpenAPI document: every operation's responses (the error component; a success response where the route declares none)
      const doc = await response.json() as Record<string, unknown>;
      documentResponses(doc);
      response = Response.json(addEdgeResponses(doc), { headers });
    }
    try {
      response.headers.set("x-request-id", meta.id);
    } catch {
      response = new Response(response.body, response);
      response.headers.set("x-request-id", meta.id);
    }
    // every answer is read as the type it declares (no browser sniffs a JSON error or a text answer into HTML)
    if (!response.headers.has("x-content-type-options")) response.headers.set("x-content-type-options", "nosniff");
    if (ctx.config.logRequests) {
      const m = requestMeta(request) ?? meta;
      ctx.log({
        level: "info",
        requestId: m.id,
        method: request.method,
        route: m.route ?? new URL(request.url).pathname,
        status: response.status,
        ms: Math.round((performance.now() - m.start) * 10) / 10,
        principal: m.principal ?? null,
      });
    }
    return response;
  };
}
