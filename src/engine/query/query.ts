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
 * The folder `query/`: this runner, the counting semaphore that bounds it
 * (semaphore.ts), the owner-bound LRU of its caches (owned_lru.ts) and the
 * names of the Malloy text the platform writes (malloy_names.ts).
 * @module
 */

import {
  type Connection,
  type Explore,
  Model,
  type ModelDef,
  type PreparedQuery,
  type PreparedResult,
  type QueryMaterializer,
  type QueryRecord,
  Result,
  API,
} from "@malloydata/malloy";
import type { CompiledModel } from "../compile/compile.ts";
import { QueryError, problemsOf, redactPath } from "../problems.ts";
import { NOT_ALLOWED_PREFIX } from "../guards/sql_guard.ts";
import { ownedLru } from "./owned_lru.ts";
import { createSemaphore, type Semaphore } from "./semaphore.ts";
import { quoteName } from "./malloy_names.ts";

/** Options of {@link runQuery}. */
export interface RunQueryOptions {
  /** Malloy query text. Exactly one of `query` and `queryName`. */
  query?: string;
  /** A view of `sourceName`, or a top-level named query. */
  queryName?: string;
  /** The source whose view `queryName` names. */
  sourceName?: string;
  /** Most rows returned. Default 1000. */
  rowLimit?: number;
  /** Cancel after this many milliseconds (waiting for a slot included). Default 30,000. */
  timeoutMs?: number;
  /** Count all rows with a second query when the result is truncated. Default true. */
  countTotalRows?: boolean;
  /** Bound on concurrent queries; default the process-wide one ({@link setQueryConcurrency}). */
  semaphore?: Semaphore;
  /** Whose share of the semaphore's slots this query counts against (the query runner: the organization). */
  slotKey?: string;
  /** Cancels the query when it aborts (e.g. the client went away). */
  signal?: AbortSignal;
  /**
   * Compile `query` text in Malloy's restricted mode (no `import`, no
   * `conn.table(...)`/`conn.sql(...)`, no `##!` flags, no raw SQL functions):
   * rejections are compile problems with code `restricted-construct-forbidden`.
   */
  restricted?: boolean;
  /**
   * The model definition to compile against (and whose sources and named
   * queries a named run looks up and lists in its errors); default the
   * compiled model's own.
   */
  modelDef?: ModelDef;
  /**
   * Called with the compiled query before SQL is generated; answers the query
   * to run (e.g. with parameters filled) or throws to refuse it.
   */
  authorize?: (query: PreparedQuery) => PreparedQuery | Promise<PreparedQuery>;
  /** Compile (and authorize) only: answer the SQL and schema without running. */
  dryRun?: boolean;
  /** Also answer Malloy's own result (schema with its tags, data as cells) for `@malloydata/render`. */
  malloyResult?: boolean;
  /**
   * Keep the compiled query for the next run of the same text (default
   * true). The platform's own one-off queries (a run's value scans) pass
   * false, so they do not fill the model's cache of user queries.
   */
  keep?: boolean;
  /**
   * Runs `wrapSql(sql)` instead of the SQL Malloy generated for the query
   * (the platform's own scans: one statement over a query's rows); `data`
   * is then that statement's rows as they come (JSON-safe), not Malloy's
   * result shape.
   */
  wrapSql?: (sql: string) => string;
}

/** A column of the result. */
export interface ColumnSchema {
  name: string;
  /** `string`, `number`, `date`, `timestamp`, `boolean`, `json`, `array`, `record`, ... */
  type: string;
}

/** What {@link runQuery} answers (the seed's `execute_query` result). */
export interface QueryResponse {
  /** Rows, JSON-safe: big integers as strings, dates as ISO 8601 strings. */
  data: Record<string, unknown>[];
  /** Rows of the whole result: exact unless `truncated` and the count was skipped or failed. */
  totalRows: number;
  /** True when more rows existed than `rowLimit`. */
  truncated: boolean;
  /** Milliseconds spent compiling and running. */
  executionTime: number;
  metadata: {
    schema: ColumnSchema[];
    sourceName?: string;
    queryName?: string;
    sql: string;
    connection: string;
  };
  /** Malloy's result (`Malloy.Result` of `@malloydata/malloy-interfaces`) when asked for, without its SQL. */
  malloyResult?: unknown;
}

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

/** A query compiled against a model definition: what {@link chooseQuery} chose, compiled. */
interface CompiledQuery {
  query: PreparedQuery;
  sourceName?: string;
  queryName?: string;
}

/** The SQL of a compiled (and authorized) query, with what the answer's metadata needs. */
interface GeneratedSql {
  prepared: PreparedResult;
  metadata: { schema: ColumnSchema[]; sourceName?: string; sql: string; connection: string };
}

/** Compiled queries kept per model definition (most recently used last). */
const QUERY_CACHE_ENTRIES = 500;

/**
 * Compiled queries by model definition, then by (restricted mode, query text
 * or name and source). A model definition belongs to one compiled model of
 * one package version (a served materialization rewrites it into a new
 * object), so an entry never serves another version, model or organization;
 * restricted and unrestricted compiles of the same text are separate
 * entries. Failed compiles are not kept.
 */
const compiledQueries = ownedLru<ModelDef, Promise<CompiledQuery>>(QUERY_CACHE_ENTRIES);

/**
 * Drops the compiled queries kept for a model definition (its model went
 * idle or memory is short); returns how many were dropped. The next run of
 * each text compiles it again.
 */
export function forgetCompiledQueries(modelDef: ModelDef): number {
  return compiledQueries.clear(modelDef);
}

/**
 * Generated SQL by compiled query object. Authorization answers either the
 * compiled query itself (no bound parameter) or a rewritten one that
 * src/rls keeps per bound values, so the SQL of one set of values is
 * generated once and never answers a query with other values.
 */
const generatedSql = new WeakMap<PreparedQuery, GeneratedSql>();

/** A value of a Malloy given, as a query supplies it. */
export type GivenInput = string | number | boolean | null | string[];

/** The givens each query object generates its SQL with (see {@link queryWithGivens}). */
const suppliedGivens = new WeakMap<PreparedQuery, Record<string, GivenInput>>();

/**
 * A query object with the same definition as `query` whose SQL is generated
 * with these givens (Malloy's `$NAME` values, by surface name): its own
 * object, so its SQL is cached apart from any other set of values.
 */
export function queryWithGivens(query: PreparedQuery, givens: Record<string, GivenInput>): PreparedQuery {
  const Prepared = query.constructor as new (q: unknown, model: unknown, problems: unknown, name?: string) => PreparedQuery;
  const made = new Prepared(query._query, (query as unknown as { _model: unknown })._model, query.problems, query.name);
  suppliedGivens.set(made, givens);
  return made;
}

async function compiledQueryOf(compiled: CompiledModel, options: RunQueryOptions, compileError: (error: unknown) => QueryError): Promise<CompiledQuery> {
  const modelDef = options.modelDef ?? compiled.model._modelDef;
  const key = JSON.stringify([options.restricted === true, options.query ?? null, options.queryName ?? null, options.sourceName ?? null]);
  const hit = compiledQueries.get(modelDef, key);
  if (hit) return await hit;
  const { materializer, sourceName, queryName } = chooseQuery(compiled, options);
  const pending = materializer.getPreparedQuery().then(
    (query): CompiledQuery => ({ query, sourceName, queryName }),
    (error: unknown) => {
      throw compileError(error);
    },
  );
  if (options.keep === false) return await pending;
  compiledQueries.set(modelDef, key, pending);
  pending.catch(() => compiledQueries.deleteIf(modelDef, key, pending));
  return await pending;
}

function sqlOf(compiled: CompiledModel, query: PreparedQuery, compileError: (error: unknown) => QueryError): GeneratedSql {
  const known = generatedSql.get(query);
  if (known) return known;
  let prepared: PreparedResult;
  try {
    const givens = suppliedGivens.get(query);
    prepared = givens ? query.getPreparedResult({ givens }) : query.preparedResult;
  } catch (error) {
    throw compileError(error);
  }
  const generated: GeneratedSql = {
    prepared,
    metadata: {
      schema: schemaOf(prepared.resultExplore),
      sourceName: safeSourceName(prepared),
      // the package's own files appear by their path in the package, not the server's folder
      sql: prepared.sql.split(`${compiled.pkg.packageDir.replace(/\/+$/, "")}/`).join(""),
      connection: prepared.connectionName,
    },
  };
  generatedSql.set(query, generated);
  return generated;
}

/** Malloy models of query definitions other than a compiled model's own, to look up and list their names. */
const definitionModels = new WeakMap<ModelDef, Model>();

function modelOfDef(def: ModelDef): Model {
  let model = definitionModels.get(def);
  if (!model) definitionModels.set(def, model = new Model(def, [], []));
  return model;
}

function chooseQuery(
  compiled: CompiledModel,
  options: RunQueryOptions,
): { materializer: QueryMaterializer; sourceName?: string; queryName?: string } {
  const { query, queryName, sourceName } = options;
  if ((query === undefined) === (queryName === undefined)) {
    throw new QueryError("request", "give either query (Malloy text) or queryName (with sourceName for a view), not both or neither");
  }
  if (query !== undefined && sourceName !== undefined) {
    throw new QueryError("request", "sourceName goes with queryName; leave it out when giving query text");
  }
  // names are looked up and listed in the definition the query compiles against (a caller's view of the model)
  const model = options.modelDef ? modelOfDef(options.modelDef) : compiled.model;
  const models = compiled.pkg.runtime._loadModelFromModelDef(options.modelDef ?? model._modelDef);
  if (query !== undefined) {
    if (query.trim() === "") throw new QueryError("request", "query is empty; write Malloy such as `run: source -> { aggregate: count() }`");
    const text = asStatement(query);
    return { materializer: options.restricted ? models.loadRestrictedQuery(text) : models.loadQuery(text) };
  }
  const name = queryName as string;
  const named = model.queries().named.includes(name);
  if (sourceName !== undefined) {
    const source = model.explores.find((explore) => explore.name === sourceName);
    if (!source) {
      throw new QueryError("request", `model '${compiled.path}' has no source named '${sourceName}'; its sources are ${list(model.explores.map((e) => e.name))}`);
    }
    const view = source.getFieldByNameIfExists(name);
    if (view?.isQueryField()) {
      return {
        materializer: models.loadQuery(`run: ${quoteName(sourceName)} -> ${quoteName(name)}`),
        sourceName,
        queryName: name,
      };
    }
    if (!named) {
      const views = source.allFields.filter((f) => f.isQueryField()).map((f) => f.name);
      throw new QueryError("request", `source '${sourceName}' has no view named '${name}' and the model has no query of that name; its views are ${list(views)}`);
    }
  } else if (!named) {
    throw new QueryError("request", `model '${compiled.path}' has no query named '${name}'; give sourceName to run a view, or use one of ${list(model.queries().named)}`);
  }
  return { materializer: models.loadQueryByName(name), sourceName, queryName: name };
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

function schemaOf(explore: Explore): ColumnSchema[] {
  return explore.allFields.map((field) => {
    if (field.isAtomicField()) return { name: field.name, type: String(field.type) };
    if (field.isExploreField()) return { name: field.name, type: field.structDef.type === "record" ? "record" : "array" };
    return { name: field.name, type: "view" };
  });
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

function asStatement(query: string): string {
  const body = query.replace(/^(\s|--[^\n]*\n|\/\/[^\n]*\n)*/, "");
  return /^(run|query|source|import|#)/.test(body) ? query : `run: ${query}`;
}

function list(names: string[]): string {
  return names.length === 0 ? "(none)" : names.map((n) => `'${n}'`).join(", ");
}

function fileLabel(compiled: CompiledModel, url: string): string {
  const file = compiled.pkg.fileOf(url);
  return file.startsWith("internal:") ? "query" : file;
}

function safeSourceName(prepared: PreparedResult): string | undefined {
  try {
    return prepared.sourceExplore?.name;
  } catch {
    return undefined;
  }
}
