/**
 * What runs built from an `#(authorize)` source, as the indexes,
 * materializations and runs APIs show it: index values, row and value counts
 * and error texts (which quote rows) are data of that source, so only
 * callers who may query it read them (as get_context and the retrieval API);
 * viewers do not even see what was built from it (as the models API hides
 * the source); modelers see it without its data.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { waitForRuns } from "../../src/runs/worker.ts";
import { bytes } from "../fixtures/engine_package.ts";
import { API, publish } from "../packages/helpers.ts";
import { waitRun } from "../runs/fixtures.ts";
import { admin, PAYROLL_CSV, SALES_MODEL, type SalesWorld, startSalesWorld } from "./world.ts";

/** Sources built on payroll: by extending it, and by joining it (each with an index of its own). */
const MODEL = `${SALES_MODEL}
source: payroll_copy is payroll extend {
  #(index)
  dimension: region_again is region
}

source: open_pay is duckdb.table('data/orders.csv') extend {
  join_many: p is payroll on region = p.region
  #(index)
  dimension: pay_region is p.region
}

#@ persist
source: pay_totals is payroll -> { group_by: payroll_region; aggregate: total_salary }

source: pay_broken is payroll extend {
  #(index)
  dimension: broken is region::number
}
`;

let w: SalesWorld;
let mo: string;
const P = `${API}/organizations/acme/environments/prod/packages/sales`;
const V = `${P}/versions/1.0.0`;
let payrollIndex: string;
let built: { id: string; sourceName: string }[];
let runPath: string;
let materialization: string;
const ON_PAYROLL = ["open_pay", "pay_broken", "pay_totals", "payroll", "payroll_copy"];

beforeAll(async () => {
  w = await startSalesWorld({}, { model: MODEL });
  mo = await w.s.createUser("mo");
  await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: "user:mo", permission: "member" }, 201);
  await admin(w, "POST", "/organizations/acme/environments/prod/packages/sales/permissions", { userGroupId: "user:mo", permission: "modeler" }, 201);
  const runs = await w.s.call("GET", `${P}/runs`, { token: w.admin });
  runPath = `${P}/runs/${runs.body[0].id}`;
  await waitRun(w, runPath, { token: w.admin });
  materialization = (await w.s.call("GET", `${V}/materializations`, { token: w.admin })).body[0].id;
  const list = await w.s.call("GET", `${V}/indexes`, { token: w.admin });
  built = list.body;
  payrollIndex = built.find((i) => i.sourceName === "payroll")!.id;
}, 300_000);
afterAll(() => w?.s.close());

describe("indexes of an #(authorize) source", () => {
  test("viewers outside the group and their API keys: not listed, 404 by id (no values), whether the source extends or joins payroll", async () => {
    // the run built an index of each source built on payroll
    expect([...new Set(built.map((i) => i.sourceName))].sort()).toEqual(ON_PAYROLL);
    for (const auth of [{ token: w.ann }, { apiKey: w.salesKey }]) {
      const list = await w.s.call("GET", `${V}/indexes`, auth);
      expect(list.status).toBe(200);
      expect(list.body).toEqual([]);
      for (const index of built) {
        const one = await w.s.call("GET", `${V}/indexes/${index.id}`, auth);
        expect([index.sourceName, one.status]).toEqual([index.sourceName, 404]);
        expect(JSON.stringify(one.body)).not.toContain("EU");
      }
    }
  });

  test("a modeler outside the group sees the index, without its values or counts; members of the group read them", async () => {
    const list = await w.s.call("GET", `${V}/indexes`, { token: mo });
    expect(list.body.map((i: { id: string }) => i.id).sort()).toEqual(built.map((i) => i.id).sort());
    for (const row of list.body) expect([row.sourceName, row.valueCount, row.distinctCount]).toEqual([row.sourceName, null, null]);
    for (const index of built) {
      const one = await w.s.call("GET", `${V}/indexes/${index.id}`, { token: mo });
      expect(one.status).toBe(200);
      expect([index.sourceName, one.body.values, one.body.valueCount, one.body.distinctCount]).toEqual([index.sourceName, [], null, null]);
    }
    // bob is in finance (a viewer): the values, most frequent first
    const bob = await w.s.call("GET", `${V}/indexes/${payrollIndex}`, { token: w.bob });
    expect(bob.status).toBe(200);
    expect(bob.body.values.map((v: { value: string }) => v.value).sort()).toEqual(["EU", "US"]);
    expect([bob.body.valueCount, bob.body.distinctCount]).toEqual([2, 2]);
    // an organization admin outside the group: the values and their counts stay hidden (as for its queries)
    const org = await w.s.call("GET", `${V}/indexes/${payrollIndex}`, { token: w.admin });
    expect([org.body.values, org.body.valueCount, org.body.distinctCount]).toEqual([[], null, null]);
    const orgList = await w.s.call("GET", `${V}/indexes`, { token: w.admin });
    const listed = orgList.body.find((i: { id: string }) => i.id === payrollIndex);
    expect([listed.valueCount, listed.distinctCount]).toEqual([null, null]);
  });
});

describe("materializations and runs of sources built on payroll", () => {
  test("members of the group see everything: row counts and the failing unit's error, which quotes a value", async () => {
    const m = await w.s.call("GET", `${V}/materializations/${materialization}`, { token: w.bob });
    expect(m.body).toMatchObject({ sourceName: "pay_totals", rowCount: 2 });
    const run = await w.s.call("GET", runPath, { token: w.bob });
    expect(run.body.state).toBe("failed");
    const broken = run.body.units.find((u: { target: string }) => u.target === "pay_broken.broken");
    expect(broken.error).toContain("EU");
    expect(run.body.units.find((u: { target: string }) => u.target === "pay_totals").rowCount).toBe(2);
  });

  test("viewers outside the group and their API keys see neither the units nor the materialization, nor the error", async () => {
    for (const auth of [{ token: w.ann }, { apiKey: w.salesKey }]) {
      const list = await w.s.call("GET", `${V}/materializations`, auth);
      expect([list.status, list.body]).toEqual([200, []]);
      expect((await w.s.call("GET", `${V}/materializations/${materialization}`, auth)).status).toBe(404);
      const run = await w.s.call("GET", runPath, auth);
      expect(run.status).toBe(200);
      expect(run.body.units).toEqual([]);
      const runs = await w.s.call("GET", `${P}/runs`, auth);
      for (const text of [JSON.stringify(run.body), JSON.stringify(runs.body)]) {
        expect(text).not.toContain("EU");
        expect(text).not.toMatch(/pay_|payroll|open_pay/);
      }
      expect(runs.body[0].error).toContain("not shown to you");
    }
  });

  test("a modeler outside the group sees what was built, without counts or error text", async () => {
    const m = await w.s.call("GET", `${V}/materializations/${materialization}`, { token: mo });
    expect(m.body).toMatchObject({ sourceName: "pay_totals", rowCount: null });
    const run = await w.s.call("GET", runPath, { token: mo });
    expect(run.body.units.map((u: { target: string }) => u.target)).toContain("pay_totals");
    expect(JSON.stringify(run.body)).not.toContain("EU");
    for (const unit of run.body.units) expect([unit.rowCount, unit.valueCount, unit.distinctCount]).toEqual([null, null, null]);
  });
});

/** Publishes package `name` (one model over payroll.csv) as admin; waits for the publish's run to end and returns its path. */
async function publishedRun(name: string, m: { modelPath: string; model: string }): Promise<string> {
  const files = new Map([
    ["publisher.json", bytes(JSON.stringify({ name, description: "a model whose names the runs API once misread" }))],
    [m.modelPath, bytes(m.model)],
    ["data/payroll.csv", bytes(PAYROLL_CSV)],
  ]);
  const published = await publish(w, name, "1.0.0", { token: w.admin, files });
  expect([published.status, published.body.runId === undefined]).toEqual([201, false]);
  const run = `${API}/organizations/acme/environments/prod/packages/${name}/runs/${published.body.runId}`;
  await waitRun(w, run, { token: w.admin });
  return run;
}

/** What a caller who may not read a failed unit's data is told instead of the run's error. */
const WITHHELD = "the run failed: a unit built from a source you may not query failed (its error is not shown to you)";

describe("the run's error is withheld by the unit recorded with the failure, not by reading the error text", () => {
  // Names the former parsing of `<kind> unit '<target>' (<model>) failed:` misread: a `'` in the
  // source, a `'` and a `)` in the model file; the error text then matched no pattern and was shown to all.
  const ODD_MODEL = `#(authorize) groups=[finance]
source: \`pay'roll\` is duckdb.table('data/payroll.csv') extend {
  #(index)
  dimension: broken is region::number
}
`;
  const ODD = `${API}/organizations/acme/environments/prod/packages/odd`;
  let oddRun: string;

  beforeAll(async () => {
    oddRun = await publishedRun("odd", { modelPath: "models/pay's (v2).malloy", model: ODD_MODEL });
  }, 300_000);

  test("a unit of source `pay'roll` in models/pay's (v2).malloy fails: finance members read its error, which quotes a value", async () => {
    const run = await w.s.call("GET", oddRun, { token: w.bob });
    expect(run.status).toBe(200);
    expect(run.body.state).toBe("failed");
    expect(run.body.error).toStartWith("index unit 'pay'roll.broken' (models/pay's (v2).malloy) failed: ");
    expect(run.body.error).toContain("EU");
    expect(run.body.units.map((u: { target: string; state: string }) => `${u.target}:${u.state}`)).toEqual(["pay'roll.broken:failed"]);
    const runs = await w.s.call("GET", `${ODD}/runs`, { token: w.bob });
    expect(runs.body[0].error).toBe(run.body.error);
  });

  test("viewers outside finance, their API keys and an organization admin outside it are told the error is withheld, in the run and in the list", async () => {
    for (const auth of [{ token: w.ann }, { apiKey: w.salesKey }, { token: w.admin }]) {
      const run = await w.s.call("GET", oddRun, auth);
      const runs = await w.s.call("GET", `${ODD}/runs`, auth);
      expect([run.status, runs.status]).toEqual([200, 200]);
      expect([run.body.state, run.body.error, runs.body[0].error]).toEqual(["failed", WITHHELD, WITHHELD]);
      for (const text of [JSON.stringify(run.body), JSON.stringify(runs.body)]) expect(text).not.toContain("EU");
    }
  });

  test("a run that failed for a reason that is no unit's (its node stopped) shows its error to everyone, though a payroll unit was running", async () => {
    const [v] = await w.s.service.db.sql`SELECT v.id, v.package_id FROM package_versions v JOIN packages p ON p.id = v.package_id WHERE p.name = 'sales'`;
    const [r] = await w.s.service.db.sql`INSERT INTO runs (package_id, version, state, claimed_by, started_at, heartbeat_at)
      VALUES (${v!.package_id as string}, ${v!.id as string}, 'running', 'dead-node', now() - interval '1 hour', now() - interval '1 hour')
      RETURNING id`;
    const runId = r!.id as string;
    await w.s.service.db.sql`INSERT INTO run_units (run, position, kind, target, model_path, source_name, state)
      VALUES (${runId}, 0, 'index', 'payroll.payroll_region', 'models/sales.malloy', 'payroll', 'running')`;
    await waitForRuns(w.s.service.ctx);
    const stopped = "the node running this run stopped (no heartbeat)";
    const bob = await w.s.call("GET", `${P}/runs/${runId}`, { token: w.bob });
    expect([bob.body.state, bob.body.units[0].state]).toEqual(["failed", "failed"]);
    expect(bob.body.error).toStartWith(stopped);
    for (const auth of [{ token: w.ann }, { token: mo }]) {
      const run = await w.s.call("GET", `${P}/runs/${runId}`, auth);
      expect([run.status, run.body.state]).toEqual([200, "failed"]);
      expect(run.body.error).toStartWith(stopped);
    }
    // ann does not see the payroll unit at all; mo sees it without its error
    expect((await w.s.call("GET", `${P}/runs/${runId}`, { token: w.ann })).body.units).toEqual([]);
    expect((await w.s.call("GET", `${P}/runs/${runId}`, { token: mo })).body.units[0].error).toBe("failed (not shown to you)");
  });
});

describe("a unit's source is the one it was planned from, not the part of its target before a dot", () => {
  // `pay.roll.broken` is dimension `broken` of source `pay.roll`: split at the first dot it named a source
  // `pay`, which has no rule, and the unit's counts and error (quoting `EU`) were shown to every viewer.
  const DOTTED_MODEL = `#(authorize) groups=[finance]
source: \`pay.roll\` is duckdb.table('data/payroll.csv') extend {
  #(index)
  dimension: broken is region::number
}
`;
  let dottedRun: string;

  beforeAll(async () => {
    dottedRun = await publishedRun("dotted", { modelPath: "models/pay.malloy", model: DOTTED_MODEL });
  }, 300_000);

  test("finance members see the unit of source `pay.roll` and its error", async () => {
    const run = await w.s.call("GET", dottedRun, { token: w.bob });
    expect([run.status, run.body.state]).toEqual([200, "failed"]);
    expect(run.body.units.map((u: { target: string; state: string }) => `${u.target}:${u.state}`)).toEqual(["pay.roll.broken:failed"]);
    expect(run.body.error).toContain("EU");
  });

  test("viewers outside finance and their API keys see neither the unit nor its error; an admin outside finance sees the unit without them", async () => {
    for (const auth of [{ token: w.ann }, { apiKey: w.salesKey }]) {
      const run = await w.s.call("GET", dottedRun, auth);
      expect([run.status, run.body.error, run.body.units]).toEqual([200, WITHHELD, []]);
      expect(JSON.stringify(run.body)).not.toContain("EU");
    }
    const admin = await w.s.call("GET", dottedRun, { token: w.admin });
    expect(admin.body.error).toBe(WITHHELD);
    expect(admin.body.units.map((u: { error: string | null }) => u.error)).toEqual(["failed (not shown to you)"]);
  });
});

describe("a scoped run's selectors name what it builds: hidden like its units", () => {
  let scopedRun: string;

  beforeAll(async () => {
    const started = await w.s.call("POST", `${V}/runs`, { token: w.admin, body: { sources: ["pay_totals"], dimensions: ["payroll.payroll_region", "open_pay.pay_region"] } });
    expect(started.status).toBe(201);
    scopedRun = `${P}/runs/${started.body.id}`;
    await waitRun(w, scopedRun, { token: w.admin });
  }, 300_000);

  test("viewers outside finance and their API keys see a scoped run without the names it selected, in the run and in the list", async () => {
    for (const auth of [{ token: w.ann }, { apiKey: w.salesKey }]) {
      const run = await w.s.call("GET", scopedRun, auth);
      const runs = await w.s.call("GET", `${P}/runs`, auth);
      const listed = runs.body.find((r: { id: string }) => scopedRun.endsWith(r.id));
      expect([run.status, run.body.full, run.body.units]).toEqual([200, false, []]);
      expect(run.body.scope).toEqual({ sources: [], dimensions: [] });
      expect(listed.scope).toEqual({ sources: [], dimensions: [] });
      for (const text of [JSON.stringify(run.body), JSON.stringify(runs.body)]) expect(text).not.toMatch(/pay_|payroll|open_pay/);
    }
  });

  test("finance members and modelers outside finance see the names (modelers see what was built, without its data)", async () => {
    const selected = { sources: ["pay_totals"], dimensions: ["payroll.payroll_region", "open_pay.pay_region"] };
    for (const token of [w.bob, mo]) {
      expect((await w.s.call("GET", scopedRun, { token })).body.scope).toEqual(selected);
      const runs = await w.s.call("GET", `${P}/runs`, { token });
      expect(runs.body.find((r: { id: string }) => scopedRun.endsWith(r.id)).scope).toEqual(selected);
    }
  });
});
