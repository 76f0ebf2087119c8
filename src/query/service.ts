/**
 * Running a query for a caller (the flow of DESIGN.md, "Query"): check the
 * arguments -> package read access (404 when invisible) -> the version
 * (latest unarchived by default; archived or error_state refused) -> the
 * compiled model (extracted once per node, LRU-cached) -> the engine's
 * `runQuery` with the node's row limit, timeout and concurrency bound ->
 * `{ data, totalRows, executionTime, metadata }`.
 *
 * Used by the REST query route and by the MCP tool `execute_query`. This
 * module holds the runner and its query log; the run is ./execute.ts, the
 * target lookup ./target.ts, the remembered attribute names
 * ./attribute_hints.ts and what restricted callers hear ./restricted_errors.ts.
 * @module
 */
import { createSemaphore, QueryError, setEngineLimits } from "../engine/mod.ts";
import type { AppContext } from "../context.ts";
import { apiErrorOf } from "../http/error_handler.ts";
import { type Principal, principalLabel } from "../access/principal.ts";
import type { QueryLogEntry, QueryStatus } from "../query_log/store.ts";
import { queryLogWriter } from "../query_log/writer.ts";
import type { QueryArgs } from "./args.ts";
import { AttributeHints } from "./attribute_hints.ts";
import { authorizedRun, type DryRunAnswer, type QueryEnvelope, type RunFacts, type RunnerState, type RunOptions } from "./execute.ts";
import { Refusal, WithheldError } from "./restricted_errors.ts";

export { type QueryArgs } from "./args.ts";

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
    const hints = new AttributeHints();
    setEngineLimits({ memoryLimitBytes: ctx.config.queryMemoryLimit, threads: ctx.config.queryThreads, spillLimitBytes: ctx.config.querySpillLimit, statementTimeoutMs: ctx.config.queryTimeoutMs, idleSessions: ctx.config.queryConcurrency, idleInstancesTotal: ctx.config.queryIdleInstances });
    runner = {
      run: ((principal: Principal, args: QueryArgs, options: RunOptions = {}) => run(ctx, { semaphore, hints }, { principal, args, options })) as QueryRunner["run"],
    };
    runners.set(ctx, runner);
  }
  return runner;
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
  const facts: RunFacts = { boundAttributes: [] };
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
    const answer = await authorizedRun(ctx, node, { ...call, facts });
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
