/**
 * Read-only, one-statement execution on PostgreSQL connections.
 *
 * `@malloydata/db-postgres` opens a `pg` client for every query, schema
 * lookup and connection test (`getClient`). {@link guardPostgres} wraps that
 * method on the connection, so every statement Malloy sends goes through a
 * guarded client:
 * - the client's first command is `BEGIN TRANSACTION READ ONLY` (and
 *   `SET LOCAL statement_timeout`), so nothing the statement calls can write,
 *   and the server ends it at the query timeout; the transaction is never
 *   committed (the client is closed);
 * - every statement is sent as a named prepared statement (the extended
 *   protocol), which the server refuses when the text holds more than one
 *   command (`SELECT 1; DROP TABLE t`);
 * - before it runs, the server plans it with
 *   `EXPLAIN (VERBOSE, FORMAT JSON)` (parsed and analyzed by PostgreSQL
 *   itself, views and functions resolved, nothing executed); a plan that
 *   modifies a table, or that calls a function reading server files, large
 *   objects, other databases or settings (`pg_read_file`, `pg_ls_dir`,
 *   `lo_import`, `dblink`, `set_config`, `query_to_xml`, ...) is refused
 *   with a `not_allowed` QueryError, whatever the spelling of the text.
 * @module
 */

import { PostgresConnection } from "@malloydata/db-postgres";
import type { Connection } from "@malloydata/malloy";
import { notAllowed } from "./sql_guard.ts";

/** Functions no query may call on a PostgreSQL connection. */
const DENIED = /^(pg_read_file|pg_read_binary_file|pg_ls_\w+|pg_stat_file|pg_file_\w+|pg_logdir_ls|lo_\w+|loread|lowrite|dblink\w*|set_config|current_setting|pg_reload_conf|pg_rotate_logfile|pg_terminate_backend|pg_cancel_backend|pg_promote|pg_switch_wal|pg_create_\w+|pg_drop_\w+|pg_replication_\w+|pg_logical_\w+|query_to_xml\w*|query_to_json\w*|cursor_to_xml\w*|table_to_xml\w*|schema_to_xml\w*|database_to_xml\w*|pg_import_system_collations|pg_advisory\w*|pg_notify|txid_current|pg_current_xact_id)$/;
/** Catalogs that hold credentials. */
const DENIED_RELATIONS = new Set(["pg_authid", "pg_shadow", "pg_user_mapping", "pg_user_mappings", "pg_largeobject"]);

const MALLOY_SETUP = "SET TIME ZONE 'UTC'";
const GUARDED = Symbol("readOnlyGuard");

interface PgClient {
  query: (...args: unknown[]) => unknown;
}

interface Submittable {
  submit: (...args: unknown[]) => void;
  cursor?: { text: string; values?: unknown[] };
  destroy?: (error?: Error) => void;
}

/** Options of {@link guardPostgres}. */
export interface PostgresGuardOptions {
  /** Server-side limit of each statement, ms (0 = none). */
  statementTimeoutMs?: () => number;
}

let counter = 0;

/** Wraps the connection's client factory so every statement runs read-only, alone and checked. Other connections pass through. */
export function guardPostgres(connection: Connection, options: PostgresGuardOptions = {}): Connection {
  if (!(connection instanceof PostgresConnection)) return connection;
  const target = connection as unknown as { getClient: () => Promise<PgClient>; [GUARDED]?: boolean };
  if (target[GUARDED]) return connection;
  const original = target.getClient.bind(connection);
  target.getClient = async () => guardClient(await original(), options);
  // a sql() source's own text is planned alone first, so a second statement in it is refused as such
  // (inside Malloy's `SELECT * FROM (...) _t LIMIT 0` it would only be a syntax error)
  const fetchSelectSchema = connection.fetchSelectSchema.bind(connection);
  connection.fetchSelectSchema = async (sqlRef) => {
    const client = await original() as PgClient & { connect: () => Promise<void>; end: () => Promise<void> };
    await client.connect();
    try {
      const raw = client.query.bind(client) as (...args: unknown[]) => unknown;
      await raw("BEGIN TRANSACTION READ ONLY");
      await check(raw, sqlRef.selectStr, []).catch((error: unknown) => {
        if ((error as Error).name === "QueryError") throw error;
      });
    } finally {
      await client.end().catch(() => {});
    }
    return await fetchSelectSchema(sqlRef);
  };
  target[GUARDED] = true;
  return connection;
}

/** A `pg` client whose every query runs in a read-only transaction, as one prepared statement checked by the server's planner. */
function guardClient<T extends PgClient>(client: T, options: PostgresGuardOptions = {}): T {
  const raw = client.query.bind(client) as (...args: unknown[]) => unknown;
  let begun: Promise<unknown> | undefined;
  const begin = () => {
    begun ??= (async () => {
      await raw("BEGIN TRANSACTION READ ONLY");
      const timeout = Math.floor(options.statementTimeoutMs?.() ?? 0);
      if (timeout > 0) await raw(`SET LOCAL statement_timeout = ${timeout}`);
    })();
    return begun;
  };
  // Malloy does not end a client whose query failed; end it here so no server connection is left open
  const end = () => {
    (client as unknown as { end?: () => Promise<void> }).end?.().catch(() => {});
  };
  const prepared = (text: string, values: unknown[] | undefined) => ({ name: `malloy_guard_${++counter}`, text, values: values ?? [] });
  client.query = (config: unknown, values?: unknown, callback?: unknown): unknown => {
    if (typeof values === "function" || typeof callback === "function") {
      throw new Error("the read-only guard supports promise and stream queries only");
    }
    if (isSubmittable(config)) {
      const cursor = config.cursor;
      if (!cursor) throw notAllowed("only cursor-based streams can run on a PostgreSQL connection");
      (async () => {
        await begin();
        await check(raw, cursor.text, cursor.values);
        raw(config);
      })().catch((error: unknown) => {
        config.destroy?.(error as Error);
        end();
      });
      return config;
    }
    const text = typeof config === "string" ? config : (config as { text?: string })?.text;
    const params = Array.isArray(values) ? values : (config as { values?: unknown[] })?.values;
    if (typeof text !== "string") throw new Error("the read-only guard runs SQL text only");
    return (async () => {
      try {
        await begin();
        if (text === MALLOY_SETUP) return await raw(text);
        await check(raw, text, params);
        return await raw(prepared(text, params));
      } catch (error) {
        end();
        throw error;
      }
    })();
  };
  return client;
}

function isSubmittable(value: unknown): value is Submittable {
  return typeof value === "object" && value !== null && typeof (value as Submittable).submit === "function";
}

/** Plans the statement with EXPLAIN (as one prepared statement) and refuses what it must not do. */
async function check(raw: (...args: unknown[]) => unknown, text: string, values: unknown[] | undefined): Promise<void> {
  let result: { rows: Record<string, unknown>[] };
  try {
    result = await raw({
      name: `malloy_guard_${++counter}`,
      text: `EXPLAIN (VERBOSE, FORMAT JSON) ${text}`,
      values: values ?? [],
    }) as { rows: Record<string, unknown>[] };
  } catch (error) {
    const message = (error as Error).message;
    if (/multiple commands/i.test(message)) throw notAllowed("the SQL holds more than one statement; a query is exactly one SELECT statement");
    // EXPLAIN takes queries only, so other statements fail to parse there; say why
    if ((error as { code?: string }).code === "42601" && !/^(select|with|values|table)\b/i.test(firstWord(text))) {
      throw notAllowed("only a SELECT statement may run on a PostgreSQL connection");
    }
    throw error;
  }
  const plan = result.rows[0]?.["QUERY PLAN"];
  const parsed = typeof plan === "string" ? JSON.parse(plan) : plan;
  walkPlan(parsed);
}

/** The first word of a statement, after comments, blanks and opening parentheses. */
function firstWord(text: string): string {
  let rest = text;
  for (;;) {
    const trimmed = rest.replace(/^[\s(]+/, "");
    if (trimmed.startsWith("--")) rest = trimmed.slice(trimmed.indexOf("\n") >= 0 ? trimmed.indexOf("\n") : trimmed.length);
    else if (trimmed.startsWith("/*")) rest = trimmed.slice(trimmed.indexOf("*/") >= 0 ? trimmed.indexOf("*/") + 2 : trimmed.length);
    else return /^\w*/.exec(trimmed)?.[0] ?? "";
  }
}

function walkPlan(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) walkPlan(item);
    return;
  }
  if (typeof node === "string") {
    for (const name of calledFunctions(node)) {
      if (DENIED.test(name)) throw notAllowed(`function ${name}() reads server files, settings or other databases and is refused`);
    }
    return;
  }
  if (node === null || typeof node !== "object") return;
  const object = node as Record<string, unknown>;
  if (object["Node Type"] === "ModifyTable") throw notAllowed("the statement modifies data; only SELECT statements may run");
  const relation = object["Relation Name"];
  if (typeof relation === "string" && DENIED_RELATIONS.has(relation.toLowerCase())) {
    throw notAllowed(`catalog ${relation} holds credentials and is refused`);
  }
  for (const value of Object.values(object)) walkPlan(value);
}

/**
 * Names of the functions called in a deparsed PostgreSQL expression: an
 * identifier (bare or double-quoted, the last part of a qualified name)
 * followed by `(`, outside string literals. Lower-cased.
 */
function calledFunctions(expression: string): string[] {
  const names: string[] = [];
  let i = 0;
  let last: string | undefined;
  while (i < expression.length) {
    const c = expression[i];
    if (c === "'") {
      i++;
      while (i < expression.length && !(expression[i] === "'" && expression[i + 1] !== "'")) i += expression[i] === "'" ? 2 : 1;
      i++;
      last = undefined;
    } else if (c === '"') {
      let j = i + 1;
      let name = "";
      while (j < expression.length && !(expression[j] === '"' && expression[j + 1] !== '"')) {
        name += expression[j];
        j += expression[j] === '"' ? 2 : 1;
      }
      last = name.toLowerCase();
      i = j + 1;
    } else if (/[A-Za-z_]/.test(c)) {
      let j = i;
      while (j < expression.length && /[A-Za-z0-9_$]/.test(expression[j])) j++;
      last = expression.slice(i, j).toLowerCase();
      i = j;
    } else if (c === "(") {
      if (last) names.push(last);
      last = undefined;
      i++;
    } else if (c === "." || c === " ") {
      i++;
      if (c === " ") last = undefined;
    } else {
      last = undefined;
      i++;
    }
  }
  return names;
}
