/**
 * The statements a package's DuckDB query may run, as the guard
 * ({@link checkDuckDBSql}, DuckDB's own parser) lets them through: Malloy's
 * text split into its statements, the macros Malloy creates before a query
 * turned into checked temporary macros, and the guard's answers kept per
 * connection so that a repeated text is parsed and checked once.
 * @module
 */

import { checkDuckDBSql, countStatements, notAllowed } from "../guards/sql_guard.ts";

/** What Malloy writes between the statements of one query's SQL. */
export const MALLOY_SPLIT = "-- hack: split on this";

const DROP_MACRO = /^\s*DROP MACRO IF EXISTS ([A-Za-z_][A-Za-z0-9_]*);\s*$/;
const CREATE_MACRO = /^\s*CREATE MACRO ([A-Za-z_][A-Za-z0-9_]*)\(_param\) AS \(([\s\S]*)\);\s*$/;

/**
 * Malloy's statements before the query (`DROP MACRO IF EXISTS f;` and
 * `CREATE MACRO f(_param) AS (...)` of nested pipelines): the drop is
 * skipped (each query has a fresh instance), the macro's body is checked as
 * an expression of one SELECT, and the macro is created as a temporary one.
 * Anything else is refused.
 */
export async function checkPrelude(statement: string, folders: { packageDir: string; readDirectories: string[] }): Promise<string | undefined> {
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

/** Checked statements kept per package connection (most recently used last). */
const CHECKED_ENTRIES = 500;

/**
 * What the guard answered for statements of one connection (text in, the
 * statement to run out): the answer depends only on the text and the
 * connection's folders, so a statement is parsed and checked once.
 * Refusals are not kept.
 */
export class CheckedStatements {
  readonly #checked = new Map<string, Promise<unknown>>();

  /** The guard's answer for a statement, checked once per connection (refusals are thrown, never kept). */
  async get<T>(kind: "last" | "prelude", text: string, check: () => Promise<T>): Promise<T> {
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
}
