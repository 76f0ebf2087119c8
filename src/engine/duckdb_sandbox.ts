/**
 * The DuckDB connection of a package version (`duckdb`): every statement is
 * checked by {@link checkDuckDBSql} (DuckDB's own parser) and runs in a
 * locked-down DuckDB session that can read the package's folder and nothing
 * else.
 *
 * Sessions ({@link openSession}): an in-memory DuckDB instance opened with
 * no extension autoload/autoinstall, no community or unsigned extensions,
 * `memory_limit`, `threads`, its own `temp_directory` with
 * `max_temp_directory_size` (the limits of {@link setEngineLimits}); then
 * `SET allowed_directories=[packageDir]`, `SET enable_external_access=false`,
 * the bundled `json` and `icu` LOADed, and `SET lock_configuration=true`.
 *
 * - Each query (`runSQLStream`, what `runQuery` uses) has an instance to
 *   itself while it runs (its own memory limit, threads and spill folder).
 *   A query with statements before its SELECT (Malloy's temporary macros)
 *   gets a new connection on it (its own temporary schema, closed after);
 *   a lone checked SELECT runs on the instance's query connection, which
 *   only such SELECTs ever reach, with its prepared statement kept for the
 *   next run of the same text ({@link Session.prepared}); a query that stops
 *   before its last row, fails or is interrupted closes that connection.
 *   An abort interrupts only the query's connection (repeatedly, until the
 *   statement stops). Instances
 *   are opened on demand and idle ones are kept per package for
 *   the next queries (`idleSessions` of {@link EngineLimits}, the query
 *   runner's `QUERY_CONCURRENCY`): only checked SELECTs ever ran in them, so they hold no
 *   object of an earlier query. Queries of one package run concurrently;
 *   the node-wide bound is the caller's (`QUERY_CONCURRENCY`).
 * - Schema lookups Malloy runs while compiling (`DESCRIBE SELECT ...` of
 *   tables and `sql()` sources) share one instance per package folder, a new
 *   connection each; only checked SELECT/DESCRIBE statements reach it, so no
 *   object is ever created in it.
 *
 * Table paths such as `duckdb.table('data/x.csv')` and file paths inside
 * `duckdb.sql("SELECT * FROM 'data/t.csv'")` resolve against the package
 * folder (as in Malloy Publisher): the guard rewrites them to absolute paths
 * inside the package, because DuckDB resolves relative paths against the
 * process's working directory.
 * @module
 */

import { cpus, tmpdir, totalmem } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import type { DuckDBConnection as NodeConnection, DuckDBResult } from "@duckdb/node-api";
import { DuckDBConnection } from "@malloydata/db-duckdb";
import type { QueryRecord, RunSQLOptions, SQLSourceDef, SQLSourceRequest, TableSourceDef } from "@malloydata/malloy";
import { QueryError } from "./problems.ts";
import { checkDuckDBSql, countStatements, notAllowed } from "./guards/sql_guard.ts";
import { assertReadable } from "./readable_files.ts";
import { type EngineLimits, openSession, type Session } from "./duckdb_session.ts";

/** Options of {@link openPackageDuckDB} (override the process limits). */
export interface PackageDuckDBOptions {
  /** Folder for spill folders; default `<os tmp>/malloy-duckdb`. */
  tempDirectory?: string;
  /** DuckDB worker threads per query. */
  threads?: number;
  /** Memory per query, bytes or a DuckDB size such as `"1GB"`. */
  memoryLimit?: string | number;
  /** More folders DuckDB may read; default those of {@link setPackageReadDirectories}. */
  readDirectories?: string[];
}

const GIB = 1024 ** 3;

/** The default memory limit per query: 1 GiB, at most a quarter of the host's memory. */
function defaultMemoryLimit(): number {
  return Math.min(GIB, Math.floor(totalmem() / 4));
}

let limits: EngineLimits = {
  memoryLimitBytes: defaultMemoryLimit(),
  threads: Math.max(1, Math.floor(cpus().length / 2)),
  spillLimitBytes: 4 * GIB,
  tempRoot: join(tmpdir(), "malloy-duckdb"),
  statementTimeoutMs: 30_000,
  idleSessions: 2,
  idleInstancesTotal: 16,
  schemaIdleMs: 60_000,
};

/**
 * Sets the per-query limits of this process's DuckDB sessions. The memory
 * limit is capped at a quarter of the host's memory.
 */
export function setEngineLimits(next: Partial<EngineLimits>): EngineLimits {
  const merged = { ...limits, ...Object.fromEntries(Object.entries(next).filter(([, v]) => v !== undefined)) };
  merged.memoryLimitBytes = Math.max(16 * 1024 * 1024, Math.min(merged.memoryLimitBytes, Math.floor(totalmem() / 4)));
  merged.threads = Math.max(1, Math.floor(merged.threads));
  merged.idleSessions = Math.max(0, Math.floor(merged.idleSessions));
  merged.idleInstancesTotal = Math.max(0, Math.floor(merged.idleInstancesTotal));
  merged.schemaIdleMs = Math.max(0, Math.floor(merged.schemaIdleMs));
  limits = merged;
  PackageDuckDBConnection.trimIdle();
  return limits;
}

/** The current per-query limits. */
export function engineLimits(): EngineLimits {
  return { ...limits };
}

const MALLOY_SPLIT = "-- hack: split on this";
/** Checked statements kept per package connection (most recently used last). */
const CHECKED_ENTRIES = 500;
const DROP_MACRO = /^\s*DROP MACRO IF EXISTS ([A-Za-z_][A-Za-z0-9_]*);\s*$/;
const CREATE_MACRO = /^\s*CREATE MACRO ([A-Za-z_][A-Za-z0-9_]*)\(_param\) AS \(([\s\S]*)\);\s*$/;

/** A package's sandboxed DuckDB connection; get one with {@link openPackageDuckDB}. */
export class PackageDuckDBConnection extends DuckDBConnection {
  /** The package folder every relative path resolves against, and the only one readable. */
  readonly packageDir!: string;
  /** Folders queries may read: the package folder, then its materializations' folder. */
  readonly readDirectories!: string[];
  #overrides!: Partial<EngineLimits>;
  #schemaInstance?: Promise<Session>;
  /** Schema lookups running on the shared instance, and the timer that closes it once unused. */
  #schemaUsers = 0;
  #schemaTimer?: ReturnType<typeof setTimeout>;
  readonly #idle: Session[] = [];
  /** Idle instances of every package connection of this process, least recently returned first. */
  static readonly #idleEverywhere = new Map<Session, PackageDuckDBConnection>();
  /**
   * What the guard answered for statements of this connection (text in, the
   * statement to run out): the answer depends only on the text and this
   * connection's folders, so a statement is parsed and checked once.
   * Refusals are not kept.
   */
  readonly #checked = new Map<string, Promise<unknown>>();
  readonly #active = new Map<Session, () => void>();
  #isClosed = false;

  constructor(packageDir: string, options: PackageDuckDBOptions = {}) {
    const dir = resolve(packageDir);
    super({ name: "duckdb", workingDirectory: dir, securityPolicy: "sandboxed", allowedDirectories: [dir] });
    this.packageDir = dir;
    this.readDirectories = [dir, ...(options.readDirectories ?? readDirectoriesOf(dir)).map((d) => resolve(d))];
    this.#overrides = {
      ...(options.threads === undefined ? {} : { threads: options.threads }),
      ...(options.memoryLimit === undefined ? {} : { memoryLimitBytes: parseSize(options.memoryLimit) }),
      ...(options.tempDirectory === undefined ? {} : { tempRoot: resolve(options.tempDirectory) }),
    };
  }

  /** The limits each query of this connection runs with. */
  get limits(): EngineLimits {
    return { ...limits, ...this.#overrides };
  }

  protected override async setup(): Promise<void> {
    if (this.#isClosed) throw new Error(`DuckDB connection "${this.name}" is closed`);
  }

  override async idle(): Promise<void> {}

  /** Rewrites relative file paths of `duckdb.table(...)` to absolute paths inside the package. */
  override async fetchTableSchema(tableKey: string, tablePath: string): Promise<TableSourceDef> {
    return await super.fetchTableSchema(tableKey, absoluteTablePath(tablePath, this.packageDir));
  }

  /**
   * Checks a `sql()` source's own text first, so that text holding a second
   * statement is refused as such (inside Malloy's `DESCRIBE SELECT * FROM (...)`
   * it would only be a syntax error).
   */
  override async fetchSelectSchema(sqlRef: SQLSourceRequest): Promise<SQLSourceDef | string> {
    const own = await checkDuckDBSql(sqlRef.selectStr, { packageDir: this.packageDir, readDirectories: this.readDirectories }).catch((error: unknown) => {
      if (error instanceof QueryError) throw error;
    });
    if (own) assertReadable(own.outside);
    return await super.fetchSelectSchema(sqlRef);
  }

  /** Idle instances kept for the next queries (at most `idleSessions` of the limits). */
  get idleInstances(): number {
    return this.#idle.length;
  }

  /** Idle instances kept by every package connection of this process (at most `idleInstancesTotal`). */
  static get idleInstancesEverywhere(): number {
    return PackageDuckDBConnection.#idleEverywhere.size;
  }

  /** Whether the shared schema-lookup instance is open. */
  get schemaInstanceOpen(): boolean {
    return this.#schemaInstance !== undefined;
  }

  /** Closes the least recently returned idle instances of any package until at most `idleInstancesTotal` remain. */
  static trimIdle(): void {
    const everywhere = PackageDuckDBConnection.#idleEverywhere;
    while (everywhere.size > limits.idleInstancesTotal) {
      const [session, owner] = everywhere.entries().next().value!;
      everywhere.delete(session);
      const at = owner.#idle.indexOf(session);
      if (at >= 0) owner.#idle.splice(at, 1);
      void session.close();
    }
  }

  /** Interrupts every statement running on this connection. */
  interrupt(): void {
    for (const interrupt of this.#active.values()) interrupt();
  }

  /** Schema lookups and `runSQL`: one checked statement on the package's shared instance. */
  protected override async runDuckDBQuery(sql: string): Promise<{ rows: QueryRecord[]; totalRows: number }> {
    await this.setup();
    const checked = await checkDuckDBSql(sql, { packageDir: this.packageDir, readDirectories: this.readDirectories });
    assertReadable(checked.outside);
    clearTimeout(this.#schemaTimer);
    this.#schemaUsers++;
    try {
      const opening = this.#schemaInstance ??= openSession(this.packageDir, this.limits, this.readDirectories.slice(1));
      const shared = await opening.catch((error) => {
        if (this.#schemaInstance === opening) this.#schemaInstance = undefined;
        throw error;
      });
      const connection = await shared.instance.connect();
      try {
        const result = await once(connection, checked.sql, "run");
        const rows = (await result.getRowObjectsJson()) as QueryRecord[];
        return { rows, totalRows: rows.length };
      } finally {
        connection.closeSync();
      }
    } finally {
      if (--this.#schemaUsers === 0 && this.#schemaInstance) {
        // lookups happen while a model compiles: an unused instance is closed, not kept for every package ever compiled
        this.#schemaTimer = setTimeout(() => this.#closeSchemaInstance(), this.limits.schemaIdleMs);
        (this.#schemaTimer as { unref?: () => void }).unref?.();
      }
    }
  }

  #closeSchemaInstance(): void {
    if (this.#schemaUsers > 0) return;
    const schema = this.#schemaInstance;
    this.#schemaInstance = undefined;
    void schema?.then((session) => session.close(), () => undefined);
  }

  /** Streams the rows of a query run in its own session; the session closes when reading stops. */
  override async *runSQLStream(sql: string, options: RunSQLOptions = {}): AsyncIterableIterator<QueryRecord> {
    const { rowLimit, abortSignal, queryMetadata } = options;
    await this.setup();
    const statements = sql.split(MALLOY_SPLIT);
    const lastText = this.sqlWithQueryMetadata(statements.pop() ?? "", queryMetadata);
    const checked = await this.#check("last", lastText, () => checkDuckDBSql(lastText, { packageDir: this.packageDir, readDirectories: this.readDirectories }));
    // the remembered check is the text's; which files outside the package this query may read is asked every time
    assertReadable(checked.outside);
    const last = checked.sql;
    const preludes: string[] = [];
    for (const statement of statements) {
      const prelude = await this.#check("prelude", statement, () => checkPrelude(statement, this));
      if (prelude) preludes.push(prelude);
    }
    if (abortSignal?.aborted) return;
    const session = await this.#takeSession();
    // with statements before the SELECT: a new connection, its own temporary schema (the macros above die with it);
    // a lone checked SELECT: the session's query connection, its prepared statement kept (a CSV scan, which pins its
    // 30.5 MiB reader buffer while kept, within the session's budget of such statements: Session.prepared)
    const own = preludes.length > 0 ? await session.instance.connect().catch(async (error) => {
      await this.#returnSession(session);
      throw error;
    }) : undefined;
    let connection: NodeConnection;
    try {
      connection = own ?? await session.queryConnection();
    } catch (error) {
      await this.#returnSession(session);
      throw error;
    }
    let finished = false;
    let repeat: ReturnType<typeof setInterval> | undefined;
    const interrupt = () => {
      connection.interrupt();
      repeat ??= setInterval(() => connection.interrupt(), 50);
    };
    this.#active.set(session, interrupt);
    abortSignal?.addEventListener("abort", interrupt);
    try {
      for (const prelude of preludes) await once(connection, prelude, "run");
      const kept = own ? null : await session.prepared(last, { heavy: !checked.keepable });
      const result = kept ? await kept.stream() : await once(connection, last, "stream");
      let index = 0;
      for await (const chunk of result.yieldRowObjectJson()) {
        for (const row of chunk) {
          if ((rowLimit !== undefined && index >= rowLimit) || abortSignal?.aborted) return;
          index++;
          yield row as QueryRecord;
        }
      }
      // the last chunk read: DuckDB has ended the query and released what it held
      finished = !abortSignal?.aborted;
    } finally {
      abortSignal?.removeEventListener("abort", interrupt);
      clearInterval(repeat);
      this.#active.delete(session);
      if (own) own.closeSync();
      else if (!finished) session.endQueries();
      await this.#returnSession(session);
    }
  }

  /** The guard's answer for a statement, checked once per connection (refusals are thrown, never kept). */
  async #check<T>(kind: "last" | "prelude", text: string, check: () => Promise<T>): Promise<T> {
    const key = `${kind}\u0000${text}`;
    const hit = this.#checked.get(key) as Promise<T> | undefined;
    if (hit) {
      this.#checked.delete(key);
      this.#checked.set(key, hit);
      return await hit;
    }
    const pending = check();
    this.#checked.set(key, pending);
    if (this.#checked.size > CHECKED_ENTRIES) this.#checked.delete(this.#checked.keys().next().value!);
    pending.catch(() => {
      if (this.#checked.get(key) === pending) this.#checked.delete(key);
    });
    return await pending;
  }

  /** An idle instance of this package, or a new one: one query at a time per instance. */
  async #takeSession(): Promise<Session> {
    if (this.#isClosed) throw new Error(`DuckDB connection "${this.name}" is closed`);
    const idle = this.#idle.pop();
    if (idle) {
      PackageDuckDBConnection.#idleEverywhere.delete(idle);
      return idle;
    }
    return await openSession(this.packageDir, this.limits, this.readDirectories.slice(1));
  }

  /** Keeps up to `idleSessions` ({@link EngineLimits}) instances for the next queries; closes the rest. */
  async #returnSession(session: Session): Promise<void> {
    if (this.#isClosed || this.#idle.length >= this.limits.idleSessions || this.limits.idleInstancesTotal === 0) {
      await session.close();
      return;
    }
    this.#idle.push(session);
    PackageDuckDBConnection.#idleEverywhere.set(session, this);
    PackageDuckDBConnection.trimIdle();
  }

  /** Closes the shared schema instance, the idle instances and interrupts every running query. */
  override async close(): Promise<void> {
    this.#isClosed = true;
    clearTimeout(this.#schemaTimer);
    const schema = this.#schemaInstance;
    this.#schemaInstance = undefined;
    const idle = this.#idle.splice(0);
    for (const session of idle) PackageDuckDBConnection.#idleEverywhere.delete(session);
    for (const interrupt of this.#active.values()) interrupt();
    await Promise.all([
      schema?.then((session) => session.close(), () => undefined),
      ...idle.map((session) => session.close()),
    ]);
  }
}

/**
 * Prepares one statement, runs it (`run`: to completion; `stream`: started,
 * the pending result keeps what it needs, as in node-api's own `stream()`)
 * and destroys the prepared statement at once. Left to the connection's
 * close, the destroy came after the rows were read and cost the event loop
 * about a millisecond per query under load (a third of the main thread with
 * 64 clients). Prepared, not `connection.run(sql)`: DuckDB prepares exactly
 * one statement, where `run` would execute every statement of the text.
 */
async function once(connection: NodeConnection, sql: string, how: "run" | "stream"): Promise<DuckDBResult> {
  const prepared = await connection.prepare(sql);
  try {
    return await (how === "run" ? prepared.run() : prepared.stream());
  } finally {
    prepared.destroySync();
  }
}

/**
 * Malloy's statements before the query (`DROP MACRO IF EXISTS f;` and
 * `CREATE MACRO f(_param) AS (...)` of nested pipelines): the drop is
 * skipped (each query has a fresh instance), the macro's body is checked as
 * an expression of one SELECT, and the macro is created as a temporary one.
 * Anything else is refused.
 */
async function checkPrelude(statement: string, folders: { packageDir: string; readDirectories: string[] }): Promise<string | undefined> {
  if (statement.trim() === "" || DROP_MACRO.test(statement)) return undefined;
  const macro = CREATE_MACRO.exec(statement);
  if (!macro) throw notAllowed("a query is exactly one SELECT statement");
  const body = await checkDuckDBSql(`SELECT (${macro[2]}) AS v`, folders);
  // a macro is created before the query runs: it reads nothing outside the package folder
  if (body.outside.length > 0) throw notAllowed("a macro may read only the package's own files");
  const inner = body.sql.slice("SELECT (".length, -") AS v".length);
  const create = `CREATE TEMPORARY MACRO ${macro[1]}(_param) AS (${inner})`;
  if (await countStatements(create) !== 1) throw notAllowed("a query is exactly one SELECT statement");
  return create;
}

// Malloy's constructor calls its private `init()`, which opens a shared
// instance; this connection opens sessions per query instead, so it has none.
Object.defineProperty(PackageDuckDBConnection.prototype, "init", { value: async function init() {} });

const open = new Map<string, PackageDuckDBConnection>();

let readDirectoriesOf: (packageDir: string) => string[] = () => [];

/**
 * Sets which more folders the DuckDB of a package folder may read when its
 * opener does not say (`readDirectories`): the platform registers the folder
 * of the package's materializations (src/materializations/files.ts).
 */
export function setPackageReadDirectories(resolver: (packageDir: string) => string[]): void {
  readDirectoriesOf = resolver;
}

/**
 * The `duckdb` connection of the package extracted at `packageDir`, shared by
 * every caller in this process (each query still gets its own session).
 */
export function openPackageDuckDB(packageDir: string, options: PackageDuckDBOptions = {}): PackageDuckDBConnection {
  const dir = resolve(packageDir);
  let connection = open.get(dir);
  if (!connection) {
    connection = new PackageDuckDBConnection(dir, options);
    open.set(dir, connection);
  }
  return connection;
}

/** Closes the package's connection (for example when its version is deleted). */
export async function closePackageDuckDB(packageDir: string): Promise<void> {
  const dir = resolve(packageDir);
  const connection = open.get(dir);
  open.delete(dir);
  await connection?.close();
}

/** Closes every package connection of this process (shutdown, tests). */
export async function closeAllPackageDuckDB(): Promise<void> {
  const all = [...open.values()];
  open.clear();
  await Promise.all(all.map((connection) => connection.close()));
}

/** Bytes of a size given as a number of bytes or a DuckDB size (`512MB`, `1GiB`). */
function parseSize(size: string | number): number {
  if (typeof size === "number") return size;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMGT]?i?B?)?\s*$/i.exec(size);
  if (!match) throw new Error(`'${size}' is not a size; write bytes or e.g. 512MB, 1GiB`);
  const unit = (match[2] ?? "").toUpperCase().replace(/I?B$/, "");
  const power = ["", "K", "M", "G", "T"].indexOf(unit);
  const base = /I/i.test(match[2] ?? "") || !/B/i.test(match[2] ?? "") ? 1024 : 1000;
  return Math.floor(Number(match[1]) * base ** Math.max(0, power));
}

const FILE_EXTENSION = /\.(csv|tsv|txt|parquet|json|jsonl|ndjson|gz|zst|arrow|xlsx)$/i;
const URL_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/**
 * Turns a canonical DuckDB table path that names a relative file into a
 * quoted absolute path under `packageDir`; leaves table names, absolute
 * paths and URLs alone (the guard decides about those).
 */
export function absoluteTablePath(tablePath: string, packageDir: string): string {
  let file: string | undefined;
  if (tablePath.startsWith("'") && tablePath.endsWith("'") && tablePath.length >= 2) {
    file = tablePath.slice(1, -1).replace(/''/g, "'");
  } else if (FILE_EXTENSION.test(tablePath) && !tablePath.includes('"')) {
    file = tablePath;
  }
  if (file === undefined || isAbsolute(file) || URL_SCHEME.test(file)) return tablePath;
  return `'${resolve(packageDir, file).replace(/'/g, "''")}'`;
}
