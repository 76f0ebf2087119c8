/**
 * Runs through the API: the run a publish queues, full and scoped runs,
 * their units, indexes and materializations, and who may do what.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";

// Runs take seconds on a loaded machine; bun's default of 5 s per test is too short.
setDefaultTimeout(120_000);
import { waitForRuns } from "../../src/runs/worker.ts";
import { publish, startWorld, userWith, type World } from "../packages/helpers.ts";
import { API } from "../packages/helpers.ts";
import { parquetRows, pkgPath, runsPackage, waitRun } from "./fixtures.ts";

let w: World;
const P = pkgPath("flights");
const V = `${P}/versions/1.0.0`;
let firstRun: string;

beforeAll(async () => {
  w = await startWorld();
  const r = await publish(w, "flights", "1.0.0", { token: w.admin, files: runsPackage() });
  expect(r.status).toBe(201);
  expect(r.body.version.indexStatus).toBe("indexing");
  firstRun = r.body.runId;
  expect(firstRun).toMatch(/^[0-9a-f-]{36}$/);
}, 120_000); // publishing on a loaded machine takes longer than bun's 5 s default for hooks

afterAll(async () => {
  await w.s.close();
}, 120_000);

describe("the run a publish queues", () => {
  test("goes to succeeded with a unit per persist source and per indexed dimension; the version becomes indexed", async () => {
    const run = await waitRun(w, `${P}/runs/${firstRun}`, { token: w.admin });
    expect(run).toMatchObject({ id: firstRun, versionId: "1.0.0", state: "succeeded", full: true, scope: null, createdBy: "admin", error: null });
    expect(Date.parse(run.startedAt)).toBeLessThanOrEqual(Date.parse(run.finishedAt));
    expect(run.units.map((u: { kind: string; target: string }) => `${u.kind}:${u.target}`)).toEqual([
      "table:carrier_stats",
      "table:long_flights",
      "index:flights.carrier_code",
      "index:flights.origin_code",
      // long_flights extends flights, so it has (and indexes) the same dimensions
      "index:long_flights.carrier_code",
      "index:long_flights.origin_code",
    ]);
    const byTarget = Object.fromEntries(run.units.map((u: { target: string }) => [u.target, u]));
    expect(byTarget["carrier_stats"]).toMatchObject({ state: "succeeded", rowCount: 3, valueCount: null, modelPath: "models/flights.malloy" });
    expect(byTarget["long_flights"]).toMatchObject({ state: "succeeded", rowCount: 4 });
    expect(byTarget["flights.carrier_code"]).toMatchObject({ state: "succeeded", valueCount: 3, rowCount: null });
    expect(byTarget["flights.origin_code"]).toMatchObject({ state: "succeeded", valueCount: 7 });
    for (const unit of run.units) expect(unit.startedAt && unit.finishedAt).toBeTruthy();
    const version = await w.s.call("GET", V, { token: w.admin });
    expect(version.body).toMatchObject({ indexStatus: "indexed", archiveStatus: "unarchive" });
  });

  test("indexes are listed with their value counts and served to retrieval", async () => {
    const list = await w.s.call("GET", `${V}/indexes`, { token: w.admin });
    expect(list.status).toBe(200);
    expect(list.body.map((i: { sourceName: string; dimension: string }) => `${i.sourceName}.${i.dimension}`).sort())
      .toEqual(["flights.carrier_code", "flights.origin_code", "long_flights.carrier_code", "long_flights.origin_code"]);
    for (const index of list.body) expect(index).toMatchObject({ status: "built", runId: firstRun, modelPath: "models/flights.malloy" });
    const carrier = list.body.find((i: { sourceName: string; dimension: string }) => i.sourceName === "flights" && i.dimension === "carrier_code");
    const one = await w.s.call("GET", `${V}/indexes/${carrier.id}`, { token: w.admin });
    expect(one.body).toMatchObject({ id: carrier.id, valueCount: 3, values: [{ value: "AA", count: 3 }, { value: "UA", count: 3 }, { value: "WN", count: 2 }] });
    const [row] = await w.s.service.db.sql`SELECT e.indexed_values FROM entity_embeddings e JOIN model_entities m ON m.id = e.entity_id
      WHERE m.path = 'carrier_code' AND m.kind = 'dimension' AND m.source_name = 'flights'`;
    expect(row!.indexed_values).toEqual(one.body.values);
    expect((await w.s.call("GET", `${V}/indexes/00000000-0000-4000-8000-000000000000`, { token: w.admin })).status).toBe(404);
    expect((await w.s.call("GET", `${V}/indexes/nope`, { token: w.admin })).status).toBe(400);
  });

  test("materializations are Parquet files with the source's rows", async () => {
    const list = await w.s.call("GET", `${V}/materializations`, { token: w.admin });
    expect(list.status).toBe(200);
    expect(list.body.map((m: { sourceName: string }) => m.sourceName).sort()).toEqual(["carrier_stats", "long_flights"]);
    for (const m of list.body) {
      expect(m).toMatchObject({ status: "built", format: "parquet", connection: "duckdb", modelFilePath: "models/flights.malloy", runId: firstRun });
      expect(m.location).toStartWith("materializations/");
      expect(await parquetRows(w, m.location)).toBe(m.rowCount);
    }
    const one = await w.s.call("GET", `${V}/materializations/${list.body[0].id}`, { token: w.admin });
    expect(one.body).toEqual(list.body[0]);
  });
});

describe("runs on request", () => {
  test("a full run rebuilds everything; indexStatus is indexing while it runs; lists are most recent first", async () => {
    const r = await w.s.call("POST", `${V}/runs`, { token: w.admin, body: {} });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ state: "queued", full: true });
    expect(r.body.units).toHaveLength(6);
    expect(r.headers.get("location")).toBe(`${P}/runs/${r.body.id}`);
    expect((await w.s.call("GET", V, { token: w.admin })).body.indexStatus).toBe("indexing");
    const done = await waitRun(w, `${P}/runs/${r.body.id}`, { token: w.admin });
    expect(done.state).toBe("succeeded");
    expect((await w.s.call("GET", V, { token: w.admin })).body.indexStatus).toBe("indexed");
    const runs = await w.s.call("GET", `${P}/runs`, { token: w.admin });
    expect(runs.body.map((x: { id: string }) => x.id)).toEqual([r.body.id, firstRun]);
  });

  test("a scoped run builds only the named sources and dimensions", async () => {
    const r = await w.s.call("POST", `${V}/runs`, { token: w.admin, body: { sources: ["long_flights"], dimensions: ["flights.origin_code"] } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ full: false, scope: { sources: ["long_flights"], dimensions: ["flights.origin_code"] } });
    const done = await waitRun(w, `${P}/runs/${r.body.id}`, { token: w.admin });
    expect(done.units.map((u: { target: string; state: string }) => `${u.target}:${u.state}`)).toEqual(["long_flights:succeeded", "flights.origin_code:succeeded"]);
    const mats = await w.s.call("GET", `${V}/materializations`, { token: w.admin });
    expect(mats.body[0]).toMatchObject({ sourceName: "long_flights", runId: r.body.id });
    expect(mats.body[1]).toMatchObject({ sourceName: "carrier_stats" });
    const idx = await w.s.call("GET", `${V}/indexes`, { token: w.admin });
    expect(idx.body[0]).toMatchObject({ dimension: "origin_code", runId: r.body.id });

    const tablesOnly = await w.s.call("POST", `${V}/runs`, { token: w.admin, body: { sources: ["carrier_stats"] } });
    expect(tablesOnly.body.units.map((u: { kind: string }) => u.kind)).toEqual(["table"]);
    await waitForRuns(w.s.service.ctx);
    expect((await w.s.call("GET", V, { token: w.admin })).body.indexStatus).toBe("indexed");
  });

  test("unknown names and empty scopes are 400 with the names that exist", async () => {
    const bad = await w.s.call("POST", `${V}/runs`, { token: w.admin, body: { sources: ["nope"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("'carrier_stats', 'long_flights'");
    const dim = await w.s.call("POST", `${V}/runs`, { token: w.admin, body: { dimensions: ["carrier_code"] } });
    expect(dim.status).toBe(400);
    expect(dim.body.message).toContain("'flights.carrier_code'");
    expect((await w.s.call("POST", `${V}/runs`, { token: w.admin, body: { sources: [] } })).status).toBe(400);
    expect((await w.s.call("POST", `${P}/versions/9.9.9/runs`, { token: w.admin, body: {} })).status).toBe(404);
  });

  test("cancelling a finished run is 409; an unknown action is 400; the /projects/ spelling works", async () => {
    const cancel = await w.s.call("POST", `${P}/runs/${firstRun}?action=cancel`, { token: w.admin });
    expect(cancel.status).toBe(409);
    expect(cancel.body.code).toBe("CONFLICT");
    expect((await w.s.call("POST", `${P}/runs/${firstRun}?action=restart`, { token: w.admin })).status).toBe(400);
    expect((await w.s.call("POST", `${P}/runs/${firstRun}`, { token: w.admin })).status).toBe(400);
    const proj = P.replace("/environments/", "/projects/");
    expect((await w.s.call("GET", `${proj}/runs/${firstRun}`, { token: w.admin })).body.id).toBe(firstRun);
    expect((await w.s.call("GET", `${proj}/versions/1.0.0/indexes`, { token: w.admin })).status).toBe(200);
    expect((await w.s.call("GET", `${proj}/versions/1.0.0/materializations`, { token: w.admin })).status).toBe(200);
    expect((await w.s.call("GET", `${P}/runs/00000000-0000-4000-8000-000000000000`, { token: w.admin })).status).toBe(404);
  });

  test("runs are paged with a Link header", async () => {
    const page = await w.s.call("GET", `${P}/runs?limit=2`, { token: w.admin });
    expect(page.body).toHaveLength(2);
    const next = page.headers.get("link")!.match(/<([^>]+)>/)![1]!;
    const rest = await w.s.call("GET", next, { token: w.admin });
    expect(rest.body.length).toBeGreaterThan(0);
    expect(rest.body.some((r: { id: string }) => page.body.some((p: { id: string }) => p.id === r.id))).toBe(false);
  });
});

test("a run without a body is a full run", async () => {
  const r = await w.s.call("POST", `${V}/runs`, { token: w.admin });
  expect(r.status).toBe(201);
  expect(r.body).toMatchObject({ full: true, scope: null });
  await waitForRuns(w.s.service.ctx);
  expect((await w.s.call("GET", `${P}/runs/${r.body.id}`, { token: w.admin })).body.state).toBe("succeeded");
});

describe("access", () => {
  test("a viewer reads runs, indexes and materializations but cannot start or cancel runs; an outsider sees nothing", async () => {
    const [pkg] = await w.s.service.db.sql`SELECT id FROM packages WHERE name = 'flights'`;
    const viewer = await userWith(w, "vera", { kind: "package", id: pkg!.id as string, role: "viewer" });
    const modeler = await userWith(w, "mo", { kind: "package", id: pkg!.id as string, role: "modeler" });
    const outsider = await userWith(w, "olga");
    expect((await w.s.call("GET", `${P}/runs`, { token: viewer })).status).toBe(200);
    expect((await w.s.call("GET", `${P}/runs/${firstRun}`, { token: viewer })).status).toBe(200);
    expect((await w.s.call("GET", `${V}/indexes`, { token: viewer })).status).toBe(200);
    expect((await w.s.call("GET", `${V}/materializations`, { token: viewer })).status).toBe(200);
    const denied = await w.s.call("POST", `${V}/runs`, { token: viewer, body: {} });
    expect(denied.status).toBe(403);
    expect(denied.body.code).toBe("INSUFFICIENT_PERMISSIONS");
    expect((await w.s.call("POST", `${P}/runs/${firstRun}?action=cancel`, { token: viewer })).status).toBe(403);
    for (const path of [`${P}/runs`, `${P}/runs/${firstRun}`, `${V}/indexes`, `${V}/materializations`]) {
      expect((await w.s.call("GET", path, { token: outsider })).status).toBe(404);
    }
    expect((await w.s.call("POST", `${V}/runs`, { token: outsider, body: {} })).status).toBe(404);
    const byModeler = await w.s.call("POST", `${V}/runs`, { token: modeler, body: { dimensions: ["flights.carrier_code"] } });
    expect(byModeler.status).toBe(201);
    expect(byModeler.body.createdBy).toBe("mo");
    await waitForRuns(w.s.service.ctx);
    expect((await w.s.call("GET", `${API}/organizations/acme/environments/prod/packages/flights/runs`, { token: modeler })).body[0].state).toBe("succeeded");
  });
});
