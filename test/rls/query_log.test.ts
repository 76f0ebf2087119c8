/**
 * The query log (each status, filters, cursor, isolation between
 * organizations, retention), effective values with `from`, precedence, and
 * publish validation of `#(bind)`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { pruneEntries } from "../../src/query_log/store.ts";
import { API, publish } from "../packages/helpers.ts";
import { admin, SALES_MODEL, SALES_QUERY, salesFiles, type SalesWorld, startSalesWorld } from "./world.ts";

let w: SalesWorld;
const LOG = `${API}/organizations/acme/query-log`;

const q = (auth: { token?: string; apiKey?: string }, body: object) => w.s.call("POST", SALES_QUERY, { ...auth, body });
const log = async (query = "") => (await w.s.call("GET", `${LOG}${query}`, { token: w.admin })).body as Record<string, unknown>[];

beforeAll(async () => {
  w = await startSalesWorld({ QUERY_TIMEOUT_MS: "3000" });
}, 300_000);
afterAll(() => w?.s.close());

describe("query log", () => {
  test("one entry per query with each status, newest first, durable once answered", async () => {
    const ok = await q({ token: w.ann }, { query: "orders -> { aggregate: revenue }" });
    expect(ok.status).toBe(200);
    // the entry is committed before the answer: visible right away
    const [first] = await log();
    expect(first).toMatchObject({
      principal: "user:ann", via: "rest", environmentName: "prod", packageName: "sales", versionId: "1.0.0",
      modelPath: "models/sales.malloy", query: "orders -> { aggregate: revenue }", queryName: null, sourceName: null,
      boundAttributes: ["region"], rows: 1, status: "ok", error: null,
    });
    expect(typeof first!.ms).toBe("number");
    expect(new Date(first!.at as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect((await q({ token: w.ann }, { query: "orders -> { aggregate: nope }" })).status).toBe(400);
    expect((await q({ apiKey: w.salesKey }, { query: "payroll -> { aggregate: total_salary }" })).status).toBe(403);
    expect((await q({ token: w.bob }, { queryName: "revenue_by_region", sourceName: "orders" })).status).toBe(200);
    const entries = await log();
    expect(entries.slice(0, 4).map((e) => [e.principal, e.status])).toEqual([
      ["user:bob", "ok"], ["group:sales_eu", "refused"], ["user:ann", "error"], ["user:ann", "ok"],
    ]);
    expect(entries[0]).toMatchObject({ queryName: "revenue_by_region", sourceName: "orders", query: null, boundAttributes: ["region"] });
    expect(entries[1]!.error).toContain("'finance'");
    expect(entries[2]!.error).toContain("nope");
  });

  test("a query over the time limit is logged as timeout", async () => {
    // a modeler may query the connection directly: a cross join too big to finish in 3 s
    await admin(w, "POST", "/organizations/acme/environments/prod/packages/sales/permissions", { userGroupId: "user:bob", permission: "modeler" }, 201);
    const r = await q({ token: w.bob }, { query: `run: duckdb.sql("select a.range as x from range(100000) a, range(100000) b") -> { aggregate: s is x.sum() }` });
    expect(r.status).toBe(400);
    expect(r.body.kind).toBe("timeout");
    const [entry] = await log("?status=timeout");
    expect(entry).toMatchObject({ principal: "user:bob", status: "timeout" });
  });

  test("app queries (a sandboxed page: Origin null) are logged with via app", async () => {
    const appCall = await w.s.call("POST", SALES_QUERY, { token: w.ann, body: { query: "orders -> { aggregate: order_count }" }, headers: { origin: "null" } });
    expect(appCall.status).toBe(200);
    expect((await log("?limit=1"))[0]).toMatchObject({ via: "app", principal: "user:ann" });
  });

  test("filters, cursor paging and admin-only access", async () => {
    const byAnn = await log("?principal=user:ann");
    expect(byAnn.length).toBeGreaterThan(1);
    expect(byAnn.every((e) => e.principal === "user:ann")).toBe(true);
    expect((await log("?status=refused")).every((e) => e.status === "refused")).toBe(true);
    expect(await log("?packageName=other")).toEqual([]);
    const page = await w.s.call("GET", `${LOG}?limit=2`, { token: w.admin });
    expect(page.body.length).toBe(2);
    const next = /<([^>]+)>; rel="next"/.exec(page.headers.get("link") ?? "")?.[1];
    expect(next).toBeDefined();
    const second = await w.s.call("GET", next!, { token: w.admin });
    expect(second.body.length).toBeGreaterThan(0);
    expect(Number(second.body[0].id)).toBeLessThan(Number(page.body[1].id));
    expect((await w.s.call("GET", LOG, { token: w.ann })).status).toBe(403);
    expect((await w.s.call("GET", `${LOG}?status=weird`, { token: w.admin })).status).toBe(400);
    expect((await w.s.call("GET", `${LOG}?cursor=%%%`, { token: w.admin })).status).toBe(400);
  });

  test("organizations see only their own entries", async () => {
    await admin(w, "POST", "/organizations", { name: "other" }, 201);
    const other = await w.s.call("GET", `${API}/organizations/other/query-log`, { token: w.admin });
    expect(other.status).toBe(200);
    expect(other.body).toEqual([]);
    const stranger = await w.s.createUser("stranger");
    expect((await w.s.call("GET", LOG, { token: stranger })).status).toBe(404);
  });

  test("entries older than QUERY_LOG_DAYS are pruned", async () => {
    const sql = w.s.service.db.sql;
    await sql`UPDATE query_log SET at = now() - interval '40 days' WHERE principal = 'user:bob'`;
    const removed = await pruneEntries(sql, 30);
    expect(removed).toBeGreaterThan(0);
    expect((await log()).some((e) => e.principal === "user:bob")).toBe(false);
  });
});

describe("effective values", () => {
  test("precedence: user over group, lowest rank, string_list union, default; with from", async () => {
    await admin(w, "PUT", "/organizations/acme/attributes/tier", { type: "string", defaultValue: "basic" }, 201);
    await admin(w, "PUT", "/organizations/acme/attributes/tags", { type: "string_list" }, 201);
    await admin(w, "POST", "/organizations/acme/groups", { name: "emea" }, 201);
    await admin(w, "POST", "/organizations/acme/groups/emea/members", { members: [{ principal: "user:ann", status: "member" }] }, [200, 201]);
    await admin(w, "PUT", "/organizations/acme/attributes/region/groups/emea", { value: "EMEA", rank: 5 }, [200, 201]);
    await admin(w, "PUT", "/organizations/acme/attributes/tags/groups/emea", { value: ["a", "b"], rank: 5 }, [200, 201]);
    await admin(w, "PUT", "/organizations/acme/attributes/tags/groups/sales_eu", { value: ["b", "c"], rank: 1 }, [200, 201]);
    const ann = await w.s.call("GET", `${API}/organizations/acme/users/ann/attributes`, { token: w.ann });
    expect(ann.status).toBe(200);
    const byName = Object.fromEntries(ann.body.map((v: { name: string }) => [v.name, v]));
    expect(byName.region).toMatchObject({ type: "string", value: "EU", from: "group:sales_eu" });
    expect(byName.tags).toMatchObject({ type: "string_list", value: ["b", "c", "a"], from: "group:sales_eu" });
    expect(byName.tier).toMatchObject({ value: "basic", from: "default" });
    const bob = await w.s.call("GET", `${API}/organizations/acme/users/bob/attributes`, { token: w.admin });
    expect(bob.body.find((v: { name: string }) => v.name === "region")).toMatchObject({ value: "US", from: "user" });
    const nothing = bob.body.find((v: { name: string }) => v.name === "tags");
    expect(nothing).toEqual({ name: "tags", type: "string_list", value: null });
    expect((await w.s.call("GET", `${API}/organizations/acme/users/bob/attributes`, { token: w.ann })).status).toBe(403);
    const group = await w.s.call("GET", `${API}/organizations/acme/groups/sales_eu/attributes`, { token: w.admin });
    expect(group.body.find((v: { name: string }) => v.name === "region")).toMatchObject({ value: "EU", from: "group:sales_eu" });
    expect((await w.s.call("GET", `${API}/organizations/acme/groups/sales_eu/attributes`, { token: w.ann })).status).toBe(403);
    // the query uses the same value
    expect((await q({ token: w.ann }, { query: "orders -> { group_by: region }" })).body.data).toEqual([{ region: "EU" }]);
  });

  test("a string_list attribute fills a filter<string> parameter with the union", async () => {
    const model = SALES_MODEL.replace("#(bind) region_param=region", "#(bind) region_param=regions")
      .replace("orders(region_param::string)", "orders(region_param::filter<string>)")
      .replace("where: region = region_param", "where: region ~ region_param")
      .replaceAll(`region_param is "ignored"`, `region_param is f'x'`);
    await admin(w, "PUT", "/organizations/acme/attributes/regions", { type: "string_list" }, 201);
    expect((await publish(w, "multi", "1.0.0", { token: w.admin, files: salesFiles(model) })).status).toBe(201);
    await admin(w, "PUT", "/organizations/acme/attributes/regions/groups/sales_eu", { value: ["EU"], rank: 1 }, [200, 201]);
    await admin(w, "PUT", "/organizations/acme/attributes/regions/groups/emea", { value: ["APAC", "x, y'\\"], rank: 2 }, [200, 201]);
    const path = SALES_QUERY.replace("/packages/sales/", "/packages/multi/");
    const r = await w.s.call("POST", path, { token: w.ann, body: { query: "orders -> { group_by: region; order_by: region }" } });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([{ region: "APAC" }, { region: "EU" }]);
  });
});

describe("publish validation", () => {
  test("unknown parameter, undeclared attribute, wrong type and a bound persist source: 400 listing each", async () => {
    const bad = `##! experimental.parameters
#(bind) nope=region
source: a(p::string is "x") is duckdb.table('data/orders.csv') extend { where: region = p }
#(bind) p=undeclared
source: b(p::string is "x") is duckdb.table('data/orders.csv') extend { where: region = p }
#(bind) p=region
source: c(p::number is 1) is duckdb.table('data/orders.csv') extend { where: amount > p }
#@ persist
#(bind) p=region
source: d(p::string is "x") is duckdb.table('data/orders.csv') extend { where: region = p }
`;
    const files = salesFiles();
    files.set("models/bad.malloy", new TextEncoder().encode(bad));
    const r = await publish(w, "bad", "1.0.0", { token: w.admin, files });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("VALIDATION_ERROR");
    expect(r.body.message).toContain("parameter 'nope'");
    expect(r.body.message).toContain("attribute 'undeclared'");
    expect(r.body.message).toContain("cannot fill parameter 'p' (number)");
    expect(r.body.message).toContain("#@ persist");
    const [row] = await w.s.service.db.sql`SELECT count(*)::int AS n FROM packages WHERE name = 'bad'`;
    expect(row!.n).toBe(0);
  });
});
