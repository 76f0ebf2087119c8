/**
 * Test harness: a fresh database per test file (a PGlite copy of a migrated
 * template by default, a new database on TEST_DATABASE_URL's server when set)
 * and a started service driven through its request handler.
 * @module
 */
import postgres from "postgres";
import { readConfig, type Config } from "../../src/config.ts";
import { openDatabase, type Database } from "../../src/db/database.ts";
import { migrate } from "../../src/db/migrate.ts";
import { startService, type Service } from "../../src/service.ts";

/** Password of the bootstrap admin in tests. */
export const ADMIN_PASSWORD = "admin-password-for-tests";

let templateDump: Promise<Blob> | undefined;

async function migratedDump(): Promise<Blob> {
  templateDump ??= (async () => {
    const { PGlite } = await import("@electric-sql/pglite");
    const { vector } = await import("@electric-sql/pglite-pgvector");
    const { PGLiteSocketServer } = await import("@electric-sql/pglite-socket");
    const raw = await PGlite.create({ extensions: { vector } });
    const server = new PGLiteSocketServer({ db: raw, port: 0, host: "127.0.0.1", maxConnections: 1 });
    await server.start();
    const sql = postgres(`postgres://postgres@${server.getServerConn()}/postgres`, { max: 1, onnotice: () => {} });
    await migrate(sql as never);
    await sql.end();
    await server.stop();
    const dump = await raw.dumpDataDir("none");
    await raw.close();
    return dump;
  })();
  return await templateDump;
}

/** Whether the suite runs against a PostgreSQL server (TEST_DATABASE_URL). */
export const SERVER_URL = process.env.TEST_DATABASE_URL || undefined;

// Build the migrated template while the test file loads: bun gives beforeAll hooks
// 5 s whatever bunfig's timeout says, and building the template (about 4 s, more
// on a loaded machine) inside the first file's hook made that hook time out.
if (!SERVER_URL) await migratedDump();

/** A fresh, migrated database for one test file. */
export async function freshDatabase(): Promise<Database> {
  if (!SERVER_URL) return await openDatabase({ loadDataDir: await migratedDump() });
  const name = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase({ url: url.toString(), max: 8 });
  await migrate(db.sql);
  return {
    ...db,
    async close() {
      await db.close();
      const a = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
      await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** A response read once: status, headers and parsed body. */
export interface TestResponse {
  status: number;
  headers: Headers;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** Options of a test request. */
export interface CallOptions {
  token?: string;
  apiKey?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A started service and helpers to call it. */
export interface TestService {
  service: Service;
  config: Config;
  call(method: string, path: string, options?: CallOptions): Promise<TestResponse>;
  /** Access token of the bootstrap system admin. */
  adminToken(): Promise<string>;
  login(userName: string, password: string): Promise<string>;
  /** Creates a user (as the admin) and returns its access token. */
  createUser(userName: string, options?: { systemAdmin?: boolean }): Promise<string>;
  close(): Promise<void>;
}

/** Starts a service on a fresh database; `env` overrides configuration variables. */
export async function startTestService(env: Record<string, string> = {}): Promise<TestService> {
  const config = readConfig({
    BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
    LOG_REQUESTS: "false",
    RATE_LIMIT_PER_MINUTE: "0",
    // Cheap argon2 and generous attempt limits; the sign-in tests set their own.
    PASSWORD_HASH_MEMORY_KIB: "1024",
    PASSWORD_HASH_TIME_COST: "1",
    LOGIN_MAX_FAILURES_ACCOUNT: "1000",
    LOGIN_MAX_FAILURES_ADDRESS: "1000",
    AUTH_MAX_FAILURES_PER_MINUTE: "100000",
    ...env,
  });
  const db = await freshDatabase();
  const service = await startService(config, { db, log: (e) => { if (process.env.TEST_LOG && (e as { level?: string }).level === "error") console.error("SERVICE", JSON.stringify(e)); }, addressOf: () => "127.0.0.1" });
  let admin: string | undefined;

  async function call(method: string, path: string, options: CallOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.apiKey) headers.authorization = `ApiKey ${options.apiKey}`;
    let body: BodyInit | undefined;
    if (options.body instanceof FormData || typeof options.body === "string") body = options.body as BodyInit;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await service.handle(new Request(`http://localhost${path}`, { method, headers, body }));
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get("content-type") ?? "").includes("json") && text) parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed };
  }

  async function login(userName: string, password: string): Promise<string> {
    const r = await call("POST", "/api/v0/auth/token", { body: { userName, password } });
    if (r.status !== 200) throw new Error(`login of ${userName} failed: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.accessToken as string;
  }

  async function adminToken(): Promise<string> {
    admin ??= await login("admin", ADMIN_PASSWORD);
    return admin;
  }

  return {
    service,
    config,
    call,
    login,
    adminToken,
    async createUser(userName, options = {}) {
      const token = await adminToken();
      const r = await call("POST", "/api/v0/users", {
        token,
        body: { userName, email: `${userName}@example.com`, password: `pw-${userName}-secret`, ...options },
      });
      if (r.status !== 201) throw new Error(`creating ${userName} failed: ${r.status} ${JSON.stringify(r.body)}`);
      return await login(userName, `pw-${userName}-secret`);
    },
    close: () => service.close(),
  };
}
