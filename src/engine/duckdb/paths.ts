/**
 * The file-path policy of a package's DuckDB: which folders it may read
 * besides the package folder, and how relative table paths resolve.
 *
 * Table paths such as `duckdb.table('data/x.csv')` and file paths inside
 * `duckdb.sql("SELECT * FROM 'data/t.csv'")` resolve against the package
 * folder (as in Malloy Publisher): the guard rewrites them to absolute paths
 * inside the package, because DuckDB resolves relative paths against the
 * process's working directory.
 * @module
 */

import { isAbsolute, resolve } from "node:path";

let readDirectoriesOf: (packageDir: string) => string[] = () => [];

/**
 * Sets which more folders the DuckDB of a package folder may read when its
 * opener does not say (`readDirectories`): the platform registers the folder
 * of the package's materializations (src/materializations/files.ts).
 */
export function setPackageReadDirectories(resolver: (packageDir: string) => string[]): void {
  readDirectoriesOf = resolver;
}

/** The more folders the DuckDB of `packageDir` may read by default (those of {@link setPackageReadDirectories}). */
export function defaultReadDirectories(packageDir: string): string[] {
  return readDirectoriesOf(packageDir);
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
