/**
 * What runs build is what queries read (DuckDB sources): before the first
 * build a `#@ persist` source reads its definition; after it, its
 * materialization, directly, through extend, joined and in a named query,
 * until the next run; a query during a rebuild reads the old file or the new
 * one; `#(index_values)` and the default of 1,000 values.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { serveMaterializations } from "../../src/materializations/serve.ts";
import { compiledModelFor } from "../../src/archives/compiled_models.ts";
import { runQuery } from "../../src/engine/query/query.ts";
import { withReadableFiles } from "../../src/engine/duckdb/readable_files.ts";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { appendToExtractedCsv, EXTRA_ROWS, pkgPath, runsPackage, SERVE_MODEL, waitRun } from "./fixtures.ts";

setDefaultTimeout(300_000); // two full runs (retrieval embeddings included) on a loaded machine

let w: World;
const P = pkgPath("served");
const Q = `${P}/models/models/flights.malloy/query`;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  const r = await publish(w, "served", "1.0.0", { token: w.admin, files: runsPackage(SERVE_MODEL) });
  expect(r.status).toBe(201);
}, 120_000); // publishing on a loaded machine takes longer than bun's 5 s default for hooks

afterAll(async () => {
  await w.s.close();
}, 120_000);

async function query(text: string) {
  const r = await w.s.call("POST", Q, { token: w.admin, body: { query: text } });
  if (r.status !== 200) throw new Error(`${text}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function run(body: Record<string, unknown> = {}) {
  const created = await w.s.call("POST", `${P}/versions/1.0.0/runs`, { token: w.admin, body });
  expect(created.status).toBe(201);
  return await waitRun(w, `${P}/runs/${created.body.id}`, { token: w.admin });
}

async function materializations(): Promise<Record<string, { id: string; builtAt: string; sha256: string; location: string }>> {
  const list = await w.s.call("GET", `${P}/versions/1.0.0/materializations`, { token: w.admin });
  return Object.fromEntries(list.body.map((m: { sourceName: string }) => [m.sourceName, m]));
}

const LONG = "run: long_flights -> { aggregate: n is count() }";

describe("a persisted DuckDB source", () => {
  test("before the first build reads its definition: no metadata.materialization", async () => {
    const r = await query(LONG);
    expect(r.data).toEqual([{ n: 4 }]);
    expect(r.metadata.materialization).toBeUndefined();
    for (const text of ["run: via_sql -> { aggregate: c is count() }", "run: via_query -> { select: n }"]) {
      const viaSql = await query(text);
      expect(viaSql.data).toEqual([text.includes("via_sql") ? { c: 3 } : { n: 4 }]);
      expect(viaSql.metadata.materialization).toBeUndefined();
    }
  });

  test("after the build reads the materialization, everywhere it is used, until the next run", async () => {
    const built = await run();
    expect(built.state).toBe("succeeded");
    const m = await materializations();
    expect(m.long_flights!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(m.long_flights!.location).toBe(`materializations/${(await blobSha())}/${m.long_flights!.sha256}.parquet`);

    // The data under the definitions changes: two more flights, both long, of a new carrier.
    await appendToExtractedCsv(w, "served", EXTRA_ROWS);
    const live = await query("run: flights -> { aggregate: n is count() }");
    expect(live.data).toEqual([{ n: 10 }]);
    expect(live.metadata.materialization).toBeUndefined();

    const direct = await query(LONG);
    expect(direct.data).toEqual([{ n: 4 }]);
    expect(direct.metadata.materialization).toEqual({ id: m.long_flights!.id, builtAt: m.long_flights!.builtAt });
    expect(direct.metadata.sql).toContain(".parquet");
    expect(direct.metadata.sql).not.toContain(w.dataDir);

    const extended = await query("run: long_more -> { aggregate: total_distance, n is count(), t is twice.max() }");
    expect(extended.data).toEqual([{ total_distance: 2475 * 2 + 2586 + 2565, n: 4, t: 2586 * 2 }]);
    // `extend` inherits `#@ persist`: long_more has its own materialization (with its dimension `twice`)
    expect(extended.metadata.materialization).toEqual({ id: m.long_more!.id, builtAt: m.long_more!.builtAt });

    const stats = await query("run: carrier_stats -> { select: carrier, flight_count; order_by: carrier }");
    expect(stats.data).toEqual([{ carrier: "AA", flight_count: 3 }, { carrier: "UA", flight_count: 3 }, { carrier: "WN", flight_count: 2 }]);
    expect(stats.metadata.materialization).toEqual({ id: m.carrier_stats!.id, builtAt: m.carrier_stats!.builtAt });

    // joined: the base table is live (10 rows, ZZ included), the joined persisted source is the materialization
    const joinedRows = await query("run: joined -> { group_by: carrier; aggregate: n is count(); group_by: cs.flight_count; order_by: carrier }");
    expect(joinedRows.data).toEqual([
      { carrier: "AA", n: 3, flight_count: 3 },
      { carrier: "UA", n: 3, flight_count: 3 },
      { carrier: "WN", n: 2, flight_count: 2 },
      { carrier: "ZZ", n: 2, flight_count: null },
    ]);
    expect(joinedRows.metadata.materialization).toEqual({ id: m.carrier_stats!.id, builtAt: m.carrier_stats!.builtAt });

    // a query text that extends the persisted source itself
    const adHoc = await query("run: long_flights extend { dimension: far is distance > 2500 } -> { group_by: far; aggregate: n is count(); order_by: far }");
    expect(adHoc.data).toEqual([{ far: false, n: 2 }, { far: true, n: 2 }]);

    // inside SQL sources: `%{ carrier_stats }` and `%{ long_flights -> { select: * } }` read the files
    const viaSql = await query("run: via_sql -> { select: carrier, flight_count; order_by: carrier }");
    expect(viaSql.data).toEqual([{ carrier: "AA", flight_count: 3 }, { carrier: "UA", flight_count: 3 }, { carrier: "WN", flight_count: 2 }]);
    expect(viaSql.metadata.materialization).toEqual({ id: m.carrier_stats!.id, builtAt: m.carrier_stats!.builtAt });
    expect(viaSql.metadata.sql).toContain(`${m.carrier_stats!.sha256}.parquet`);
    const viaQuery = await query("run: via_query -> { select: n }");
    expect(viaQuery.data).toEqual([{ n: 4 }]);
    expect(viaQuery.metadata.materialization).toEqual({ id: m.long_flights!.id, builtAt: m.long_flights!.builtAt });

    const named = await w.s.call("POST", Q, { token: w.admin, body: { queryName: "long_count", sourceName: "long_flights" } });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    expect(named.body.data).toEqual([{ n: 4 }]);
    expect(named.body.metadata.materialization).toEqual({ id: m.long_flights!.id, builtAt: m.long_flights!.builtAt });

    // the next run reads the new data
    expect((await run()).state).toBe("succeeded");
    const after = await materializations();
    expect(after.long_flights!.id).toBe(m.long_flights!.id);
    expect(after.long_flights!.builtAt > m.long_flights!.builtAt).toBe(true);
    expect(after.long_flights!.sha256).not.toBe(m.long_flights!.sha256);
    const again = await query(LONG);
    expect(again.data).toEqual([{ n: 6 }]);
    expect(again.metadata.materialization).toEqual({ id: after.long_flights!.id, builtAt: after.long_flights!.builtAt });
    expect((await query("run: carrier_stats -> { aggregate: c is count() }")).data).toEqual([{ c: 4 }]);
    // the replaced files are gone from the database and from this node
    const [files] = await w.s.service.db.sql`SELECT count(*)::int AS n FROM materialization_files`;
    expect(files!.n).toBe(3);
    const local = await readdir(join(w.dataDir, "materializations", await blobSha()));
    expect(local.sort()).toEqual(["carrier_stats", "long_flights", "long_more"].map((s) => `${after[s]!.sha256}.parquet`).sort());
  });

  test("a query during a rebuild reads the old file or the new one, and the old file stays until it ends", async () => {
    const before = await materializations();
    // Pin the current files as a query does, rebuild, then run on the pinned model.
    const ctx = w.s.service.ctx;
    const [v] = await w.s.service.db.sql`SELECT v.id, v.blob_sha256, p.env_id FROM package_versions v JOIN packages p ON p.id = v.package_id WHERE p.name = 'served'`;
    const compiled = await compiledModelFor(ctx, {
      versionUuid: v!.id as string, versionId: "1.0.0", blobSha256: v!.blob_sha256 as string, envId: v!.env_id as string,
      packageName: "served", modelPath: "models/flights.malloy",
    });
    const pinned = await serveMaterializations(ctx, compiled, { versionUuid: v!.id as string, blobSha256: v!.blob_sha256 as string });
    await appendToExtractedCsv(w, "served", "QQ,BOS,SEA,2496,2024-03-01\n");
    // Queries keep running while the rebuild runs: each reads 6 (old) or 7 (new) rows, matching its builtAt.
    const created = await w.s.call("POST", `${P}/versions/1.0.0/runs`, { token: w.admin, body: { sources: ["long_flights"] } });
    const seen: Array<{ n: number; builtAt: string }> = [];
    while (true) {
      const r = await query(LONG);
      seen.push({ n: r.data[0].n, builtAt: r.metadata.materialization.builtAt });
      const state = (await w.s.call("GET", `${P}/runs/${created.body.id}`, { token: w.admin })).body.state;
      if (state !== "queued" && state !== "running") break;
    }
    const after = await materializations();
    for (const s of seen) {
      expect(s).toEqual(s.n === 6 ? { n: 6, builtAt: before.long_flights!.builtAt } : { n: 7, builtAt: after.long_flights!.builtAt });
    }
    expect((await query(LONG)).data).toEqual([{ n: 7 }]);
    // The pinned query still reads the old file, which this node keeps until it is released.
    const old = await withReadableFiles(pinned.readable, () => runQuery(pinned.compiled, { query: LONG }));
    expect(old.data).toEqual([{ n: 6 }]);
    // without the files it was served, the same model reads no built file at all
    const bare = await runQuery(pinned.compiled, { query: LONG }).catch((e) => e);
    expect(bare.kind).toBe("not_allowed");
    const dir = join(w.dataDir, "materializations", v!.blob_sha256 as string);
    expect(await readdir(dir)).toContain(`${before.long_flights!.sha256}.parquet`);
    pinned.release();
    await Bun.sleep(50);
    expect(await readdir(dir)).not.toContain(`${before.long_flights!.sha256}.parquet`);
  });
});

describe("#(index_values)", () => {
  test("keeps N values, most frequent first, and reports the distinct count; the default keeps up to 1,000", async () => {
    const r = await run({ dimensions: ["flights.carrier_code", "flights.origin_code"] });
    expect(r.state).toBe("succeeded");
    const carrier = r.units.find((u: { target: string }) => u.target === "flights.carrier_code");
    // 12 rows now: AA 3, UA 3, WN 2, ZZ 2, QQ 1 -> the 2 most frequent of 5
    expect(carrier).toMatchObject({ state: "succeeded", valueCount: 2, distinctCount: 5 });
    const origin = r.units.find((u: { target: string }) => u.target === "flights.origin_code");
    expect(origin).toMatchObject({ valueCount: 9, distinctCount: 9 });
    const list = await w.s.call("GET", `${P}/versions/1.0.0/indexes`, { token: w.admin });
    const c = list.body.find((i: { sourceName: string; dimension: string }) => i.sourceName === "flights" && i.dimension === "carrier_code");
    const values = await w.s.call("GET", `${P}/versions/1.0.0/indexes/${c.id}`, { token: w.admin });
    expect(values.body).toMatchObject({ valueCount: 2, distinctCount: 5, values: [{ value: "AA", count: 3 }, { value: "UA", count: 3 }] });
  });

  test("an index of a persisted source reads its materialization, not the definition", async () => {
    // a long flight of a new carrier after long_flights was built (AA 3, UA 1, ZZ 2, QQ 1 in its file)
    await appendToExtractedCsv(w, "served", "XY,BOS,SEA,2496,2024-03-02\n");
    const r = await run({ dimensions: ["flights.carrier_code", "long_flights.carrier_code"] });
    expect(r.state).toBe("succeeded");
    const unit = (target: string) => r.units.find((u: { target: string }) => u.target === target);
    expect(unit("flights.carrier_code")).toMatchObject({ state: "succeeded", valueCount: 2, distinctCount: 6 });
    expect(unit("long_flights.carrier_code")).toMatchObject({ state: "succeeded", valueCount: 2, distinctCount: 4 });
    const list = await w.s.call("GET", `${P}/versions/1.0.0/indexes`, { token: w.admin });
    const c = list.body.find((i: { sourceName: string; dimension: string }) => i.sourceName === "long_flights" && i.dimension === "carrier_code");
    const values = await w.s.call("GET", `${P}/versions/1.0.0/indexes/${c.id}`, { token: w.admin });
    expect(values.body.values).toEqual([{ value: "AA", count: 3 }, { value: "ZZ", count: 2 }]);
  });

  test("the default keeps 1,000 of more distinct values", async () => {
    const model = `source: numbers is duckdb.sql("SELECT range::VARCHAR AS label FROM range(1500)") extend {
  #(index)
  dimension: value_label is label
}
`;
    const files = runsPackage(model);
    const pub = await publish(w, "numbers", "1.0.0", { token: w.admin, files });
    expect(pub.status).toBe(201);
    const created = await w.s.call("POST", `${pkgPath("numbers")}/versions/1.0.0/runs`, { token: w.admin, body: {} });
    const r = await waitRun(w, `${pkgPath("numbers")}/runs/${created.body.id}`, { token: w.admin });
    expect(r.state).toBe("succeeded");
    expect(r.units[0]).toMatchObject({ target: "numbers.value_label", valueCount: 1000, distinctCount: 1500 });
  });
});

test("a package's DuckDB cannot read another package's materializations", async () => {
  const m = await materializations();
  const file = join(w.dataDir, m.long_flights!.location).replace(/'/g, "''");
  const text = `run: duckdb.table('${file}') -> { aggregate: n is count() }`;
  // the package that built it may (its own folder) ...
  expect((await query(text)).data[0].n).toBeGreaterThan(0);
  // ... another package may not
  const other = await w.s.call("POST", `${pkgPath("numbers")}/models/models/flights.malloy/query`, { token: w.admin, body: { query: text } });
  expect(other.status).toBe(400);
  expect(JSON.stringify(other.body)).not.toContain('"n"');
});

test("another organization's package with the same archive reads none of its materializations, by pattern or by name", async () => {
  // the same archive published in another organization shares the materialization folder (keyed by the archive's sha256)
  const zip = (await w.s.service.db.sql`SELECT v.blob_sha256 FROM package_versions v JOIN packages p ON p.id = v.package_id WHERE p.name = 'served'`)[0]!;
  const same = await publishSame(zip.blob_sha256 as string);
  const folder = join(w.dataDir, "materializations", zip.blob_sha256 as string).replace(/'/g, "''");
  for (const pattern of [`${folder}/*.parquet`, `${folder}/**`, `${folder}/?*.parquet`, `${folder}/[0-9a-f]*.parquet`]) {
    for (const text of [`run: duckdb.sql("SELECT count(*) AS n FROM read_parquet('${pattern}')")`, `run: duckdb.sql("SELECT * FROM glob('${pattern}')")`]) {
      const r = await w.s.call("POST", `${same}/models/models/flights.malloy/query`, { token: w.admin, body: { query: text } });
      expect([text, r.status, r.body.code]).toEqual([text, 400, "QUERY_NOT_ALLOWED"]);
    }
  }
  // nor any built file by its exact name: a query reads, outside its package folder, only the files its own
  // version's persisted sources were served from (the twin has built nothing, so none)
  const built = (await readdir(join(w.dataDir, "materializations", zip.blob_sha256 as string))).filter((f) => f.endsWith(".parquet"));
  expect(built.length).toBeGreaterThan(0);
  for (const file of built) {
    const text = `run: duckdb.sql("SELECT count(*) AS n FROM read_parquet('${folder}/${file}')")`;
    const r = await w.s.call("POST", `${same}/models/models/flights.malloy/query`, { token: w.admin, body: { query: text } });
    expect([file, r.status, r.body.code]).toEqual([file, 400, "QUERY_NOT_ALLOWED"]);
  }
  // the package's own files keep their patterns
  const own = await w.s.call("POST", `${same}/models/models/flights.malloy/query`, { token: w.admin, body: { query: "run: duckdb.sql(\"SELECT count(*) AS n FROM read_csv('data/*.csv')\")" } });
  expect(own.status).toBe(200);
  // and the building package still reads its persisted sources
  expect((await query(LONG)).data[0].n).toBeGreaterThan(0);
});

/** Publishes the stored archive of `sha` as package `same` of a new organization; its path. */
async function publishSame(sha: string): Promise<string> {
  const chunks = await w.s.service.db.sql`SELECT data FROM package_blob_chunks WHERE sha256 = ${sha} ORDER BY seq`;
  const zip = new Uint8Array(Buffer.concat(chunks.map((c) => Buffer.from(c.data as Uint8Array))));
  expect((await w.s.call("POST", `${API}/organizations`, { token: w.admin, body: { name: "twin" } })).status).toBe(201);
  expect((await w.s.call("POST", `${API}/organizations/twin/environments`, { token: w.admin, body: { name: "prod" } })).status).toBe(201);
  const r = await publish(w, "same", "1.0.0", { token: w.admin, zip, prefix: `${API}/organizations/twin/environments/prod` });
  expect(r.status).toBe(201);
  return `${API}/organizations/twin/environments/prod/packages/same`;
}

async function blobSha(): Promise<string> {
  const [v] = await w.s.service.db.sql`SELECT v.blob_sha256 FROM package_versions v JOIN packages p ON p.id = v.package_id WHERE p.name = 'served'`;
  return v!.blob_sha256 as string;
}
