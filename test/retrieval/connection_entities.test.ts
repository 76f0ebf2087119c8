import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { API, publish, smallPackage, startWorld, userWith, type World } from "../packages/helpers.ts";
import { carriersParquet } from "../fixtures/engine_package.ts";
import { openWarehouse, type Warehouse, type WarehouseConnection } from "../helpers/warehouse.ts";

setDefaultTimeout(60_000);

// The warehouse: a fresh database on TEST_DATABASE_URL's server, or an embedded PGlite behind its socket.
let warehouse: Warehouse;
let pg: WarehouseConnection;
let w: World;
let viewer: string;
let modeler: string;
let outsider: string;
const E = `${API}/organizations/acme/environments/prod`;
const CE = `${API}/retrieval/connection-entities`;

interface Table {
  connection: string;
  table: string;
  package_name?: string;
  score: number;
  match_reason?: string;
  columns: { name: string; type: string; score?: number; match_reason?: string }[];
  suggestions: { kind: string; description: string; malloy: string }[];
}

beforeAll(async () => {
  warehouse = await openWarehouse("wh");
  pg = warehouse.connection;
  await warehouse.run(`CREATE SCHEMA sales;
    CREATE TABLE sales.orders (id serial PRIMARY KEY, customer_id integer, amount numeric(10,2), created_at timestamp, status text);
    CREATE TABLE public.customers (id serial PRIMARY KEY, full_name text, region text, signup_date date);
    INSERT INTO sales.orders (customer_id, amount, created_at, status) VALUES (1, 10.5, now(), 'shipped');`);

  w = await startWorld({ CONNECTION_TEST_TIMEOUT_MS: "5000", ALLOWED_CONNECTION_HOSTS: pg.host });
  viewer = await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });
  modeler = await userWith(w, "modeler", { kind: "environment", id: w.envId, role: "modeler" });
  outsider = await userWith(w, "outsider");
  const c = await w.s.call("POST", `${E}/connections`, { token: modeler, body: { name: "warehouse", type: "postgres", postgresConnection: pg } });
  if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
  const files = smallPackage({ "data/carriers.parquet": await carriersParquet() });
  const p = await publish(w, "shop", "1.0.0", { token: modeler, files });
  if (p.status !== 201) throw new Error(`publish: ${p.status} ${JSON.stringify(p.body)}`);
}, 240_000);
afterAll(async () => {
  await w?.s.close();
  await warehouse?.close();
}, 120_000);

function entities(token: string, body: Record<string, unknown>) {
  return w.s.call("POST", CE, { token, body: { organization: "acme", environment_name: "prod", ...body } });
}

function find(tables: Table[], table: string): Table {
  const t = tables.find((x) => x.table === table);
  if (!t) throw new Error(`no table ${table} in ${tables.map((x) => x.table).join(", ")}`);
  return t;
}

describe("enumerate (skip_matching: true)", () => {
  test("lists postgres tables outside system schemas and the package's data files, grouped by table", async () => {
    const r = await entities(viewer, { skip_matching: true });
    expect(r.status).toBe(200);
    expect(r.body.mode).toBe("enumerate");
    expect(r.body.errors).toEqual([]);
    const tables = r.body.tables as Table[];
    expect(tables.map((t) => `${t.connection}:${t.table}`).sort()).toEqual([
      "duckdb:data/carriers.parquet",
      "duckdb:data/flights.csv",
      "warehouse:public.customers",
      "warehouse:sales.orders",
    ]);
    const orders = find(tables, "sales.orders");
    expect(orders.columns.map((c) => c.name)).toEqual(["id", "customer_id", "amount", "created_at", "status"]);
    expect(orders.columns.find((c) => c.name === "amount")!.type).toBe("numeric");
    const flights = find(tables, "data/flights.csv");
    expect(flights.package_name).toBe("shop");
    expect(flights.columns.map((c) => c.name)).toEqual(["carrier", "origin", "destination", "distance", "dep_date"]);
    expect(flights.columns.find((c) => c.name === "dep_date")!.type).toBe("date");
    expect(find(tables, "data/carriers.parquet").columns.map((c) => c.name)).toEqual(["code", "nickname"]);
  });
  test("modeling suggestions: a source with primary key, timeframes, measures, and join hints", async () => {
    const tables = (await entities(viewer, { skip_matching: true })).body.tables as Table[];
    const orders = find(tables, "sales.orders");
    const source = orders.suggestions.find((s) => s.kind === "source")!.malloy;
    expect(source).toStartWith("source: orders is warehouse.table('sales.orders') extend {");
    expect(source).toContain("primary_key: id");
    expect(source).toContain("dimension: created_month is created_at.month");
    expect(source).toContain("measure: row_count is count()");
    expect(source).toContain("measure: total_amount is amount.sum()");
    expect(source).not.toContain("customer_id.sum()");
    expect(orders.suggestions.find((s) => s.kind === "join")!.malloy).toBe("join_one: customers with customer_id");
    const flights = find(tables, "data/flights.csv").suggestions[0]!.malloy;
    expect(flights).toStartWith("source: flights is duckdb.table('data/flights.csv') extend {");
    expect(flights).toContain("measure: avg_distance is distance.avg()");
  });
  test("pages by limit with next_cursor", async () => {
    const first = await entities(viewer, { skip_matching: true, limit: 3 });
    expect(first.body.total).toBe(4);
    expect(first.body.tables).toHaveLength(3);
    expect(first.body.next_cursor).toBe("3");
    const second = await entities(viewer, { skip_matching: true, limit: 3, cursor: first.body.next_cursor });
    expect(second.body.tables).toHaveLength(1);
    expect(second.body.next_cursor).toBeNull();
    const all = [...first.body.tables, ...second.body.tables].map((t: Table) => t.table);
    expect(new Set(all).size).toBe(4);
  });
  test("connection_name and package_name narrow the listing", async () => {
    const wh = await entities(viewer, { skip_matching: true, connection_name: "warehouse" });
    expect(wh.body.tables.map((t: Table) => t.table).sort()).toEqual(["public.customers", "sales.orders"]);
    const pkg = await entities(viewer, { skip_matching: true, package_name: "shop" });
    expect(pkg.body.tables.map((t: Table) => t.table).sort()).toEqual(["data/carriers.parquet", "data/flights.csv"]);
  });
});

describe("search (search_text)", () => {
  test("a table name matches first; a table whose column matches follows, with the column's reason", async () => {
    const r = await entities(viewer, { search_text: "customers" });
    expect(r.status).toBe(200);
    expect(r.body.mode).toBe("search");
    const tables = r.body.tables as Table[];
    expect(tables[0]!.table).toBe("public.customers");
    expect(tables[0]!.match_reason).toContain("public.customers");
    const orders = find(tables, "sales.orders");
    expect(orders.score).toBeLessThan(tables[0]!.score);
    const col = orders.columns.find((c) => c.name === "customer_id")!;
    expect(col.score).toBeGreaterThan(0);
    expect(col.match_reason).toContain("customer_id");
    expect(orders.columns.find((c) => c.name === "amount")!.score).toBeUndefined();
    expect(tables.map((t) => t.table)).not.toContain("data/carriers.parquet");
  });
  test("columns of package files match too (abbreviations expanded)", async () => {
    const r = await entities(viewer, { search_text: "departure date" });
    const flights = find(r.body.tables, "data/flights.csv");
    expect(flights.columns.find((c) => c.name === "dep_date")!.score).toBeGreaterThan(0);
    expect(flights.match_reason).toContain("dep_date");
  });
  test("nothing in common: no tables", async () => {
    const r = await entities(viewer, { search_text: "zzqxv" });
    expect(r.status).toBe(200);
    expect(r.body.tables).toEqual([]);
    expect(r.body.total).toBe(0);
  });
});

describe("access and validation", () => {
  test("anonymous 401; outsider and unknown environment 404; organization needed", async () => {
    expect((await w.s.call("POST", CE, { body: { organization: "acme", environment_name: "prod", skip_matching: true } })).status).toBe(401);
    const o = await entities(outsider, { skip_matching: true });
    expect(o.status).toBe(404);
    expect(JSON.stringify(o.body)).not.toContain("orders");
    expect((await entities(viewer, { environment_name: "nope", skip_matching: true })).status).toBe(404);
    expect((await w.s.call("POST", CE, { token: viewer, body: { environment_name: "prod" } })).status).toBe(400);
  });
  test("search_text is required without skip_matching; unknown connection or package 404", async () => {
    const r = await entities(viewer, {});
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("skip_matching");
    expect((await entities(viewer, { skip_matching: true, connection_name: "nope" })).status).toBe(404);
    expect((await entities(viewer, { skip_matching: true, package_name: "nope" })).status).toBe(404);
    expect((await entities(viewer, { skip_matching: true, limit: 0 })).status).toBe(400);
  });
  test("an unreachable connection is reported in errors and does not hide the rest", async () => {
    await w.s.service.db.sql`UPDATE connections SET config = jsonb_set(config, '{port}', '1'::jsonb), updated_at = now() WHERE name = 'warehouse'`;
    const r = await entities(viewer, { skip_matching: true });
    expect(r.status).toBe(200);
    expect(r.body.errors).toHaveLength(1);
    expect(r.body.errors[0].connection).toBe("warehouse");
    expect(r.body.tables.map((t: Table) => t.table).sort()).toEqual(["data/carriers.parquet", "data/flights.csv"]);
  });
  test("errors name package files by their package path and tell callers below admin only 'connection failed'", async () => {
    // the warehouse is unreachable (previous test); a package holds data files DuckDB cannot read
    const files = smallPackage({ "data/bad.parquet": "not a parquet file", "data/bad.json": "{{{{" });
    expect((await publish(w, "junk", "1.0.0", { token: modeler, files })).status).toBe(201);
    for (const token of [viewer, modeler, w.admin]) {
      const r = await entities(token, { skip_matching: true });
      expect(r.status).toBe(200);
      const text = JSON.stringify(r.body.errors);
      // no server path: neither DATA_DIR nor the package's extraction folder (its sha256 segment)
      expect(text).not.toContain(w.dataDir);
      expect(text).not.toMatch(/\/tmp\/|[0-9a-f]{64}/);
      const byFile = r.body.errors.filter((e: { package_name?: string }) => e.package_name === "junk").map((e: { message: string }) => e.message);
      expect(byFile).toHaveLength(2);
      expect(byFile.some((m: string) => m.startsWith("data/bad.json:") && m.includes("data/bad.json"))).toBe(true);
      const warehouse = r.body.errors.find((e: { connection?: string }) => e.connection === "warehouse").message as string;
      if (token === w.admin) {
        // an environment admin reads the driver's reason, as for a connection check
        expect(warehouse).not.toContain("connection failed");
      } else {
        expect(warehouse).toStartWith("connection failed");
        expect(warehouse).not.toMatch(/ECONNREFUSED|:1\b|refused/i);
      }
    }
  });
});
