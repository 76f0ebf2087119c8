/**
 * TypeBox schemas of the success answers of the API, and the registry that
 * attaches them to the OpenAPI document by method and path (see
 * `documentResponses`). They document only (no run-time `response:`
 * validation): test/foundation/response_schemas.test.ts checks real answers
 * of most operations against them with `Value.Check`, so they cannot drift.
 *
 * Keys are `METHOD path` with `/projects/` written `/environments/` (both
 * prefixes serve the same routes) and no trailing slash.
 * @module
 */
import { t, type TSchema } from "elysia";

const Str = t.String();
const Time = t.String({ description: "ISO 8601 timestamp" });
const Nullable = <T extends TSchema>(s: T) => t.Union([s, t.Null()]);
const Strings = t.Array(t.String());
const Json = t.Record(t.String(), t.Unknown());

/** Shapes shared by several operations. */
const Shapes = {
  Organization: t.Object({
    name: Str, displayName: Str, description: Str, createdAt: Time, updatedAt: Time,
    permission: t.String({ description: "The caller's level: admin, modeler or member" }),
  }),
  User: t.Object({ userName: Str, email: Str, firstName: Str, lastName: Str, systemAdmin: t.Boolean(), createdAt: Time, updatedAt: Time }),
  OrganizationUser: t.Object({ userName: Str, email: Str, firstName: Str, lastName: Str, permission: Str }),
  Environment: t.Object({ name: Str, description: Str, createdAt: Time, updatedAt: Time, permission: Str }),
  Connection: t.Object({
    name: Str, type: t.String({ description: "duckdb, postgres, bigquery, snowflake, trino, mysql, ..." }),
    secretFieldsSet: t.Array(Str, { description: "Names of the secret fields that are set (their values are never answered)" }),
    createdAt: Time, updatedAt: Time,
  }, { description: "Plus the type's settings object, e.g. `postgresConnection` (without secrets)" }),
  Package: t.Object({
    name: Str, description: Str, latestVersion: Nullable(Str), createdAt: Time, updatedAt: Time,
    indexStatus: t.String({ description: "unknown, indexing, indexed or failed" }), metadata: Json, permission: Str,
  }),
  Version: t.Object({
    id: t.String({ description: "Semantic version" }), createdAt: Time, updatedAt: Time,
    archiveStatus: t.String({ description: "unarchive, archive or error_state" }), indexStatus: Str, isLatest: t.Boolean(),
  }),
  Run: t.Object({
    id: Str, versionId: Str, state: t.String({ description: "queued, running, succeeded, failed or cancelled" }), full: t.Boolean(),
    scope: t.Unknown({ description: "The scope selectors of a partial run, null for a full run" }), cancelRequested: t.Boolean(),
    createdBy: Nullable(Str), createdAt: Time, startedAt: Nullable(Time), finishedAt: Nullable(Time), error: Nullable(Str),
  }),
  RunUnit: t.Object({
    kind: t.String({ description: "table or index" }), target: t.String({ description: "<source> or <source>.<dimension>" }), modelPath: Str, state: Str,
    rowCount: Nullable(t.Number()), valueCount: Nullable(t.Number()), distinctCount: Nullable(t.Number()),
    startedAt: Nullable(Time), finishedAt: Nullable(Time), error: Nullable(Str),
  }),
  Index: t.Object({
    id: Str, modelPath: Str, sourceName: Str, dimension: Str, status: t.String({ description: "building, built or failed" }),
    valueCount: Nullable(t.Number()), distinctCount: Nullable(t.Number()), runId: Nullable(Str), builtAt: Nullable(Time), createdAt: Time, updatedAt: Time,
  }),
  Materialization: t.Object({ id: Str, sourceName: Str, status: Str, builtAt: Nullable(Time), runId: Nullable(Str) }),
  Group: t.Object({ name: Str, description: Str, createdAt: Time, updatedAt: Time }),
  Member: t.Object({ userGroupId: t.String({ description: "user:<name> or group:<name>" }), status: t.String({ description: "admin or member" }) }),
  GroupToken: t.Object({ name: Str, groupName: Str, createdAt: Time, expiresAt: Nullable(Time), expired: t.Boolean() }),
  Permission: t.Object({
    userGroupId: Str, permission: t.String({ description: "The role granted; on a pending request, the role asked for" }), createdAt: Time, updatedAt: Time,
    pending: t.Optional(t.Literal(true, { description: "An access request not approved yet; it confers nothing" })),
    currentPermission: t.Optional(t.String({ description: "On a request from a principal that already holds a grant here: the role it holds until approval" })),
  }),
  Invite: t.Object({ token: Str, consumed: t.Boolean(), createdAt: Time, consumedAt: Nullable(Time) }),
  Attribute: t.Object({
    name: Str, type: t.String({ description: "string, number, boolean or string_list" }), defaultValue: t.Unknown(),
    userValues: t.Array(t.Object({ userName: Str, value: t.Unknown() })),
    groupValues: t.Array(t.Object({ groupName: Str, value: t.Unknown(), rank: Nullable(t.Number()) })),
  }),
  EffectiveAttribute: t.Object({ name: Str, type: Str, value: t.Unknown(), from: t.Optional(t.String({ description: "user, group:<name> or default" })) }),
  QueryLogEntry: t.Object({
    id: Str, at: Time, principal: Str, via: t.String({ description: "rest, mcp or app" }),
    environmentName: Nullable(Str), packageName: Nullable(Str), versionId: Nullable(Str), modelPath: Nullable(Str),
    query: Nullable(Str), queryName: Nullable(Str), sourceName: Nullable(Str), boundAttributes: Strings,
    rows: Nullable(t.Number()), ms: Nullable(t.Number()), status: t.String({ description: "ok, error, refused or timeout" }), error: Nullable(Str),
  }),
  Workspace: t.Object({ name: Str, description: Str, personal: t.Boolean(), createdAt: Time, updatedAt: Time, permission: Str }),
  WorkspacePackage: t.Object({ environmentName: Str, packageName: Str, createdAt: Time }),
  Document: t.Object({ id: Str, name: Str, content: t.Unknown(), createdBy: Nullable(Str), createdAt: Time, updatedAt: Time, permission: Str }),
  Bookmark: t.Object({ bookmarkType: Str, objectId: Str, name: Str, createdAt: Time }),
  WatchStatus: t.Object({
    enabled: t.Boolean(), organizationName: Nullable(Str), environmentName: Nullable(Str), root: Str,
    startedAt: Nullable(Time), debounceMs: t.Number(), packages: t.Array(t.Unknown()),
  }),
};

const S = Shapes;
const DemoEnvironment = t.Object({
  environment: S.Environment,
  package: t.Object({ name: Str, latestVersion: Nullable(Str), models: Strings, app: t.String({ description: "Path of the package's app" }) }),
  tryQuery: t.Object({ method: Str, path: Str, body: Json }),
});
const QueryAnswer = t.Union([
  t.Object({
    data: t.Array(Json, { description: "Result rows" }), totalRows: t.Number(), executionTime: t.Number({ description: "ms" }),
    metadata: t.Object({ schema: t.Array(t.Object({ name: Str, type: Str })) }, { description: "schema, sourceName, versionId, modelPath, connection, sql, truncated, rowLimit, materialization" }),
    malloyResult: t.Optional(t.Object({}, { additionalProperties: true, description: "With `malloyResult: true` in the request: Malloy's own result (`Malloy.Result`: schema with the query's tags, data as cells), what `@malloydata/render` draws" })),
  }, { title: "Query result" }),
  t.Object({ sql: Str, schema: t.Array(t.Object({ name: Str, type: Str })), sources: Strings }, { title: "Dry run (dryRun: true)" }),
]);
const RunDetail = t.Composite([S.Run, t.Object({ units: t.Array(S.RunUnit) })]);
const html = { "text/html": t.String({ description: "HTML page" }) };

/** A documented success answer: its status and body (JSON schema, or other media types, or none). */
export interface DocumentedAnswer {
  status: number;
  description: string;
  /** A JSON body. */
  json?: TSchema;
  /** Other media types and their schemas. */
  content?: Record<string, TSchema>;
}

const ok = (json: TSchema, description = "Success"): DocumentedAnswer => ({ status: 200, description, json });
const created = (json: TSchema, description = "Created"): DocumentedAnswer => ({ status: 201, description, json });
const none = (description = "Done (no body)"): DocumentedAnswer => ({ status: 204, description });
const redirect = (status: number, description: string): DocumentedAnswer => ({ status, description });

const O = "/api/v0/organizations/{org}";
const E = `${O}/environments/{env}`;
const P = `${E}/packages/{pkg}`;
const V = `${P}/versions/{versionId}`;
const W = `${O}/workspaces/{ws}`;
const D = `${W}/documents/{documentId}`;

function permissionRoutes(base: string): Record<string, DocumentedAnswer> {
  return {
    [`GET ${base}/permissions`]: ok(t.Array(S.Permission)),
    [`POST ${base}/permissions`]: created(S.Permission),
    [`GET ${base}/permissions/{principal}`]: ok(S.Permission),
    [`PATCH ${base}/permissions/{principal}`]: ok(S.Permission),
    [`DELETE ${base}/permissions/{principal}`]: none(),
  };
}

/** The documented success answer of each operation, by `METHOD path`. */
export const SUCCESS: Record<string, DocumentedAnswer> = {
  "GET /health": ok(t.Object({ status: t.Literal("ok") })),
  "GET /health/ready": ok(t.Object({ status: Str, database: Str })),
  "GET /api/v0/status": ok(t.Object({ initialized: t.Boolean(), state: Str, timestamp: Time, environments: t.Array(t.Object({ organizationName: Str, name: Str })) })),
  "GET /api/v0/docs": { status: 200, description: "The documentation page", content: html },
  "GET /": { status: 200, description: "Landing page for browsers (Accept: text/html), JSON for API clients", json: t.Object({ name: Str, version: Str, docs: Str }), content: html },
  "GET /signin": { status: 200, description: "The sign-in page", content: html },
  "POST /signin": redirect(303, "Signed in: the session cookie is set and the browser returns to `return`"),
  "POST /signout": redirect(303, "Signed out: the session cookie is cleared"),
  "POST /api/v0/auth/token": ok(t.Object({ accessToken: Str, tokenType: t.Literal("Bearer"), expiresIn: t.Number({ description: "seconds" }) })),
  "POST /api/v0/organizations": created(S.Organization),
  "GET /api/v0/organizations": ok(t.Array(S.Organization)),
  [`GET ${O}`]: ok(t.Composite([S.Organization, t.Object({ rank: t.Optional(t.Number()) })])),
  [`PATCH ${O}`]: ok(S.Organization),
  [`DELETE ${O}`]: none(),
  [`GET ${O}/users`]: ok(t.Array(S.OrganizationUser)),
  [`GET ${O}/users/{userName}`]: ok(S.OrganizationUser),
  "POST /api/v0/users": created(S.User),
  "GET /api/v0/users/{userName}": ok(S.User),
  "PATCH /api/v0/users/{userName}": ok(S.User),
  "DELETE /api/v0/users/{userName}": none(),
  [`GET ${O}/environments`]: ok(t.Array(S.Environment)),
  [`POST ${O}/environments`]: created(S.Environment),
  [`GET ${E}`]: ok(S.Environment),
  [`PATCH ${E}`]: ok(S.Environment),
  [`DELETE ${E}`]: none(),
  [`GET ${E}/connections`]: ok(t.Array(S.Connection)),
  [`POST ${E}/connections`]: created(S.Connection),
  [`GET ${E}/connections/{conn}`]: ok(S.Connection),
  [`PATCH ${E}/connections/{conn}`]: ok(S.Connection),
  [`DELETE ${E}/connections/{conn}`]: none(),
  [`GET ${E}/packages`]: ok(t.Array(S.Package)),
  [`POST ${P}`]: created(t.Composite([S.Package, t.Object({ version: S.Version, runId: t.Optional(Nullable(Str)), models: t.Array(Str, { description: "Model files (.malloy)" }), notebooks: t.Array(Str, { description: "Notebook files (.malloynb)" }), accessWarnings: t.Optional(t.Array(t.Object({ message: Str }), { description: "#(authorize) gates that read a given no attribute of the organization fills: a request sets it, so any caller passes the gate (published anyway; declare the attribute to make the gate a boundary)" })) })]), "Published: the package, its new version, the queued run, the models and the notebooks"),
  [`GET ${P}`]: ok(S.Package),
  [`PATCH ${P}`]: ok(S.Package),
  [`DELETE ${P}`]: none(),
  [`GET ${P}/source`]: { status: 200, description: "The zip uploaded at publish", content: { "application/zip": t.String({ format: "binary" }) } },
  [`GET ${O}/packages`]: ok(t.Array(t.Composite([S.Package, t.Object({ environmentName: Str })]))),
  [`GET ${P}/versions`]: ok(t.Array(S.Version)),
  [`GET ${V}`]: ok(S.Version),
  [`PATCH ${V}`]: ok(S.Version),
  [`POST ${V}/runs`]: created(RunDetail),
  [`GET ${P}/runs`]: ok(t.Array(S.Run)),
  [`GET ${P}/runs/{runId}`]: ok(RunDetail),
  [`POST ${P}/runs/{runId}`]: ok(RunDetail, "The run after the action (`?action=cancel`)"),
  [`GET ${V}/indexes`]: ok(t.Array(S.Index)),
  [`GET ${V}/indexes/{indexId}`]: ok(t.Composite([S.Index, t.Object({ values: t.Array(t.Object({ value: t.Unknown(), count: t.Number() })) })])),
  [`GET ${V}/materializations`]: ok(t.Array(S.Materialization)),
  [`GET ${V}/materializations/{materializationId}`]: ok(S.Materialization),
  [`GET ${P}/models`]: ok(t.Array(t.Object({ path: Str, kind: t.Union([t.Literal("model"), t.Literal("notebook")]), sources: Strings, queries: Strings, packageName: Str, versionId: Str }))),
  [`GET ${P}/models/*`]: ok(t.Object({
    sources: t.Array(t.Object({ name: Str }, { description: "file, name, joins, views, measures, dimensions with types and docs" })),
    queries: t.Array(t.Object({ name: Str })),
  }, { description: "The compiled model: sources (fields with types and docs, views) and named queries" })),
  [`POST ${P}/models/*`]: ok(QueryAnswer, "The query's rows and metadata, or the compiled SQL of a dry run"),
  [`GET ${O}/groups`]: ok(t.Array(S.Group)),
  [`POST ${O}/groups`]: created(S.Group),
  [`GET ${O}/groups/{group}`]: ok(S.Group),
  [`PATCH ${O}/groups/{group}`]: ok(S.Group),
  [`DELETE ${O}/groups/{group}`]: none(),
  [`GET ${O}/groups/{group}/members`]: ok(t.Object({ members: t.Array(S.Member) })),
  [`POST ${O}/groups/{group}/members`]: ok(t.Object({ members: t.Array(S.Member) }), "The members after the change"),
  [`DELETE ${O}/groups/{group}/members`]: none(),
  [`PATCH ${O}/groups/{group}/members/{principal}`]: ok(S.Member),
  [`POST ${O}/groups/{group}/tokens`]: created(t.Composite([S.GroupToken, t.Object({ secret: t.String({ description: "The API key: answered once, here only" }) })])),
  [`GET ${O}/groups/{group}/tokens`]: ok(t.Array(S.GroupToken)),
  [`DELETE ${O}/groups/{group}/tokens/{tokenName}`]: none(),
  ...permissionRoutes(O),
  ...permissionRoutes(E),
  ...permissionRoutes(P),
  ...permissionRoutes(W),
  ...permissionRoutes(D),
  "GET /api/v0/permissions": ok(t.Array(S.Permission)),
  "POST /api/v0/permissions": created(S.Permission),
  "POST /api/v0/invites": created(S.Invite),
  "GET /api/v0/invites": ok(t.Array(S.Invite)),
  "GET /api/v0/invites/{token}": ok(S.Invite),
  "DELETE /api/v0/invites/{token}": none(),
  [`GET ${O}/attributes`]: ok(t.Array(S.Attribute)),
  [`GET ${O}/attributes/{attr}`]: ok(S.Attribute),
  [`PUT ${O}/attributes/{attr}`]: created(S.Attribute, "Declared (201) or replaced (200)"),
  [`PUT ${O}/attributes/{attr}/users/{userName}`]: ok(t.Object({ userName: Str, value: t.Unknown() })),
  [`DELETE ${O}/attributes/{attr}/users/{userName}`]: none(),
  [`PUT ${O}/attributes/{attr}/groups/{group}`]: ok(t.Object({ groupName: Str, value: t.Unknown(), rank: Nullable(t.Number()) })),
  [`DELETE ${O}/attributes/{attr}/groups/{group}`]: none(),
  [`GET ${O}/users/{userName}/attributes`]: ok(t.Array(S.EffectiveAttribute)),
  [`GET ${O}/groups/{group}/attributes`]: ok(t.Array(S.EffectiveAttribute)),
  [`GET ${O}/query-log`]: ok(t.Array(S.QueryLogEntry)),
  [`GET ${O}/workspaces`]: ok(t.Array(S.Workspace)),
  [`POST ${O}/workspaces`]: created(S.Workspace),
  [`POST ${O}/workspaces/personal`]: created(S.Workspace, "The caller's personal workspace (201 when created, 200 when it existed)"),
  [`GET ${W}`]: ok(S.Workspace),
  [`PATCH ${W}`]: ok(S.Workspace),
  [`DELETE ${W}`]: none(),
  [`GET ${W}/packages`]: ok(t.Array(S.WorkspacePackage)),
  [`POST ${W}/packages`]: created(S.WorkspacePackage),
  [`DELETE ${W}/packages`]: none(),
  [`GET ${W}/documents`]: ok(t.Array(S.Document)),
  [`POST ${W}/documents`]: created(S.Document),
  [`GET ${D}`]: ok(S.Document),
  [`PATCH ${D}`]: ok(S.Document),
  [`DELETE ${D}`]: none(),
  [`POST ${O}/bookmarks`]: created(S.Bookmark),
  [`GET ${O}/bookmarks`]: ok(t.Array(S.Bookmark)),
  [`GET ${O}/bookmarks/{bookmarkType}/{objectId}`]: ok(S.Bookmark),
  [`DELETE ${O}/bookmarks/{bookmarkType}/{objectId}`]: none(),
  "POST /api/v0/retrieval/context": ok(t.Object({ results: t.Array(t.Object({ entity_type: Str, search_text: Nullable(Str), items: t.Array(Json) })) })),
  "POST /api/v0/retrieval/connection-entities": ok(t.Object({
    mode: t.String({ description: "enumerate or search" }), search_text: Nullable(Str), total: t.Number(), tables: t.Array(Json),
    next_cursor: Nullable(Str), skipped: t.Array(t.Unknown()), errors: t.Array(t.Unknown()),
  })),
  "GET /api/v0/coding/extension-version": ok(t.Object({ version: Str, supported: t.Boolean(), minimum: Str, latest: Str, message: Str })),
  "GET /api/v0/coding/docs/search": { status: 200, description: "Matching documentation passages as plain text", content: { "text/plain": Str } },
  "POST /api/v0/coding/docs/answer": ok(t.Object({ answer: Str, passages: t.Array(Json) })),
  "GET /api/v0/coding/manifests": ok(t.Array(t.Object({ name: Str, title: Str, description: Str, version: Str, tools: Strings, skillCategories: Strings }))),
  "GET /api/v0/coding/manifests/{name}/skills": ok(t.Object({ name: Str, version: Str, skills: t.Record(t.String(), t.Array(t.Object({ name: Str, description: Str, instructions: Str }))) })),
  "GET /api/v0/watch-mode/status": ok(S.WatchStatus),
  "POST /api/v0/watch-mode/start": ok(S.WatchStatus),
  "POST /api/v0/watch-mode/stop": ok(S.WatchStatus),
  [`GET ${P}/events`]: { status: 200, description: "The event stream", content: { "text/event-stream": t.String({ description: "Server-Sent Events (see the description)" }) } },
  [`GET ${P}/app`]: redirect(301, "Redirect to `.../app/`"),
  [`GET ${P}/app/*`]: { status: 200, description: "The file (content type by extension); HTML with the injected elements", content: { "*/*": t.String({ format: "binary" }) } },
  [`POST ${P}/app/*`]: { status: 200, description: "The app page (on APP_ORIGIN; on the platform origin for a page's own launch)", content: html },
  [`POST ${P}/app-token`]: ok(t.Object({
    token: t.String({ description: "The app token (a JWT)" }),
    expiresAt: Time,
    launch: t.Optional(t.String({ description: "With ?launch=true: a 60-second single-use credential the page posts to its own URL to reload itself" })),
  })),
  [`POST ${O}/demo-environment`]: created(DemoEnvironment),
  "POST /api/v0/demo/organizations": created(t.Composite([S.Organization, t.Object({ demoEnvironment: DemoEnvironment })])),
  "POST /oauth/register": created(t.Object({ client_id: Str, client_id_issued_at: t.Number(), redirect_uris: Strings })),
  "GET /oauth/authorize": { status: 200, description: "The sign-in and consent page", content: html },
  "POST /oauth/authorize": redirect(302, "Back to the client's redirect_uri with `code`, `state` and `iss` (or `error`)"),
  "POST /oauth/token": ok(t.Object({ access_token: Str, token_type: t.Literal("Bearer"), expires_in: t.Number(), refresh_token: Str, scope: Str })),
  "POST /oauth/revoke": ok(t.Object({}, { description: "Always `{}` (RFC 7009)" })),
  "POST /mcp/{org}": ok(t.Object({ jsonrpc: t.Literal("2.0") }, { description: "A JSON-RPC 2.0 response (or `text/event-stream` when the client prefers it); 202 for notifications" })),
  "POST /mcp/{org}/workspace/{workspace_name}": ok(t.Object({ jsonrpc: t.Literal("2.0") }, { description: "A JSON-RPC 2.0 response (or `text/event-stream` when the client prefers it); 202 for notifications" })),
};

const ROUTE_NAMES: Record<string, string> = { organizationName: "org", projectName: "env", packageName: "pkg" };

/** The registry key of an OpenAPI operation (its path with the routes' parameter names, as generated or as published). */
export function successKey(method: string, path: string): string {
  const routeNamed = path.replace(/\{([^}]+)\}/g, (whole, name: string) => (ROUTE_NAMES[name] ? `{${ROUTE_NAMES[name]}}` : whole));
  const normal = routeNamed.replace(/^(\/api\/v0\/organizations\/\{org\})\/projects(?=\/|$)/, "$1/environments");
  return `${method.toUpperCase()} ${normal.length > 1 ? normal.replace(/\/$/, "") : normal}`;
}
