/**
 * A throwaway PostgreSQL warehouse for connection tests: a new database on
 * TEST_DATABASE_URL's server when the suite runs on one, an embedded PGlite
 * behind a loopback port otherwise. Either way the service reaches it as a
 * `postgres` connection over TCP.
 * @module
 */
import postgres from "postgres";
import { type Database, openDatabase } from "../../src/db/database.ts";
import { SERVER_URL } from "./service.ts";

/** The `postgresConnection` body of a connection to the warehouse. */
export interface WarehouseConnection {
  host: string;
  port: number;
  databaseName: string;
  userName: string;
  password: string;
}

/** An open warehouse (see {@link openWarehouse}). */
export interface Warehouse {
  /** What a `postgres` connection of the service needs to reach it. */
  connection: WarehouseConnection;
  /** Runs statements (several, separated by `;`) as the owner; the rows of the last one. */
  run(statements: string): Promise<Record<string, unknown>[]>;
  /** Closes the embedded database, or drops the server database. */
  close(): Promise<void>;
}

/** postgres.js answers a simple query of several statements with one result per statement. */
function lastRows(result: unknown): Record<string, unknown>[] {
  const rows = result as unknown[];
  return (Array.isArray(rows[0]) ? rows.at(-1) : rows) as Record<string, unknown>[];
}

/** Opens a warehouse; on a server its database is named `<prefix>_<random>`. */
export async function openWarehouse(prefix: string): Promise<Warehouse> {
  if (!SERVER_URL) {
    const db: Database = await openDatabase({ tcp: true });
    const connection = { host: "127.0.0.1", port: Number(new URL(db.url).port), databaseName: "postgres", userName: "postgres", password: "pw-warehouse" };
    const run = async (statements: string) => lastRows(await db.sql.unsafe(statements));
    return { connection, run, close: () => db.close() };
  }
  const u = new URL(SERVER_URL);
  const name = `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const connection = {
    host: u.hostname,
    port: Number(u.port || 5432),
    databaseName: name,
    userName: decodeURIComponent(u.username || "postgres"),
    password: decodeURIComponent(u.password) || "pw-warehouse",
  };
  const at = new URL(SERVER_URL);
  at.pathname = `/${name}`;
  const run = async (statements: string) => {
    const sql = postgres(at.toString(), { max: 1, onnotice: () => {} });
    try {
      return lastRows(await sql.unsafe(statements));
    } finally {
      await sql.end();
    }
  };
  const close = async () => {
    const admin = postgres(SERVER_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
  return { connection, run, close };
}
