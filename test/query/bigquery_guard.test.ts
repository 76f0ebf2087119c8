/**
 * BigQuery connections run one SELECT per query, as BigQuery judges it
 * (src/engine/guards/bigquery_guard.ts): every query is dry-run first and sent only
 * when the dry run answers `statementType: "SELECT"`. The warehouse is a
 * loopback stand-in for the BigQuery REST API (test/query/bigquery_stand_in.ts),
 * reached by the real `@google-cloud/bigquery` client through
 * `BIGQUERY_EMULATOR_HOST`, with a generated service-account key.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { StreamingConnection } from "@malloydata/malloy";
import { createMalloyConnection } from "../../src/connections/drivers.ts";
import { API, publish, smallPackage, startWorld, type World } from "../packages/helpers.ts";
import { type BigQueryStandIn, STAND_IN_ROWS, startBigQueryStandIn } from "./bigquery_stand_in.ts";

setDefaultTimeout(60_000);

const PROJECT = "stand-in-project";
const E = `${API}/organizations/acme/environments/prod`;
const Q = `${E}/packages/wh/models/models/flights.malloy/query`;
let w: World;
let bq: BigQueryStandIn;
const previousHost = process.env.BIGQUERY_EMULATOR_HOST;

beforeAll(async () => {
  bq = startBigQueryStandIn(PROJECT);
  // read by @google-cloud/bigquery when a connection is built
  process.env.BIGQUERY_EMULATOR_HOST = bq.endpoint;
  w = await startWorld({ QUERY_TIMEOUT_MS: "20000" });
  const c = await w.s.call("POST", `${E}/connections`, {
    token: w.admin,
    body: { name: "bq", type: "bigquery", bigqueryConnection: { defaultProjectId: PROJECT, serviceAccountKeyJson: bq.keyJson } },
  });
  if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
  const p = await publish(w, "wh", "1.0.0", { token: w.admin, files: smallPackage() });
  if (p.status !== 201) throw new Error(`publish: ${p.status} ${JSON.stringify(p.body)}`);
}, 120_000);

afterAll(async () => {
  await w?.s.close();
  bq?.close();
  if (previousHost === undefined) delete process.env.BIGQUERY_EMULATOR_HOST;
  else process.env.BIGQUERY_EMULATOR_HOST = previousHost;
}, 120_000);

const run = (query: string) => w.s.call("POST", Q, { token: w.admin, body: { query } });
const sqlQuery = (sql: string) => run(`run: bq.sql("""${sql}""") -> { select: * }`);
const ranFor = (fragment: RegExp) => bq.executed.filter((sql) => fragment.test(sql));

describe("a BigQuery connection runs one SELECT per query", () => {
  test("the connection check passed the guard: a dry run, then the SELECT", () => {
    const check = bq.received.filter((r) => r.sql === "SELECT 1 AS ok");
    expect(check.map((r) => r.dryRun)).toEqual([true, false]);
    expect(bq.unauthorized).toBe(0);
  });

  test("a SELECT in sql() answers its rows; every text that ran was dry-run before", async () => {
    const before = bq.received.length;
    const r = await sqlQuery("SELECT id, name FROM shop.items");
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(STAND_IN_ROWS);
    const seen = bq.received.slice(before);
    const ran = seen.filter((x) => x.sql !== undefined && !x.dryRun);
    expect(ran.length).toBe(1);
    expect(ran[0]!.sql).toContain("SELECT id, name FROM shop.items");
    const firstRun = seen.indexOf(ran[0]!);
    expect(seen.slice(0, firstRun).some((x) => x.dryRun && x.sql === ran[0]!.sql)).toBe(true);
  });

  test("a table source reads its metadata and answers rows", async () => {
    const r = await run("run: bq.table('shop.items') -> { select: * }");
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(STAND_IN_ROWS);
    expect(bq.received.some((x) => x.method === "GET" && x.path === "/datasets/shop/tables/items")).toBe(true);
  });

  const refused: [string, string, RegExp][] = [
    ["a script (SELECT; DELETE)", "SELECT id, name FROM shop.items; DELETE FROM shop.items WHERE true", /script/],
    ["a script with a trailing comment", "SELECT 1 AS id; DROP TABLE shop.items -- bye", /script/],
    ["a lower-case script behind a comment", "/* hi */ select 1 as id; delete from shop.items where true", /script/],
    ["DECLARE ... ; SELECT", "DECLARE x INT64 DEFAULT 1; SELECT x AS id", /script/],
    ["BEGIN ... END", "BEGIN SELECT 1 AS id; END", /script/],
    ["DELETE alone", "DELETE FROM shop.items WHERE true", /DELETE/],
    ["lower-case insert", "insert into shop.items values (3, 'c')", /INSERT/],
    ["CREATE TABLE AS SELECT", "CREATE TABLE shop.copy AS SELECT 1 AS id", /CREATE_TABLE/],
    ["EXPORT DATA", "EXPORT DATA OPTIONS(uri='gs://bucket/*.csv', format='CSV') AS SELECT 1 AS id", /EXPORT_DATA/],
    ["MERGE", "MERGE shop.items t USING shop.items s ON false WHEN NOT MATCHED THEN INSERT ROW", /MERGE/],
  ];
  for (const [name, sql, reason] of refused) {
    test(`refused in sql(), 400 QUERY_NOT_ALLOWED, and never run: ${name}`, async () => {
      const ranBefore = bq.executed.length;
      const r = await sqlQuery(sql);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("QUERY_NOT_ALLOWED");
      expect(r.body.message).toMatch(/^query not allowed: BigQuery reads this text as /);
      expect(r.body.message).toMatch(reason);
      // the stand-in only ever saw it as a dry run
      expect(bq.executed.slice(ranBefore)).toEqual([]);
      expect(bq.received.filter((x) => x.sql?.includes(sql) && !x.dryRun)).toEqual([]);
    });
  }

  test("a model whose sql() source is a script fails its publish with the problem", async () => {
    const files = smallPackage({
      "models/bq.malloy": `source: items is bq.sql("""SELECT 1 AS id; TRUNCATE TABLE shop.items""")\n`,
    });
    const p = await publish(w, "wh2", "1.0.0", { token: w.admin, files });
    expect(p.status).toBe(400);
    expect(JSON.stringify(p.body)).toContain("query not allowed: BigQuery reads this text as a script");
    expect(ranFor(/TRUNCATE/)).toEqual([]);
  });
});

describe("the guarded connection itself (what createMalloyConnection hands the engine)", () => {
  const spec = {
    id: "bq-direct",
    envId: "env",
    name: "bq",
    type: "bigquery" as const,
    config: { defaultProjectId: PROJECT },
    secret: { serviceAccountKeyJson: "" },
  };
  const connect = () => createMalloyConnection({ ...spec, secret: { serviceAccountKeyJson: bq.keyJson } }, { dataDir: w.dataDir });

  test("runSQL (jobs.insert) refuses a script before sending it; a SELECT runs", async () => {
    const c = await connect();
    const before = bq.executed.length;
    const error = await c.runSQL("SELECT 1 AS id; DROP TABLE shop.items").catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toContain("query not allowed: BigQuery reads this text as a script");
    expect(bq.executed.slice(before)).toEqual([]);
    const ok = await c.runSQL("SELECT id, name FROM shop.items");
    expect(ok.rows).toEqual(STAND_IN_ROWS);
    expect(bq.executed.slice(before)).toEqual(["SELECT id, name FROM shop.items"]);
  });

  test("runSQLStream (jobs.query) refuses DML before sending it", async () => {
    const c = (await connect()) as StreamingConnection;
    const before = bq.executed.length;
    const rows: unknown[] = [];
    const error = await (async () => {
      for await (const row of c.runSQLStream("UPDATE shop.items SET name = 'x' WHERE true")) rows.push(row);
    })().catch((e: Error) => e);
    expect((error as Error).message).toContain("query not allowed: BigQuery reads this text as a UPDATE statement");
    expect(rows).toEqual([]);
    expect(bq.executed.slice(before)).toEqual([]);
  });

  test("writing a table or creating a dataset is refused even for a SELECT", async () => {
    const c = (await connect()) as unknown as {
      manifestPermanentTable: (sql: string, dataset: string, table: string, overwrite: boolean, create: boolean) => Promise<string>;
    };
    const before = bq.received.length;
    const error = await c.manifestPermanentTable("SELECT 1 AS id", "scratch", "copy", true, true).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^query not allowed: a BigQuery connection only reads/);
    const sent = bq.received.slice(before);
    expect(sent.filter((x) => x.method !== "GET")).toEqual([]);
  });
});
