/**
 * How runs end: cancelled while running (nothing half-built marked built),
 * failed by a unit (index status failed, the version still queryable and
 * serving what did build), abandoned by a dead
 * node (failed at the next claim), and the archive rule while a run is in flight.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";

// Runs take seconds on a loaded machine; bun's default of 5 s per test is too short.
setDefaultTimeout(120_000);
import { waitForRuns } from "../../src/runs/worker.ts";
import { publish, startWorld, type World } from "../packages/helpers.ts";
import { BROKEN_INDEX_MODEL, pkgPath, runsPackage, SLOW_MODEL, waitRun } from "./fixtures.ts";

let w: World;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false", RUN_HEARTBEAT_MS: "50", RUN_STALE_AFTER_MS: "5000" });
  for (const [name, model] of [["slow", SLOW_MODEL], ["broken", BROKEN_INDEX_MODEL], ["crashy", undefined]] as const) {
    const r = await publish(w, name, "1.0.0", { token: w.admin, files: runsPackage(model) });
    expect(r.status).toBe(201);
    expect(r.body.runId).toBeUndefined();
  }
}, 120_000); // publishing on a loaded machine takes longer than bun's 5 s default for hooks

afterAll(async () => {
  await w.s.close();
}, 120_000);

async function version(pkg: string, id = "1.0.0") {
  return (await w.s.call("GET", `${pkgPath(pkg)}/versions/${id}`, { token: w.admin })).body;
}

test("indexStatus is unknown before the first run", async () => {
  expect(await version("slow")).toMatchObject({ indexStatus: "unknown", archiveStatus: "unarchive" });
});

test("a run cancelled while a slow unit runs ends cancelled; no index is marked built; archiving the only version meanwhile is 403", async () => {
  const P = pkgPath("slow");
  const created = await w.s.call("POST", `${P}/versions/1.0.0/runs`, { token: w.admin, body: {} });
  expect(created.status).toBe(201);
  const path = `${P}/runs/${created.body.id}`;
  await waitRun(w, path, {
    token: w.admin,
    until: (run) => (run.units as Array<{ target: string; state: string }>).some((u) => u.target === "big" && u.state === "running"),
  });

  const archive = await w.s.call("PATCH", `${P}/versions/1.0.0`, { token: w.admin, body: { archiveStatus: "archive" } });
  expect(archive.status).toBe(403);
  expect(archive.body.message).toContain("run");

  const cancel = await w.s.call("POST", `${path}?action=cancel`, { token: w.admin });
  expect(cancel.status).toBe(202);
  expect(cancel.body.cancelRequested).toBe(true);
  const run = await waitRun(w, path, { token: w.admin, timeoutMs: 20_000 });
  expect(run.state).toBe("cancelled");
  const states = Object.fromEntries(run.units.map((u: { target: string; state: string }) => [u.target, u.state]));
  expect(states).toMatchObject({ carrier_stats: "succeeded", long_flights: "succeeded", big: "cancelled", "flights.carrier_code": "cancelled" });

  const indexes = await w.s.call("GET", `${P}/versions/1.0.0/indexes`, { token: w.admin });
  expect(indexes.body.filter((i: { status: string }) => i.status === "built")).toEqual([]);
  const mats = await w.s.call("GET", `${P}/versions/1.0.0/materializations`, { token: w.admin });
  expect(mats.body.find((m: { sourceName: string }) => m.sourceName === "big")).toMatchObject({ status: "cancelled", builtAt: null });
  expect(await version("slow")).toMatchObject({ indexStatus: "unknown", archiveStatus: "unarchive" });
  expect((await w.s.call("POST", `${path}?action=cancel`, { token: w.admin })).status).toBe(409);

  // with no run in flight, archiving is allowed again
  const ok = await w.s.call("PATCH", `${P}/versions/1.0.0`, { token: w.admin, body: { archiveStatus: "archive" } });
  expect(ok.status).toBe(200);
  expect((await w.s.call("PATCH", `${P}/versions/1.0.0`, { token: w.admin, body: { archiveStatus: "unarchive" } })).status).toBe(200);
});

test("a queued run is cancelled at once", async () => {
  const P = pkgPath("slow");
  // The slow run holds the version; a second run of it stays queued behind it.
  const first = await w.s.call("POST", `${P}/versions/1.0.0/runs`, { token: w.admin, body: { sources: ["big"] } });
  await waitRun(w, `${P}/runs/${first.body.id}`, { token: w.admin, until: (run) => run.state === "running" });
  const second = await w.s.call("POST", `${P}/versions/1.0.0/runs`, { token: w.admin, body: { dimensions: ["flights.carrier_code"] } });
  expect(second.body.state).toBe("queued");
  expect(await version("slow")).toMatchObject({ indexStatus: "indexing" });
  const cancel = await w.s.call("POST", `${P}/runs/${second.body.id}?action=cancel`, { token: w.admin });
  expect(cancel.status).toBe(200);
  expect(cancel.body).toMatchObject({ state: "cancelled", units: [{ state: "cancelled" }] });
  expect(await version("slow")).toMatchObject({ indexStatus: "unknown" });
  expect((await w.s.call("POST", `${P}/runs/${first.body.id}?action=cancel`, { token: w.admin })).status).toBe(202);
  expect((await waitRun(w, `${P}/runs/${first.body.id}`, { token: w.admin })).state).toBe("cancelled");
});

test("another package's run ends while a long run holds one of the node's RUN_CONCURRENCY (2) slots", async () => {
  const slow = pkgPath("slow");
  const long = await w.s.call("POST", `${slow}/versions/1.0.0/runs`, { token: w.admin, body: { sources: ["big"] } });
  try {
    await waitRun(w, `${slow}/runs/${long.body.id}`, { token: w.admin, until: (run) => run.state === "running" });
    const crashy = pkgPath("crashy");
    // a heartbeat that looks stale (a busy event loop delays it) does not make this node fail its own run:
    // its heartbeat is kept an hour old while the worker claims the other run
    let aging = true;
    const age = (async () => {
      while (aging) {
        await w.s.service.db.sql`UPDATE runs SET heartbeat_at = now() - interval '1 hour' WHERE id = ${long.body.id as string} AND state = 'running'`;
        await Bun.sleep(2);
      }
    })();
    const other = await w.s.call("POST", `${crashy}/versions/1.0.0/runs`, { token: w.admin, body: { dimensions: ["flights.carrier_code"] } });
    try {
      expect((await waitRun(w, `${crashy}/runs/${other.body.id}`, { token: w.admin, timeoutMs: 60_000 })).state).toBe("succeeded");
    } finally {
      aging = false;
      await age;
    }
    // the long run was running all along
    expect((await w.s.call("GET", `${slow}/runs/${long.body.id}`, { token: w.admin })).body.state).toBe("running");
  } finally {
    // whatever happened above, the long run ends here, so the tests after this one find the node free
    await w.s.call("POST", `${slow}/runs/${long.body.id}?action=cancel`, { token: w.admin });
    await waitForRuns(w.s.service.ctx);
  }
  expect((await w.s.call("GET", `${slow}/runs/${long.body.id}`, { token: w.admin })).body.state).toBe("cancelled");
});

test("a failing index unit fails the run and sets indexStatus failed; the version stays queryable and the other index serves", async () => {
  const P = pkgPath("broken");
  const created = await w.s.call("POST", `${P}/versions/1.0.0/runs`, { token: w.admin, body: {} });
  const run = await waitRun(w, `${P}/runs/${created.body.id}`, { token: w.admin });
  expect(run.state).toBe("failed");
  expect(run.error).toContain("flights.broken");
  const broken = run.units.find((u: { target: string }) => u.target === "flights.broken");
  expect(broken.state).toBe("failed");
  expect(broken.error).toContain("failed");
  expect(broken.error).not.toContain(w.dataDir);
  // the unit after the failed one still ran
  expect(run.units.map((u: { target: string; state: string }) => `${u.target}:${u.state}`)).toEqual(["flights.carrier_code:succeeded", "flights.broken:failed"]);
  const indexes = await w.s.call("GET", `${P}/versions/1.0.0/indexes`, { token: w.admin });
  expect(indexes.body.find((i: { dimension: string }) => i.dimension === "broken").status).toBe("failed");
  const carrier = indexes.body.find((i: { dimension: string }) => i.dimension === "carrier_code");
  expect(carrier).toMatchObject({ status: "built", valueCount: 3, distinctCount: 3 });
  const values = await w.s.call("GET", `${P}/versions/1.0.0/indexes/${carrier.id}`, { token: w.admin });
  expect(values.body.values.map((v: { value: string }) => v.value)).toEqual(["AA", "UA", "WN"]);
  expect(await version("broken")).toMatchObject({ indexStatus: "failed", archiveStatus: "unarchive", isLatest: true });
  const q = await w.s.call("POST", `${P}/models/models/flights.malloy/query`, {
    token: w.admin,
    body: { query: "run: flights -> { aggregate: n is count() }", versionId: "1.0.0" },
  });
  expect(q.status).toBe(200);
  expect(q.body.data).toEqual([{ n: 8 }]);
});

test("a run left running by a dead node is marked failed by the next claim", async () => {
  const P = pkgPath("crashy");
  const [v] = await w.s.service.db.sql`SELECT v.id, v.package_id FROM package_versions v JOIN packages p ON p.id = v.package_id WHERE p.name = 'crashy'`;
  const [r] = await w.s.service.db.sql`INSERT INTO runs (package_id, version, state, claimed_by, started_at, heartbeat_at, prior_index_status)
    VALUES (${v!.package_id as string}, ${v!.id as string}, 'running', 'dead-node', now() - interval '1 hour', now() - interval '1 hour', 'unknown')
    RETURNING id`;
  await w.s.service.db.sql`INSERT INTO run_units (run, position, kind, target, model_path, source_name)
    VALUES (${r!.id as string}, 0, 'index', 'flights.carrier_code', 'models/flights.malloy', 'flights')`;
  await w.s.service.db.sql`UPDATE run_units SET state = 'running' WHERE run = ${r!.id as string}`;
  await w.s.service.db.sql`UPDATE package_versions SET index_status = 'indexing' WHERE id = ${v!.id as string}`;
  await waitForRuns(w.s.service.ctx);
  const run = (await w.s.call("GET", `${P}/runs/${r!.id as string}`, { token: w.admin })).body;
  expect(run.state).toBe("failed");
  expect(run.error).toContain("heartbeat");
  expect(run.units[0]).toMatchObject({ state: "failed" });
  expect(await version("crashy")).toMatchObject({ indexStatus: "failed", archiveStatus: "unarchive" });

  // a later full run that succeeds brings the version back
  const retry = await w.s.call("POST", `${P}/versions/1.0.0/runs`, { token: w.admin, body: {} });
  expect((await waitRun(w, `${P}/runs/${retry.body.id}`, { token: w.admin })).state).toBe("succeeded");
  expect(await version("crashy")).toMatchObject({ indexStatus: "indexed", archiveStatus: "unarchive", isLatest: true });
});

test("a value holding a NUL character is left out of the values; the run and its retrieval step succeed", async () => {
  const model = `source: tags is duckdb.sql("""
  select case i % 3 when 0 then 'red' when 1 then 'blue' else 'gr' || chr(0) || 'een' end as color from range(30) as t(i)
""") extend {
  #(index)
  dimension: shade is color
}
`;
  expect((await publish(w, "nul", "1.0.0", { token: w.admin, files: runsPackage(model) })).status).toBe(201);
  const P = pkgPath("nul");
  const created = await w.s.call("POST", `${P}/versions/1.0.0/runs`, { token: w.admin, body: {} });
  expect(created.status).toBe(201);
  const run = await waitRun(w, `${P}/runs/${created.body.id}`, { token: w.admin });
  expect([run.state, run.error]).toEqual(["succeeded", null]);
  expect((await version("nul")).indexStatus).toBe("indexed");
  const list = await w.s.call("GET", `${P}/versions/1.0.0/indexes`, { token: w.admin });
  const shade = list.body.find((i: { dimension: string }) => i.dimension === "shade");
  const values = await w.s.call("GET", `${P}/versions/1.0.0/indexes/${shade.id}`, { token: w.admin });
  expect(values.body.values.map((v: { value: string }) => v.value).sort()).toEqual(["blue", "red"]);
});
