/**
 * A `#@ persist` source of a warehouse connection (the local PostgreSQL
 * server): the run streams its rows into a Parquet file, queries read that
 * file (in DuckDB) until the next run, and a second node on the same
 * platform database serves the materialization the first one built.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { readConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { stopWorker } from "../../src/runs/worker.ts";
import { type Service, startService } from "../../src/service.ts";
import { SERVER_URL } from "../helpers/service.ts";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { pkgPath, runsPackage, waitRun, WAREHOUSE_ENV, warehouseUrl } from "./fixtures.ts";

setDefaultTimeout(120_000);

const SECRET_KEY = "4f".repeat(32);
const TABLE = `runs_wh_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
const warehouse = postgres(warehouseUrl().toString(), { max: 1, onnotice: () => {} });
let w: World;
const P = pkgPath("wh");
const Q = `${P}/models/models/flights.malloy/query`;

const MODEL = `source: wflights is wh.table('public.${TABLE}') extend {
  measure: flight_count is count()
}

#@ persist
source: wh_stats is wflights -> { group_by: carrier; aggregate: flight_count }

#@ persist
source: wh_long is wflights extend {
  where: distance > 2000
  dimension: far is distance > 2500
}

source: wh_sql is wh.sql("""SELECT carrier, flight_count FROM %{ wh_stats } AS s""")
`;

beforeAll(async () => {
  await warehouse.unsafe(`CREATE TABLE ${TABLE} (carrier text, origin text, distance integer, dep_date date, dep_at timestamp)`);
  await warehouse.unsafe(`INSERT INTO ${TABLE} VALUES
    ('AA', 'JFK', 2475, '2024-01-01', '2024-01-01 08:00:00'), ('AA', 'LAX', 2475, '2024-01-02', '2024-01-02 09:30:00'),
    ('AA', 'JFK', 2586, '2024-01-03', '2024-01-03 10:00:00'), ('UA', 'SFO', 1846, '2024-01-01', NULL),
    ('UA', 'ORD', 1846, '2024-01-04', NULL), ('UA', 'EWR', 2565, '2024-01-05', '2024-01-05 23:59:59'),
    ('WN', 'DAL', 239, '2024-01-02', NULL), ('WN', 'HOU', 239, '2024-01-06', NULL)`);
  w = await startWorld({ ...WAREHOUSE_ENV, INDEX_ON_PUBLISH: "false", SECRET_KEY });
  const url = warehouseUrl();
  const connection = await w.s.call("POST", `${API}/organizations/acme/environments/prod/connections`, {
    token: w.admin,
    body: {
      name: "wh",
      type: "postgres",
      postgresConnection: {
        host: url.hostname,
        port: Number(url.port || 5432),
        databaseName: url.pathname.slice(1) || "postgres",
        userName: decodeURIComponent(url.username || "postgres"),
        ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      },
    },
  });
  expect(connection.status).toBe(201);
  const r = await publish(w, "wh", "1.0.0", { token: w.admin, files: runsPackage(MODEL) });
  expect(r.status).toBe(201);
}, 120_000); // publishing on a loaded machine takes longer than bun's 5 s default for hooks

afterAll(async () => {
  await w?.s.close();
  await warehouse.unsafe(`DROP TABLE IF EXISTS ${TABLE}`);
  await warehouse.end();
}, 120_000);

async function query(text: string, call = w.s.call) {
  const r = await call("POST", Q, { token: w.admin, body: { query: text } });
  if (r.status !== 200) throw new Error(`${text}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function run() {
  const created = await w.s.call("POST", `${P}/versions/1.0.0/runs`, { token: w.admin, body: {} });
  expect(created.status).toBe(201);
  return await waitRun(w, `${P}/runs/${created.body.id}`, { token: w.admin });
}

const LONG = "run: wh_long -> { group_by: far; aggregate: n is count(), d is distance.sum(); order_by: far }";

describe("a persisted PostgreSQL source", () => {
  test("before its first build runs on the warehouse", async () => {
    const r = await query(LONG);
    expect(r.data).toEqual([{ far: false, n: 2, d: 4950 }, { far: true, n: 2, d: 5151 }]);
    expect(r.metadata.connection).toBe("wh");
    expect(r.metadata.materialization).toBeUndefined();
  });

  test("the run streams it into Parquet; queries read the file until the next run", async () => {
    const built = await run();
    expect(built.state).toBe("succeeded");
    expect(built.units.map((u: { target: string; rowCount: number }) => `${u.target}:${u.rowCount}`)).toEqual(["wh_stats:3", "wh_long:4"]);
    const list = await w.s.call("GET", `${P}/versions/1.0.0/materializations`, { token: w.admin });
    const m = Object.fromEntries(list.body.map((x: { sourceName: string }) => [x.sourceName, x]));
    expect(m.wh_long).toMatchObject({ status: "built", connection: "wh", format: "parquet", rowCount: 4 });

    await warehouse.unsafe(`INSERT INTO ${TABLE} VALUES ('ZZ', 'BOS', 2496, '2024-02-01', NULL), ('ZZ', 'SEA', 2496, '2024-02-02', NULL)`);
    const live = await query("run: wflights -> { aggregate: flight_count }");
    expect(live.data).toEqual([{ flight_count: 10 }]);
    expect(live.metadata.materialization).toBeUndefined();

    const served = await query(LONG);
    expect(served.data).toEqual([{ far: false, n: 2, d: 4950 }, { far: true, n: 2, d: 5151 }]);
    expect(served.metadata.connection).toBe("duckdb");
    expect(served.metadata.materialization).toEqual({ id: m.wh_long.id, builtAt: m.wh_long.builtAt });
    // types survive the trip: dates, timestamps (and nulls), integers
    const typed = await query("run: wh_long -> { select: carrier, dep_date, dep_at, distance; order_by: dep_date; limit: 2 }");
    expect(typed.data).toEqual([
      { carrier: "AA", dep_date: "2024-01-01T00:00:00.000Z", dep_at: "2024-01-01T08:00:00.000Z", distance: 2475 },
      { carrier: "AA", dep_date: "2024-01-02T00:00:00.000Z", dep_at: "2024-01-02T09:30:00.000Z", distance: 2475 },
    ]);
    // SQL of the warehouse cannot read the Parquet file: `%{ wh_stats }` in wh.sql(...) stays on the definition
    const inWarehouseSql = await query("run: wh_sql -> { select: *; order_by: carrier }");
    expect(inWarehouseSql.data.map((r: { carrier: string }) => r.carrier)).toEqual(["AA", "UA", "WN", "ZZ"]);
    expect(inWarehouseSql.metadata.connection).toBe("wh");
    expect(inWarehouseSql.metadata.materialization).toBeUndefined();
    const stats = await query("run: wh_stats -> { select: *; order_by: carrier }");
    expect(stats.data).toEqual([{ carrier: "AA", flight_count: 3 }, { carrier: "UA", flight_count: 3 }, { carrier: "WN", flight_count: 2 }]);
    expect(stats.metadata.materialization).toEqual({ id: m.wh_stats.id, builtAt: m.wh_stats.builtAt });

    expect((await run()).state).toBe("succeeded");
    const again = await query(LONG);
    expect(again.data).toEqual([{ far: false, n: 4, d: 4950 + 4992 }, { far: true, n: 2, d: 5151 }]);
    expect(again.metadata.materialization.builtAt > m.wh_long.builtAt).toBe(true);
  });

  test("a second node on the same platform database serves the materialization the first built", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "pkg-test-node2-"));
    const config = readConfig({ ...WAREHOUSE_ENV, DATA_DIR: dataDir, SECRET_KEY, INDEX_ON_PUBLISH: "false", LOG_REQUESTS: "false", RATE_LIMIT_PER_MINUTE: "0" });
    const db = SERVER_URL ? await openDatabase({ url: w.s.service.db.url, max: 4 }) : w.s.service.db;
    const node2: Service = await startService(config, { db: { ...db, close: async () => { if (SERVER_URL) await db.close(); } }, log: () => {}, addressOf: () => "127.0.0.1" });
    try {
      // this node only serves (the first node builds)
      await stopWorker(node2.ctx);
      const call2 = async (method: string, path: string, options: { token?: string; body?: unknown } = {}) => {
        const response = await node2.handle(new Request(`http://localhost${path}`, {
          method,
          headers: { authorization: `Bearer ${options.token}`, "content-type": "application/json" },
          body: JSON.stringify(options.body),
        }));
        return { status: response.status, headers: response.headers, body: await response.json() };
      };
      const list = await w.s.call("GET", `${P}/versions/1.0.0/materializations`, { token: w.admin });
      const m = list.body.find((x: { sourceName: string }) => x.sourceName === "wh_long");
      // the warehouse changes again; node 2 still answers from the stored file
      await warehouse.unsafe(`DELETE FROM ${TABLE} WHERE carrier = 'ZZ'`);
      const r = await query(LONG, call2);
      expect(r.data).toEqual([{ far: false, n: 4, d: 4950 + 4992 }, { far: true, n: 2, d: 5151 }]);
      expect(r.metadata.materialization).toEqual({ id: m.id, builtAt: m.builtAt });
      const cached = await readdir(join(dataDir, "materializations"), { recursive: true });
      expect(cached).toContain(join(m.location.split("/")[1], `${m.sha256}.parquet`));
    } finally {
      await node2.close();
    }
  });

  test("a table unit that cannot be built fails with the reason; the version stays queryable on the last build", async () => {
    const list = await w.s.call("GET", `${P}/versions/1.0.0/materializations`, { token: w.admin });
    const m = list.body.find((x: { sourceName: string }) => x.sourceName === "wh_long");
    await warehouse.unsafe(`ALTER TABLE ${TABLE} RENAME TO ${TABLE}_gone`);
    try {
      const failed = await run();
      expect(failed.state).toBe("failed");
      expect(failed.error).toContain("wh_stats");
      for (const unit of failed.units) {
        expect(unit.state).toBe("failed");
        expect(unit.error).toContain(TABLE);
      }
      const version = await w.s.call("GET", `${P}/versions/1.0.0`, { token: w.admin });
      expect(version.body).toMatchObject({ archiveStatus: "unarchive", isLatest: true });
      const r = await query(LONG);
      expect(r.data).toEqual([{ far: false, n: 4, d: 4950 + 4992 }, { far: true, n: 2, d: 5151 }]);
      expect(r.metadata.materialization).toEqual({ id: m.id, builtAt: m.builtAt });
      const after = await w.s.call("GET", `${P}/versions/1.0.0/materializations/${m.id}`, { token: w.admin });
      expect(after.body).toMatchObject({ status: "built", sha256: m.sha256, builtAt: m.builtAt });
    } finally {
      await warehouse.unsafe(`ALTER TABLE ${TABLE}_gone RENAME TO ${TABLE}`);
    }
  });
});
