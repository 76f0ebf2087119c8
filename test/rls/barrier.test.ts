/**
 * The barrier of `#(bind)` (src/rls/barrier.ts): the model's filters of a
 * bound source run in an inner stage that ends in a LIMIT, so no expression
 * of the caller is evaluated on a row the bound condition drops. The oracle
 * fails on the one row whose amount is 40, a US row: ann, the sales_eu API
 * key (EU) and bob (US, through a join, on an EU row) must get their own
 * rows' answer, whichever way the source is reached.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { publish } from "../packages/helpers.ts";
import { SALES_MODEL, SALES_QUERY, type SalesWorld, salesFiles, startSalesWorld } from "./world.ts";

/** A bound source whose filter reads a joined source: its rows cannot pass the barrier (refused at publish). */
const JOINED = `
#(bind) region_param=region
source: joined_orders(region_param::string) is duckdb.table('data/orders.csv') extend {
  join_one: p is duckdb.table('data/payroll.csv') on region = p.region
  where: p.region = region_param
}
`;

let w: SalesWorld;
beforeAll(async () => {
  w = await startSalesWorld();
}, 300_000);
afterAll(() => w?.s.close());

/** Fails on any row whose amount is `amount` (its region is not a number). */
const fails = (amount: number, prefix = "") => `(pick ${prefix}region when ${prefix}amount = ${amount} else '1')::number = 1`;
const ORACLE = `run: orders -> { where: ${fails(40)}; aggregate: c is count() }`;

type Auth = { token?: string; apiKey?: string };
async function ask(auth: Auth, body: object): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = { "content-type": "application/json", authorization: auth.token ? `Bearer ${auth.token}` : `ApiKey ${auth.apiKey}` };
  const r = await w.s.service.handle(new Request(`http://localhost${SALES_QUERY}`, { method: "POST", headers, body: JSON.stringify(body) }));
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

describe("the #(bind) barrier", () => {
  test("the oracle answers ann and the sales_eu API key with the count of their EU rows", async () => {
    for (const [who, auth] of [["ann", { token: w.ann }], ["sales_eu key", { apiKey: w.salesKey }]] as const) {
      const r = await ask(auth, { query: ORACLE });
      expect([who, r.status, r.body.data]).toEqual([who, 200, [{ c: 2 }]]);
    }
  });

  test("through a source that extends the bound one, a named query, a view and the caller's own extend", async () => {
    const cases: [string, string, unknown][] = [
      ["big_orders (extends orders)", `run: big_orders -> { where: ${fails(40)}; aggregate: c is count() }`, [{ c: 1 }]],
      ["named query revenue_by_region", `run: revenue_by_region + { where: ${fails(40)} }`, [{ region: "EU", revenue: 30 }]],
      ["view by_region", `run: orders -> by_region + { where: ${fails(40)} }`, [{ region: "EU", revenue: 30 }]],
      ["a where: in the caller's extend", `run: orders extend { where: ${fails(40)} } -> { aggregate: c is count() }`, [{ c: 2 }]],
      ["a dimension of the caller's extend", `run: orders extend { dimension: x is (pick region when amount = 40 else '1')::number } -> { where: x = 1; aggregate: c is count() }`, [{ c: 2 }]],
      ["a source the query text defines", `source: mine is orders extend { where: ${fails(40)} }\nrun: mine -> { aggregate: c is count() }`, [{ c: 2 }]],
    ];
    for (const [label, query, data] of cases) {
      const r = await ask({ token: w.ann }, { query });
      expect([label, r.status, r.body.data]).toEqual([label, 200, data]);
    }
  });

  test("bob (US) through payroll_with_orders, which joins the bound source: the oracle on an EU row answers his US rows", async () => {
    const query = `run: payroll_with_orders -> { where: ${fails(10, "o.")}; aggregate: c is o.count() }`;
    const r = await ask({ token: w.bob }, { query });
    expect([r.status, r.body.data]).toEqual([200, [{ c: 2 }]]);
    // the joined rows come from the barrier's stage, not from the table with the bound condition in the ON clause
    const sql = String((await ask({ token: w.bob }, { query, dryRun: true })).body.sql);
    expect(sql.indexOf("LIMIT 9007199254740991")).toBeGreaterThan(sql.indexOf(`base."region"='US'`));
    expect(sql).toMatch(/LEFT JOIN \(SELECT .* FROM __stage0 as x\) AS o_0/);
  });

  test("the SQL of a bound query (dry run) filters the bound rows in a stage that ends in a LIMIT; the caller's where: comes after it", async () => {
    const r = await ask({ token: w.ann }, { query: ORACLE, dryRun: true });
    expect(r.status).toBe(200);
    const sql = String(r.body.sql);
    const bound = sql.indexOf(`base."region"='EU'`);
    const limit = sql.indexOf("LIMIT 9007199254740991");
    const caller = sql.indexOf("CASE WHEN");
    expect(bound).toBeGreaterThan(-1);
    expect(limit).toBeGreaterThan(bound);
    expect(caller).toBeGreaterThan(limit);
    // an unbound source keeps its single WHERE (no stage added)
    const unbound = await ask({ token: w.bob }, { query: "run: payroll -> { aggregate: total_salary }", dryRun: true });
    expect(String(unbound.body.sql)).not.toContain("LIMIT 9007199254740991");
  });

  test("a model with a bound source whose where: reads a joined source is refused at publish (400 naming it)", async () => {
    const r = await publish(w, "joined", "1.0.0", { token: w.admin, files: salesFiles(SALES_MODEL + JOINED) });
    expect(r.status).toBe(400);
    expect(String(r.body.message)).toContain("source 'joined_orders' filters on 'p.region', which is not a column or dimension of its own");
  });
});
