/**
 * Service configuration read from the environment, once, at start.
 * @module
 */

/** Everything the service reads from its environment. */
export interface Config {
  host: string;
  port: number;
  /** Server database; when unset the embedded PGlite in {@link Config.dataDir} is used. */
  databaseUrl?: string;
  dataDir: string;
  jwtSecret?: string;
  /** Access token lifetime in seconds. */
  jwtTtlSeconds: number;
  jwksUrl?: string;
  jwtIssuer?: string;
  jwtAudience?: string;
  /** Claim of an external token that names the user (matched to userName, then email). */
  jwtUserClaim: string;
  rateLimitPerMinute: number;
  bootstrapAdminUserName: string;
  bootstrapAdminEmail?: string;
  bootstrapAdminPassword?: string;
  /** Trust `X-Forwarded-For` for the client address (behind a proxy only). */
  trustProxy: boolean;
  logRequests: boolean;
  /** Most uncompressed bytes of a published package (`MAX_PACKAGE_BYTES`, default 1 GiB). */
  maxPackageBytes: number;
  /** Key of connection credentials, 32 bytes base64 or hex (`SECRET_KEY`); else `DATA_DIR/secret.key`. */
  secretKey?: string;
  /** How long a connection check may take, ms (`CONNECTION_TEST_TIMEOUT_MS`, default 10,000). */
  connectionTestTimeoutMs: number;
  /** Most rows a query returns (`QUERY_ROW_LIMIT`, default 1000). */
  queryRowLimit: number;
  /** Query timeout in ms, waiting for a slot included (`QUERY_TIMEOUT_MS`, default 30,000). */
  queryTimeoutMs: number;
  /** Queries this node runs at once (`QUERY_CONCURRENCY`, default 8). */
  queryConcurrency: number;
  /** Most compiled models cached per node (`QUERY_MODEL_CACHE_ENTRIES`, default 100). */
  modelCacheEntries: number;
  /** Most approximate bytes of cached models (`QUERY_MODEL_CACHE_BYTES`, default 512 MiB). */
  modelCacheBytes: number;
  /** Browser origins (besides loopback pages) allowed to call the MCP endpoints. */
  mcpAllowedOrigins: string[];
  /** Index a version for retrieval right after its publish (`INDEX_ON_PUBLISH`, default true). */
  indexOnPublish: boolean;
  /** Oldest editor-extension version the coding API supports (`EXTENSION_MIN_VERSION`, default 0.1.0). */
  extensionMinVersion: string;
  /** Newest editor-extension version (`EXTENSION_LATEST_VERSION`, default 0.1.0). */
  extensionLatestVersion: string;
  /** OpenAI-compatible chat endpoint for answer synthesis (`LLM_BASE_URL`); none when unset. */
  llmBaseUrl?: string;
  /** Model sent to it (`LLM_MODEL`). */
  llmModel?: string;
  /** Bearer key sent to it (`LLM_API_KEY`). */
  llmApiKey?: string;
  /** How long an answer may take, ms (`LLM_TIMEOUT_MS`, default 8,000). */
  llmTimeoutMs: number;
  /** Folder of watch mode: `<org>/<env>/<package>/` package folders (`WATCH_ROOT`, default `DATA_DIR/watch`). */
  watchRoot: string;
  /** Quiet time before a changed package folder is republished, ms (`WATCH_DEBOUNCE_MS`, default 200). */
  watchDebounceMs: number;
  /** How often a running run's node records a heartbeat and reads the cancel flag, ms (`RUN_HEARTBEAT_MS`, default 2,000). */
  runHeartbeatMs: number;
  /** A running run without a heartbeat for this long is failed by the next claim, ms (`RUN_STALE_AFTER_MS`, default 60,000). */
  runStaleAfterMs: number;
  /** How often the worker looks for runs queued by other nodes, ms (`RUN_POLL_MS`, default 2,000). */
  runPollMs: number;
  /** Longest a single run unit may take, ms (`RUN_UNIT_TIMEOUT_MS`, default 600,000). */
  runUnitTimeoutMs: number;
  /** Lifetime of an in-package app's token, s (`APP_TOKEN_TTL_S`, default 900). */
  appTokenTtlSeconds: number;
  /** Lifetime of a browser session (sign-in cookie), s (`SESSION_TTL_S`, default 28,800). */
  sessionTtlSeconds: number;
  /** Separate origin apps are served from (`APP_ORIGIN`, e.g. `https://apps.example.com`); unset: sandboxed on this origin. */
  appOrigin?: string;
  /** Package events kept for `Last-Event-ID` replay, per package (`EVENT_HISTORY`, default 1,000). */
  eventHistory: number;
  /** Link of the identity provider's sign-in, shown on the sign-in page (`IDP_SIGNIN_URL`). */
  idpSigninUrl?: string;
}

function intFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got '${value}'`);
  return n;
}

function semverFrom(value: string | undefined, fallback: string, name: string): string {
  if (value === undefined || value === "") return fallback;
  if (!/^\d+\.\d+\.\d+$/.test(value)) throw new Error(`${name} must be a semantic version such as 1.2.3, got '${value}'`);
  return value;
}

/** Reads the configuration from an environment map (default: `process.env`). */
export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  return {
    host: env.HOST || "127.0.0.1",
    port: intFrom(env.PORT, 4000, "PORT"),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || "./.data",
    jwtSecret: env.JWT_SECRET || undefined,
    jwtTtlSeconds: intFrom(env.JWT_TTL_SECONDS, 3600, "JWT_TTL_SECONDS"),
    jwksUrl: env.JWT_JWKS_URL || undefined,
    jwtIssuer: env.JWT_ISSUER || undefined,
    jwtAudience: env.JWT_AUDIENCE || undefined,
    jwtUserClaim: env.JWT_USER_CLAIM || "preferred_username",
    rateLimitPerMinute: intFrom(env.RATE_LIMIT_PER_MINUTE, 600, "RATE_LIMIT_PER_MINUTE"),
    bootstrapAdminUserName: env.BOOTSTRAP_ADMIN_USERNAME || "admin",
    bootstrapAdminEmail: env.BOOTSTRAP_ADMIN_EMAIL || undefined,
    bootstrapAdminPassword: env.BOOTSTRAP_ADMIN_PASSWORD || undefined,
    trustProxy: env.TRUST_PROXY === "true",
    logRequests: env.LOG_REQUESTS !== "false",
    maxPackageBytes: intFrom(env.MAX_PACKAGE_BYTES, 1024 * 1024 * 1024, "MAX_PACKAGE_BYTES"),
    secretKey: env.SECRET_KEY || undefined,
    connectionTestTimeoutMs: intFrom(env.CONNECTION_TEST_TIMEOUT_MS, 10_000, "CONNECTION_TEST_TIMEOUT_MS"),
    queryRowLimit: intFrom(env.QUERY_ROW_LIMIT, 1000, "QUERY_ROW_LIMIT"),
    queryTimeoutMs: intFrom(env.QUERY_TIMEOUT_MS, 30_000, "QUERY_TIMEOUT_MS"),
    queryConcurrency: Math.max(1, intFrom(env.QUERY_CONCURRENCY, 8, "QUERY_CONCURRENCY")),
    modelCacheEntries: Math.max(1, intFrom(env.QUERY_MODEL_CACHE_ENTRIES, 100, "QUERY_MODEL_CACHE_ENTRIES")),
    modelCacheBytes: intFrom(env.QUERY_MODEL_CACHE_BYTES, 512 * 1024 * 1024, "QUERY_MODEL_CACHE_BYTES"),
    mcpAllowedOrigins: (env.MCP_ALLOWED_ORIGINS ?? "").split(",").map((o) => o.trim().replace(/\/+$/, "")).filter(Boolean),
    indexOnPublish: env.INDEX_ON_PUBLISH !== "false",
    extensionMinVersion: semverFrom(env.EXTENSION_MIN_VERSION, "0.1.0", "EXTENSION_MIN_VERSION"),
    extensionLatestVersion: semverFrom(env.EXTENSION_LATEST_VERSION, "0.1.0", "EXTENSION_LATEST_VERSION"),
    llmBaseUrl: env.LLM_BASE_URL || undefined,
    llmModel: env.LLM_MODEL || undefined,
    llmApiKey: env.LLM_API_KEY || undefined,
    llmTimeoutMs: intFrom(env.LLM_TIMEOUT_MS, 8000, "LLM_TIMEOUT_MS"),
    watchRoot: env.WATCH_ROOT || `${env.DATA_DIR || "./.data"}/watch`,
    watchDebounceMs: intFrom(env.WATCH_DEBOUNCE_MS, 200, "WATCH_DEBOUNCE_MS"),
    runHeartbeatMs: Math.max(10, intFrom(env.RUN_HEARTBEAT_MS, 2_000, "RUN_HEARTBEAT_MS")),
    runStaleAfterMs: Math.max(100, intFrom(env.RUN_STALE_AFTER_MS, 60_000, "RUN_STALE_AFTER_MS")),
    runPollMs: Math.max(10, intFrom(env.RUN_POLL_MS, 2_000, "RUN_POLL_MS")),
    runUnitTimeoutMs: Math.max(1, intFrom(env.RUN_UNIT_TIMEOUT_MS, 600_000, "RUN_UNIT_TIMEOUT_MS")),
    appTokenTtlSeconds: Math.max(1, intFrom(env.APP_TOKEN_TTL_S, 900, "APP_TOKEN_TTL_S")),
    sessionTtlSeconds: Math.max(60, intFrom(env.SESSION_TTL_S, 28_800, "SESSION_TTL_S")),
    appOrigin: env.APP_ORIGIN ? env.APP_ORIGIN.replace(/\/+$/, "") : undefined,
    eventHistory: Math.max(1, intFrom(env.EVENT_HISTORY, 1000, "EVENT_HISTORY")),
    idpSigninUrl: env.IDP_SIGNIN_URL || undefined,
  };
}
