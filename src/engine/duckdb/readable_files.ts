/**
 * The files outside its package folder that the running query may read: the
 * built materializations of its own version, and nothing else.
 *
 * A package's DuckDB may read one more folder than the package itself, the
 * cache of built `#@ persist` files, which is keyed by the archive's sha256 and
 * so shared by every package with the same archive, in any organization. The
 * statement check ({@link checkDuckDBSql}) reports every file a statement reads
 * outside the package folder; before such a statement runs, each of those
 * files must be one the running query was given with {@link withReadableFiles}
 * (the platform gives a query the files of its version's served
 * materializations). Without one, nothing outside the package folder is read.
 * The check is made at every run, also when the statement's check itself was
 * remembered, so no query inherits another's files.
 * @module
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { notAllowed } from "../guards/sql_guard.ts";

const readable = new AsyncLocalStorage<ReadonlySet<string>>();

/** Runs `run` with `files` (absolute paths) as the files outside the package folder it may read. */
export function withReadableFiles<T>(files: ReadonlySet<string>, run: () => Promise<T>): Promise<T> {
  return readable.run(files, run);
}

/** Refuses a statement that reads a file outside the package folder which the running query was not given. */
export function assertReadable(outside: readonly string[]): void {
  if (outside.length === 0) return;
  const files = readable.getStore();
  for (const path of outside) {
    if (!files?.has(path)) {
      throw notAllowed("a file outside the package folder that is not a built materialization of this version cannot be read; query the persisted source by name");
    }
  }
}
