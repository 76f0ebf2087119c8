/**
 * What a query run takes ({@link RunQueryOptions}) and answers
 * ({@link QueryResponse}): the interface of ./query.ts, shared with
 * ./prepare.ts, which compiles what the options name.
 * @module
 */
import type { ModelDef, PreparedQuery } from "@malloydata/malloy";
import type { Semaphore } from "./semaphore.ts";

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
