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
import { type ColumnSchema, createSemaphore, QueryError, runQuery, type Semaphore } from "../engine/mod.ts";
import type { AppContext } from "../http/context.ts";
import { READ } from "../http/access.ts";
import { badRequest, notFound } from "../http/errors.ts";
import type { Principal } from "../http/principal.ts";
import { type ArgumentStyle, argName, type CheckedQueryArgs, checkQueryArgs, type QueryArgs } from "./args.ts";
import { serveMaterializations } from "../materializations/serve.ts";
import { compiledModelFor } from "./models.ts";
import { findQueryTarget, type QueryTarget, type TargetVersion, workspaceAccess } from "./store.ts";

export { type ArgumentStyle, type QueryArgs } from "./args.ts";
export { QueryError } from "../engine/mod.ts";

/** The answer of a query (the seed's `execute_query` result). */
export interface QueryEnvelope {
  /** Rows, JSON-safe: big integers beyond 2^53 as strings, dates and timestamps as ISO 8601 strings. */
  data: Record<string, unknown>[];
  /** Rows of the whole result (more than `data.length` when truncated). */
  totalRows: number;
  /** Milliseconds spent compiling the query and running it. */
  executionTime: number;
  metadata: QueryMetadata;
}

/** What a result is and where it came from. */
export interface QueryMetadata {
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

/** Options of {@link QueryRunner.run}. */
export interface RunOptions {
  /** Names used in error messages: the MCP tool's snake_case (default) or REST's camelCase. */
  style?: ArgumentStyle;
  /** Cancels the query (e.g. the client went away). */
  signal?: AbortSignal;
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
  run(principal: Principal, args: QueryArgs, options?: RunOptions): Promise<QueryEnvelope>;
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
    const semaphore = createSemaphore(ctx.config.queryConcurrency);
    runner = { run: (principal, args, options = {}) => run(ctx, semaphore, { principal, args, options }) };
    runners.set(ctx, runner);
  }
  return runner;
}

async function run(
  ctx: AppContext,
  semaphore: Semaphore,
  call: { principal: Principal; args: QueryArgs; options: RunOptions },
): Promise<QueryEnvelope> {
  const started = performance.now();
  const style = call.options.style ?? "snake";
  const args = checkQueryArgs(call.args, { style });
  const pkg = await readableTarget(ctx, call.principal, args);
  if (args.workspace) await checkWorkspace(ctx, call.principal, { pkg, workspace: args.workspace });
  const version = queryableVersion(pkg, { versionId: args.version_id, style });
  const compiled = await compiledModelFor(ctx, {
    versionUuid: version.uuid,
    versionId: version.id,
    blobSha256: version.blobSha256,
    envId: pkg.envId,
    packageName: pkg.packageName,
    modelPath: args.modelPath,
  });
  const rowLimit = ctx.config.queryRowLimit;
  // Materializations: `#@ persist` sources read their latest built file (src/materializations/serve.ts).
  const served = await serveMaterializations(ctx, compiled, { versionUuid: version.uuid, blobSha256: version.blobSha256 });
  const result = await runQuery(served.compiled, {
    query: args.query,
    queryName: args.query_name,
    sourceName: args.source_name,
    rowLimit,
    timeoutMs: ctx.config.queryTimeoutMs,
    semaphore,
    signal: call.options.signal,
  }).finally(served.release);
  const materialization = served.materializationFor(result.metadata.sql);
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
      sql: served.redact(result.metadata.sql),
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
 */
async function readableTarget(ctx: AppContext, principal: Principal, args: CheckedQueryArgs): Promise<QueryTarget> {
  const target = await findQueryTarget(ctx.sql, principal, {
    org: args.organization,
    env: args.environment_name,
    pkg: args.package_name,
    versionId: args.version_id,
  });
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
