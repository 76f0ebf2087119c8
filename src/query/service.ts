/**
 * Running a query for a caller (the flow of DESIGN.md, "Query"): check the
 * arguments -> package read access (404 when invisible) -> the version
 * (latest unarchived by default; archived or error_state refused) -> the
 * compiled model (extracted once per node, LRU-cached) -> the engine's
 * `runQuery` with the node's row limit, timeout and concurrency bound ->
 * `{ data, totalRows, executionTime, metadata }`.
 *
 * Used by the REST query route and by the MCP tool `execute_query`.
 * @module
 */
import { type ColumnSchema, createSemaphore, QueryError, runQuery, type Semaphore, setEngineLimits, withReadableFiles } from "../engine/mod.ts";
import { hideServerPaths } from "../http/server_paths.ts";
import type { AppContext } from "../http/context.ts";
import { MODEL, READ, principalKey } from "../http/access.ts";
import { authGeneration, decisionCache } from "../http/auth_cache.ts";
import { ApiError, badRequest, forbidden, notFound } from "../http/errors.ts";
import { apiErrorOf } from "../http/error_handler.ts";
import { type Principal, principalLabel } from "../http/principal.ts";
import { authorizeQuery, queryModelDef } from "../rls/enforce.ts";
import type { QueryLogEntry, QueryStatus, QueryVia } from "../query_log/store.ts";
import { queryLogWriter } from "../query_log/writer.ts";
import { type ArgumentStyle, argName, type CheckedQueryArgs, checkQueryArgs, type QueryArgs } from "./args.ts";
import { serveMaterializations } from "../materializations/serve.ts";
import { compiledModelFor } from "./models.ts";
import { findQueryTarget, type QueryTarget, type TargetVersion, workspaceAccess } from "./store.ts";

export { type QueryArgs } from "./args.ts";

/** The answer of a query (the seed's `execute_query` result). */
interface QueryEnvelope {
  /** Rows, JSON-safe: big integers beyond 2^53 as strings, dates and timestamps as ISO 8601 strings. */
  data: Record<string, unknown>[];
  /** Rows of the whole result (more than `data.length` when truncated). */
  totalRows: number;
  /** Milliseconds spent compiling the query and running it. */
  executionTime: number;
  metadata: QueryMetadata;
}

/** What a result is and where it came from. */
interface QueryMetadata {
  /** Columns of the result: name and Malloy type. */
  schema: ColumnSchema[];
  sourceName?: string;
  queryName?: string;
  /** The package version that answered, e.g. `1.0.0`. */
  versionId: string;
  modelPath: string;
  /** The connection the SQL ran on (`duckdb` or an environment connection). */
  connection: string;
  sql: string;
  /** True when more rows existed than `rowLimit`; `data` holds the first `rowLimit`. */
  truncated: boolean;
  rowLimit: number;
  /** The materialization the query read (`#@ persist` sources), absent when it read the definitions. */
  materialization?: { id: string; builtAt: string };
}

/** The answer of a dry run: the query compiled and authorized, not run. */
interface DryRunAnswer {
  sql: string;
  schema: ColumnSchema[];
  /** The model's sources the query reaches. */
  sources: string[];
}

/** Options of {@link QueryRunner.run}. */
interface RunOptions {
  /** How the query arrived, for the query log (default `rest`). */
  via?: QueryVia;
  /** Names used in error messages: the MCP tool's snake_case (default) or REST's camelCase. */
  style?: ArgumentStyle;
  /** Cancels the query (e.g. the client went away). */
  signal?: AbortSignal;
  /**
   * `performance.now()` when the request arrived: the caller's rank on the
   * package then comes from a cache fresh as of that moment (http/auth_cache.ts).
   */
  since?: number;
}

/** Runs queries for callers; see {@link createQueryRunner}. */
export interface QueryRunner {
  /**
   * Runs a query. Throws an `ApiError` (`400 VALIDATION_ERROR` for broken
   * argument rules or an archived version, `404` for what the caller cannot
   * see or what does not exist) or a {@link QueryError} (`kind` `compile`
   * with problems at line/column, `execution`, `timeout`, or `request` for a
   * source or view the model lacks).
   */
  run(principal: Principal, args: QueryArgs & { dry_run: true }, options?: RunOptions): Promise<DryRunAnswer>;
  run(principal: Principal, args: QueryArgs & { dry_run?: false }, options?: RunOptions): Promise<QueryEnvelope>;
  run(principal: Principal, args: QueryArgs, options?: RunOptions): Promise<QueryEnvelope | DryRunAnswer>;
}

const runners = new WeakMap<AppContext, QueryRunner>();

/**
 * The query runner of an app context. One per context: repeated calls return
 * the same runner, so REST and MCP share the compiled-model cache and the
 * node's concurrency bound (`QUERY_CONCURRENCY`).
 */
export function createQueryRunner(ctx: AppContext): QueryRunner {
  let runner = runners.get(ctx);
  if (!runner) {
    const semaphore = createSemaphore(ctx.config.queryConcurrency, { perKey: ctx.config.queryConcurrencyPerOrganization });
    const hints: AttributeHints = new Map();
    setEngineLimits({ memoryLimitBytes: ctx.config.queryMemoryLimit, threads: ctx.config.queryThreads, spillLimitBytes: ctx.config.querySpillLimit, statementTimeoutMs: ctx.config.queryTimeoutMs, idleSessions: ctx.config.queryConcurrency, idleInstancesTotal: ctx.config.queryIdleInstances });
    runner = {
      run: ((principal: Principal, args: QueryArgs, options: RunOptions = {}) => run(ctx, { semaphore, hints }, { principal, args, options })) as QueryRunner["run"],
    };
    runners.set(ctx, runner);
  }
  return runner;
}

/**
 * Attribute names a query needed last time, by its names (organization,
 * environment, package, version argument, model, query): the next run of the
 * same query reads the caller's values of those attributes in its target
 * statement. Only a hint of what to read: the values are always the
 * caller's, read in this request, and a query whose rules need an attribute
 * not read that way reads it in a statement of its own.
 */
type AttributeHints = Map<string, string[]>;

/** State of a runner shared by its queries: the concurrency bound and the attribute hints. */
interface RunnerState {
  semaphore: Semaphore;
  hints: AttributeHints;
}

/** Most queries whose attribute names are remembered. */
const HINT_ENTRIES = 10_000;

function hintKey(args: CheckedQueryArgs): string {
  return JSON.stringify([args.organization, args.environment_name, args.package_name, args.version_id ?? null, args.modelPath, args.query ?? null, args.query_name ?? null, args.source_name ?? null]);
}

function rememberAttributes(hints: AttributeHints, key: string, attributes: string[]): void {
  const known = hints.get(key);
  if (attributes.length === 0) {
    if (known) hints.delete(key);
    return;
  }
  if (known && known.length === attributes.length && known.every((a, i) => a === attributes[i])) return;
  hints.delete(key);
  hints.set(key, attributes);
  if (hints.size > HINT_ENTRIES) hints.delete(hints.keys().next().value!);
}

/** Problem codes of query text a restricted caller may not send (Malloy's restricted mode, redefinitions). */
const RESTRICTED_CODES = new Set(["restricted-construct-forbidden", "source-definition-name-conflict", "query-definition-name-conflict"]);

/** A refusal of the access rules (logged as `refused`). */
class Refusal extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
  }
}

/**
 * Runs a query and records it in the query log (once the package is known):
 * the answer goes out only after its log entry is committed.
 */
async function run(
  ctx: AppContext,
  node: RunnerState,
  call: { principal: Principal; args: QueryArgs; options: RunOptions },
): Promise<QueryEnvelope | DryRunAnswer> {
  const started = performance.now();
  const at = new Date();
  const facts: { orgId?: string; versionId?: string; boundAttributes: string[] } = { boundAttributes: [] };
  const entry = (status: QueryStatus, extra: { rows?: number; error?: string }): QueryLogEntry => ({
    orgId: facts.orgId!,
    at,
    principal: principalLabel(call.principal),
    via: call.options.via ?? "rest",
    environmentName: call.args.environment_name,
    packageName: call.args.package_name,
    versionId: facts.versionId,
    modelPath: call.args.model_uri,
    query: call.args.query,
    queryName: call.args.query_name,
    sourceName: call.args.source_name,
    boundAttributes: facts.boundAttributes,
    ms: performance.now() - started,
    status,
    ...extra,
  });
  try {
    const answer = await authorizedRun(ctx, node, call, facts);
    if (facts.orgId) await queryLogWriter(ctx).record(entry("ok", { rows: "data" in answer ? answer.data.length : 0 }), logWait(node));
    return answer;
  } catch (thrown) {
    const error = thrown instanceof Refusal ? thrown.error : thrown;
    if (facts.orgId) {
      const status: QueryStatus = thrown instanceof Refusal || apiErrorOf(error)?.status === 403
        ? "refused"
        : error instanceof QueryError && error.kind === "timeout" ? "timeout" : "error";
      const message = error instanceof WithheldError ? error.original : (error as Error).message;
      await queryLogWriter(ctx).record(entry(status, { error: message }), logWait(node))
        .catch(() => {}); // the failure is what the caller hears about; the writer logged the insert error
    }
    throw error;
  }
}

/**
 * The run-time failure of a query over a `#(bind)` source, as a restricted
 * caller (viewer, API key, OAuth client) hears it: without the database's
 * words. The database may evaluate the caller's expressions on rows the
 * bound filter drops (it orders a WHERE clause's conditions as it likes),
 * and its message can quote such a row (`Could not convert string 'US'`).
 * The query log keeps the message for organization admins. This withholds
 * the text only: that a query failed is still seen (see the README's
 * security section on what remains).
 */
class WithheldError extends QueryError {
  readonly original: string;
  constructor(original: string) {
    super("execution", "the query failed while running; the database's message is withheld because the query reads a source filtered by #(bind), and such messages can quote rows outside your filter (an organization admin sees it in the query log)");
    this.original = original;
  }
}

/**
 * Ms a query's log entry may wait to share an INSERT with others: only while
 * queries wait for an engine slot (the node is saturated, answers are paced
 * by the slots, and the entries of the next queries follow within ms); a
 * node with free slots writes each entry at once.
 */
function logWait(node: RunnerState): { waitMs: number } {
  return { waitMs: node.semaphore.waiting > 0 ? LOG_WAIT_MS : 0 };
}

/** Longest a query's log entry waits for others under load, ms. */
const LOG_WAIT_MS = 20;

async function authorizedRun(
  ctx: AppContext,
  node: RunnerState,
  call: { principal: Principal; args: QueryArgs; options: RunOptions },
  facts: { orgId?: string; versionId?: string; boundAttributes: string[] },
): Promise<QueryEnvelope | DryRunAnswer> {
  const started = performance.now();
  const style = call.options.style ?? "snake";
  const args = checkQueryArgs(call.args, { style });
  const hint = hintKey(args);
  const pkg = await readableTarget(ctx, call.principal, args, { attributes: node.hints.get(hint), since: call.options.since });
  facts.orgId = pkg.orgId;
  if (args.workspace) await checkWorkspace(ctx, call.principal, { pkg, workspace: args.workspace });
  const version = queryableVersion(pkg, { versionId: args.version_id, style });
  facts.versionId = version.id;
  const compiled = await compiledModelFor(ctx, {
    versionUuid: version.uuid,
    versionId: version.id,
    blobSha256: version.blobSha256,
    envId: pkg.envId,
    packageName: pkg.packageName,
    modelPath: args.modelPath,
  });
  const rowLimit = Math.min(args.limit ?? ctx.config.queryRowLimit, ctx.config.queryRowLimit);
  // viewers, API keys and OAuth clients may use only the model's sources and queries
  const restricted = call.principal.kind === "group" || call.principal.oauth === true || pkg.rank < MODEL;
  let sources: string[] = [];
  // Materializations: `#@ persist` sources read their latest built file (src/materializations/serve.ts).
  const served = await serveMaterializations(ctx, compiled, { versionUuid: version.uuid, blobSha256: version.blobSha256, hasBuilt: version.hasMaterializations });
  let result;
  try {
    // DuckDB reads, outside the package folder, exactly this version's built files
    result = await withReadableFiles(served.readable, () => runQuery(served.compiled, {
      query: args.query,
      queryName: args.query_name,
      sourceName: args.source_name,
      rowLimit,
      timeoutMs: ctx.config.queryTimeoutMs,
      semaphore: node.semaphore,
      slotKey: pkg.orgId,
      signal: call.options.signal,
      restricted,
      modelDef: queryModelDef(served.compiled),
      dryRun: args.dry_run,
      authorize: async (query) => {
        try {
          const authorized = await authorizeQuery(ctx.sql, { principal: call.principal, orgId: pkg.orgId }, query, { compiled, text: args.query, prefetched: pkg.effective });
          facts.boundAttributes = authorized.boundAttributes;
          rememberAttributes(node.hints, hint, authorized.boundAttributes);
          sources = authorized.sources;
          return authorized.query;
        } catch (error) {
          const api = apiErrorOf(error);
          throw api ? new Refusal(api) : error;
        }
      },
    }));
  } catch (error) {
    served.release();
    if (restricted && facts.boundAttributes.length > 0 && error instanceof QueryError && error.kind === "execution") throw new WithheldError(error.message);
    if (restricted && error instanceof QueryError && error.kind === "compile") {
      const refused = error.problems.find((p) => p.code !== undefined && RESTRICTED_CODES.has(p.code));
      if (refused) {
        throw new Refusal(forbidden(`${refused.message.replace(/\.$/, "")}; queries from viewers, API keys and OAuth clients may use only the sources and queries of the model (no connections, imports or redefinitions)`));
      }
    }
    throw error;
  }
  served.release();
  const materialization = served.materializationFor(result.metadata.sql);
  if (args.dry_run) return { sql: hideServerPaths(served.redact(result.metadata.sql)), schema: result.metadata.schema, sources };
  return {
    data: result.data,
    totalRows: result.totalRows,
    executionTime: Math.round((performance.now() - started) * 10) / 10,
    metadata: {
      schema: result.metadata.schema,
      ...(result.metadata.sourceName === undefined ? {} : { sourceName: result.metadata.sourceName }),
      ...(result.metadata.queryName === undefined ? {} : { queryName: result.metadata.queryName }),
      versionId: version.id,
      modelPath: args.modelPath,
      connection: result.metadata.connection,
      sql: hideServerPaths(served.redact(result.metadata.sql)),
      truncated: result.truncated,
      rowLimit,
      ...(materialization ? { materialization } : {}),
    },
  };
}

/**
 * The package of the query with the caller's rank and the version to run, in
 * one round trip; 404 (the same message whether the organization,
 * environment or package is missing or invisible) unless the caller may read it.
 *
 * With `since` (when the request arrived) the whole answer is cached per
 * caller and names (attribute names included) under the generation of
 * http/auth_cache.ts: every table the lookup reads (access: sql/145; versions,
 * materializations and attribute values: sql/160) notes its changes there,
 * so a new or archived version, a built materialization, a changed value or
 * a revoked grant counts on the next query. A cached rank still serves a
 * lookup whose target expired.
 */
async function readableTarget(ctx: AppContext, principal: Principal, args: CheckedQueryArgs, options: { attributes?: string[]; since?: number }): Promise<QueryTarget> {
  const names = { org: args.organization, env: args.environment_name, pkg: args.package_name, versionId: args.version_id, attributes: options.attributes };
  let target: QueryTarget | null | undefined;
  if (options.since === undefined) target = await findQueryTarget(ctx.sql, principal, names);
  else {
    const generation = await authGeneration(ctx.sql, options.since);
    const p = principalKey(principal);
    const targets = decisionCache<QueryTarget>(ctx.sql, "query-target");
    const targetKey = `${p.kind}:${p.id}:${JSON.stringify([names.org, names.env, names.pkg, names.versionId ?? null, names.attributes ?? []])}`;
    target = targets.get(targetKey, generation);
    if (!target) {
      const cache = decisionCache<number>(ctx.sql, "package-rank");
      const key = `${p.kind}:${p.id}:${JSON.stringify([names.org, names.env, names.pkg])}`;
      const rank = cache.get(key, generation);
      target = await findQueryTarget(ctx.sql, principal, { ...names, rank });
      if (target && rank === undefined) cache.set(key, generation, target.rank);
      // frozen: one object answers many requests
      if (target) {
        Object.freeze(target.version);
        Object.freeze(target.effective);
        targets.set(targetKey, generation, Object.freeze(target));
      }
    }
  }
  if (!target || target.rank < READ) throw notFound(`package '${args.package_name}' not found in environment '${args.environment_name}'`);
  return target;
}

/**
 * The version a query names, or the latest unarchived one. A named version
 * that is archived or in error_state is a 400 that says what to do.
 */
function queryableVersion(target: QueryTarget, options: { versionId?: string; style: ArgumentStyle }): TargetVersion {
  const version = target.version;
  const pkg = { name: target.packageName };
  const name = argName("version_id", options.style);
  if (!version) {
    throw notFound(options.versionId
      ? `version ${options.versionId} of package '${pkg.name}' not found; list its versions with GET .../packages/${pkg.name}/versions`
      : `package '${pkg.name}' has no unarchived version to query; unarchive one or publish a new one`);
  }
  if (version.archiveStatus === "archive") {
    throw badRequest(
      `version ${version.id} of package '${pkg.name}' is archived and cannot be queried; unarchive it with PATCH .../packages/${pkg.name}/versions/${version.id} {"archiveStatus": "unarchive"} (package admin or modeler), or leave out ${name} to query the latest version`,
    );
  }
  if (version.archiveStatus === "error_state") {
    throw badRequest(
      `version ${version.id} of package '${pkg.name}' is in error_state (a build or index run failed) and cannot be queried; publish a fixed version, or leave out ${name} to query the latest version`,
    );
  }
  return version;
}

/** 404 unless the workspace exists in the package's organization, the caller can see it, and it has access to the package. */
async function checkWorkspace(ctx: AppContext, principal: Principal, where: { pkg: QueryTarget; workspace: string }): Promise<void> {
  const access = await workspaceAccess(ctx.sql, principal, { target: where.pkg, workspace: where.workspace });
  if (!access || access.rank < READ) throw notFound(`workspace '${where.workspace}' not found`);
  if (!access.hasPackage) {
    throw notFound(`package '${where.pkg.packageName}' not found in workspace '${where.workspace}'; a workspace manager can add it to the workspace`);
  }
}
