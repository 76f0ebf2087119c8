/**
 * One query per request, and no state between requests, on Trino connections.
 *
 * Trino's protocol takes one statement per request (`POST /v1/statement`):
 * its parser refuses a text holding a second one, and Malloy only ever puts a
 * `sql()` text inside a statement of its own (`SELECT ... FROM (text)`), or a
 * table path after `DESCRIBE`. But the `trino-client` under
 * `@malloydata/db-trino` is stateful: it copies the `X-Trino-Set-Session`,
 * `Set-Catalog`, `Set-Schema`, `Clear-Session` and `Added-Prepare` headers of
 * each answer into every later request of the connection (shared by all its
 * queries), and Malloy learns a `sql()` source's columns with
 * `PREPARE <name> FROM <text>` + `DESCRIBE OUTPUT <name>`, which relies on
 * that (each schema lookup adds a prepared statement to every later request).
 * {@link guardTrino} changes that on the connection:
 * - the client's request headers are fixed to those configured (what the
 *   client writes back from an answer is dropped), so nothing a statement
 *   does (session properties, `USE`, prepared statements, roles) reaches
 *   another request;
 * - a `sql()` source's columns are read from the answer's column list of
 *   `SELECT * FROM (text) AS malloy_schema LIMIT 0` (no `PREPARE`);
 * - every answer's `updateType` (set by Trino's analyzer for anything but a
 *   query: `INSERT`, `CREATE TABLE`, `SET SESSION`, `PREPARE`, `CALL`, ...)
 *   is checked: such a statement is cancelled and refused with a
 *   `not_allowed` QueryError. Trino reports it once the statement is
 *   analyzed, so this catches what Malloy's own statement shapes should never
 *   produce rather than preventing it before it starts.
 * @module
 */

import type { Connection, SQLSourceDef, SQLSourceRequest } from "@malloydata/malloy";
import { columnsQuery, emptySelectDef } from "./select_schema.ts";
import { notAllowed } from "./sql_guard.ts";

interface QueryResults {
  id?: string;
  nextUri?: string;
  updateType?: string | null;
  columns?: { name: string; type: string }[];
}

interface TrinoHttpClient {
  clientConfig: { headers?: Record<string, unknown> };
  request: (config: { url: string; method?: string; [key: string]: unknown }) => Promise<unknown>;
  cancel?: (queryId: string) => Promise<unknown>;
}

interface Internals {
  client?: {
    runSQL: (sql: string, options: Record<string, unknown>) => Promise<{ rows?: unknown[][]; columns?: { name: string; type: string }[]; error?: string }>;
    client?: { client?: TrinoHttpClient };
  };
  structDefFromSchema: (rows: unknown[][], def: SQLSourceDef) => void;
  ensureSetup?: () => Promise<void>;
  fetchSelectSchema: (sqlRef: SQLSourceRequest) => Promise<SQLSourceDef>;
  [GUARDED]?: boolean;
}

const GUARDED = Symbol("trinoGuard");

/** Guards a Trino connection (see the module notes). Other connections pass through; a Trino connection whose client cannot be reached is refused. */
export function guardTrino(connection: Connection): Connection {
  if (connection.dialectName !== "trino") return connection;
  const target = connection as unknown as Internals;
  const http = target.client?.client?.client;
  if (!http || typeof http.request !== "function" || !http.clientConfig || typeof target.structDefFromSchema !== "function") {
    throw notAllowed("this Trino connection's client cannot be checked, so it does not run queries");
  }
  if (target[GUARDED]) return connection;
  const configured = { ...http.clientConfig.headers };
  // every request gets the configured headers; what the client writes back from an answer
  // (session, catalog, schema, prepared statements, role) is dropped, so no statement's
  // changes reach another request, even one started while its answer is handled
  Object.defineProperty(http.clientConfig, "headers", { get: () => ({ ...configured }), set: () => {}, enumerable: true });
  const request = http.request.bind(http);
  http.request = async (config) => {
    const results = (await request(config)) as QueryResults | undefined;
    if (results?.updateType) {
      if (results.nextUri) await request({ url: results.nextUri, method: "DELETE" }).catch(() => {});
      throw notAllowed(`Trino runs this text as ${results.updateType}, not a query; a Trino connection runs exactly one SELECT per query`);
    }
    return results;
  };
  target.fetchSelectSchema = async (sqlRef: SQLSourceRequest): Promise<SQLSourceDef> => {
    const def = emptySelectDef(sqlRef, connection.dialectName);
    await target.ensureSetup?.();
    const result = await target.client!.runSQL(columnsQuery(sqlRef.selectStr), {});
    if (result.error) throw new Error(`Could not fetch schema for query ${sqlRef.selectStr.slice(0, 50)} ${result.error}`);
    target.structDefFromSchema((result.columns ?? []).map((c) => [c.name, c.type]), def);
    return def;
  };
  target[GUARDED] = true;
  return connection;
}
