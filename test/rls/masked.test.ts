/**
 * A `#(bind)` parameter read outside `where:` (a masking dimension, a
 * filtered measure, a view's `where:`) is resolved by name in the source the
 * query text built, so `rename: r is region; dimension: region is 'EU'`
 * turned the package's `region = region_param` into `'EU' = 'EU'` and
 * unmasked every region's amounts (found by the hostile-tenant sweep of
 * issue 25). Query text may not give a name of a row-level security source
 * another definition: such queries are refused.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SALES_MODEL, SALES_QUERY, type SalesWorld, startSalesWorld } from "./world.ts";

const MODEL = `${SALES_MODEL.replace("##! experimental.parameters", "##! experimental { parameters access_modifiers }")}
#(doc) Every order, with the amount shown only for the caller's own region
#(bind) region_param=region
source: masked(region_param::string) is duckdb.table('data/orders.csv') include { public: id, region; private: amount } extend {
  dimension: own_amount is pick amount when region = region_param else 0
  measure: own_revenue is own_amount.sum()
  view: mine is { where: region = region_param; group_by: id; order_by: id }
}

#(bind) region_param=region
source: sorders(region_param::string) is duckdb.sql("""select * from 'data/orders.csv'""") extend { where: region = region_param }
`;

let w: SalesWorld;
beforeAll(async () => {
  w = await startSalesWorld({}, { model: MODEL });
}, 300_000);
afterAll(() => w?.s.close());

type Auth = { token?: string; apiKey?: string };
const q = (auth: Auth, query: string) => w.s.call("POST", SALES_QUERY, { ...auth, body: { query } });
const callers: [string, () => Auth][] = [["ann", () => ({ token: w.ann })], ["sales_eu API key", () => ({ apiKey: w.salesKey })]];

const REFUSED = /^the query redefines '(region|r)' of source 'masked', whose row-level security definitions read it by name/;

describe("a bound parameter read outside where: (a mask, a filtered measure, a view's where:)", () => {
  test("the package's source masks other regions' amounts", async () => {
    const r = await q({ token: w.ann }, "run: masked -> { group_by: id, own_amount; order_by: id }");
    expect(r.body.data).toEqual([{ id: 1, own_amount: 10 }, { id: 2, own_amount: 20 }, { id: 3, own_amount: 0 }, { id: 4, own_amount: 0 }, { id: 5, own_amount: 0 }]);
  });

  test("a caller's extend that redefines nothing of the package keeps the mask", async () => {
    const r = await q({ token: w.ann }, "run: masked extend { dimension: extra is 1; rename: rid is id } -> { group_by: rid, own_amount, extra; order_by: rid }");
    expect([r.status, r.body.data.map((row: { own_amount: number }) => row.own_amount)]).toEqual([200, [10, 20, 0, 0, 0]]);
  });

  test("rename, except or a chain that puts another definition under 'region' is refused (400), for ann and the API key", async () => {
    const attacks = [
      "run: masked extend { rename: r is region; dimension: region is 'EU' } -> { group_by: id, own_amount; order_by: id }",
      "run: masked extend { except: region; dimension: region is 'EU' } -> { aggregate: own_revenue }",
      "run: masked extend { rename: r is region; dimension: region is 'EU' } -> mine",
      "source: a is masked extend { rename: r is region }\nsource: b is a extend { dimension: region is 'EU' }\nrun: b -> { aggregate: own_revenue }",
    ];
    for (const [who, auth] of callers) {
      for (const query of attacks) {
        const r = await q(auth(), query);
        expect([who, query, r.status, r.body.message]).toEqual([who, query, 400, expect.stringMatching(REFUSED)]);
      }
    }
  });
});

describe("a bound SQL source", () => {
  test("a caller's extend that adds a field answers the caller's rows (it was refused as reading another relation)", async () => {
    for (const [who, auth] of callers) {
      const r = await q(auth(), "run: sorders extend { dimension: z is 1 } -> { group_by: id, z; order_by: id }");
      expect([who, r.status, r.body.data]).toEqual([who, 200, [{ id: 1, z: 1 }, { id: 2, z: 1 }]]);
    }
  });

  test("the rename attack on it is refused", async () => {
    const r = await q({ token: w.ann }, "run: sorders extend { rename: r is region; dimension: region is 'EU' } -> { group_by: id }");
    expect([r.status, r.body.message]).toEqual([400, expect.stringContaining("the query redefines '")]);
  });
});
