/**
 * Two service processes (`bun src/main.ts`, each its own DATA_DIR) on one
 * platform database: node A runs the run worker, node B does not
 * (`RUN_WORKER=false`). A run requested on B is built by A; B serves the
 * materializations A built (fetched by hash from the database into B's own
 * cache), and keeps answering from them after the warehouse table changes.
 *
 * The shared database is a new database on TEST_DATABASE_URL's server, or on
 * the embedded engine the test's own PGlite served on loopback TCP (with the
 * service's fix that keeps each connection's extended-protocol messages
 * together), which both processes reach as a server.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { openDatabase } from "../../src/db/database.ts";
import { bytes, FLIGHTS_CSV, zipFiles } from "../fixtures/engine_package.ts";
import { type MainProcess, startMain, stopAll, waitHealthy } from "../helpers/process.ts";
import { SERVER_URL } from "../helpers/service.ts";
import { md5 } from "../packages/helpers.ts";
import { warehouseUrl } from "./fixtures.ts";

const TABLE = `runs_2p_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const PASSWORD = "two-process-admin-pw";
const P = "/api/v0/organizations/acme/environments/prod/packages/shared";
const Q = `${P}/models/models/flights.malloy/query`;

const MODEL = `source: wflights is wh.table('public.${TABLE}') extend {
  measure: flight_count is count()
}

#@ persist
source: wh_long is wflights extend { where: distance > 2000 }

source: flights is duckdb.table('data/flights.csv') extend {
  measure: flight_count is count()
}

#@ persist
source: carrier_stats is flights -> { group_by: carrier; aggregate: flight_count }
`;

const warehouse = postgres(warehouseUrl().toString(), { max: 1, onnotice: () => {} });
const dirs: string[] = [];
let closeDatabase: () => Promise<void> = async () => {};
let a: MainProcess;
let b: MainProcess;
let dirA: string;
let dirB: string;
let token: string;

interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function call(node: MainProcess, method: string, path: string, body?: unknown): Promise<Answer> {
  const form = body instanceof FormData;
  const r = await fetch(`${node.base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined && !form ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : undefined };
}

async function ok(node: MainProcess, method: string, path: string, body?: unknown, status = 200): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await call(node, method, path, body);
  if (r.status !== status) throw new Error(`${method} ${path} on :${node.port}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function query(node: MainProcess, text: string) {
  return await ok(node, "POST", Q, { query: text });
}

async function filesUnder(dataDir: string): Promise<string[]> {
  const entries = await readdir(join(dataDir, "materializations"), { recursive: true }).catch(() => [] as string[]);
  return entries.filter((e) => e.endsWith(".parquet") && !e.startsWith("building")).sort();
}

beforeAll(async () => {
  let url: string;
  if (SERVER_URL) {
    const name = `t_2p_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
    const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const u = new URL(SERVER_URL);
    u.pathname = `/${name}`;
    url = u.toString();
    closeDatabase = async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  } else {
    const db = await openDatabase({ tcp: true, max: 32 });
    url = db.url;
    closeDatabase = () => db.close();
  }
  await warehouse.unsafe(`CREATE TABLE ${TABLE} (carrier text, distance integer)`);
  await warehouse.unsafe(`INSERT INTO ${TABLE} VALUES ('AA', 2475), ('AA', 2586), ('UA', 1846), ('UA', 2565), ('WN', 239)`);

  const env = {
    DATABASE_URL: url,
    BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
    JWT_SECRET: "j".repeat(40),
    SECRET_KEY: "5e".repeat(32),
    ALLOWED_CONNECTION_HOSTS: "127.0.0.1",
    INDEX_ON_PUBLISH: "false",
    RATE_LIMIT_PER_MINUTE: "0",
    RUN_POLL_MS: "100",
    // the test's own engine answers both processes and this file: on a loaded machine a connection takes more than 1.5 s
    DB_CONNECT_TIMEOUT_S: "30",
  };
  dirA = await mkdtemp(join(tmpdir(), "mat-node-a-"));
  dirB = await mkdtemp(join(tmpdir(), "mat-node-b-"));
  dirs.push(dirA, dirB);
  a = startMain({ ...env, DATA_DIR: dirA });
  b = startMain({ ...env, DATA_DIR: dirB, RUN_WORKER: "false" });
  await Promise.all([waitHealthy(a, 150_000), waitHealthy(b, 150_000)]);

  const signedIn = await ok(a, "POST", "/api/v0/auth/token", { userName: "admin", password: PASSWORD });
  token = signedIn.accessToken;
  await ok(a, "POST", "/api/v0/organizations", { name: "acme" }, 201);
  await ok(a, "POST", "/api/v0/organizations/acme/environments", { name: "prod" }, 201);
  const wh = warehouseUrl();
  await ok(a, "POST", "/api/v0/organizations/acme/environments/prod/connections", {
    name: "wh",
    type: "postgres",
    postgresConnection: {
      host: wh.hostname,
      port: Number(wh.port || 5432),
      databaseName: wh.pathname.slice(1) || "postgres",
      userName: decodeURIComponent(wh.username || "postgres"),
      ...(wh.password ? { password: decodeURIComponent(wh.password) } : {}),
    },
  }, 201);
  const zip = zipFiles(new Map([
    ["publisher.json", bytes(JSON.stringify({ name: "shared", description: "two processes" }))],
    ["models/flights.malloy", bytes(MODEL)],
    ["data/flights.csv", bytes(FLIGHTS_CSV)],
  ]));
  const form = new FormData();
  form.set("package", JSON.stringify({ description: "two processes" }));
  form.set("version", JSON.stringify({ id: "1.0.0" }));
  form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>], { type: "application/zip" }), "package.zip");
  form.set("md5Hash", md5(zip));
  await ok(a, "POST", P, form, 201);
}, 300_000);

afterAll(async () => {
  // also when a test failed: no child outlives the file, then the database and folders go
  await stopAll();
  await closeDatabase();
  await warehouse.unsafe(`DROP TABLE IF EXISTS ${TABLE}`);
  await warehouse.end();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
}, 120_000);

const LONG = "run: wh_long -> { group_by: carrier; aggregate: n is count(), d is distance.sum(); order_by: carrier }";
const LONG_ROWS = [{ carrier: "AA", n: 2, d: 5061 }, { carrier: "UA", n: 1, d: 2565 }];

describe("two service processes on one platform database", () => {
  test("before any run, node B reads the persisted source's definition on the warehouse", async () => {
    const r = await query(b, LONG);
    expect(r.data).toEqual(LONG_ROWS);
    expect(r.metadata.connection).toBe("wh");
    expect(r.metadata.materialization).toBeUndefined();
  }, 120_000);

  test("a run requested on B (no run worker) is built by A; B serves A's materializations, also after the table changes", async () => {
    const created = await ok(b, "POST", `${P}/versions/1.0.0/runs`, {}, 201);
    const deadline = Date.now() + 120_000;
    let run = created;
    while (!["succeeded", "failed", "cancelled"].includes(run.state) && Date.now() < deadline) {
      await Bun.sleep(100);
      run = await ok(b, "GET", `${P}/runs/${created.id}`);
    }
    expect(run.state).toBe("succeeded");
    const built = await ok(b, "GET", `${P}/versions/1.0.0/materializations`);
    const m = Object.fromEntries(built.map((x: { sourceName: string }) => [x.sourceName, x]));
    expect(m.wh_long).toMatchObject({ status: "built", rowCount: 3 });
    expect(m.carrier_stats).toMatchObject({ status: "built" });

    // A built the files (they are in A's cache); B has none of them yet
    const expected = [m.wh_long, m.carrier_stats].map((x) => join(x.location.split("/")[1], `${x.sha256}.parquet`)).sort();
    expect(await filesUnder(dirA)).toEqual(expected);
    expect(await filesUnder(dirB)).toEqual([]);

    // the warehouse changes after the build: the definition would see it, the materialization does not
    await warehouse.unsafe(`INSERT INTO ${TABLE} VALUES ('ZZ', 2496), ('ZZ', 2496), ('AA', 9999)`);
    const live = await query(b, "run: wflights -> { aggregate: flight_count }");
    expect(live.data).toEqual([{ flight_count: 8 }]);
    expect(live.metadata.materialization).toBeUndefined();

    const served = await query(b, LONG);
    expect(served.data).toEqual(LONG_ROWS);
    expect(served.metadata.connection).toBe("duckdb");
    expect(served.metadata.materialization).toEqual({ id: m.wh_long.id, builtAt: m.wh_long.builtAt });
    const stats = await query(b, "run: carrier_stats -> { select: *; order_by: carrier; limit: 1 }");
    expect(stats.metadata.materialization).toEqual({ id: m.carrier_stats.id, builtAt: m.carrier_stats.builtAt });

    // B fetched both files from the platform database into its own cache, by hash
    expect(await filesUnder(dirB)).toEqual(expected);
  }, 180_000);
});
