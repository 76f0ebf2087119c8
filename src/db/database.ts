/**
 * Opens the metadata database: a PostgreSQL server from `DATABASE_URL`, or the
 * embedded PGlite (with pgvector) served on a unix socket in a private (0700)
 * folder so that the same postgres.js code runs on both. The embedded database
 * has no TCP port: no network address, loopback included, reaches it.
 * @module
 */
import postgres from "postgres";
import { chmod, lstat, mkdir, mkdtemp, readdir, rm, unlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

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
  /**
   * PGlite only: also serve it on a random loopback TCP port, without a password.
   * Never for the platform's database: tests use it for a stand-in warehouse.
   */
  tcp?: boolean;
}

const POOL_EMBEDDED = 4;

/**
 * Seconds a connection attempt may take (`DB_CONNECT_TIMEOUT_S`, default 1.5): past it a
 * request answers `503` instead of waiting, so an unreachable database answers within 2 s.
 */
function connectTimeoutSeconds(): number {
  const n = Number(process.env.DB_CONNECT_TIMEOUT_S || 1.5);
  return Number.isFinite(n) && n > 0 ? n : 1.5;
}

/** Longest a statement of the platform database may run, ms (`DB_STATEMENT_TIMEOUT_MS`, default 30,000; 0 = none). */
function statementTimeoutMs(): number {
  const n = Number(process.env.DB_STATEMENT_TIMEOUT_MS || 30_000);
  return Number.isInteger(n) && n >= 0 ? n : 30_000;
}

/** Listeners of the embedded databases' committed auth changes, by handle (see {@link onLocalAuthChange}). */
const authListeners = new WeakMap<Sql, Set<() => void>>();

/** Channel the `note_auth_change` trigger notifies on the embedded database (sql/150_auth_change_notify.sql). */
const AUTH_CHANNEL = "auth_changes";

/**
 * Calls `listener` whenever a transaction that wrote a table authentication
 * reads commits, if `sql` is the embedded database of this process (false
 * otherwise: a server, or PGlite served on TCP to other processes).
 * Every client of the embedded database goes through this process's socket
 * queue, where the commit's notification is read before its ReadyForQuery is
 * passed on: the listener has run before the writing statement's promise
 * resolves, so a change committed before a request arrived is always seen.
 */
export function onLocalAuthChange(sql: Sql, listener: () => void): boolean {
  const listeners = authListeners.get(sql);
  if (!listeners) return false;
  listeners.add(listener);
  return true;
}

/** Opens a postgres.js pool; `path` is the unix socket of the embedded database, `server` a PostgreSQL server. */
function connect(url: string, max: number, options: { path?: string; server?: boolean } = {}): Sql {
  const { path, server = false } = options;
  const timeout = statementTimeoutMs();
  return postgres(url, {
    max,
    ...(path ? { path } : {}),
    onnotice: () => {},
    idle_timeout: 30,
    connect_timeout: connectTimeoutSeconds(),
    // postgres.js waits before reconnecting, 3^failures/100 s up to 20 s by default: a request would
    // wait that long during an outage. Reconnect at once, at most 0.25 s apart (only while queries wait).
    backoff: (retries: number) => Math.min(0.01 * 2 ** retries, 0.25),
    transform: { undefined: null },
    ...(server && timeout > 0 ? { connection: { statement_timeout: timeout } } : {}),
  }) as unknown as Sql;
}

/** Opens the database described by the options. */
export async function openDatabase(options: OpenOptions = {}): Promise<Database> {
  if (options.url) {
    const sql = connect(options.url, options.max ?? 8, { server: true });
    return { sql, kind: "server", url: options.url, close: () => sql.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { vector } = await import("@electric-sql/pglite-pgvector");
  const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
  const dir = options.dataDir && options.dataDir !== "memory://" ? options.dataDir : undefined;
  if (dir) await privateDir(dir);
  const db = await PGlite.create({ dataDir: dir, extensions: { vector }, loadDataDir: options.loadDataDir });
  // PGlite's file system sets modes itself (0644/0755), whatever the umask: take group and other bits away
  // now and on close; in between, the 0700 folder keeps every file out of other users' reach.
  if (dir) await restrictTree(dir);
  const max = options.max ?? POOL_EMBEDDED;
  const socket = await socketPath(dir);
  const server = new PGLiteSocketServer(
    options.tcp ? { db, port: 0, host: "127.0.0.1", maxConnections: max } : { db, path: socket.path, maxConnections: max },
  );
  const listeners = new Set<() => void>();
  if (!options.tcp) {
    // the one session of PGlite listens, so the trigger notifies it at every commit of an auth change
    await db.exec(`LISTEN ${AUTH_CHANNEL}`);
  }
  keepExtendedQueriesTogether(server, options.tcp ? undefined : (channel) => {
    if (channel !== AUTH_CHANNEL) return;
    for (const listener of listeners) {
      try {
        listener();
      } catch {
        // a listener never fails the statement that committed
      }
    }
  });
  await server.start();
  if (!options.tcp) await chmod(socket.path, 0o600);
  const url = options.tcp
    ? `postgres://postgres@${server.getServerConn()}/postgres`
    : `postgres://postgres@localhost/postgres?host=${encodeURIComponent(dirname(socket.path))}`;
  const sql = connect(url, max, { path: options.tcp ? undefined : socket.path });
  if (!options.tcp) authListeners.set(sql, listeners);
  return {
    sql,
    kind: "embedded",
    url,
    async close() {
      await sql.end({ timeout: 5 });
      await server.stop();
      await db.close();
      await socket.remove();
      if (dir) await restrictTree(dir);
    },
  };
}

/** Creates a folder (and its parents) readable by this user only (0700), also when it already existed. */
async function privateDir(path: string): Promise<void> {
  await mkdir(path, { recursive: true, mode: 0o700 });
  await chmod(path, 0o700);
}

/** Removes the group and other permission bits of a folder and everything below it. */
async function restrictTree(path: string): Promise<void> {
  const entries = await readdir(path, { withFileTypes: true, recursive: true }).catch(() => []);
  await chmod(path, 0o700).catch(() => {});
  for (const e of entries) {
    const full = join(e.parentPath, e.name);
    const s = await lstat(full).catch(() => undefined);
    if (!s || s.isSymbolicLink() || (s.mode & 0o077) === 0) continue;
    await chmod(full, s.mode & 0o700).catch(() => {});
  }
}

/** Longest unix socket path Linux accepts (108 bytes with the NUL). */
const MAX_SOCKET_PATH = 100;

/**
 * Where the embedded database's unix socket goes: `<DATA_DIR>/run/` (0700)
 * next to the PGlite folder, or a fresh 0700 temporary folder for an
 * in-memory database or when that path would be too long for a socket.
 */
async function socketPath(dataDir: string | undefined): Promise<{ path: string; remove(): Promise<void> }> {
  const name = `pglite-${process.pid}-${crypto.randomUUID().slice(0, 8)}.sock`;
  if (dataDir) {
    const run = join(dirname(dataDir), "run");
    const path = join(run, name);
    if (Buffer.byteLength(path) <= MAX_SOCKET_PATH) {
      await privateDir(run);
      return { path, remove: () => unlink(path).catch(() => {}) };
    }
  }
  const temp = await mkdtemp(join(tmpdir(), "pglite-"));
  await chmod(temp, 0o700);
  const path = join(temp, name);
  return { path, remove: () => rm(temp, { recursive: true, force: true }) };
}

/** The private query queue of `PGLiteSocketServer` (pglite-socket 0.2). */
interface SocketQueue {
  queue: { handlerId: number; message: Uint8Array; onData(data: Uint8Array): void; resolve(n: number): void; reject(e: unknown): void }[];
  processing: boolean;
  lastHandlerId: number | null;
  db: { isInTransaction(): boolean; runExclusive<T>(fn: () => Promise<T>): Promise<T>; execProtocolRawStream(m: Uint8Array, o: { onRawData(d: Uint8Array): void }): Promise<unknown> };
  processQueue(): Promise<void>;
}

/** NotificationResponse, the backend message a committed NOTIFY sends to a listening session. */
const NOTIFICATION = 0x41;

/**
 * A reader of one exec's backend output, given chunk by chunk: it calls
 * `onChannel` with the channel of each NotificationResponse in it.
 */
function notificationReader(onChannel: (channel: string) => void): (chunk: Uint8Array) => void {
  const header = new Uint8Array(5);
  let have = 0;
  let left = 0;
  let body: number[] | undefined;
  const done = () => {
    const end = body!.indexOf(0, 4);
    onChannel(new TextDecoder().decode(new Uint8Array(body!.slice(4, end === -1 ? undefined : end))));
    body = undefined;
  };
  return (chunk) => {
    let i = 0;
    while (i < chunk.length) {
      if (left > 0) {
        const n = Math.min(left, chunk.length - i);
        if (body) for (let k = i; k < i + n; k++) body.push(chunk[k]!);
        i += n;
        left -= n;
        if (left === 0 && body) done();
        continue;
      }
      header[have++] = chunk[i++]!;
      if (have < 5) continue;
      have = 0;
      left = new DataView(header.buffer).getInt32(1) - 4;
      if (header[0] === NOTIFICATION) body = [];
      if (left <= 0) {
        left = 0;
        if (body) done();
      }
    }
  };
}

/** Message types that end a client's turn: Sync, simple Query, Terminate (and the untyped startup messages). */
const TURN_ENDS = new Set([0x53, 0x51, 0x58, 0x00]);

/**
 * pglite-socket 0.2 queues protocol messages one by one and, outside a
 * transaction, interleaves the messages of different connections. postgres.js
 * sends each query as Parse/Bind/Describe/Execute/Sync on the unnamed portal,
 * so two concurrent queries could swap portals: one connection got the other's
 * rows, or `portal "" does not exist`. This keeps the queue on one connection
 * from its first message to its Sync (and, as before, for a whole transaction).
 * Upstream problem: electric-sql/pglite issue #1046 (pull request #977); the
 * shape this relies on is checked by test/foundation/pglite_socket_shape.test.ts.
 * It also reads every exec's output for notifications (`onNotification`),
 * before the output reaches the client.
 */
function keepExtendedQueriesTogether(server: object, onNotification?: (channel: string) => void): void {
  const q = (server as { queryQueue: SocketQueue }).queryQueue;
  let midTurn = false;
  q.processQueue = async function processQueue(this: SocketQueue): Promise<void> {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const sticky = this.lastHandlerId !== null && (midTurn || this.db.isInTransaction());
        const index = sticky ? this.queue.findIndex((item) => item.handlerId === this.lastHandlerId) : 0;
        if (index === -1) break;
        const item = this.queue.splice(index, 1)[0]!;
        let bytes = 0;
        // each exec's output is whole backend messages: a fresh reader per message
        const read = onNotification && item.message[0] !== 0x00 ? notificationReader(onNotification) : undefined;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(item.message, {
              onRawData: (d) => {
                bytes += d.length;
                read?.(d);
                item.onData(d);
              },
            })
          );
        } catch (error) {
          midTurn = false;
          item.reject(error);
          continue;
        }
        this.lastHandlerId = item.handlerId;
        midTurn = !TURN_ENDS.has(item.message[0] ?? 0);
        item.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };
}

/**
 * Makes `DATA_DIR` private before anything is written to it: the process's
 * umask becomes 077 (every file it creates afterwards is 0600, every folder
 * 0700: PGlite's files, `secret.key`, package sources, DuckDB files) and the
 * folder itself is created, or changed to, 0700.
 */
export async function secureDataDir(dataDir: string): Promise<void> {
  process.umask(0o077);
  await privateDir(dataDir);
}
