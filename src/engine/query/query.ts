/**
 * Running a query against a compiled model, with a row limit, a timeout and
 * a per-process bound on concurrent queries.
 *
 * Which query runs:
 * - `query`: Malloy query text run against the model. Text that does not
 *   start with a statement (`run:`, `query:`, `source:`, `import`, `#`) gets
 *   `run: ` prepended, so `flights -> by_carrier` works as is.
 * - `queryName` with `sourceName`: the view `queryName` of that source
 *   (`run: source -> view`); when the source has no such view but the model
 *   has a top-level `query: queryName`, that query runs.
 * - `queryName` alone: the model's top-level `query: queryName`.
 *
 * The folder `query/`: this runner, its options and answer (options.ts),
 * choosing and compiling the query and generating its SQL, with their caches
 * (prepare.ts), the counting semaphore that bounds it (semaphore.ts), the
 * owner-bound LRU of its caches (owned_lru.ts) and the names of the Malloy
 * text the platform writes (malloy_names.ts).
 * @module
 */

import { type Connection, type QueryRecord, Result, API } from "@malloydata/malloy";
import type { CompiledModel } from "../compile/compile.ts";
import { QueryError, problemsOf, redactPath } from "../problems.ts";
import { NOT_ALLOWED_PREFIX } from "../guards/sql_guard.ts";
import { createSemaphore, type Semaphore } from "./semaphore.ts";
import type { QueryResponse, RunQueryOptions } from "./options.ts";
import { compiledQueryOf, sqlOf } from "./prepare.ts";

/** Default most rows of a result. */
const DEFAULT_ROW_LIMIT = 1000;
/** Default query timeout in milliseconds. */
const DEFAULT_TIMEOUT_MS = 30_000;

let processSemaphore: Semaphore = createSemaphore(8);

/** Sets how many queries this process runs at once (default 8). */
function setQueryConcurrency(max: number): void {
  processSemaphore = createSemaphore(max);
}

/**
 * Runs a query against a compiled model. Throws a {@link QueryError}:
 * `request` (bad arguments), `compile` (with Malloy's problems, 1-based
 * line/column), `execution` (the database refused) or `timeout`.
 */
export async function runQuery(
  compiled: CompiledModel,
  options: RunQueryOptions,
): Promise<QueryResponse> {
  const started = performance.now();
  const rowLimit = Math.max(0, Math.floor(options.rowLimit ?? DEFAULT_ROW_LIMIT));
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const controller = new AbortController();
  const timeout = new QueryError("timeout", `the query did not finish within ${timeoutMs} ms; narrow it (filters, limit) or raise the timeout`);
  const timer = setTimeout(() => controller.abort(timeout), timeoutMs);
  const onCallerAbort = () => controller.abort(new QueryError("execution", "the query was cancelled"));
  options.signal?.addEventListener("abort", onCallerAbort);
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener("abort", () => reject(controller.signal.reason));
  });
  aborted.catch(() => {});
  let release: (() => void) | undefined;
  try {
    release = await (options.semaphore ?? processSemaphore).acquire(controller.signal, options.slotKey);
    return await Promise.race([
      execute(compiled, options, { rowLimit, signal: controller.signal, started }),
      aborted,
    ]);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onCallerAbort);
    release?.();
  }
}

async function execute(
  compiled: CompiledModel,
  options: RunQueryOptions,
  context: { rowLimit: number; signal: AbortSignal; started: number },
): Promise<QueryResponse> {
  const compileError = (error: unknown) => {
    const problems = redactPath(problemsOf(error, (url) => fileLabel(compiled, url)), compiled.pkg.packageDir);
    const refused = problems.find((problem) => problem.message.includes(NOT_ALLOWED_PREFIX));
    if (refused) return new QueryError("not_allowed", refused.message.slice(refused.message.indexOf(NOT_ALLOWED_PREFIX)), problems);
    return new QueryError("compile", `the query does not compile: ${problems[0].message}`, problems);
  };
  const { query: compiledQuery, sourceName, queryName } = await compiledQueryOf(compiled, options, compileError);
  let query = compiledQuery;
  if (options.authorize) query = await options.authorize(query);
  const { prepared, metadata: generated } = sqlOf(compiled, query, compileError);
  const connectionName = prepared.connectionName;
  const metadata = { schema: generated.schema, sourceName: sourceName ?? generated.sourceName, queryName, sql: generated.sql, connection: generated.connection };
  const elapsed = () => Math.round((performance.now() - context.started) * 10) / 10;
  if (options.dryRun) return { data: [], totalRows: 0, truncated: false, executionTime: elapsed(), metadata };
  const connection = await compiled.pkg.runtime.connections.lookupConnection(connectionName);
  let rows: QueryRecord[];
  try {
    rows = await fetchRows(connection, options.wrapSql?.(prepared.sql) ?? prepared.sql, context.rowLimit + 1, context.signal);
  } catch (error) {
    if (context.signal.aborted) throw context.signal.reason;
    if (error instanceof QueryError) throw error;
    const [problem] = redactPath([{ message: (error as Error).message }], compiled.pkg.packageDir);
    throw new QueryError("execution", `the query failed: ${problem.message}`);
  }
  const truncated = rows.length > context.rowLimit;
  if (truncated) rows = rows.slice(0, context.rowLimit);
  if (options.wrapSql) return { data: rows.map((row) => jsonSafe(row) as Record<string, unknown>), totalRows: rows.length, truncated, executionTime: elapsed(), metadata };
  let totalRows = rows.length;
  if (truncated && options.countTotalRows !== false) {
    totalRows = await countRows(connection, prepared.sql, context.signal) ?? totalRows;
  }
  const result = new Result(
    { ...prepared._rawQuery, result: rows, totalRows },
    prepared._modelDef,
  );
  // a path DuckDB answers (read_csv(..., filename=true), glob()) is the package's file as its author wrote it
  const packagePrefix = `${compiled.pkg.packageDir}/`;
  const data = result.data.toObject().map((row) => jsonSafe(row, packagePrefix) as Record<string, unknown>);
  return {
    data,
    totalRows,
    truncated,
    executionTime: elapsed(),
    metadata,
    ...(options.malloyResult ? { malloyResult: stableResult(result) } : {}),
  };
}

/** Malloy's stable result of a query (what `@malloydata/render` draws), JSON-safe, without the SQL (the metadata carries it redacted). */
function stableResult(result: Result): unknown {
  const { sql: _sql, ...stable } = API.util.wrapResult(result);
  return jsonSafe(stable);
}

async function fetchRows(
  connection: Connection,
  sql: string,
  limit: number,
  signal: AbortSignal,
): Promise<QueryRecord[]> {
  if (connection.canStream()) {
    const rows: QueryRecord[] = [];
    for await (const row of connection.runSQLStream(sql, { rowLimit: limit, abortSignal: signal })) {
      rows.push(row);
      if (rows.length >= limit) break;
    }
    return rows;
  }
  const result = await connection.runSQL(sql, { rowLimit: limit, abortSignal: signal });
  return result.rows;
}

async function countRows(connection: Connection, sql: string, signal: AbortSignal): Promise<number | undefined> {
  const statements = sql.split("-- hack: split on this");
  const last = (statements.pop() ?? "").trim().replace(/;\s*$/, "");
  statements.push(`SELECT COUNT(*) AS total_rows FROM (${last}) AS counted_rows`);
  try {
    const [row] = await fetchRows(connection, statements.join("-- hack: split on this"), 1, signal);
    const value = Number(row?.["total_rows"]);
    return Number.isFinite(value) ? value : undefined;
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    return undefined;
  }
}

/**
 * Makes a value JSON-safe: bigint to number (when safe) or string, Date to
 * ISO string; with `packagePrefix` (the package folder, ending in `/`), a
 * string naming a file of the package names it package-relative
 * (`data/orders.csv`), so no server path reaches a row.
 */
export function jsonSafe(value: unknown, packagePrefix?: string): unknown {
  if (typeof value === "string") return packagePrefix !== undefined && value.includes(packagePrefix) ? value.replaceAll(packagePrefix, "") : value;
  if (typeof value === "bigint") {
    const asNumber = Number(value);
    return Number.isSafeInteger(asNumber) ? asNumber : value.toString();
  }
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map((item) => jsonSafe(item, packagePrefix));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[key] = jsonSafe(inner, packagePrefix);
    return out;
  }
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return value;
}

function fileLabel(compiled: CompiledModel, url: string): string {
  const file = compiled.pkg.fileOf(url);
  return file.startsWith("internal:") ? "query" : file;
}
