/**
 * The model rewrite of src/materializations/rewrite.ts inside SQL sources
 * (`duckdb.sql("... %{ } ...")`), on a model compiled by Malloy against a
 * real DuckDB, with materializations written by that DuckDB: a `%{ source }`
 * segment reads the file only when it expands to exactly the materialized
 * source's SQL; query segments are rewritten like any query.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ModelDef, SingleConnectionRuntime } from "@malloydata/malloy";
import { DuckDBConnection } from "@malloydata/db-duckdb";
import { type MaterializedSource, rewriteModel } from "../../src/materializations/rewrite.ts";

const MODEL = `source: flights is duckdb.table('flights.csv') extend { measure: flight_count is count() }

#@ persist
source: carrier_stats is flights -> { group_by: carrier; aggregate: flight_count }

#@ persist
source: busy_carriers is flights -> { group_by: carrier; aggregate: flight_count } extend { where: flight_count > 1 }

#@ persist
source: long_flights is flights extend { where: distance > 2000 }

source: via_source is duckdb.sql("""SELECT carrier, flight_count FROM %{ carrier_stats } AS s""")
source: via_filtered is duckdb.sql("""SELECT carrier FROM %{ busy_carriers } AS s""")
source: via_query is duckdb.sql("""SELECT count(*) AS n FROM %{ long_flights -> { select: * } } AS l""")
source: via_other_query is duckdb.sql("""SELECT count(*) AS n FROM %{ carrier_stats -> { where: flight_count > 1; select: carrier } } AS q""")
`;

let dir: string;
let connection: DuckDBConnection;
let runtime: SingleConnectionRuntime;
let modelDef: ModelDef;
const built: MaterializedSource[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "rewrite-sql-"));
  await writeFile(join(dir, "flights.csv"), "carrier,distance\nAA,2475\nAA,2586\nUA,1846\nUA,2565\nWN,239\n");
  connection = new DuckDBConnection("duckdb", ":memory:", dir);
  runtime = new SingleConnectionRuntime({ urlReader: { readURL: async () => MODEL }, connection });
  modelDef = (await runtime.loadModel(MODEL).getModel())._modelDef;
  // "materializations" that differ from what the definitions compute, so a test sees which one it read
  const files: Record<string, { sql: string; columns: string[] }> = {
    carrier_stats: { sql: "SELECT 'FILE' AS carrier, 42 AS flight_count", columns: ["carrier", "flight_count"] },
    busy_carriers: { sql: "SELECT 'FILE' AS carrier, 42 AS flight_count", columns: ["carrier", "flight_count"] },
    long_flights: { sql: "SELECT 'FILE' AS carrier, 9999 AS distance FROM range(7)", columns: ["carrier", "distance"] },
  };
  for (const [sourceName, f] of Object.entries(files)) {
    const path = join(dir, `${sourceName}.parquet`);
    await connection.runSQL(`COPY (${f.sql}) TO '${path}' (FORMAT parquet)`);
    built.push({ sourceName, path, columns: f.columns });
  }
}, 120_000);

afterAll(async () => {
  await connection?.close();
  await rm(dir, { recursive: true, force: true });
}, 120_000);

async function run(def: ModelDef, query: string): Promise<{ rows: unknown[]; sql: string }> {
  const q = runtime._loadModelFromModelDef(def).loadQuery(query);
  const sql = await q.getSQL();
  const rows = (await q.run()).data.toObject() as Array<Record<string, unknown>>;
  // counts come back as bigint from this connection
  return { rows: rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v]))), sql };
}

test("%{ source } of a materialized query source reads the file, with the columns of its SQL", async () => {
  const { modelDef: rewritten, used } = rewriteModel(modelDef, built);
  expect(used.has("carrier_stats")).toBe(true);
  const before = await run(modelDef, "run: via_source -> { select: *; order_by: carrier }");
  expect(before.rows).toEqual([{ carrier: "AA", flight_count: 2 }, { carrier: "UA", flight_count: 2 }, { carrier: "WN", flight_count: 1 }]);
  const after = await run(rewritten, "run: via_source -> { select: *; order_by: carrier }");
  expect(after.rows).toEqual([{ carrier: "FILE", flight_count: 42 }]);
  expect(after.sql).toContain(`(SELECT "carrier", "flight_count" FROM '${built[0]!.path}')`);
});

test("%{ source -> { ... } } query segments read the file of the source they query", async () => {
  const { modelDef: rewritten } = rewriteModel(modelDef, built);
  expect((await run(modelDef, "run: via_query -> { select: n }")).rows).toEqual([{ n: 3 }]);
  expect((await run(rewritten, "run: via_query -> { select: n }")).rows).toEqual([{ n: 7 }]);
  expect((await run(modelDef, "run: via_other_query -> { select: n }")).rows).toEqual([{ n: 2 }]);
  expect((await run(rewritten, "run: via_other_query -> { select: n }")).rows).toEqual([{ n: 1 }]);
});

test("a materialized source with filters of its own keeps its definition inside SQL (its file is not what the segment expands to)", async () => {
  const { modelDef: rewritten } = rewriteModel(modelDef, built);
  const r = await run(rewritten, "run: via_filtered -> { select: carrier; order_by: carrier }");
  expect(r.sql).not.toContain("busy_carriers.parquet");
  expect(r.rows).toEqual((await run(modelDef, "run: via_filtered -> { select: carrier; order_by: carrier }")).rows);
});

test("nothing built: the same model", () => {
  expect(rewriteModel(modelDef, []).modelDef).toBe(modelDef);
});
