/**
 * What runs built, as the indexes API shows it: the values of an
 * `#(authorize)` source's index are data of that source, so only callers who
 * may query it read them (as get_context and the retrieval API); viewers do
 * not even see such an index listed (as the models API hides the source).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { API } from "../packages/helpers.ts";
import { waitRun } from "../runs/fixtures.ts";
import { admin, SALES_MODEL, type SalesWorld, startSalesWorld } from "./world.ts";

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
`;

let w: SalesWorld;
let mo: string;
const P = `${API}/organizations/acme/environments/prod/packages/sales`;
const V = `${P}/versions/1.0.0`;
let payrollIndex: string;
let built: { id: string; sourceName: string }[];
const ON_PAYROLL = ["open_pay", "payroll", "payroll_copy"];

beforeAll(async () => {
  w = await startSalesWorld({}, { model: MODEL });
  mo = await w.s.createUser("mo");
  await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: "user:mo", permission: "member" }, 201);
  await admin(w, "POST", "/organizations/acme/environments/prod/packages/sales/permissions", { userGroupId: "user:mo", permission: "modeler" }, 201);
  const runs = await w.s.call("GET", `${P}/runs`, { token: w.admin });
  await waitRun(w, `${P}/runs/${runs.body[0].id}`, { token: w.admin });
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

  test("a modeler outside the group sees the index, without its values; members of the group read them", async () => {
    const list = await w.s.call("GET", `${V}/indexes`, { token: mo });
    expect(list.body.map((i: { id: string }) => i.id).sort()).toEqual(built.map((i) => i.id).sort());
    for (const index of built) {
      const one = await w.s.call("GET", `${V}/indexes/${index.id}`, { token: mo });
      expect(one.status).toBe(200);
      expect([index.sourceName, one.body.values]).toEqual([index.sourceName, []]);
    }
    // bob is in finance (a viewer): the values, most frequent first
    const bob = await w.s.call("GET", `${V}/indexes/${payrollIndex}`, { token: w.bob });
    expect(bob.status).toBe(200);
    expect(bob.body.values.map((v: { value: string }) => v.value).sort()).toEqual(["EU", "US"]);
    // an organization admin outside the group: the values stay hidden (as for its queries)
    const org = await w.s.call("GET", `${V}/indexes/${payrollIndex}`, { token: w.admin });
    expect(org.body.values).toEqual([]);
  });
});
