/**
 * A DuckDB session of a package: an in-memory instance locked down to read
 * the package's folder (and the folders given with it) and nothing else,
 * with per-query limits, its connections and its kept prepared statements.
 * Used by the package connection (./connection.ts), which says when
 * sessions open, are kept idle and close.
 * @module
 */
import { mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { type DuckDBConnection as NodeConnection, DuckDBInstance, type DuckDBPreparedStatement } from "@duckdb/node-api";

/** Per-query resource limits of DuckDB sessions. */
export interface EngineLimits {
  /** Bytes of memory per query (DuckDB `memory_limit`). */
  memoryLimitBytes: number;
  /** Worker threads per query. */
  threads: number;
  /** Bytes a query may spill to its temp folder (`max_temp_directory_size`). */
  spillLimitBytes: number;
  /** Folder under which each session gets its own spill folder. */
  tempRoot: string;
  /** Server-side statement timeout of warehouse connections (PostgreSQL), ms; 0 = none. */
  statementTimeoutMs: number;
  /**
   * Idle DuckDB instances kept per package for the next queries (the query
   * runner sets it to `QUERY_CONCURRENCY`, so a package under load reuses
   * instances instead of opening one per query). Default 2.
   */
  idleSessions: number;
  /**
   * Idle DuckDB instances kept in this process, all packages together (the
   * query runner's `QUERY_IDLE_INSTANCES`): past it the least recently used
   * idle instance of any package is closed, so a node serving many packages
   * does not keep `idleSessions` instances for each one. Default 16.
   */
  idleInstancesTotal: number;
  /**
   * A package's shared schema-lookup instance is closed after this many ms
   * without a lookup (it is opened again by the next one). Default 60 000.
   */
  schemaIdleMs: number;
}

/** One locked-down DuckDB instance and its connection. */
export interface Session {
  instance: DuckDBInstance;
  connection: NodeConnection;
  /** Interrupts the running statement, repeating until {@link Session.close}. */
  interrupt(): void;
  /**
   * The connection single-statement queries reuse (opened on first use).
   * Only checked SELECTs ever run on it, so it holds no object of an earlier
   * query; queries with statements before their SELECT (temporary macros) get
   * a connection of their own instead.
   */
  queryConnection(): Promise<NodeConnection>;
  /**
   * The prepared statement of a checked SELECT on {@link Session.queryConnection},
   * kept for the next run of the same text (at most `PREPARED_PER_SESSION`,
   * least recently used destroyed first): a repeated query is not parsed,
   * planned and torn down again. A `heavy` statement (a CSV scan: it pins
   * its reader's 30.5 MiB buffer while kept) counts against a budget of an
   * eighth of the memory limit ({@link heavyStatementBudget}); past it the
   * least recently used heavy one is destroyed. `null` when the budget keeps
   * none: run the statement once instead.
   */
  prepared(sql: string, options?: { heavy?: boolean }): Promise<DuckDBPreparedStatement | null>;
  /**
   * Closes the query connection with its prepared statements (a query stopped
   * before its last row, failed or was interrupted: what it still holds is
   * released now, not at the next query); the next query opens a new one.
   */
  endQueries(): void;
  /** Closes the connections and the instance and removes the spill folder. */
  close(): Promise<void>;
}

/** Prepared statements kept per session (see {@link Session.prepared}). */
const PREPARED_PER_SESSION = 16;

/** What a kept CSV scan pins: DuckDB's CSV reader buffer (32,000,000 bytes, measured 30.5 MiB per statement). */
const HEAVY_STATEMENT_BYTES = 32_000_000;

/**
 * Heavy statements a session keeps: those whose pinned buffers fit in an
 * eighth of its memory limit (4 at the default 1 GiB, 1 at 256 MiB), so
 * finished queries never hold what the next one needs.
 */
function heavyStatementBudget(memoryLimitBytes: number): number {
  return Math.floor(memoryLimitBytes / 8 / HEAVY_STATEMENT_BYTES);
}

function quote(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Opens a session that may read `packageDir` (and the folders of `moreReadDirectories`,
 * e.g. the package's materializations) only, with the given limits.
 */
export async function openSession(packageDir: string, sessionLimits: EngineLimits, moreReadDirectories: readonly string[] = []): Promise<Session> {
  const readDirectories = [packageDir, ...moreReadDirectories];
  const temp = join(sessionLimits.tempRoot, crypto.randomUUID());
  mkdirSync(temp, { recursive: true });
  let instance: DuckDBInstance | undefined;
  let connection: NodeConnection | undefined;
  try {
    instance = await DuckDBInstance.create(":memory:", {
      autoload_known_extensions: "false",
      autoinstall_known_extensions: "false",
      allow_community_extensions: "false",
      allow_unsigned_extensions: "false",
      temp_file_encryption: "true",
      threads: String(sessionLimits.threads),
      memory_limit: `${Math.floor(sessionLimits.memoryLimitBytes / 1024)}KiB`,
      temp_directory: temp,
      max_temp_directory_size: `${Math.floor(sessionLimits.spillLimitBytes / 1024)}KiB`,
    });
    connection = await instance.connect();
    await connection.run(`SET allowed_directories=[${readDirectories.map(quote).join(", ")}]`);
    await connection.run("SET enable_external_access=false");
    await connection.run("LOAD json");
    await connection.run("LOAD icu");
    await connection.run("SET TimeZone='UTC'");
    await connection.run("SET lock_configuration=true");
  } catch (error) {
    connection?.closeSync();
    instance?.closeSync();
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
  const open = connection;
  const owner = instance;
  let repeat: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  let queries: NodeConnection | undefined;
  const statements = new Map<string, DuckDBPreparedStatement>();
  const heavy = new Set<string>();
  const heavyBudget = heavyStatementBudget(sessionLimits.memoryLimitBytes);
  const drop = (sql: string) => {
    const old = statements.get(sql);
    statements.delete(sql);
    heavy.delete(sql);
    old?.destroySync();
  };
  const endQueries = () => {
    statements.clear();
    heavy.clear();
    queries?.closeSync(); // destroys its prepared statements
    queries = undefined;
  };
  const queryConnection = async () => {
    if (closed) throw new Error("the DuckDB session is closed");
    queries ??= await owner.connect();
    return queries;
  };
  return {
    instance: owner,
    connection: open,
    interrupt() {
      if (closed) return;
      open.interrupt();
      queries?.interrupt();
      repeat ??= setInterval(() => {
        open.interrupt();
        queries?.interrupt();
      }, 50);
    },
    queryConnection,
    async prepared(sql, options = {}) {
      const connection = await queryConnection();
      let prepared = statements.get(sql);
      if (prepared) statements.delete(sql);
      else {
        if (options.heavy) {
          if (heavyBudget === 0) return null;
          // the least recently used heavy statement makes room (Map order is use order)
          if (heavy.size >= heavyBudget) drop([...statements.keys()].find((k) => heavy.has(k))!);
        }
        prepared = await connection.prepare(sql);
        if (statements.size >= PREPARED_PER_SESSION) drop(statements.keys().next().value!);
        if (options.heavy) heavy.add(sql);
      }
      statements.set(sql, prepared);
      return prepared;
    },
    endQueries,
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(repeat);
      endQueries();
      open.closeSync();
      owner.closeSync();
      await rm(temp, { recursive: true, force: true });
    },
  };
}
