/**
 * One statement per request on Snowflake connections, as Snowflake itself
 * counts them.
 *
 * Snowflake runs a text of several statements when the `MULTI_STATEMENT_COUNT`
 * parameter in force is 0 (or the number of statements). Its default is 1, but
 * an administrator may change it for the account, the user or the session, and
 * `@malloydata/db-snowflake` sends no value of its own (nor does the
 * snowflake-sdk unless asked). {@link guardSnowflake} wraps the driver's
 * connection pool, so every statement any pooled session executes (Malloy's
 * `ALTER SESSION` setup, queries, streamed queries, the `CREATE TEMP VIEW` and
 * `DESCRIBE` of schema lookups) carries the statement parameter
 * `MULTI_STATEMENT_COUNT = 1`. A statement parameter overrides the session,
 * user and account values, so nothing a text does (`ALTER SESSION SET
 * MULTI_STATEMENT_COUNT = 0` included) changes it for a later statement, and
 * Snowflake's parser refuses a text holding a second statement before any of
 * it runs. That refusal (Snowflake error 000008) becomes a `not_allowed`
 * QueryError (`400 QUERY_NOT_ALLOWED`).
 * @module
 */

import type { Connection } from "@malloydata/malloy";
import { notAllowed } from "./sql_guard.ts";

/** The parameter and its value that every statement carries. */
const ONE_STATEMENT = { MULTI_STATEMENT_COUNT: 1 } as const;
/** Snowflake's error code when a text holds more statements than allowed. */
const STATEMENT_COUNT_MISMATCH = "000008";
const GUARDED = Symbol("snowflakeOneStatement");

interface ExecuteOptions {
  sqlText: string;
  parameters?: Record<string, unknown>;
  complete?: (error: (Error & { code?: unknown }) | undefined, statement: unknown, rows?: unknown) => void;
  [key: string]: unknown;
}

interface SdkConnection {
  execute: (options: ExecuteOptions) => unknown;
  [GUARDED]?: boolean;
}

interface Pool {
  acquire: (...args: unknown[]) => Promise<SdkConnection>;
  [GUARDED]?: boolean;
}

/**
 * Makes every statement of a Snowflake connection's pooled sessions carry
 * `MULTI_STATEMENT_COUNT = 1` (see the module notes). Other connections pass
 * through; a Snowflake connection whose pool cannot be reached is refused.
 */
export function guardSnowflake(connection: Connection): Connection {
  if (connection.dialectName !== "snowflake") return connection;
  const pool = (connection as unknown as { executor?: { pool_?: Pool } }).executor?.pool_;
  if (!pool || typeof pool.acquire !== "function") {
    throw notAllowed("this Snowflake connection's sessions cannot be checked, so it does not run queries");
  }
  if (pool[GUARDED]) return connection;
  const acquire = pool.acquire.bind(pool);
  // generic-pool's use() acquires through this method too
  pool.acquire = async (...args: unknown[]) => oneStatementAtATime(await acquire(...args));
  pool[GUARDED] = true;
  return connection;
}

/** Wraps a pooled session's `execute` (once) so its statements carry the parameter. */
function oneStatementAtATime(session: SdkConnection): SdkConnection {
  if (session[GUARDED]) return session;
  const execute = session.execute.bind(session);
  session.execute = (options: ExecuteOptions) => {
    const complete = options.complete;
    return execute({
      ...options,
      // last, so no caller's parameters can lift it
      parameters: { ...options.parameters, ...ONE_STATEMENT },
      complete: complete &&
        ((error, statement, rows) => {
          if (error && String(error.code) === STATEMENT_COUNT_MISMATCH) {
            complete(
              notAllowed("Snowflake counts more than one statement in this text; a Snowflake connection runs exactly one statement per request"),
              statement,
              rows,
            );
            return;
          }
          complete(error, statement, rows);
        }),
    });
  };
  session[GUARDED] = true;
  return session;
}
