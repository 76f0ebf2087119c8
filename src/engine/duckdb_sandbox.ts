/**
 * The DuckDB connection of a package version (`duckdb`), locked to the
 * package's extracted folder.
 *
 * Settings, applied by `@malloydata/db-duckdb`'s `securityPolicy: "sandboxed"`
 * (checked in the tests of this module):
 * - instance options `autoload_known_extensions=false`,
 *   `autoinstall_known_extensions=false`, `allow_community_extensions=false`,
 *   `allow_unsigned_extensions=false`, `temp_file_encryption=true`; only the
 *   bundled `json` and `icu` are LOADed (never INSTALLed), so nothing is
 *   downloaded at connect (no `httpfs`);
 * - then `SET allowed_directories=[pkgDir, tempDir]`,
 *   `SET enable_external_access=false`, `SET FILE_SEARCH_PATH=pkgDir`,
 *   `SET secret_directory=...`, and last `SET lock_configuration=true`.
 *
 * DuckDB refuses every relative path once external access is off (its check
 * runs before `file_search_path`), so table paths such as
 * `duckdb.table('data/x.csv')` are rewritten to absolute paths inside the
 * package before DuckDB sees them. Relative paths inside `duckdb.sql("...")`
 * are not rewritten and fail with a permission error.
 *
 * DuckDB runs one statement at a time per connection, and one connection per
 * package folder exists per process (a second one could not apply its
 * settings to the locked instance), so statements are serialized here and an
 * aborted query interrupts only itself.
 * @module
 */

import { mkdirSync } from "node:fs";
import { rmdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, isAbsolute, join, resolve } from "node:path";
import { DuckDBConnection } from "@malloydata/db-duckdb";
import type { QueryRecord, RunSQLOptions, TableSourceDef } from "@malloydata/malloy";
import { createSemaphore, type Semaphore } from "./semaphore.ts";

/** Options of {@link openPackageDuckDB}. */
export interface PackageDuckDBOptions {
  /** Writable folder for DuckDB spill files; default `<os tmp>/malloy-duckdb/<folder name>`. */
  tempDirectory?: string;
  /** DuckDB worker threads. */
  threads?: number;
  /** DuckDB memory limit, for example `"1GB"`. */
  memoryLimit?: string;
  /** More folders DuckDB may read; default those of {@link setPackageReadDirectories}. */
  readDirectories?: string[];
}

const FILE_EXTENSION = /\.(csv|tsv|txt|parquet|json|jsonl|ndjson|gz|zst|arrow|xlsx)$/i;
const URL_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;

/** A package's sandboxed DuckDB connection; get one with {@link openPackageDuckDB}. */
export class PackageDuckDBConnection extends DuckDBConnection {
  /** The package folder every relative table path resolves against. */
  readonly packageDir: string;
  /** DuckDB's spill folder for this package. */
  readonly tempDirectory: string;
  readonly #lock: Semaphore = createSemaphore(1);

  constructor(packageDir: string, options: PackageDuckDBOptions = {}) {
    const dir = resolve(packageDir);
    const temp = resolve(options.tempDirectory ?? join(tmpdir(), "malloy-duckdb", basename(dir)));
    mkdirSync(temp, { recursive: true });
    super({
      name: "duckdb",
      workingDirectory: dir,
      securityPolicy: "sandboxed",
      allowedDirectories: [dir, temp, ...(options.readDirectories ?? readDirectoriesOf(dir)).map((d) => resolve(d))],
      tempDirectory: temp,
      threads: options.threads,
      memoryLimit: options.memoryLimit,
    });
    this.packageDir = dir;
    this.tempDirectory = temp;
  }

  /** Rewrites relative file paths of `duckdb.table(...)` to absolute paths inside the package. */
  override async fetchTableSchema(tableKey: string, tablePath: string): Promise<TableSourceDef> {
    return await super.fetchTableSchema(tableKey, absoluteTablePath(tablePath, this.packageDir));
  }

  /** Interrupts the statement running on this connection, if any. */
  interrupt(): void {
    this.connection?.interrupt();
  }

  protected override async runDuckDBQuery(
    sql: string,
  ): Promise<{ rows: QueryRecord[]; totalRows: number }> {
    const release = await this.#lock.acquire();
    try {
      return await super.runDuckDBQuery(sql);
    } finally {
      release();
    }
  }

  /** Streams rows; holds the connection until the caller stops reading, interrupts on abort. */
  override async *runSQLStream(
    sql: string,
    options: RunSQLOptions = {},
  ): AsyncIterableIterator<QueryRecord> {
    const { rowLimit, abortSignal, queryMetadata } = options;
    await this.setup();
    const release = await this.#lock.acquire(abortSignal);
    const onAbort = () => this.connection?.interrupt();
    abortSignal?.addEventListener("abort", onAbort);
    try {
      const connection = this.connection;
      if (!connection) throw new Error("DuckDB connection is not open");
      const statements = sql.split("-- hack: split on this");
      const last = statements.pop() ?? "";
      for (const statement of statements) await connection.run(statement);
      const result = await connection.stream(this.sqlWithQueryMetadata(last, queryMetadata));
      let index = 0;
      for await (const chunk of result.yieldRowObjectJson()) {
        for (const row of chunk) {
          if ((rowLimit !== undefined && index >= rowLimit) || abortSignal?.aborted) return;
          index++;
          yield row as QueryRecord;
        }
      }
    } finally {
      abortSignal?.removeEventListener("abort", onAbort);
      release();
    }
  }
}

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
 * every caller in this process (DuckDB allows one configured instance per
 * folder once its configuration is locked).
 */
export function openPackageDuckDB(
  packageDir: string,
  options: PackageDuckDBOptions = {},
): PackageDuckDBConnection {
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
  if (connection) await rmdir(connection.tempDirectory).catch(() => {});
}

/** Closes every package connection of this process (shutdown, tests). */
export async function closeAllPackageDuckDB(): Promise<void> {
  const all = [...open.values()];
  open.clear();
  await Promise.all(all.map(async (connection) => {
    await connection.close();
    await rmdir(connection.tempDirectory).catch(() => {});
  }));
}

/**
 * Turns a canonical DuckDB table path that names a relative file into a
 * quoted absolute path under `packageDir`; leaves table names, absolute
 * paths and URLs alone (DuckDB's allow-list decides about those).
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
