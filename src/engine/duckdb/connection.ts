/**
 * The DuckDB connection of a package version (`duckdb`), a Malloy
 * `DuckDBConnection` whose every statement is checked by
 * {@link checkDuckDBSql} (DuckDB's own parser; ./statements.ts) and
 * runs in a locked-down DuckDB session that can read the package's folder and
 * nothing else.
 *
 * Sessions ({@link openSession}): an in-memory DuckDB instance opened with
 * no extension autoload/autoinstall, no community or unsigned extensions,
 * `memory_limit`, `threads`, its own `temp_directory` with
 * `max_temp_directory_size` (the limits of `setEngineLimits`, ./limits.ts); then
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
 *   runner's `QUERY_CONCURRENCY`; across packages ./idle.ts): only checked SELECTs ever ran in them, so they hold no
 *   object of an earlier query. Queries of one package run concurrently;
 *   the node-wide bound is the caller's (`QUERY_CONCURRENCY`).
 * - Schema lookups Malloy runs while compiling (`DESCRIBE SELECT ...` of
 *   tables and `sql()` sources) share one instance per package folder, a new
 *   connection each; only checked SELECT/DESCRIBE statements reach it, so no
 *   object is ever created in it.
 *
 * Relative table and file paths resolve against the package folder
 * (./paths.ts). Get a connection with `openPackageDuckDB`
 * (./sandbox.ts), which shares one per package folder.
 * @module
 */

import { resolve } from "node:path";
import type { DuckDBConnection as NodeConnection, DuckDBResult } from "@duckdb/node-api";
import { DuckDBConnection } from "@malloydata/db-duckdb";
import type { QueryRecord, RunSQLOptions, SQLSourceDef, SQLSourceRequest, TableSourceDef } from "@malloydata/malloy";
import { QueryError } from "../problems.ts";
import { checkDuckDBSql } from "../guards/sql_guard.ts";
import { assertReadable } from "./readable_files.ts";
import { type EngineLimits, openSession, type Session } from "./session.ts";
import { engineLimits, type LimitOverrides, limitOverrides } from "./limits.ts";
import { forgetIdle, idleEverywhere, keepIdle, trimIdle } from "./idle.ts";
import { absoluteTablePath, defaultReadDirectories } from "./paths.ts";
import { CheckedStatements, checkPrelude, MALLOY_SPLIT } from "./statements.ts";

/** Options of a package connection (override the process limits). */
export interface PackageDuckDBOptions extends LimitOverrides {
  /** More folders DuckDB may read; default those of `setPackageReadDirectories` (./paths.ts). */
  readDirectories?: string[];
}

/** A package's sandboxed DuckDB connection; get one with `openPackageDuckDB` (./sandbox.ts). */
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
  /** What the guard answered for statements of this connection (./statements.ts). */
  #checked = new CheckedStatements();
  /** When a statement last ran on this connection (ms since epoch). */
  #lastUsed = Date.now();
  readonly #active = new Map<Session, () => void>();
  #isClosed = false;

  constructor(packageDir: string, options: PackageDuckDBOptions = {}) {
    const dir = resolve(packageDir);
    super({ name: "duckdb", workingDirectory: dir, securityPolicy: "sandboxed", allowedDirectories: [dir] });
    this.packageDir = dir;
    this.readDirectories = [dir, ...(options.readDirectories ?? defaultReadDirectories(dir)).map((d) => resolve(d))];
    this.#overrides = limitOverrides(options);
  }

  /** The limits each query of this connection runs with. */
  get limits(): EngineLimits {
    return { ...engineLimits(), ...this.#overrides };
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
    return idleEverywhere();
  }

  /** Whether the shared schema-lookup instance is open. */
  get schemaInstanceOpen(): boolean {
    return this.#schemaInstance !== undefined;
  }

  /**
   * When nothing ran on this connection for `idleMs`: closes its idle
   * instances and forgets its checked statements (the next query opens an
   * instance and checks its text again). Returns how many instances closed.
   */
  async releaseIfIdle(idleMs: number): Promise<number> {
    if (this.#active.size > 0 || Date.now() - this.#lastUsed < idleMs) return 0;
    this.#checked = new CheckedStatements();
    const idle = this.#idle.splice(0);
    for (const session of idle) forgetIdle(session);
    await Promise.all(idle.map((session) => session.close()));
    return idle.length;
  }

  /** Interrupts every statement running on this connection. */
  interrupt(): void {
    for (const interrupt of this.#active.values()) interrupt();
  }

  /** Schema lookups and `runSQL`: one checked statement on the package's shared instance. */
  protected override async runDuckDBQuery(sql: string): Promise<{ rows: QueryRecord[]; totalRows: number }> {
    await this.setup();
    this.#lastUsed = Date.now();
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
    this.#lastUsed = Date.now();
    const statements = sql.split(MALLOY_SPLIT);
    const lastText = this.sqlWithQueryMetadata(statements.pop() ?? "", queryMetadata);
    const checked = await this.#checked.get("last", lastText, () => checkDuckDBSql(lastText, { packageDir: this.packageDir, readDirectories: this.readDirectories }));
    // the remembered check is the text's; which files outside the package this query may read is asked every time
    assertReadable(checked.outside);
    const last = checked.sql;
    const preludes: string[] = [];
    for (const statement of statements) {
      const prelude = await this.#checked.get("prelude", statement, () => checkPrelude(statement, this));
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
      this.#lastUsed = Date.now();
      if (own) own.closeSync();
      else if (!finished) session.endQueries();
      await this.#returnSession(session);
    }
  }

  /** An idle instance of this package, or a new one: one query at a time per instance. */
  async #takeSession(): Promise<Session> {
    if (this.#isClosed) throw new Error(`DuckDB connection "${this.name}" is closed`);
    const idle = this.#idle.pop();
    if (idle) {
      forgetIdle(idle);
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
    keepIdle(session, this.#idle);
    trimIdle(engineLimits().idleInstancesTotal);
  }

  /** Closes the shared schema instance, the idle instances and interrupts every running query. */
  override async close(): Promise<void> {
    this.#isClosed = true;
    clearTimeout(this.#schemaTimer);
    const schema = this.#schemaInstance;
    this.#schemaInstance = undefined;
    const idle = this.#idle.splice(0);
    for (const session of idle) forgetIdle(session);
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

// Malloy's constructor calls its private `init()`, which opens a shared
// instance; this connection opens sessions per query instead, so it has none.
Object.defineProperty(PackageDuckDBConnection.prototype, "init", { value: async function init() {} });
