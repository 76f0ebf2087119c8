import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { bytes } from "../fixtures/engine_package.ts";
import { shopFiles } from "./fixtures.ts";

setDefaultTimeout(60_000);

// One node with small per-query limits; the shop package plus Publisher-style files.
let w: World;
const Q = `${API}/organizations/acme/environments/prod/packages/shop/models/models/shop.malloy/query`;
const QP = `${API}/organizations/acme/environments/prod/packages/shop/models/models/publisher.malloy/query`;

const query = (body: unknown, url = Q) => w.s.call("POST", url, { token: w.admin, body });

beforeAll(async () => {
  w = await startWorld({ QUERY_TIMEOUT_MS: "30000", QUERY_THREADS: "1", QUERY_MEMORY_LIMIT: "256MiB" });
  const files = await shopFiles();
  files.set("data/t.csv", bytes("a,b\n1,x\n2,y\n3,z\n"));
  files.set("models/publisher.malloy", bytes(
    `source: t is duckdb.sql("SELECT * FROM 'data/t.csv'")\nsource: t2 is duckdb.table('data/t.csv')\nsource: t3 is duckdb.sql("""select * from read_csv(['data/t.csv'], header = true)""")\n`,
  ));
  const p = await publish(w, "shop", "1.0.0", { token: w.admin, files });
  expect(p.status).toBe(201);
}, 120_000);
afterAll(() => w.s.close());

describe("one read-only statement per query (REST: 400 QUERY_NOT_ALLOWED)", () => {
  const cases: [string, (file: string) => string][] = [
    ["a COPY after a SELECT", (f) => `SELECT 1 AS x; COPY (SELECT 1) TO '${f}'`],
    ["mixed case and comments", (f) => `SeLeCt 1 AS x /* ; */; -- hi\n CoPy (SELECT 1) To '${f}'`],
    ["a CREATE MACRO", () => "SELECT 1 AS x; CREATE MACRO leak(a) AS a"],
    ["ATTACH", (f) => `SELECT 1 AS x; ATTACH '${f}.db'`],
    ["read_text('/etc/passwd') in a CTE", () => "WITH x AS (SELECT 1) SELECT * FROM read_text('/etc/passwd')"],
    ["read_csv of a list leaving the package", () => "SELECT * FROM read_csv(['data/t.csv', '../../../../etc/passwd'])"],
    ["glob", () => "SELECT * FROM glob('/*')"],
    ["getenv", () => "SELECT getenv('JWT_SECRET') AS s"],
    ["current_setting", () => "SELECT current_setting('allowed_directories') AS s"],
  ];
  for (const [name, make] of cases) {
    test(`${name} in duckdb.sql()`, async () => {
      const file = `/tmp/iso-${crypto.randomUUID()}.csv`;
      const r = await query({ query: `run: duckdb.sql("""${make(file)}""") -> { select: * }` });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("QUERY_NOT_ALLOWED");
      expect(r.body.message).toStartWith("query not allowed: ");
      expect(r.body.message).not.toContain(w.dataDir);
      expect(existsSync(file)).toBe(false);
    });
  }

  test("the next query works and sees nothing the refused ones tried to create", async () => {
    const r = await query({ query: `run: duckdb.sql("SELECT count(*) AS n FROM (SELECT 1)") -> { select: n }` });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([{ n: 1 }]);
    const leak = await query({ query: `run: duckdb.sql("SELECT leak(1) AS x") -> { select: x }` });
    expect(leak.status).toBe(400);
    expect(leak.body.message).toMatch(/leak/);
  });

  test("a publish whose model holds a second statement is refused with the problem", async () => {
    const files = await shopFiles();
    files.set("models/bad.malloy", bytes(`source: bad is duckdb.sql("""SELECT 1 AS x; CREATE TABLE leak AS SELECT 1""")\n`));
    const p = await publish(w, "bad", "1.0.0", { token: w.admin, files });
    expect(p.status).toBe(400);
    expect(JSON.stringify(p.body)).toContain("query not allowed");
  });
});

describe("Publisher-compatible package-relative paths (read-only, inside the package)", () => {
  test("duckdb.sql(\"SELECT * FROM 'data/t.csv'\"), duckdb.table('data/t.csv') and read_csv(['data/t.csv']) read the package's file", async () => {
    for (const source of ["t", "t2", "t3"]) {
      const r = await query({ query: `run: ${source} -> { aggregate: n is count(), s is a.sum() }` }, QP);
      // the answer's body in the failure: this failed once in CI (400, body not recorded) and not in 100 runs since
      expect([source, r.status, r.status === 200 ? "" : JSON.stringify(r.body)]).toEqual([source, 200, ""]);
      expect(r.body.data).toEqual([{ n: 3, s: 6 }]);
      expect(r.body.metadata.sql).not.toContain(w.dataDir);
    }
  });

  test("the package folder holds no file a query wrote", async () => {
    const dir = join(w.dataDir, "packages");
    const before = (await readdir(dir, { recursive: true })).sort();
    await query({ query: `run: duckdb.sql("""SELECT 1 AS x; COPY (SELECT 1) TO 'data/new.csv'""") -> { select: * }` });
    expect((await readdir(dir, { recursive: true })).sort()).toEqual(before);
  });
});

describe("limits", () => {
  test("QUERY_MEMORY_LIMIT bounds a query: a result bigger than the limit fails with a message, the next query runs", async () => {
    const r = await query({ query: `run: duckdb.sql("select string_agg(repeat('x', 1000), ',') as s from range(1000000)") -> { select: n is length(s) }` });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/memory/i);
    const next = await query({ query: "orders -> { aggregate: order_count }" });
    expect(next.status).toBe(200);
  });
});
