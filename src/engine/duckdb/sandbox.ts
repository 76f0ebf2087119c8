/**
 * The sandboxed DuckDB connections of this process, one per package folder:
 * opening a package's `duckdb` connection, closing it when its version goes,
 * and closing them all at shutdown.
 *
 * The connection itself (checked statements in locked-down sessions) is
 * ./connection.ts; its parts are the statement checks
 * (./statements.ts), the per-query limits (./limits.ts), the
 * idle instances kept across packages (./idle.ts) and the file-path
 * policy (./paths.ts). These, the session (./session.ts) and the files a
 * query may read outside its package (./readable_files.ts) make up the
 * folder `duckdb/`.
 * @module
 */

import { resolve } from "node:path";
import { PackageDuckDBConnection, type PackageDuckDBOptions } from "./connection.ts";

const open = new Map<string, PackageDuckDBConnection>();

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

/**
 * Releases what package connections unused for `idleMs` keep (idle
 * instances, checked statements); `0` releases every connection not running
 * a query now. Returns how many instances closed.
 */
export async function releaseIdlePackageDuckDB(idleMs: number): Promise<number> {
  const closed = await Promise.all([...open.values()].map((connection) => connection.releaseIfIdle(idleMs)));
  return closed.reduce((a, b) => a + b, 0);
}

/** Closes every package connection of this process (shutdown, tests). */
export async function closeAllPackageDuckDB(): Promise<void> {
  const all = [...open.values()];
  open.clear();
  await Promise.all(all.map((connection) => connection.close()));
}
