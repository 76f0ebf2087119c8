/**
 * Service configuration read from the environment, once, at start.
 * @module
 */
import { hostPolicy } from "./connections/host_policy.ts";

import { cpus, totalmem } from "node:os";

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
  /** Most uncompressed bytes of a published package (`MAX_PACKAGE_BYTES`, default 256 MiB). */
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
  /**
   * Of those, what one organization's queries hold at once (`QUERY_CONCURRENCY_PER_ORGANIZATION`,
   * default three quarters of `QUERY_CONCURRENCY`, at least 1): the rest stays for other tenants.
   */
  queryConcurrencyPerOrganization: number;
  /** Idle DuckDB instances kept by this node, all packages together (`QUERY_IDLE_INSTANCES`, default twice `QUERY_CONCURRENCY`). */
  queryIdleInstances: number;
  /** Most compiled models cached per node (`QUERY_MODEL_CACHE_ENTRIES`, default 100). */
  modelCacheEntries: number;
  /** Most approximate bytes of cached models (`QUERY_MODEL_CACHE_BYTES`, default 512 MiB). */
  modelCacheBytes: number;
  /**
   * Resident memory this node aims to stay under (`MEMORY_BUDGET`, default an
   * eighth of the host's memory, between 512 MiB and 2 GiB): above it, idle
   * DuckDB instances, compiled queries and least recently used models are
   * released (docs/scale.md).
   */
  memoryBudget: number;
  /** Idle DuckDB instances and a model's compiled queries are released after this long unused, ms (`IDLE_RELEASE_MS`, default 60,000). */
  idleReleaseMs: number;
  /** Runs this node executes at once (`RUN_CONCURRENCY`, default 2). */
  runConcurrency: number;
  /** Browser origins (besides loopback pages) allowed to call the MCP endpoints. */
  mcpAllowedOrigins: string[];
  /** Index a version for retrieval right after its publish (`INDEX_ON_PUBLISH`, default true). */
  indexOnPublish: boolean;
  /** Oldest editor-extension version the coding API supports (`EXTENSION_MIN_VERSION`, default 0.1.0). */
  extensionMinVersion: string;
  /** Newest editor-extension version (`EXTENSION_LATEST_VERSION`, default 0.1.0). */
  extensionLatestVersion: string;
  /** OpenAI-compatible chat endpoint (`LLM_BASE_URL`, up to the API version, e.g. `http://127.0.0.1:11434/v1`) for the coding API's answers and `get_context`'s phrase splitting; none when unset. */
  llmBaseUrl?: string;
  /** Model sent to it (`LLM_MODEL`). */
  llmModel?: string;
  /** Bearer key sent to it (`LLM_API_KEY`). */
  llmApiKey?: string;
  /** How long an answer may take, ms (`LLM_TIMEOUT_MS`, default 8,000); past it, the local path answers. */
  llmTimeoutMs: number;
  /** Whether `get_context` also asks the language model to pick among its top candidates (`LLM_PICK`, default false; a second request per search). */
  llmPick: boolean;
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
  /** Whether this node claims and executes runs (`RUN_WORKER`, default true; `false`: a node that only serves, runs are built by other nodes). */
  runWorker: boolean;
  /** Longest a single run unit may take, ms (`RUN_UNIT_TIMEOUT_MS`, default 600,000). */
  runUnitTimeoutMs: number;
  /** Memory per query in bytes (`QUERY_MEMORY_LIMIT`, bytes or e.g. `2GiB`; default 1 GiB, at most a quarter of the host's memory). */
  queryMemoryLimit: number;
  /** DuckDB threads per query (`QUERY_THREADS`, default half the cores). */
  queryThreads: number;
  /** Bytes a query may spill to disk (`QUERY_SPILL_LIMIT`, bytes or e.g. `4GiB`; default 4 GiB). */
  querySpillLimit: number;
  /** Longest a model compilation may take, ms (`COMPILE_TIMEOUT_MS`, default 30,000). */
  compileTimeoutMs: number;
  /** Most compile worker threads (`COMPILE_WORKERS`, default 2, or 1 on a single core). */
  compileWorkers: number;
  /**
   * Host names, addresses or CIDRs that connections may reach although they are
   * loopback, private, link-local or reserved (`ALLOWED_CONNECTION_HOSTS`, comma list, default none).
   */
  allowedConnectionHosts: string[];
  /** Most uncompressed bytes per compressed byte of one zip entry (`MAX_COMPRESSION_RATIO`, default 100). */
  maxCompressionRatio: number;
  /** Failed sign-ins per account within {@link Config.loginWindowSeconds} before 429 (`LOGIN_MAX_FAILURES_ACCOUNT`, default 10). */
  loginMaxFailuresAccount: number;
  /** Failed sign-ins per client address within the window before 429 (`LOGIN_MAX_FAILURES_ADDRESS`, default 30). */
  loginMaxFailuresAddress: number;
  /** Window of the sign-in failure counters, seconds (`LOGIN_FAILURE_WINDOW_SECONDS`, default 900). */
  loginWindowSeconds: number;
  /** Failed authentications (invalid Bearer tokens, API keys) per client address a minute before 429 (`AUTH_MAX_FAILURES_PER_MINUTE`, default 40). */
  authMaxFailuresPerMinute: number;
  /** Password verifications (argon2) running at once (`PASSWORD_HASH_CONCURRENCY`, default half the cores, at least 1). */
  passwordHashConcurrency: number;
  /** Password verifications waiting for a slot before 429 (`PASSWORD_HASH_QUEUE`, default 64). */
  passwordHashQueue: number;
  /** argon2id memory cost in KiB of new password hashes (`PASSWORD_HASH_MEMORY_KIB`, default 65536). */
  passwordHashMemoryKib: number;
  /** argon2id time cost of new password hashes (`PASSWORD_HASH_TIME_COST`, default 2). */
  passwordHashTimeCost: number;
  /** Default lifetime of an API key (group token), days (`API_KEY_DEFAULT_DAYS`, default 365). */
  apiKeyDefaultDays: number;
  /** Longest lifetime of an API key, days (`API_KEY_MAX_DAYS`, default 365). */
  apiKeyMaxDays: number;
  /** Origin clients use (`PUBLIC_URL`, e.g. `https://data.example.com`): OAuth issuer, metadata and links; else the request's. */
  publicUrl?: string;
  /** Proxies whose `X-Forwarded-For` entries are skipped (`TRUSTED_PROXIES`, addresses or CIDRs; the connecting peer always is one with `TRUST_PROXY`). */
  trustedProxies: string[];
  /** Days query log entries are kept (`QUERY_LOG_DAYS`, default 30). */
  queryLogDays?: number;
  /** Lifetime of an in-package app's token, s (`APP_TOKEN_TTL_S`, default 900). */
  appTokenTtlSeconds: number;
  /** Lifetime of a browser session (sign-in cookie), s (`SESSION_TTL_S`, default 28,800). */
  sessionTtlSeconds: number;
  /**
   * Separate origin apps are served from (`APP_ORIGIN`, e.g. `https://apps.example.com`; needs `PUBLIC_URL`
   * on another host): it serves app files only, and the platform origin sends app URLs there. Unset: apps
   * are served sandboxed on this origin. Both ways, app files carry the sandbox CSP.
   */
  appOrigin?: string;
  /** Package events kept for `Last-Event-ID` replay, per package (`EVENT_HISTORY`, default 1,000). */
  eventHistory: number;
  /** Event streams one caller (user, API key) may hold open at once (`EVENT_STREAMS_PER_CALLER`, default 16). */
  eventStreamsPerCaller: number;
  /** Event streams a node serves at once (`EVENT_STREAMS_MAX`, default 10,000). */
  eventStreamsMax: number;
  /** Link of the identity provider's sign-in, shown on the sign-in page (`IDP_SIGNIN_URL`). */
  idpSigninUrl?: string;
}

const SIZE_UNITS: Record<string, number> = { "": 1, B: 1, K: 1024, KB: 1000, KIB: 1024, M: 1024 ** 2, MB: 1000 ** 2, MIB: 1024 ** 2, G: 1024 ** 3, GB: 1000 ** 3, GIB: 1024 ** 3, T: 1024 ** 4, TB: 1000 ** 4, TIB: 1024 ** 4 };

function sizeFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(value);
  const unit = SIZE_UNITS[(match?.[2] ?? "").toUpperCase()];
  if (!match || unit === undefined) throw new Error(`${name} must be a size in bytes or with a unit such as 512MiB or 2GiB, got '${value}'`);
  return Math.floor(Number(match[1]) * unit);
}

function publicUrlFrom(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be an absolute http(s) URL such as https://data.example.com, got '${value}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`PUBLIC_URL must be http or https, got '${value}'`);
  return url.origin;
}

/**
 * `APP_ORIGIN`: the origin in-package apps are served from, which serves
 * nothing else. It needs `PUBLIC_URL` (the platform's own origin, where app
 * URLs are opened and the API is called) on another host.
 */
function appOriginFrom(value: string | undefined, publicUrl: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`APP_ORIGIN must be an absolute http(s) origin such as https://apps.example.com, got '${value}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`APP_ORIGIN must be http or https, got '${value}'`);
  if (url.pathname !== "/" || url.search || url.hash || url.username || url.password) {
    throw new Error(`APP_ORIGIN must be an origin only (scheme, host, port), without a path, got '${value}'`);
  }
  if (!publicUrl) throw new Error("APP_ORIGIN needs PUBLIC_URL: the platform's own origin, where app URLs are opened and the API is called");
  if (new URL(publicUrl).host === url.host) throw new Error(`APP_ORIGIN (${url.origin}) must be on another host than PUBLIC_URL (${publicUrl})`);
  return url.origin;
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
/**
 * `JWT_JWKS_URL`, `JWT_ISSUER`, `JWT_AUDIENCE`: with a JWKS both others are
 * required. A provider signs tokens for every application registered with it
 * (and a JWKS may serve several issuers); without an audience a token it issued
 * to another application, one that application's operator holds for each of
 * its users, would sign that user in here.
 */
function identityProviderFrom(env: Record<string, string | undefined>): Pick<Config, "jwksUrl" | "jwtIssuer" | "jwtAudience"> {
  const jwksUrl = env.JWT_JWKS_URL || undefined;
  const jwtIssuer = env.JWT_ISSUER || undefined;
  const jwtAudience = env.JWT_AUDIENCE || undefined;
  if (jwksUrl && (!jwtIssuer || !jwtAudience)) {
    const missing = [jwtIssuer ? null : "JWT_ISSUER", jwtAudience ? null : "JWT_AUDIENCE"].filter((m) => m !== null).join(" and ");
    throw new Error(`JWT_JWKS_URL needs JWT_ISSUER and JWT_AUDIENCE (missing: ${missing}): the issuer and the audience (client id) the identity provider puts in tokens for this service, so that tokens it issued for other applications are refused`);
  }
  if (jwksUrl) {
    let url: URL;
    try {
      url = new URL(jwksUrl);
    } catch {
      throw new Error(`JWT_JWKS_URL '${jwksUrl}' is not an absolute URL`);
    }
    // keys fetched over plain http could be replaced on the way, and with them any identity signed in
    const loopback = ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname);
    if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
      throw new Error(`JWT_JWKS_URL must use https (http only on a loopback address): the signing keys of every identity-provider token are read from it`);
    }
  }
  return { jwksUrl, jwtIssuer, jwtAudience };
}

export function readConfig(env: Record<string, string | undefined> = process.env): Config {
  // the query slots: two more settings default from it
  const queryConcurrency = Math.max(1, intFrom(env.QUERY_CONCURRENCY, 8, "QUERY_CONCURRENCY"));
  return {
    host: env.HOST || "127.0.0.1",
    port: intFrom(env.PORT, 4000, "PORT"),
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: env.DATA_DIR || "./.data",
    jwtSecret: env.JWT_SECRET || undefined,
    jwtTtlSeconds: intFrom(env.JWT_TTL_SECONDS, 3600, "JWT_TTL_SECONDS"),
    ...identityProviderFrom(env),
    jwtUserClaim: env.JWT_USER_CLAIM || "preferred_username",
    rateLimitPerMinute: intFrom(env.RATE_LIMIT_PER_MINUTE, 600, "RATE_LIMIT_PER_MINUTE"),
    bootstrapAdminUserName: env.BOOTSTRAP_ADMIN_USERNAME || "admin",
    bootstrapAdminEmail: env.BOOTSTRAP_ADMIN_EMAIL || undefined,
    bootstrapAdminPassword: env.BOOTSTRAP_ADMIN_PASSWORD || undefined,
    trustProxy: env.TRUST_PROXY === "true",
    logRequests: env.LOG_REQUESTS !== "false",
    maxPackageBytes: intFrom(env.MAX_PACKAGE_BYTES, 256 * 1024 * 1024, "MAX_PACKAGE_BYTES"),
    secretKey: env.SECRET_KEY || undefined,
    connectionTestTimeoutMs: intFrom(env.CONNECTION_TEST_TIMEOUT_MS, 10_000, "CONNECTION_TEST_TIMEOUT_MS"),
    queryRowLimit: intFrom(env.QUERY_ROW_LIMIT, 1000, "QUERY_ROW_LIMIT"),
    queryTimeoutMs: intFrom(env.QUERY_TIMEOUT_MS, 30_000, "QUERY_TIMEOUT_MS"),
    queryConcurrency,
    queryConcurrencyPerOrganization: intFrom(env.QUERY_CONCURRENCY_PER_ORGANIZATION, Math.max(1, Math.floor(queryConcurrency * 3 / 4)), "QUERY_CONCURRENCY_PER_ORGANIZATION"),
    queryIdleInstances: intFrom(env.QUERY_IDLE_INSTANCES, 2 * queryConcurrency, "QUERY_IDLE_INSTANCES"),
    modelCacheEntries: Math.max(1, intFrom(env.QUERY_MODEL_CACHE_ENTRIES, 100, "QUERY_MODEL_CACHE_ENTRIES")),
    modelCacheBytes: intFrom(env.QUERY_MODEL_CACHE_BYTES, 512 * 1024 * 1024, "QUERY_MODEL_CACHE_BYTES"),
    memoryBudget: Math.max(64 * 1024 ** 2, sizeFrom(env.MEMORY_BUDGET, Math.min(2 * 1024 ** 3, Math.max(512 * 1024 ** 2, Math.floor(totalmem() / 8))), "MEMORY_BUDGET")),
    idleReleaseMs: Math.max(1_000, intFrom(env.IDLE_RELEASE_MS, 60_000, "IDLE_RELEASE_MS")),
    runConcurrency: Math.max(1, intFrom(env.RUN_CONCURRENCY, 2, "RUN_CONCURRENCY")),
    mcpAllowedOrigins: (env.MCP_ALLOWED_ORIGINS ?? "").split(",").map((o) => o.trim().replace(/\/+$/, "")).filter(Boolean),
    indexOnPublish: env.INDEX_ON_PUBLISH !== "false",
    extensionMinVersion: semverFrom(env.EXTENSION_MIN_VERSION, "0.1.0", "EXTENSION_MIN_VERSION"),
    extensionLatestVersion: semverFrom(env.EXTENSION_LATEST_VERSION, "0.1.0", "EXTENSION_LATEST_VERSION"),
    llmBaseUrl: env.LLM_BASE_URL || undefined,
    llmModel: env.LLM_MODEL || undefined,
    llmApiKey: env.LLM_API_KEY || undefined,
    llmTimeoutMs: intFrom(env.LLM_TIMEOUT_MS, 8000, "LLM_TIMEOUT_MS"),
    llmPick: env.LLM_PICK === "true",
    watchRoot: env.WATCH_ROOT || `${env.DATA_DIR || "./.data"}/watch`,
    watchDebounceMs: intFrom(env.WATCH_DEBOUNCE_MS, 200, "WATCH_DEBOUNCE_MS"),
    runHeartbeatMs: Math.max(10, intFrom(env.RUN_HEARTBEAT_MS, 2_000, "RUN_HEARTBEAT_MS")),
    runStaleAfterMs: Math.max(100, intFrom(env.RUN_STALE_AFTER_MS, 60_000, "RUN_STALE_AFTER_MS")),
    runPollMs: Math.max(10, intFrom(env.RUN_POLL_MS, 2_000, "RUN_POLL_MS")),
    runWorker: env.RUN_WORKER !== "false",
    runUnitTimeoutMs: Math.max(1, intFrom(env.RUN_UNIT_TIMEOUT_MS, 600_000, "RUN_UNIT_TIMEOUT_MS")),
    queryMemoryLimit: Math.min(sizeFrom(env.QUERY_MEMORY_LIMIT, 1024 ** 3, "QUERY_MEMORY_LIMIT"), Math.floor(totalmem() / 4)),
    queryThreads: Math.max(1, intFrom(env.QUERY_THREADS, Math.floor(cpus().length / 2), "QUERY_THREADS")),
    querySpillLimit: sizeFrom(env.QUERY_SPILL_LIMIT, 4 * 1024 ** 3, "QUERY_SPILL_LIMIT"),
    compileTimeoutMs: Math.max(1, intFrom(env.COMPILE_TIMEOUT_MS, 30_000, "COMPILE_TIMEOUT_MS")),
    compileWorkers: Math.max(1, intFrom(env.COMPILE_WORKERS, Math.max(1, Math.min(2, cpus().length)), "COMPILE_WORKERS")),
    allowedConnectionHosts: hostPolicy(env.ALLOWED_CONNECTION_HOSTS).entries,
    maxCompressionRatio: Math.max(1, intFrom(env.MAX_COMPRESSION_RATIO, 100, "MAX_COMPRESSION_RATIO")),
    loginMaxFailuresAccount: Math.max(1, intFrom(env.LOGIN_MAX_FAILURES_ACCOUNT, 10, "LOGIN_MAX_FAILURES_ACCOUNT")),
    loginMaxFailuresAddress: Math.max(1, intFrom(env.LOGIN_MAX_FAILURES_ADDRESS, 30, "LOGIN_MAX_FAILURES_ADDRESS")),
    loginWindowSeconds: Math.max(1, intFrom(env.LOGIN_FAILURE_WINDOW_SECONDS, 900, "LOGIN_FAILURE_WINDOW_SECONDS")),
    authMaxFailuresPerMinute: Math.max(1, intFrom(env.AUTH_MAX_FAILURES_PER_MINUTE, 40, "AUTH_MAX_FAILURES_PER_MINUTE")),
    passwordHashConcurrency: Math.max(
      1,
      intFrom(env.PASSWORD_HASH_CONCURRENCY, Math.max(1, Math.floor(navigator.hardwareConcurrency / 2)), "PASSWORD_HASH_CONCURRENCY"),
    ),
    passwordHashQueue: intFrom(env.PASSWORD_HASH_QUEUE, 64, "PASSWORD_HASH_QUEUE"),
    passwordHashMemoryKib: Math.max(1024, intFrom(env.PASSWORD_HASH_MEMORY_KIB, 65536, "PASSWORD_HASH_MEMORY_KIB")),
    passwordHashTimeCost: Math.max(1, intFrom(env.PASSWORD_HASH_TIME_COST, 2, "PASSWORD_HASH_TIME_COST")),
    apiKeyDefaultDays: Math.max(1, intFrom(env.API_KEY_DEFAULT_DAYS, 365, "API_KEY_DEFAULT_DAYS")),
    apiKeyMaxDays: Math.max(1, intFrom(env.API_KEY_MAX_DAYS, 365, "API_KEY_MAX_DAYS")),
    publicUrl: publicUrlFrom(env.PUBLIC_URL),
    trustedProxies: (env.TRUSTED_PROXIES ?? "").split(",").map((p) => p.trim()).filter(Boolean),
    queryLogDays: Math.max(1, intFrom(env.QUERY_LOG_DAYS, 30, "QUERY_LOG_DAYS")),
    appTokenTtlSeconds: Math.max(1, intFrom(env.APP_TOKEN_TTL_S, 900, "APP_TOKEN_TTL_S")),
    sessionTtlSeconds: Math.max(60, intFrom(env.SESSION_TTL_S, 28_800, "SESSION_TTL_S")),
    appOrigin: appOriginFrom(env.APP_ORIGIN, publicUrlFrom(env.PUBLIC_URL)),
    eventHistory: Math.max(1, intFrom(env.EVENT_HISTORY, 1000, "EVENT_HISTORY")),
    eventStreamsPerCaller: Math.max(1, intFrom(env.EVENT_STREAMS_PER_CALLER, 16, "EVENT_STREAMS_PER_CALLER")),
    eventStreamsMax: Math.max(1, intFrom(env.EVENT_STREAMS_MAX, 10_000, "EVENT_STREAMS_MAX")),
    idpSigninUrl: env.IDP_SIGNIN_URL || undefined,
  };
}
