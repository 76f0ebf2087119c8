/**
 * The hostile-tenant sweep of issue 25, third part: what an ordinary member
 * (ann, in sales_eu with region EU) can do to her own groups and keys to get
 * another region's rows or payroll: a group of her own that holds finance,
 * that key's group, her own attribute values, membership of finance.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bytes } from "../fixtures/engine_package.ts";
import { API, publish } from "../packages/helpers.ts";
import { SALES_MODEL, SALES_QUERY, salesFiles, type SalesWorld, startSalesWorld } from "./world.ts";

let w: SalesWorld;
beforeAll(async () => {
  w = await startSalesWorld();
}, 300_000);
afterAll(() => w?.s.close(), 120_000);

const ORG = `${API}/organizations/acme`;
const ORDERS = "run: orders -> { group_by: region; aggregate: revenue }";
const PAYROLL = "run: payroll -> { aggregate: total_salary }";

describe("a member's own groups, keys and values", () => {
  test("ann cannot change her region, join finance, mint its keys, promote herself or nest finance: 403 each, and her answers stay", async () => {
    const tries: [string, string, unknown][] = [
      ["PUT", `${ORG}/attributes/region/users/ann`, { value: "US" }],
      ["PUT", `${ORG}/attributes/region/groups/sales_eu`, { value: "US", rank: 0 }],
      ["POST", `${ORG}/groups/finance/members`, { members: [{ principal: "user:ann", status: "member" }] }],
      ["POST", `${ORG}/groups/finance/tokens?name=mine`, undefined],
      ["PATCH", `${ORG}/groups/sales_eu/members/user:ann`, { status: "admin" }],
      ["POST", `${ORG}/groups/sales_eu/members`, { members: [{ principal: "group:finance", status: "member" }] }],
      ["POST", `${ORG}/groups`, { name: "anns" }],
    ];
    for (const [method, path, body] of tries) {
      const r = await w.s.call(method, path, { token: w.ann, body });
      expect([method, path, r.status]).toEqual([method, path, 403]);
    }
    const orders = await w.s.call("POST", SALES_QUERY, { token: w.ann, body: { query: ORDERS } });
    expect(orders.body.data).toEqual([{ region: "EU", revenue: 30 }]);
    expect((await w.s.call("POST", SALES_QUERY, { token: w.ann, body: { query: PAYROLL } })).status).toBe(403);
  });

  test("#(authorize) counts the groups a caller is in, not the groups inside its own: a key of a group holding finance is refused, a key of a group inside finance reads", async () => {
    const asAdmin = (method: string, path: string, body?: unknown) => w.s.call(method, `${ORG}${path}`, { token: w.admin, body });
    for (const name of ["holder", "inner"]) expect((await asAdmin("POST", "/groups", { name })).status).toBe(201);
    // finance inside holder; inner inside finance
    expect([200, 201]).toContain((await asAdmin("POST", "/groups/holder/members", { members: [{ principal: "group:finance", status: "member" }, { principal: "user:ann", status: "member" }] })).status);
    expect([200, 201]).toContain((await asAdmin("POST", "/groups/finance/members", { members: [{ principal: "group:inner", status: "member" }] })).status);
    expect((await asAdmin("POST", "/environments/prod/permissions", { userGroupId: "group:holder", permission: "viewer" })).status).toBe(201);
    const holderKey = (await asAdmin("POST", "/groups/holder/tokens?name=k")).body.secret as string;
    const innerKey = (await asAdmin("POST", "/groups/inner/tokens?name=k")).body.secret as string;
    const ask = (auth: { token?: string; apiKey?: string }, query: string) => w.s.call("POST", SALES_QUERY, { ...auth, body: { query } });
    const refused = await ask({ apiKey: holderKey }, PAYROLL);
    expect([refused.status, JSON.stringify(refused.body)]).toEqual([403, expect.not.stringMatching(/\b300\b/)]);
    expect((await ask({ token: w.ann }, PAYROLL)).status).toBe(403);
    const inner = await ask({ apiKey: innerKey }, PAYROLL);
    expect([inner.status, inner.body.data]).toEqual([200, [{ total_salary: 300 }]]);
  });
});

describe("a bound parameter with a default, reached without an argument", () => {
  const DEFAULTED = SALES_MODEL.replace("orders(region_param::string)", "orders(region_param::string is 'US')")
    + "\nsource: pay_join is payroll extend { join_many: o is orders on region = o.region }\nsource: plain is orders extend { dimension: z is 1 }\n"
    + "source: oq2 is orders -> { select: * }\nsource: seg is duckdb.sql(\"\"\"select * from %{ orders -> { select: id, region } }\"\"\")\n"
    + "query: nq is orders -> { group_by: id; order_by: id }\nsource: joiner is duckdb.table('data/payroll.csv') extend { join_many: o is orders on region = o.region; view: v is { nest: n is { group_by: o.id } } }\n";
  const path = SALES_QUERY.replace("/packages/sales/", "/packages/dflt/");

  beforeAll(async () => {
    const r = await publish(w, "dflt", "1.0.0", { token: w.admin, files: salesFiles(DEFAULTED) });
    expect([r.status, r.body.message]).toEqual([201, undefined]);
  });

  test("the default never stands in for the caller's value: ann reads EU, bob reads US through the join", async () => {
    for (const query of ["run: orders -> { group_by: id; order_by: id }", "run: plain -> { group_by: id; order_by: id }"]) {
      const r = await w.s.call("POST", path, { token: w.ann, body: { query } });
      expect([query, r.status, r.body.data]).toEqual([query, 200, [{ id: 1 }, { id: 2 }]]);
    }
    // every other way of reaching orders without an argument: a query source, a %{ } segment, a named query, a nest through a join
    const more: [string, number[]][] = [
      ["run: oq2 -> { group_by: id; order_by: id }", [1, 2]],
      ["run: seg -> { group_by: id; order_by: id }", [1, 2]],
      ["run: nq", [1, 2]],
      ["run: joiner -> { where: o.id != null; group_by: o.id; order_by: id }", [1, 2]],
      ["run: joiner -> v", [1, 2]],
    ];
    for (const [query, expected] of more) {
      const r = await w.s.call("POST", path, { token: w.ann, body: { query } });
      const seen = new Set<number>();
      JSON.stringify(r.body.data ?? null).replace(/"id":(\d+)/g, (_m, id) => (seen.add(Number(id)), ""));
      expect([query, r.status, [...seen].sort()]).toEqual([query, 200, expected]);
    }
    const bob = await w.s.call("POST", path, { token: w.bob, body: { query: "run: pay_join -> { where: o.id != null; group_by: o.id; order_by: id }" } });
    expect([bob.status, bob.body.data]).toEqual([200, [{ id: 3 }, { id: 4 }]]);
  });
});

describe("an app token", () => {
  test("ann's app token of the package answers her rows and is refused payroll", async () => {
    const minted = await w.s.call("POST", `${ORG}/environments/prod/packages/sales/app-token`, { token: w.ann });
    expect(minted.status).toBe(200);
    const appToken = minted.body.token as string;
    const orders = await w.s.call("POST", SALES_QUERY, { token: appToken, body: { query: "run: orders extend { rename: r is region } -> { group_by: r; aggregate: revenue }" } });
    expect([orders.status, orders.body.data]).toEqual([200, [{ r: "EU", revenue: 30 }]]);
    // the shadowing attack is refused on the app's path too
    const attack = await w.s.call("POST", SALES_QUERY, { token: appToken, body: { query: "run: orders extend { rename: r is region; dimension: region is 'EU' } -> { group_by: r; aggregate: revenue }" } });
    expect([attack.status, attack.body.message]).toEqual([400, expect.stringContaining("the query redefines 'region'")]);
    const payroll = await w.s.call("POST", SALES_QUERY, { token: appToken, body: { query: PAYROLL } });
    expect(payroll.status).toBe(403);
  });
});

describe("a change of attributes or groups takes effect on the next query (no cached value or group answers)", () => {
  test("dan moved from EU to US, then out of every region; eve removed from finance", async () => {
    const asAdmin = (method: string, path: string, body?: unknown) => w.s.call(method, `${ORG}${path}`, { token: w.admin, body });
    const dan = await w.s.createUser("dan");
    const eve = await w.s.createUser("eve");
    for (const user of ["dan", "eve"]) {
      expect((await asAdmin("POST", "/permissions", { userGroupId: `user:${user}`, permission: "member" })).status).toBe(201);
      // viewers of the environment in their own right, so leaving a group changes only what the group gave
      expect((await asAdmin("POST", "/environments/prod/permissions", { userGroupId: `user:${user}`, permission: "viewer" })).status).toBe(201);
    }
    expect([200, 201]).toContain((await asAdmin("POST", "/groups/sales_eu/members", { members: [{ principal: "user:dan", status: "member" }] })).status);
    expect([200, 201]).toContain((await asAdmin("POST", "/groups/finance/members", { members: [{ principal: "user:eve", status: "member" }] })).status);
    const ask = (token: string, query: string) => w.s.call("POST", SALES_QUERY, { token, body: { query } });
    // warm every cache with the first answers
    for (let i = 0; i < 3; i++) {
      expect((await ask(dan, ORDERS)).body.data).toEqual([{ region: "EU", revenue: 30 }]);
      expect((await ask(eve, PAYROLL)).body.data).toEqual([{ total_salary: 300 }]);
    }
    expect([200, 201]).toContain((await asAdmin("PUT", "/attributes/region/users/dan", { value: "US" })).status);
    expect((await ask(dan, ORDERS)).body.data).toEqual([{ region: "US", revenue: 45 }]);
    expect([200, 204]).toContain((await asAdmin("DELETE", "/attributes/region/users/dan")).status);
    expect((await ask(dan, ORDERS)).body.data).toEqual([{ region: "EU", revenue: 30 }]);
    expect([200, 204]).toContain((await asAdmin("DELETE", "/groups/sales_eu/members", { members: [{ principal: "user:dan" }] })).status);
    const none = await ask(dan, ORDERS);
    expect([none.status, none.body.data]).toEqual([403, undefined]);
    expect([200, 204]).toContain((await asAdmin("DELETE", "/groups/finance/members", { members: [{ principal: "user:eve" }] })).status);
    const out = await ask(eve, PAYROLL);
    expect([out.status, out.body.data]).toEqual([403, undefined]);
  });
});

describe("an organization of ann's own", () => {
  test("ann, admin of another organization, with a region attribute there, her value US and a group finance holding her: nothing changes in acme", async () => {
    // an organization where ann is the admin (made for her by the system admin if she may not make one)
    const made = await w.s.call("POST", `${API}/organizations`, { token: w.ann, body: { name: "annco" } });
    if (made.status !== 201) {
      expect((await w.s.call("POST", `${API}/organizations`, { token: w.admin, body: { name: "annco" } })).status).toBe(201);
      expect((await w.s.call("POST", `${API}/organizations/annco/permissions`, { token: w.admin, body: { userGroupId: "user:ann", permission: "admin" } })).status).toBe(201);
    }
    const OWN = `${API}/organizations/annco`;
    const steps: [string, string, unknown][] = [
      ["PUT", `${OWN}/attributes/region`, { type: "string" }],
      ["PUT", `${OWN}/attributes/region/users/ann`, { value: "US" }],
      ["POST", `${OWN}/groups`, { name: "finance" }],
      ["POST", `${OWN}/groups/finance/members`, { members: [{ principal: "user:ann", status: "member" }] }],
      ["PUT", `${OWN}/attributes/region/groups/finance`, { value: "US", rank: 0 }],
    ];
    for (const [method, path, body] of steps) {
      const r = await w.s.call(method, path, { token: w.ann, body });
      expect([path, r.status < 300]).toEqual([path, true]);
    }
    const orders = await w.s.call("POST", SALES_QUERY, { token: w.ann, body: { query: ORDERS } });
    expect(orders.body.data).toEqual([{ region: "EU", revenue: 30 }]);
    expect((await w.s.call("POST", SALES_QUERY, { token: w.ann, body: { query: PAYROLL } })).status).toBe(403);
    // a key of her own finance group is no key of acme's
    const key = await w.s.call("POST", `${OWN}/groups/finance/tokens?name=k`, { token: w.ann });
    expect(key.status).toBe(201);
    const r = await w.s.call("POST", SALES_QUERY, { apiKey: key.body.secret as string, body: { query: PAYROLL } });
    expect([403, 404]).toContain(r.status);
  });
});

describe("rules written in an imported model file and in a notebook", () => {
  const BASE = SALES_MODEL;
  const USES = `##! experimental.parameters
import "sales.malloy"
source: mine is orders(region_param is "ignored") extend { dimension: z is 1 }
`;
  const NOTEBOOK = `>>>markdown
# Salaries (finance only) and orders
>>>malloy
##! experimental.parameters
#(authorize) groups=[finance]
source: nb_pay is duckdb.table('data/payroll.csv') extend { measure: total_salary is salary.sum() }
>>>malloy
#(bind) region_param=region
source: nb_orders(region_param::string) is duckdb.table('data/orders.csv') extend { where: region = region_param }
`;
  const M = `${API}/organizations/acme/environments/prod/packages/split/models/models`;

  beforeAll(async () => {
    const files = new Map([...salesFiles(BASE), ["models/uses.malloy", bytes(USES)], ["models/book.malloynb", bytes(NOTEBOOK)]]);
    const r = await publish(w, "split", "1.0.0", { token: w.admin, files });
    expect([r.status, r.body.message]).toEqual([201, undefined]);
  });

  test("a bound source imported into another model keeps its barrier; the notebook's rules hold", async () => {
    const cases: [string, string, unknown][] = [
      ["uses.malloy", "run: orders extend { rename: r is region } -> { group_by: id; order_by: id }", [{ id: 1 }, { id: 2 }]],
      ["uses.malloy", "run: orders extend { rename: r is region; dimension: region is 'EU' } -> { group_by: id; order_by: id }", 400],
      ["uses.malloy", "run: mine extend { except: region; dimension: region is 'EU' } -> { group_by: id; order_by: id }", 400],
      ["uses.malloy", "run: payroll -> { aggregate: total_salary }", 403],
      ["book.malloynb", "run: nb_pay -> { aggregate: total_salary }", 403],
      ["book.malloynb", "run: nb_orders extend { rename: r is region } -> { group_by: id; order_by: id }", [{ id: 1 }, { id: 2 }]],
      ["book.malloynb", "run: nb_orders extend { rename: r is region; dimension: region is 'EU' } -> { group_by: id; order_by: id }", 400],
    ];
    for (const [model, query, expected] of cases) {
      for (const auth of [{ token: w.ann }, { apiKey: w.salesKey }]) {
        const r = await w.s.call("POST", `${M}/${model}/query`, { ...auth, body: { query } });
        expect([model, query, typeof expected === "number" ? r.status : r.body.data]).toEqual([model, query, expected]);
      }
    }
    const bob = await w.s.call("POST", `${M}/book.malloynb/query`, { token: w.bob, body: { query: "run: nb_pay -> { aggregate: total_salary }" } });
    expect([bob.status, bob.body.data]).toEqual([200, [{ total_salary: 300 }]]);
  });
});

describe("annotations in query text", () => {
  test("a #(bind) in the caller's text naming another attribute (where ann holds US) never fills the bound parameter", async () => {
    const asAdmin = (method: string, path: string, body?: unknown) => w.s.call(method, `${ORG}${path}`, { token: w.admin, body });
    expect((await asAdmin("PUT", "/attributes/home", { type: "string" })).status).toBe(201);
    expect([200, 201]).toContain((await asAdmin("PUT", "/attributes/home/users/ann", { value: "US" })).status);
    const texts = [
      "#(bind) region_param=home\nsource: x is orders extend { dimension: z is 1 }\nrun: x -> { group_by: id; order_by: id }",
      "run: orders extend {\n  #(bind) region_param=home\n  dimension: z is 1\n} -> { group_by: id; order_by: id }",
      "#(bind) region_param=home\nrun: orders -> { group_by: id; order_by: id }",
      "#(authorize) groups=[sales_eu]\nsource: y is payroll extend { dimension: z is 1 }\nrun: y -> { aggregate: total_salary }",
    ];
    for (const query of texts) {
      for (const auth of [{ token: w.ann }, { apiKey: w.salesKey }]) {
        const r = await w.s.call("POST", SALES_QUERY, { ...auth, body: { query } });
        if (query.includes("payroll")) expect([query, r.status]).toEqual([query, 403]);
        else expect([query, r.status, r.body.data]).toEqual([query, 200, [{ id: 1 }, { id: 2 }]]);
      }
    }
  });
});
