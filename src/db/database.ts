/**
 * Opens the metadata database: a PostgreSQL server from `DATABASE_URL`, or the
 * embedded PGlite (with pgvector) served on loopback so that the same
 * postgres.js code runs on both.
 * @module
 */
import postgres from "postgres";
import { mkdir } from "node:fs/promises";

/** The postgres.js handle used everywhere. */
export type Sql = postgres.Sql<Record<string, unknown>>;
/** A handle or a transaction: every SQL module function takes one of these. */
export type Db = Sql | postgres.TransactionSql<Record<string, unknown>>;

/** An open database and how to close it. */
export interface Database {
  sql: Sql;
  /** `embedded` (PGlite) or `server`. */
  kind: "embedded" | "server";
  /** Connection string postgres.js used (the PGlite socket for embedded). */
  url: string;
  close(): Promise<void>;
}

/** Options of {@link openDatabase}. */
export interface OpenOptions {
  /** Server database URL; when unset, PGlite is started. */
  url?: string;
  /** PGlite data directory; `memory://` or undefined keeps it in memory. */
  dataDir?: string;
  /** Pool size (default 8 for a server, 4 for PGlite). */
  max?: number;
  /** PGlite only: start from this data directory dump (tests use a migrated template). */
  loadDataDir?: Blob;
}

const POOL_EMBEDDED = 4;

function connect(url: string, max: number): Sql {
  return postgres(url, {
    max,
    onnotice: () => {},
    idle_timeout: 30,
    connect_timeout: 10,
    transform: { undefined: null },
  }) as unknown as Sql;
}

/** Opens the database described by the options. */
export async function openDatabase(options: OpenOptions = {}): Promise<Database> {
  if (options.url) {
    const sql = connect(options.url, options.max ?? 8);
    return { sql, kind: "server", url: options.url, close: () => sql.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { vector } = await import("@electric-sql/pglite-pgvector");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const dir = options.dataDir && options.dataDir !== "memory://" ? options.dataDir : undefined;
  if (dir) await mkdir(dir, { recursive: true });
  const db = await PGlite.create({ dataDir: dir, extensions: { vector }, loadDataDir: options.loadDataDir });
  const max = options.max ?? POOL_EMBEDDED;
  const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1", maxConnections: max });
  await server.start();
  const url = `postgres://postgres@${server.getServerConn()}/postgres`;
  const sql = connect(url, max);
  return {
    sql,
    kind: "embedded",
    url,
    async close() {
      await sql.end({ timeout: 5 });
      await server.stop();
      await db.close();
    },
  };
}
