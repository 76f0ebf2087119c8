/**
 * The statement check of {@link checkDuckDBSql} on environment DuckDB and
 * MotherDuck connections (made by the connections capability with
 * `@malloydata/db-duckdb`): the connection's `runRawSQL` (schema lookups,
 * `runSQL`) and `runSQLStream` are wrapped on the instance, so every
 * statement Malloy sends is one checked SELECT. Such a connection has no
 * package folder, so no file path passes: its tables are read by name.
 * Malloy's own setup statements do not go through these methods.
 * @module
 */

import { DuckDBConnection } from "@malloydata/db-duckdb";
import type { Connection, QueryRecord, RunSQLOptions } from "@malloydata/malloy";
import { PackageDuckDBConnection } from "../duckdb/connection.ts";
import { checkDuckDBSql } from "./sql_guard.ts";

const GUARDED = Symbol("duckdbGuard");
const NO_FILES = "/nonexistent/no-package-files";
const MALLOY_SPLIT = "-- hack: split on this";

/** Wraps an environment DuckDB connection so every statement is checked; other connections pass through. */
export function guardDuckDB(connection: Connection): Connection {
  if (!(connection instanceof DuckDBConnection) || connection instanceof PackageDuckDBConnection) return connection;
  const target = connection as DuckDBConnection & { [GUARDED]?: boolean };
  if (target[GUARDED]) return connection;
  const runRawSQL = target.runRawSQL.bind(target);
  target.runRawSQL = async (sql: string) => runRawSQL((await checkDuckDBSql(sql, { packageDir: NO_FILES })).sql);
  const runSQLStream = target.runSQLStream.bind(target);
  target.runSQLStream = async function* (sql: string, options: RunSQLOptions = {}): AsyncIterableIterator<QueryRecord> {
    const parts = sql.split(MALLOY_SPLIT);
    if (parts.length > 1) throw new Error("this query needs statements before its SELECT, which environment DuckDB connections do not run");
    const checked = await checkDuckDBSql(sql, { packageDir: NO_FILES });
    yield* runSQLStream(checked.sql, options);
  };
  target[GUARDED] = true;
  return connection;
}
