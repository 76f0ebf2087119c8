/**
 * Read-only, one-statement execution on MySQL and MariaDB connections.
 *
 * `@malloydata/db-mysql` opens its session with `multipleStatements: true`
 * and creates a temporary table to learn the columns of a `sql()` source, so
 * a `sql()` text such as `SELECT 1); CREATE TABLE t (a int); SELECT (1`
 * runs every statement it holds. {@link guardMysql} replaces the session of
 * such a connection with one whose every statement is checked by the server
 * itself:
 * - the client does not ask for the multi-statement capability, so the
 *   server's own parser refuses a text with a second statement (nothing of it
 *   runs);
 * - the session is `READ ONLY` (`SET SESSION TRANSACTION READ ONLY`): every
 *   statement, including what stored functions it calls do, is refused by the
 *   server when it writes a table; Malloy only ever places a `sql()` text
 *   inside a statement of its own (`SELECT ... FROM (text)`), so the text can
 *   never be a `SET` of its own that lifts it;
 * - `sql()` columns are read from `SELECT * FROM (text) LIMIT 0` (the
 *   result's column metadata) instead of a temporary table, and
 *   `manifestTemporaryTable` is refused;
 * - the account must not hold the global `FILE` privilege (nor `ALL
 *   PRIVILEGES`), which would let a query read server files (`LOAD_FILE`);
 *   such a connection is refused with a message that says what to grant
 *   instead;
 * - each statement is limited to the query timeout by the server
 *   (`max_statement_time` on MariaDB, `max_execution_time` on MySQL).
 * @module
 */

import { MySQLConnection } from "@malloydata/db-mysql";
import type { Connection, SQLSourceDef, SQLSourceRequest } from "@malloydata/malloy";
import mysql, { type FieldPacket, type Connection as MysqlSession, Types } from "mysql2/promise";
import { columnsQuery, emptySelectDef } from "./select_schema.ts";
import { notAllowed } from "./sql_guard.ts";

/** Options of {@link guardMysql}. */
export interface MysqlGuardOptions {
  /** Server-side limit of each statement, ms (0 = none). */
  statementTimeoutMs?: () => number;
}

const GUARDED = Symbol("mysqlReadOnlyGuard");
const BINARY_CHARSET = 63;
const UNSIGNED_FLAG = 32;

interface Internals {
  connection?: MysqlSession;
  getClient: () => Promise<MysqlSession>;
  schemaFromResult: (result: { rows: { Field: string; Type: string }[]; totalRows: number }, def: SQLSourceDef) => Promise<void>;
  [GUARDED]?: boolean;
}

/** Wraps a MySQL connection so every statement runs read-only, alone, in a session the guard opened. Other connections pass through. */
export function guardMysql(connection: Connection, options: MysqlGuardOptions = {}): Connection {
  if (!(connection instanceof MySQLConnection)) return connection;
  const target = connection as unknown as Internals;
  if (target[GUARDED]) return connection;
  let opening: Promise<MysqlSession> | undefined;
  target.getClient = () => {
    if (target.connection) return Promise.resolve(target.connection);
    opening ??= openSession(connection, options).then((session) => {
      target.connection = session;
      return session;
    }).finally(() => {
      opening = undefined;
    });
    return opening;
  };
  connection.fetchSelectSchema = async (sqlRef: SQLSourceRequest): Promise<SQLSourceDef> => {
    const def = emptySelectDef(sqlRef, connection.dialectName);
    const session = await target.getClient();
    const [, fields] = await session.query(columnsQuery(sqlRef.selectStr));
    const rows = (fields ?? []).map((f) => ({ Field: f.name, Type: mysqlTypeName(f) }));
    await target.schemaFromResult({ rows, totalRows: rows.length }, def);
    return def;
  };
  connection.manifestTemporaryTable = () => {
    throw notAllowed("temporary tables are not created on a MySQL connection: its session is read-only");
  };
  target[GUARDED] = true;
  return connection;
}

/** Opens the guarded session: one statement per request, Malloy's settings, the timeout, then read-only. */
async function openSession(connection: MySQLConnection, options: MysqlGuardOptions): Promise<MysqlSession> {
  const c = connection.config;
  const session = await mysql.createConnection({
    host: c.host,
    port: c.port ?? 3306,
    user: c.user,
    password: c.password,
    database: c.database,
    multipleStatements: false,
    decimalNumbers: true,
    supportBigNumbers: true,
    timezone: "+00:00",
    connectTimeout: 10_000,
  });
  try {
    await refuseFilePrivilege(session);
    // 'UTC' needs the server's time zone tables; the offset works everywhere
    await session.query("SET @@session.time_zone = 'UTC'").catch(() => session.query("SET @@session.time_zone = '+00:00'"));
    await session.query("SET SESSION group_concat_max_len = 10000000");
    await session.query("SET SESSION sql_mode = (SELECT REPLACE(@@sql_mode, 'ONLY_FULL_GROUP_BY', ''))");
    const timeout = Math.floor(options.statementTimeoutMs?.() ?? 0);
    if (timeout > 0) {
      // MariaDB counts seconds, MySQL milliseconds (SELECT only); each server refuses the other's name
      await session.query(`SET SESSION max_statement_time = ${Math.max(timeout / 1000, 0.001)}`)
        .catch(() => session.query(`SET SESSION max_execution_time = ${timeout}`))
        .catch(() => {});
    }
    await session.query("SET SESSION TRANSACTION READ ONLY");
    return session;
  } catch (error) {
    await session.end().catch(() => {});
    throw error;
  }
}

/** Refuses an account (or its active role) holding the global FILE privilege. */
async function refuseFilePrivilege(session: MysqlSession): Promise<void> {
  const lines: string[] = [];
  const grants = async (sql: string) => {
    const [rows] = await session.query(sql);
    for (const row of rows as Record<string, unknown>[]) lines.push(...Object.values(row).map(String));
  };
  await grants("SHOW GRANTS");
  const [roleRows] = await session.query("SELECT CURRENT_ROLE() AS r").catch(() => [[]]);
  const role = (roleRows as { r?: string | null }[])[0]?.r;
  if (role && role !== "NONE") {
    for (const name of role.split(",")) await grants(`SHOW GRANTS FOR ${session.escapeId(name.replace(/`/g, "").trim())}`).catch(() => {});
  }
  for (const line of lines) {
    const global = /^GRANT\s+(.*?)\s+ON\s+\*\.\*\s+TO\b/i.exec(line);
    if (global && /\b(ALL PRIVILEGES|FILE)\b/i.test(global[1] ?? "")) {
      throw notAllowed(
        "the connection's MySQL account holds the global FILE privilege (or ALL PRIVILEGES), which lets a query read the server's files; " +
          "connect with an account that has SELECT on the databases it needs and no FILE privilege",
      );
    }
  }
}

/** The column type of a result field as MySQL's DESCRIBE names it (what Malloy's MySQL dialect maps). */
function mysqlTypeName(field: Pick<FieldPacket, "columnType" | "characterSet" | "flags" | "columnLength">): string {
  const unsigned = typeof field.flags === "number" && (field.flags & UNSIGNED_FLAG) !== 0 ? " unsigned" : "";
  const binary = field.characterSet === BINARY_CHARSET;
  switch (field.columnType) {
    case Types.TINY:
      return field.columnLength === 1 ? "tinyint(1)" : `tinyint${unsigned}`;
    case Types.SHORT:
      return `smallint${unsigned}`;
    case Types.INT24:
      return `mediumint${unsigned}`;
    case Types.LONG:
      return `int${unsigned}`;
    case Types.LONGLONG:
      return `bigint${unsigned}`;
    case Types.FLOAT:
    case Types.DOUBLE:
      return "double";
    case Types.DECIMAL:
    case Types.NEWDECIMAL:
      return "decimal";
    case Types.VARCHAR:
    case Types.VAR_STRING:
      return binary ? "varbinary" : "varchar";
    case Types.STRING:
      return binary ? "binary" : "char";
    case Types.TINY_BLOB:
    case Types.MEDIUM_BLOB:
    case Types.LONG_BLOB:
    case Types.BLOB:
      return binary ? "blob" : "text";
    case Types.DATE:
    case Types.NEWDATE:
      return "date";
    case Types.DATETIME:
      return "datetime";
    case Types.TIMESTAMP:
      return "timestamp";
    case Types.TIME:
      return "time";
    case Types.YEAR:
      return "year";
    case Types.JSON:
      return "json";
    case Types.BIT:
      return "bit";
    default:
      return "unknown";
  }
}
