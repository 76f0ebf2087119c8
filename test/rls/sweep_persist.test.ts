/**
 * The hostile-tenant sweep of issue 25, second part: `#@ persist` sources
 * over `#(authorize)` ones that the first fix's probes did not reach (a
 * persisted `extend` of payroll, a persisted source over a persisted one, a
 * package source joining a persisted one, a package query source over one),
 * across two builds (the model cache under a rebuild); persisted sources
 * over a `#(bind)` source by other routes (composite, `%{ }` segment, join),
 * which publish must refuse; and a modeler of another package reaching this
 * package's files through its own package's connection.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bytes } from "../fixtures/engine_package.ts";
import { API, publish, userWith } from "../packages/helpers.ts";
import { waitRun } from "../runs/fixtures.ts";
import { admin, SALES_MODEL, SALES_QUERY, salesFiles, type SalesWorld, startSalesWorld } from "./world.ts";

const MODEL = `${SALES_MODEL}
#@ persist
source: pay_totals is payroll -> { group_by: payroll_region; aggregate: total_salary }

#@ persist
source: pay_ext is payroll extend { dimension: doubled is salary * 2 }

#@ persist
source: pay_twice is pay_totals -> { select: payroll_region, total_salary }

source: orders_pay is orders(region_param is "ignored") extend { join_many: t is pay_totals on region = t.payroll_region }

source: pay_view is pay_ext -> { group_by: region; aggregate: s is salary.sum() }
`;

let w: SalesWorld;
const P = `${API}/organizations/acme/environments/prod/packages/sales`;
type Auth = { token?: string; apiKey?: string };
const q = (auth: Auth, body: object) => w.s.call("POST", SALES_QUERY, { ...auth, body });

beforeAll(async () => {
  w = await startSalesWorld({ INDEX_ON_PUBLISH: "false" }, { model: MODEL });
}, 300_000);
afterAll(() => w?.s.close(), 120_000);

const PROBES: [string, string][] = [
  ["a persisted extend of payroll", "run: pay_ext -> { group_by: region, doubled }"],
  ["a persisted source over a persisted one", "run: pay_twice -> { select: * }"],
  ["a package source joining a persisted one", "run: orders_pay -> { aggregate: s is t.total_salary.sum() }"],
  ["a package query source over a persisted extend", "run: pay_view -> { select: * }"],
  ["the caller's query source over a persisted extend", "source: z is pay_ext -> { select: region, salary }\nrun: z -> { select: * }"],
  ["the caller's join of a persisted extend", "run: orders extend { join_many: e is pay_ext on region = e.region } -> { aggregate: s is e.salary.sum() }"],
];

async function outsidersRefused(moment: string): Promise<void> {
  for (const [label, query] of PROBES) {
    for (const [who, auth] of [["ann", { token: w.ann }], ["the sales_eu API key", { apiKey: w.salesKey }]] as const) {
      for (const dryRun of [false, true]) {
        const r = await q(auth, { query, dryRun });
        expect([moment, label, who, dryRun, r.status]).toEqual([moment, label, who, dryRun, 403]);
        expect(JSON.stringify(r.body)).not.toMatch(/\b(100|200|300|400)\b/);
      }
    }
  }
}

async function financeReads(moment: string): Promise<void> {
  for (const [label, query] of PROBES) {
    const r = await q({ token: w.bob }, { query });
    expect([moment, label, r.status, r.body.message]).toEqual([moment, label, 200, undefined]);
    expect(JSON.stringify(r.body.data)).toMatch(/100|200|300|400/);
  }
}

async function build(): Promise<void> {
  const run = await w.s.call("POST", `${P}/versions/1.0.0/runs`, { token: w.admin, body: {} });
  expect(run.status).toBe(201);
  const ended = await waitRun(w, `${P}/runs/${run.body.id}`, { token: w.admin });
  expect(ended.state).toBe("succeeded");
}

describe("persisted sources over payroll, before and after two builds", () => {
  test("before any build: refused outside finance; bob reads", async () => {
    await outsidersRefused("before");
    await financeReads("before");
  }, 180_000);

  test("after the build and after a rebuild: still refused; bob reads the materializations", async () => {
    await build();
    const built = await w.s.call("GET", `${P}/versions/1.0.0/materializations`, { token: w.admin });
    expect(built.body.map((m: { sourceName: string; status: string }) => `${m.sourceName}:${m.status}`).sort()).toEqual(["pay_ext:built", "pay_totals:built", "pay_twice:built"]);
    await outsidersRefused("after the first build");
    await financeReads("after the first build");
    const r = await q({ token: w.bob }, { query: "run: pay_ext -> { select: * }" });
    expect(r.body.metadata.materialization).toBeDefined();
    await build();
    await outsidersRefused("after the rebuild");
    await financeReads("after the rebuild");
  }, 240_000);

  test("the models API hides the persisted sources from ann after the builds", async () => {
    const model = await w.s.call("GET", `${P}/models/models/sales.malloy`, { token: w.ann });
    expect(model.status).toBe(200);
    const names = (model.body.sources as { name: string }[]).map((s) => s.name);
    for (const hidden of ["pay_totals", "pay_ext", "pay_twice", "orders_pay", "pay_view"]) expect([hidden, names.includes(hidden)]).toEqual([hidden, false]);
    // nor does retrieval name them, their fields or their values
    const items = async (token: string) => {
      const search = await w.s.call("POST", `${API}/retrieval/context`, {
        token,
        body: { organization: "acme", search_targets: [{ entity_type: "source" }, { entity_type: "dimension", search_text: "doubled salary region" }, { entity_type: "measure", search_text: "total salary" }, { entity_type: "dimensional_value", search_text: "EU" }] },
      });
      expect(search.status).toBe(200);
      return JSON.stringify(search.body.results.map((r: { items: unknown }) => r.items));
    };
    expect(await items(w.ann)).not.toMatch(/pay_totals|pay_ext|pay_twice|orders_pay|pay_view|doubled|total_salary/);
    // bob (finance) is answered them: the search can find them
    expect(await items(w.bob)).toMatch(/pay_ext/);
  });
});

describe("publish refuses a persisted source that reaches a #(bind) source by any route", () => {
  const refused: [string, string][] = [
    ["a join of the bound source", `#@ persist\nsource: pj is payroll extend { join_many: o is orders(region_param is "x") on region = o.region } -> { group_by: region; aggregate: n is o.count() }`],
    ["a %{ } segment over the bound source", `#@ persist\nsource: ps is duckdb.sql("""select * from %{ orders(region_param is "x") -> { select: * } }""")`],
    ["a source extending a derived bound source", `#@ persist\nsource: pb is big_orders extend { dimension: y is 1 }`],
    ["a query over the package's named query of the bound source", `#@ persist\nsource: pq is revenue_by_region -> { select: * }`],
  ];
  for (const [label, extra] of refused) {
    test(`${label}: 400 naming the persisted source`, async () => {
      const files = salesFiles(`${SALES_MODEL}\n${extra}\n`);
      const r = await publish(w, `refuse${refused.findIndex(([l]) => l === label)}`, "1.0.0", { token: w.admin, files });
      expect([label, r.status]).toEqual([label, 400]);
      expect(String(r.body.message)).toMatch(/persist/);
    });
  }
});

describe("a modeler of another package", () => {
  let carl: string;
  const EVIL = SALES_QUERY.replace("/packages/sales/", "/packages/evil/").replace("models/sales.malloy", "models/evil.malloy");

  beforeAll(async () => {
    const files = new Map([
      ["publisher.json", bytes(JSON.stringify({ name: "evil", description: "another package" }))],
      ["models/evil.malloy", bytes("source: mine is duckdb.sql(\"select 1 as one\")\n")],
    ]);
    expect((await publish(w, "evil", "1.0.0", { token: w.admin, files })).status).toBe(201);
    carl = await userWith(w, "carl");
    await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: "user:carl", permission: "member" }, 201);
    await admin(w, "POST", "/organizations/acme/environments/prod/packages/evil/permissions", { userGroupId: "user:carl", permission: "modeler" }, 201);
  });

  test("reads nothing of the sales package's files through its own package's connection", async () => {
    const sha = (await w.s.service.db.sql`SELECT v.blob_sha256 FROM package_versions v JOIN packages p ON p.id = v.package_id WHERE p.name = 'sales'`)[0]?.blob_sha256 as string | undefined;
    const guesses = [
      "select * from read_csv('../*/data/payroll.csv')",
      "select * from read_csv('../../*/data/payroll.csv')",
      `select * from read_csv('${w.dataDir}/packages/*/data/payroll.csv')`,
      `select * from glob('${w.dataDir}/packages/*/data/*')`,
      ...(sha ? [`select * from read_csv('${w.dataDir}/packages/${sha}/data/payroll.csv')`] : []),
      "select * from glob('/**/payroll.csv')",
      "select * from read_csv('.' || './' || '*/data/payroll.csv')",
      "select * from read_csv(['data/../../' || '*/data/payroll.csv'])",
      "select * from read_text('../*/data/payroll.csv')",
      "select current_setting('home_directory') as h, current_setting('temp_directory') as t",
      "select * from duckdb_settings() where name in ('allowed_directories', 'file_search_path')",
      "select getenv('DATA_DIR') as d",
    ];
    // the built files of sales' persisted sources over payroll, by the locations its admin sees
    const built = (await w.s.call("GET", `${P}/versions/1.0.0/materializations`, { token: w.admin })).body as { location: string }[];
    expect(built.length).toBeGreaterThan(0);
    for (const { location } of built) {
      guesses.push(`select * from read_parquet('${location}')`, `select * from read_parquet('${w.dataDir}/${location}')`, `select * from '${location}'`);
    }
    for (const sql of guesses) {
      const r = await w.s.call("POST", EVIL, { token: carl, body: { query: `run: duckdb.sql("""${sql}""") -> { select: * }` } });
      // a refusal may quote carl's own text; rows, a salary or a listed file of sales may not come back
      expect([sql, r.status, JSON.stringify(r.body.data ?? [])]).toEqual([sql, expect.any(Number), "[]"]);
      expect([sql, r.status]).not.toEqual([sql, 200]);
      expect([sql, JSON.stringify(r.body)]).not.toEqual([sql, expect.stringMatching(/salary|\b200\b|[0-9a-f]{64}\/data/)]);
    }
    // and the sales package itself: carl holds no role on it
    const direct = await q({ token: carl }, { query: "run: payroll -> { aggregate: total_salary }" });
    expect([403, 404]).toContain(direct.status);
  });
});

describe("a persisted source over payroll in another model file, imported", () => {
  const BASE = `##! experimental.parameters
#(authorize) groups=[finance]
source: payroll is duckdb.table('data/payroll.csv') extend { measure: total_salary is salary.sum() }
`;
  const TOTALS = `import "base.malloy"
#@ persist
source: pay_totals is payroll -> { group_by: region; aggregate: total_salary }
`;
  const USES = `import "totals.malloy"
source: pay_more is pay_totals extend { dimension: one is 1 }
`;
  const M = `${API}/organizations/acme/environments/prod/packages/imports`;
  const path = (model: string) => `${M}/models/models/${model}/query`;

  beforeAll(async () => {
    const files = new Map([
      ["publisher.json", bytes(JSON.stringify({ name: "imports", description: "models importing each other" }))],
      ["models/base.malloy", bytes(BASE)],
      ["models/totals.malloy", bytes(TOTALS)],
      ["models/uses.malloy", bytes(USES)],
      ["data/payroll.csv", bytes("region,salary\nEU,100\nUS,200\n")],
    ]);
    const r = await publish(w, "imports", "1.0.0", { token: w.admin, files });
    expect([r.status, r.body.message]).toEqual([201, undefined]);
    const run = await w.s.call("POST", `${M}/versions/1.0.0/runs`, { token: w.admin, body: {} });
    expect(run.status).toBe(201);
    const ended = await waitRun(w, `${M}/runs/${run.body.id}`, { token: w.admin });
    expect(ended.state).toBe("succeeded");
  }, 120_000);

  test("after the build, ann and the API key are refused in the importing models; bob reads", async () => {
    const probes: [string, string][] = [
      ["totals.malloy", "run: pay_totals -> { select: * }"],
      ["uses.malloy", "run: pay_totals -> { select: * }"],
      ["uses.malloy", "run: pay_more -> { select: * }"],
      ["uses.malloy", "source: x is pay_more -> { select: region, total_salary }\nrun: x -> { select: * }"],
    ];
    for (const [model, query] of probes) {
      for (const [who, auth] of [["ann", { token: w.ann }], ["key", { apiKey: w.salesKey }]] as const) {
        const r = await w.s.call("POST", path(model), { ...auth, body: { query } });
        expect([model, query, who, r.status]).toEqual([model, query, who, 403]);
        expect(JSON.stringify(r.body)).not.toMatch(/\b(100|200|300)\b/);
      }
      const bob = await w.s.call("POST", path(model), { token: w.bob, body: { query } });
      expect([model, query, bob.status, JSON.stringify(bob.body.data)]).toEqual([model, query, 200, expect.stringMatching(/200/)]);
      // the built files answer (not only the definitions)
      if (query.startsWith("run: pay_more") || model === "totals.malloy") expect([model, query, bob.body.metadata.materialization]).toEqual([model, query, expect.anything()]);
    }
  });
});
