/**
 * Materializing a source of a compiled model as a Parquet file (the folder
 * `materialize/`).
 *
 * The package's own `duckdb` connection is shared and meant for reading; a
 * materialization gets a separate, short-lived in-memory DuckDB instance
 * with the same lock-down (no extension loading, external access off,
 * configuration locked) whose allowed directories are the package folder
 * (to read its data), the output folder and a spill folder. It runs exactly
 * one statement that we compose, `COPY (<the source's SELECT>) TO
 * '<outDir>/<file>.tmp' (FORMAT parquet)`, through a prepared statement (DuckDB
 * refuses to prepare more than one statement), so the only file it writes is
 * the one named here; the file is renamed into place when complete, so a
 * cancelled or failed build never replaces a good file.
 *
 * A source of another connection (a warehouse such as PostgreSQL) runs its
 * SQL on that connection; its rows are streamed into a table of the same
 * kind of short-lived DuckDB instance (through an appender, columns typed from
 * the source's Malloy schema) and written from there with the same `COPY`.
 * @module
 */
import { mkdir, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { type DuckDBAppender, type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import type { Connection, Explore, QueryRecord } from "@malloydata/malloy";
import type { CompiledModel } from "../compile/compile.ts";
import { QueryError } from "../problems.ts";

/** Options of {@link writeSourceParquet}. */
export interface WriteParquetOptions {
  /** The `#@ persist` source to materialize. */
  sourceName: string;
  /** Absolute path of the Parquet file to (re)write. */
  outFile: string;
  /** Interrupts the write when it aborts (cancel, timeout). */
  signal?: AbortSignal;
}

/** What a materialization wrote. */
export interface ParquetResult {
  rowCount: number;
  /** Connection the source runs on. */
  connection: string;
  /** Columns of the file: the source's dimensions as `select: *` names them. */
  columns: string[];
}

function quoteString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Runs `run: <source> -> { select: * }` of a compiled model and writes the
 * rows to `outFile` as Parquet: in DuckDB for sources of the package's
 * `duckdb` connection, streamed from the source's own connection otherwise.
 */
export async function writeSourceParquet(compiled: CompiledModel, options: WriteParquetOptions): Promise<ParquetResult> {
  const name = options.sourceName.replace(/`/g, "");
  const runtime = compiled.pkg.runtime;
  const prepared = await runtime._loadModelFromModelDef(compiled.model._modelDef)
    .loadQuery(`run: \`${name}\` -> { select: * }`)
    .getPreparedResult()
    .catch((error: unknown) => {
      throw new QueryError("compile", `source '${name}' cannot be materialized: ${(error as Error).message}`);
    });
  const columns = columnsOf(prepared.resultExplore);
  const warehouse = prepared.connectionName === "duckdb"
    ? undefined
    : await runtime.connections.lookupConnection(prepared.connectionName).catch((error: unknown) => {
      throw new QueryError("request", `source '${name}' cannot be materialized: ${(error as Error).message}`);
    });
  const outFile = resolve(options.outFile);
  const outDir = dirname(outFile);
  await mkdir(outDir, { recursive: true });
  const spill = join(tmpdir(), "malloy-materialize", `${basename(outDir)}-${crypto.randomUUID()}`);
  await mkdir(spill, { recursive: true });
  const partial = `${outFile}.${crypto.randomUUID()}.tmp`;
  const instance = await DuckDBInstance.create(":memory:", {
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
    allow_community_extensions: "false",
    allow_unsigned_extensions: "false",
    temp_directory: spill,
  });
  const connection = await instance.connect();
  // An interrupt that lands between statements is lost, so repeat it until the write stops.
  let repeat: ReturnType<typeof setInterval> | undefined;
  const onAbort = () => {
    connection.interrupt();
    repeat ??= setInterval(() => connection.interrupt(), 50);
  };
  options.signal?.addEventListener("abort", onAbort);
  if (options.signal?.aborted) onAbort();
  try {
    const dirs = [compiled.pkg.packageDir, outDir, spill].map(quoteString).join(", ");
    await connection.run(`SET allowed_directories=[${dirs}]`);
    await connection.run("SET enable_external_access=false");
    await connection.run("SET lock_configuration=true");
    let select: string;
    if (warehouse) {
      select = await stageWarehouseRows(connection, { warehouse, sql: prepared.sql, columns, signal: options.signal });
    } else {
      const statements = prepared.sql.split("-- hack: split on this");
      select = (statements.pop() ?? "").trim().replace(/;\s*$/, "");
      for (const statement of statements) {
        if (statement.trim()) await (await connection.prepare(statement)).run();
      }
    }
    if (options.signal?.aborted) throw options.signal.reason;
    const copy = await connection.prepare(`COPY (${select}) TO ${quoteString(partial)} (FORMAT parquet)`);
    const result = await copy.run();
    await rename(partial, outFile);
    return { rowCount: Number(result.rowsChanged), connection: prepared.connectionName, columns: columns.map((c) => c.name) };
  } catch (error) {
    await rm(partial, { force: true });
    if (options.signal?.aborted) throw options.signal.reason;
    if (error instanceof QueryError) throw error;
    throw new QueryError("execution", `materializing source '${name}' failed: ${(error as Error).message.replaceAll(compiled.pkg.packageDir, "<package>")}`);
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
    clearInterval(repeat);
    connection.closeSync();
    instance.closeSync?.();
    await rm(spill, { recursive: true, force: true });
  }
}

/** A column of a materialized source: its name and Malloy type. */
interface SourceColumn {
  name: string;
  type: string;
  integer: boolean;
}

function columnsOf(explore: Explore): SourceColumn[] {
  return explore.allFields.filter((f) => f.isAtomicField()).map((f) => {
    const def = (f as unknown as { _fieldDef?: { numberType?: string } })._fieldDef;
    return { name: f.name, type: String(f.type), integer: def?.numberType === "integer" };
  });
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Staging type of a column (dates and timestamps arrive as text and are cast when written). */
function stagingType(column: SourceColumn): string {
  if (column.type === "number") return column.integer ? "BIGINT" : "DOUBLE";
  if (column.type === "boolean") return "BOOLEAN";
  return "VARCHAR";
}

/** The SQL expression a staged column is written as. */
function finalExpression(column: SourceColumn): string {
  const id = quoteIdentifier(column.name);
  if (column.type === "date") return `CAST(left(${id}, 10) AS DATE) AS ${id}`;
  if (column.type === "timestamp" || column.type === "timestamptz") return `CAST(replace(${id}, 'Z', '') AS TIMESTAMP) AS ${id}`;
  return id;
}

function appendValue(appender: DuckDBAppender, column: SourceColumn, value: unknown): void {
  if (value === null || value === undefined) return appender.appendNull();
  if (column.type === "number") {
    if (column.integer) {
      const n = typeof value === "bigint"
        ? value
        : typeof value === "string" && /^-?\d+$/.test(value) ? BigInt(value) : BigInt(Math.trunc(Number(value)));
      return appender.appendBigInt(n);
    }
    return appender.appendDouble(Number(value));
  }
  if (column.type === "boolean") return appender.appendBoolean(Boolean(value));
  if (value instanceof Date) return appender.appendVarchar(value.toISOString());
  if (typeof value === "object") return appender.appendVarchar(JSON.stringify(value));
  return appender.appendVarchar(String(value));
}

/**
 * Streams the rows of `sql` from a warehouse connection into a staging table
 * of `connection` (a private in-memory DuckDB); answers the SELECT that
 * reads them back with the source's types.
 */
async function stageWarehouseRows(
  connection: DuckDBConnection,
  job: { warehouse: Connection; sql: string; columns: SourceColumn[]; signal?: AbortSignal },
): Promise<string> {
  const { columns } = job;
  if (columns.length === 0) throw new QueryError("request", "the source has no columns to materialize");
  await connection.run(`CREATE TABLE staged (${columns.map((c) => `${quoteIdentifier(c.name)} ${stagingType(c)}`).join(", ")})`);
  const appender = await connection.createAppender("staged");
  const rows = job.warehouse.canStream()
    ? job.warehouse.runSQLStream(job.sql, { abortSignal: job.signal })
    : (await job.warehouse.runSQL(job.sql, { abortSignal: job.signal })).rows;
  let count = 0;
  for await (const row of rows as AsyncIterable<QueryRecord> | Iterable<QueryRecord>) {
    for (const column of columns) appendValue(appender, column, row[column.name]);
    appender.endRow();
    if (++count % 10_000 === 0) {
      appender.flushSync();
      if (job.signal?.aborted) throw job.signal.reason;
    }
  }
  appender.closeSync();
  return `SELECT ${columns.map(finalExpression).join(", ")} FROM staged`;
}
