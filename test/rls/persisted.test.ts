/**
 * A `#@ persist` source built on an `#(authorize)` source keeps that rule
 * once built: the materialization rewrite replaces the query behind
 * `pay_totals` with its Parquet file, and that query was the only path to
 * payroll's rule, so after the build ann, the sales_eu API key and MCP read
 * payroll's totals. Every way of reaching the built sources is tried before
 * and after the build, on REST (run and dry run) and MCP (API key, OAuth).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { API } from "../packages/helpers.ts";
import { waitRun } from "../runs/fixtures.ts";
import { SALES_MODEL, SALES_QUERY, type SalesClients, type SalesWorld, connectSalesClients, startSalesWorld } from "./world.ts";

const MODEL = `${SALES_MODEL}
#@ persist
source: pay_totals is payroll -> { group_by: payroll_region; aggregate: total_salary }

source: pay_more is pay_totals extend { dimension: one is 1 }

query: pay_q is pay_totals -> { select: payroll_region, total_salary }

#@ persist
source: pay_sql is duckdb.sql("""select region, salary from %{ payroll -> { select: region, salary } }""")

source: pay_seg is duckdb.sql("""select * from %{ pay_totals }""")
`;

let w: SalesWorld;
let keyClient: Client;
let oauthClient: Client;
let clients: SalesClients | undefined;
const P = `${API}/organizations/acme/environments/prod/packages/sales`;
const base = { environment_name: "prod", package_name: "sales", model_uri: "models/sales.malloy" };

/** Ways to reach payroll's rows through the persisted sources. */
const PROBES: [string, Record<string, unknown>][] = [
  ["the persisted source", { query: "run: pay_totals -> { select: * }" }],
  ["a package source extending it", { query: "run: pay_more -> { group_by: payroll_region, one; aggregate: s is total_salary.sum() }" }],
  ["a named query over it", { queryName: "pay_q", sourceName: "pay_totals" }],
  ["the caller's extend of it", { query: "source: y is pay_totals extend { dimension: z is 2 }\nrun: y -> { select: *; }" }],
  ["a join of it in the caller's text", { query: "run: orders extend { join_many: t is pay_totals on region = t.payroll_region } -> { aggregate: s is t.total_salary.sum() }" }],
  ["a query source over it in the caller's text", { query: "source: qs is pay_totals -> { select: payroll_region, total_salary }\nrun: qs -> { select: * }" }],
  ["a persisted SQL source with a %{ } segment over payroll", { query: "run: pay_sql -> { select: * }" }],
  ["a SQL source with a %{ } segment of the persisted source", { query: "run: pay_seg -> { select: * }" }],
];

type Auth = { token?: string; apiKey?: string };
const q = (auth: Auth, body: object) => w.s.call("POST", SALES_QUERY, { ...auth, body });

beforeAll(async () => {
  // no run at publish: the probes run before anything is built, then after the run
  w = await startSalesWorld({ INDEX_ON_PUBLISH: "false" }, { model: MODEL });
  clients = await connectSalesClients(w);
  ({ keyClient, oauthClient } = clients);
}, 300_000);
afterAll(async () => {
  await (clients ? clients.close() : w?.s.close());
}, 120_000);

/** Every probe, for every caller outside finance, on every path: refused (403 / isError), never a salary. */
async function outsidersRefused(moment: string): Promise<void> {
  for (const [label, body] of PROBES) {
    for (const [who, auth] of [["ann", { token: w.ann }], ["the sales_eu API key", { apiKey: w.salesKey }]] as const) {
      for (const dryRun of [false, true]) {
        const r = await q(auth, { ...body, dryRun });
        expect([moment, label, who, dryRun, r.status]).toEqual([moment, label, who, dryRun, 403]);
        expect(JSON.stringify(r.body)).not.toMatch(/\b(100|200|300)\b/);
      }
    }
    const args = { ...base, ...(body.query ? { query: body.query } : { query_name: body.queryName, source_name: body.sourceName }) };
    for (const [who, client] of [["API key", keyClient], ["OAuth (ann)", oauthClient]] as const) {
      const result = await client.callTool({ name: "execute_query", arguments: args }) as { isError?: boolean; content: { text: string }[] };
      expect([moment, label, who, result.isError]).toEqual([moment, label, who, true]);
      expect(result.content[0]!.text).not.toMatch(/\b(100|200|300)\b/);
    }
  }
}

/** bob (finance) reads every probe. */
async function financeReads(moment: string): Promise<void> {
  for (const [label, body] of PROBES) {
    const r = await q({ token: w.bob }, body);
    expect([moment, label, r.status, r.body.message]).toEqual([moment, label, 200, undefined]);
    expect(JSON.stringify(r.body.data)).toMatch(/100|200|300|400/);
  }
}

describe("a #@ persist source over an #(authorize) source", () => {
  test("before the build: callers outside finance are refused on every path; bob reads", async () => {
    await outsidersRefused("before");
    await financeReads("before");
  }, 180_000);

  test("after the build: still refused on every path; bob reads the materialization", async () => {
    const run = await w.s.call("POST", `${P}/versions/1.0.0/runs`, { token: w.admin, body: {} });
    expect(run.status).toBe(201);
    const ended = await waitRun(w, `${P}/runs/${run.body.id}`, { token: w.admin });
    expect(ended.state).toBe("succeeded");
    const built = await w.s.call("GET", `${P}/versions/1.0.0/materializations`, { token: w.admin });
    expect(built.body.map((m: { sourceName: string; status: string }) => `${m.sourceName}:${m.status}`).sort()).toEqual(["pay_more:built", "pay_sql:built", "pay_totals:built"]);
    await outsidersRefused("after");
    await financeReads("after");
    // bob's answer comes from the build
    const r = await q({ token: w.bob }, { query: "run: pay_totals -> { select: * }" });
    expect(r.body.metadata.materialization).toBeDefined();
  }, 180_000);
});
