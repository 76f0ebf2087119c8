/**
 * The shape both the MySQL and the Trino guard use to read a `sql()` source's
 * columns without Malloy's temporary table or `PREPARE`: the text nested in a
 * `SELECT ... LIMIT 0` (so a text that is not a query is a syntax error, and
 * no row is read), filled into an empty `sql_select` definition.
 * @module
 */
import { type SQLSourceDef, type SQLSourceRequest, sqlKey } from "@malloydata/malloy";

/** The columns-only query of a `sql()` source's text. */
export function columnsQuery(selectStr: string): string {
  return `SELECT * FROM (${selectStr}) AS malloy_schema LIMIT 0`;
}

/** The `sql_select` definition of a `sql()` source, before its fields are filled in. */
export function emptySelectDef(sqlRef: SQLSourceRequest, dialect: string): SQLSourceDef {
  return { type: "sql_select", ...sqlRef, dialect, fields: [], name: sqlKey(sqlRef.connection, sqlRef.selectStr) };
}
