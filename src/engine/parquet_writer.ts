/**
 * Materializing a source of a compiled model as a Parquet file.
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
 * @module
 */
import { mkdir, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import type { CompiledModel } from "./compile.ts";
import { QueryError } from "./problems.ts";

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
}

function quoteString(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * Runs `run: <source> -> { select: * }` of a compiled model and writes the
 * rows to `outFile` as Parquet. Only sources of the package's `duckdb`
 * connection can be written this way (other connections: a QueryError).
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
  if (prepared.connectionName !== "duckdb") {
    throw new QueryError(
      "request",
      `source '${name}' runs on connection '${prepared.connectionName}'; only sources of the package's duckdb connection can be persisted for now (remove #@ persist or move the source to duckdb)`,
    );
  }
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
    const statements = prepared.sql.split("-- hack: split on this");
    const select = (statements.pop() ?? "").trim().replace(/;\s*$/, "");
    for (const statement of statements) {
      if (statement.trim()) await (await connection.prepare(statement)).run();
    }
    if (options.signal?.aborted) throw options.signal.reason;
    const copy = await connection.prepare(`COPY (${select}) TO ${quoteString(partial)} (FORMAT parquet)`);
    const result = await copy.run();
    await rename(partial, outFile);
    return { rowCount: Number(result.rowsChanged), connection: prepared.connectionName };
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
