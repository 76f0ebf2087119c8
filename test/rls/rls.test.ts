/**
 * Row-level security on every query path, with the worked example of docs/row-level-security.md
 * (test/rls/world.ts): REST (ad-hoc, named query, extend, join), MCP with an
 * API key and with an OAuth token, override attempts, null refusals, admins
 * without membership, restricted query text, hidden sources in the models
 * API, retrieval and get_context, dry run and limit.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { getEmbedder } from "../../src/retrieval/embedding/embedder.ts";
import { embedEntities } from "../../src/retrieval/index/entity_vectors.ts";
import { waitForIndexing } from "../../src/retrieval/index/indexer.ts";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, type Served } from "../helpers/mcp.ts";
import { API, publish } from "../packages/helpers.ts";
import { admin, ORDERS_CSV, PAYROLL_CSV, SALES_MODEL, SALES_QUERY, salesFiles, type SalesClients, type SalesWorld, connectSalesClients, startSalesWorld } from "./world.ts";

let w: SalesWorld;
let served: Served;
let keyClient: Client;
let oauthClient: Client;
let clients: SalesClients | undefined;
let mo: string;
const base = { environment_name: "prod", package_name: "sales", model_uri: "models/sales.malloy" };
const MODEL = `${API}/organizations/acme/environments/prod/packages/sales/models/models/sales.malloy`;

const q = (auth: { token?: string; apiKey?: string }, body: object, headers?: Record<string, string>) => w.s.call("POST", SALES_QUERY, { ...auth, body, headers });
const text = (result: object) => (result as { content: { text: string }[] }).content[0]!.text;

beforeAll(async () => {
  w = await startSalesWorld();
  // mo: modeler of the package, region APAC, signs in to an MCP client with OAuth
  mo = await w.s.createUser("mo");
  await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: "user:mo", permission: "member" }, 201);
  await admin(w, "POST", "/organizations/acme/environments/prod/packages/sales/permissions", { userGroupId: "user:mo", permission: "modeler" }, 201);
  await admin(w, "PUT", "/organizations/acme/attributes/region/users/mo", { value: "APAC" }, [200, 201]);
  clients = await connectSalesClients(w, { userName: "mo", password: "pw-mo-secret" });
  ({ served, keyClient, oauthClient } = clients);
}, 300_000);
afterAll(async () => {
  await (clients ? clients.close() : w?.s.close());
}, 120_000);

describe("the worked example of docs/row-level-security.md", () => {
  test("the page writes exactly the model and data this test runs", async () => {
    const page = await Bun.file(new URL("../../docs/row-level-security.md", import.meta.url)).text();
    const example = page.slice(page.indexOf("## Worked example"));
    const heredoc = "cat > \"$DIR/models/sales.malloy\" <<'EOF'\n";
    const start = example.indexOf(heredoc) + heredoc.length;
    expect(start).toBeGreaterThan(heredoc.length);
    expect(example.slice(start, example.indexOf("\nEOF\n", start) + 1)).toBe(SALES_MODEL);
    for (const [name, csv] of [["orders", ORDERS_CSV], ["payroll", PAYROLL_CSV]]) {
      expect(example).toContain(`printf '${csv!.replaceAll("\n", "\\n")}' > "$DIR/data/${name}.csv"`);
    }
    for (const row of ORDERS_CSV.trim().split("\n").slice(1)) {
      const [, region, amount] = row.split(",");
      expect(example).toContain(`${region} ${amount}`);
    }
    for (const row of PAYROLL_CSV.trim().split("\n").slice(1)) expect(example).toContain(row.replace(",", " "));
  });

  test("ann (sales_eu), bob (finance, own value US) and the sales_eu API key get different answers", async () => {
    const revenue = { query: "orders -> { group_by: region; aggregate: revenue }" };
    expect((await q({ token: w.ann }, revenue)).body.data).toEqual([{ region: "EU", revenue: 30 }]);
    expect((await q({ token: w.bob }, revenue)).body.data).toEqual([{ region: "US", revenue: 45 }]);
    expect((await q({ apiKey: w.salesKey }, revenue)).body.data).toEqual([{ region: "EU", revenue: 30 }]);
    const salaries = { query: "payroll -> { aggregate: total_salary }" };
    expect((await q({ token: w.bob }, salaries)).body.data).toEqual([{ total_salary: 300 }]);
    const ann = await q({ token: w.ann }, salaries);
    expect(ann.status).toBe(403);
    expect(ann.body.code).toBe("INSUFFICIENT_PERMISSIONS");
    expect(ann.body.message).toContain("'finance'");
    expect((await q({ apiKey: w.salesKey }, salaries)).status).toBe(403);
  });
});

describe("bound parameters on every query shape", () => {
  test("a source extending the bound one, a named query and a view carry the caller's value", async () => {
    expect((await q({ token: w.ann }, { query: "big_orders -> { group_by: region; aggregate: revenue }" })).body.data).toEqual([{ region: "EU", revenue: 20 }]);
    expect((await q({ token: w.bob }, { queryName: "revenue_by_region", sourceName: "orders" })).body.data).toEqual([{ region: "US", revenue: 45 }]);
    expect((await q({ token: w.bob }, { queryName: "by_region", sourceName: "orders" })).body.data).toEqual([{ region: "US", revenue: 45 }]);
    // a source the query text defines on top of the bound one, and a join of it, stay bound
    const own = await q({ token: w.ann }, { query: "source: mine is orders extend { dimension: big is amount > 15 }\nrun: mine -> { group_by: region; aggregate: revenue }" });
    expect(own.body.data).toEqual([{ region: "EU", revenue: 30 }]);
    const joined = await q({ token: w.bob }, { query: "payroll_with_orders -> { group_by: o.region; aggregate: r is o.amount.sum() }" });
    expect(joined.status).toBe(200);
    // payroll's EU row finds no order of US: the joined orders are bound too
    expect(joined.body.data).toEqual([{ region: "US", r: 45 }, { region: null, r: 0 }]);
  });

  test("setting a bound parameter in the query text is refused (400), in every spelling", async () => {
    for (const query of [
      `orders(region_param is "US") -> { aggregate: revenue }`,
      `run: orders(\`region_param\` is "US") -> { aggregate: revenue }`,
      `source: x(p::string is "US") is orders(region_param is p)\nrun: x -> { aggregate: revenue }`,
    ]) {
      const r = await q({ token: w.ann }, { query });
      expect(r.status).toBe(400);
      expect(r.body.message).toContain("region_param");
    }
    const mcp = await keyClient.callTool({ name: "execute_query", arguments: { ...base, query: `orders(region_param is "US") -> { aggregate: revenue }` } });
    expect(mcp.isError).toBe(true);
    expect(text(mcp)).toContain("bound to the attribute 'region'");
  });

  test("a value with quotes or Malloy syntax is data, never code", async () => {
    await admin(w, "PUT", "/organizations/acme/attributes/region/users/ann", { value: `EU" or region = "US` }, [200, 201]);
    const r = await q({ token: w.ann }, { query: "orders -> { aggregate: order_count }" });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([{ order_count: 0 }]);
    await admin(w, "DELETE", "/organizations/acme/attributes/region/users/ann", undefined, [200, 204]);
    expect((await q({ token: w.ann }, { query: "orders -> { aggregate: order_count }" })).body.data).toEqual([{ order_count: 2 }]);
  });

  test("a null effective value refuses with 403 naming the attribute; an org admin without membership too", async () => {
    const sysAdmin = await q({ token: w.admin }, { query: "orders -> { aggregate: revenue }" });
    expect(sysAdmin.status).toBe(403);
    expect(sysAdmin.body.message).toContain("attribute 'region'");
    const orgAdmin = await w.s.createUser("oa");
    await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: "user:oa", permission: "admin" }, 201);
    expect((await q({ token: orgAdmin }, { query: "orders -> { aggregate: revenue }" })).status).toBe(403);
    const payroll = await q({ token: orgAdmin }, { query: "payroll -> { aggregate: total_salary }" });
    expect(payroll.status).toBe(403);
    expect(payroll.body.message).toContain("'finance'");
  });

  test("nested groups: a member of a group nested in finance may query payroll", async () => {
    await admin(w, "POST", "/organizations/acme/groups", { name: "auditors" }, 201);
    await admin(w, "POST", "/organizations/acme/groups/finance/members", { members: [{ principal: "group:auditors", status: "member" }] }, [200, 201]);
    const cy = await w.s.createUser("cy");
    await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: "user:cy", permission: "member" }, 201);
    await admin(w, "POST", "/organizations/acme/groups/auditors/members", { members: [{ principal: "user:cy", status: "member" }] }, [200, 201]);
    await admin(w, "POST", "/organizations/acme/environments/prod/permissions", { userGroupId: "group:auditors", permission: "viewer" }, 201);
    expect((await q({ token: cy }, { query: "payroll -> { aggregate: total_salary }" })).body.data).toEqual([{ total_salary: 300 }]);
  });
});

describe("query text restrictions", () => {
  test("viewers and API keys: no connections, imports or redefinitions (403); modelers keep connections", async () => {
    for (const query of [
      "run: duckdb.table('data/orders.csv') -> { aggregate: c is count() }",
      `run: duckdb.sql("select * from 'data/payroll.csv'") -> { select: * }`,
      `import "sales.malloy"\nrun: orders -> { aggregate: revenue }`,
      "source: orders is payroll extend { }\nrun: orders -> { aggregate: total_salary }",
    ]) {
      const viewer = await q({ token: w.ann }, { query });
      expect(viewer.status).toBe(403);
      expect((await q({ apiKey: w.salesKey }, { query })).status).toBe(403);
    }
    const modeler = await q({ token: mo }, { query: "run: duckdb.table('data/orders.csv') -> { aggregate: c is count() }" });
    expect(modeler.status).toBe(200);
    expect(modeler.body.data).toEqual([{ c: 5 }]);
  });

  test("an OAuth client of a modeler is restricted and bound like a viewer", async () => {
    const direct = await oauthClient.callTool({ name: "execute_query", arguments: { ...base, query: "run: duckdb.table('data/orders.csv') -> { aggregate: c is count() }" } });
    expect(direct.isError).toBe(true);
    expect(text(direct)).toContain("INSUFFICIENT_PERMISSIONS");
    const bound = await oauthClient.callTool({ name: "execute_query", arguments: { ...base, query: "orders -> { group_by: region; aggregate: revenue }" } });
    expect(bound.isError).toBeFalsy();
    expect(JSON.parse(text(bound)).data).toEqual([{ region: "APAC", revenue: 7 }]);
  });
});

describe("MCP execute_query with an API key", () => {
  test("bound rows, authorize refusal as isError, dry run and limit", async () => {
    const rows = await keyClient.callTool({ name: "execute_query", arguments: { ...base, query: "orders -> { select: id; order_by: id }" } });
    expect(JSON.parse(text(rows)).data).toEqual([{ id: 1 }, { id: 2 }]);
    const limited = await keyClient.callTool({ name: "execute_query", arguments: { ...base, query: "orders -> { select: id; order_by: id }", limit: 1 } });
    expect(JSON.parse(text(limited)).data).toEqual([{ id: 1 }]);
    expect(JSON.parse(text(limited)).metadata.truncated).toBe(true);
    const refused = await keyClient.callTool({ name: "execute_query", arguments: { ...base, query: "payroll -> { aggregate: total_salary }" } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain("'finance'");
    const dry = await keyClient.callTool({ name: "execute_query", arguments: { ...base, query: "big_orders -> { aggregate: revenue }", dry_run: true } });
    const plan = JSON.parse(text(dry));
    expect(plan.sql).toContain("'EU'");
    expect(plan.schema).toEqual([{ name: "revenue", type: "number" }]);
    expect(plan.sources).toContain("big_orders");
    const dryRefused = await keyClient.callTool({ name: "execute_query", arguments: { ...base, query: "payroll -> { aggregate: total_salary }", dry_run: true } });
    expect(dryRefused.isError).toBe(true);
    // every call is in the query log, via mcp
    const logged = await w.s.call("GET", `${API}/organizations/acme/query-log?principal=group:sales_eu&limit=2`, { token: w.admin });
    expect(logged.body.map((e: { via: string; status: string }) => [e.via, e.status])).toEqual([["mcp", "refused"], ["mcp", "ok"]]);
    const oauth = await w.s.call("GET", `${API}/organizations/acme/query-log?principal=user:mo`, { token: w.admin });
    expect(oauth.body.some((e: { via: string }) => e.via === "mcp")).toBe(true);
  });
});

describe("REST dry run and limit", () => {
  test("dryRun answers { sql, schema, sources } after authorization; limit cuts rows", async () => {
    const dry = await q({ token: w.bob }, { query: "payroll_with_orders -> { group_by: region; aggregate: total_salary }", dryRun: true });
    expect(dry.status).toBe(200);
    expect(Object.keys(dry.body).sort()).toEqual(["schema", "sources", "sql"]);
    expect(dry.body.schema).toEqual([{ name: "region", type: "string" }, { name: "total_salary", type: "number" }]);
    expect(dry.body.sources).toEqual(expect.arrayContaining(["payroll_with_orders", "orders"]));
    expect((await q({ token: w.ann }, { query: "payroll -> { aggregate: total_salary }", dryRun: true })).status).toBe(403);
    const limited = await q({ token: w.bob }, { query: "orders -> { select: id; order_by: id }", limit: 1 });
    expect(limited.body.data).toEqual([{ id: 3 }]);
    expect(limited.body.metadata.rowLimit).toBe(1);
    expect((await q({ token: w.bob }, { query: "orders -> { select: id }", limit: 0 })).status).toBe(400);
  });
});

describe("a query's problems say nothing of a source the caller may not query", () => {
  /** Problems of query text that, compiled against the whole model, told a caller outside finance payroll's fields and types. */
  const PROBING = [
    "payroll -> { group_by: nosuch }",
    "payroll -> { group_by: x is salary + 'a' }",
    "payroll_with_orders -> { group_by: o.nosuch }",
    "run: orders extend { join_one: p is payroll on region = p.region } -> { group_by: p.nosuch }",
    "source: mine is payroll extend { dimension: d is nosuch }\nrun: mine -> { group_by: d }",
    "run: pay_q -> { group_by: nosuch }",
  ];
  const PAY = `${API}/organizations/acme/environments/prod/packages/pay/models/models/sales.malloy/query`;
  /** A named query whose source is an inline one that joins payroll: its `sourceName` names no rule. */
  const JOINED_PAY = `#(doc) Salaries next to each order's region
query: joined_pay is duckdb.table('data/orders.csv') extend { join_many: p is payroll on region = p.region } -> { group_by: region; aggregate: paid is p.salary.sum() }
`;
  const pay = (auth: { token?: string; apiKey?: string }, body: object) => w.s.call("POST", PAY, { ...auth, body });

  beforeAll(async () => {
    // the example with a named query over payroll
    const model = `${SALES_MODEL}\nquery: pay_q is payroll -> { group_by: payroll_region; aggregate: total_salary }\n${JOINED_PAY}`;
    expect((await publish(w, "pay", "1.0.0", { token: w.admin, files: salesFiles(model) })).status).toBe(201);
    await admin(w, "POST", "/organizations/acme/environments/prod/packages/pay/permissions", { userGroupId: "user:mo", permission: "modeler" }, 201);
  });

  test("text naming a hidden source or query, whatever else is wrong in it, is refused as querying it is (403), on REST and MCP, dry runs included", async () => {
    const callers = [{ token: w.ann }, { apiKey: w.salesKey }, { token: mo }];
    for (const query of PROBING) {
      for (const auth of callers) {
        for (const dryRun of [false, true]) {
          const r = await pay(auth, { query, dryRun });
          expect([query, r.status, r.body.code]).toEqual([query, 403, "INSUFFICIENT_PERMISSIONS"]);
          expect(r.body.message).toContain("may be queried only by members and API keys of the groups 'finance'");
          expect(JSON.stringify(r.body)).not.toMatch(/nosuch|not defined|operator/);
        }
      }
      for (const client of [keyClient, oauthClient]) {
        const mcp = await client.callTool({ name: "execute_query", arguments: { ...base, package_name: "pay", query } });
        expect([query, mcp.isError]).toEqual([query, true]);
        expect(text(mcp)).toContain("'finance'");
        expect(text(mcp)).not.toMatch(/nosuch|not defined|operator/);
      }
    }
    // bob is in finance: he is told what is wrong with his query (what everyone was told before)
    const bob = await pay({ token: w.bob }, { query: PROBING[0] });
    expect([bob.status, bob.body.message]).toEqual([400, "the query does not compile: 'nosuch' is not defined"]);
    expect((await pay({ token: w.bob }, { query: PROBING[1] })).body.message).toContain("operator requires a number");
    // a source that does not exist is still a compile problem for everyone
    const missing = await pay({ token: w.ann }, { query: "nosuchsource -> { group_by: x }" });
    expect([missing.status, missing.body.message]).toEqual([400, "the query does not compile: Reference to undefined object 'nosuchsource'"]);
  });

  test("named runs: an unknown name lists only the sources the caller may query; a hidden source or query is refused (403)", async () => {
    for (const auth of [{ token: w.ann }, { apiKey: w.salesKey }, { token: mo }]) {
      const unknown = await pay(auth, { sourceName: "nosuch", queryName: "nosuch" });
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe("model 'models/sales.malloy' has no source named 'nosuch'; its sources are 'orders', 'big_orders'");
      for (const body of [{ sourceName: "payroll", queryName: "nosuch" }, { sourceName: "payroll_with_orders", queryName: "nosuch" }, { sourceName: "orders", queryName: "pay_q" }]) {
        const hidden = await pay(auth, body);
        expect([body, hidden.status]).toEqual([body, 403]);
        expect(JSON.stringify(hidden.body)).not.toContain("views are");
      }
    }
    const mcp = await keyClient.callTool({ name: "execute_query", arguments: { ...base, package_name: "pay", source_name: "nosuch", query_name: "nosuch" } });
    expect(mcp.isError).toBe(true);
    expect(text(mcp)).not.toMatch(/payroll|pay_q/);
    // bob sees every source in the list, and runs the named query
    const bob = await pay({ token: w.bob }, { sourceName: "nosuch", queryName: "nosuch" });
    expect(bob.body.message).toContain("'payroll', 'big_orders', 'payroll_with_orders'");
    const ran = await pay({ token: w.bob }, { sourceName: "orders", queryName: "pay_q" });
    expect([ran.status, ran.body.data]).toEqual([200, [{ payroll_region: "US", total_salary: 200 }, { payroll_region: "EU", total_salary: 100 }]]);
  });

  test("a named query that joins payroll from an inline source is hidden as payroll is: models API, get_context; it is refused by name", async () => {
    const MODELS = `${API}/organizations/acme/environments/prod/packages/pay/models`;
    const queries = async (token: string) => ((await w.s.call("GET", `${MODELS}/models/sales.malloy`, { token })).body.queries as { name: string }[]).map((q) => q.name).sort();
    expect(await queries(w.ann)).toEqual(["revenue_by_region"]);
    expect((await w.s.call("GET", MODELS, { token: w.ann })).body[0].queries).toEqual(["revenue_by_region"]);
    // members of finance see it; so do modelers (as they see payroll, marked unauthorized)
    for (const token of [w.bob, mo]) expect(await queries(token)).toEqual(["joined_pay", "pay_q", "revenue_by_region"]);
    expect((await w.s.call("GET", `${MODELS}/models/sales.malloy`, { token: w.bob })).body.queries.some((q: { access?: unknown }) => "access" in q)).toBe(false);
    // get_context: its name and doc reach no caller outside finance
    const question = { natural_language_query: "salaries next to each order region", environment_name: "prod", package_name: "pay" };
    const outside = text(await keyClient.callTool({ name: "get_context", arguments: question }));
    expect(outside).not.toMatch(/joined_pay|Salaries next to/);
    const key = await w.s.call("POST", `${API}/organizations/acme/groups/finance/tokens?name=context`, { token: w.admin });
    const finance = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${key.body.secret}`);
    try {
      expect(text(await finance.callTool({ name: "get_context", arguments: question }))).toContain("joined_pay");
    } finally {
      await finance.close();
    }
    // by name: refused as payroll is
    const refused = await pay({ token: w.ann }, { sourceName: "orders", queryName: "joined_pay" });
    expect([refused.status, refused.body.message]).toEqual([403, expect.stringContaining("'finance'")]);
  });
});

describe("hidden sources outside queries", () => {
  test("models API: hidden from viewers, authorized: false for modelers who are not members", async () => {
    const ann = await w.s.call("GET", MODEL, { token: w.ann });
    expect(ann.body.sources.map((s: { name: string }) => s.name).sort()).toEqual(["big_orders", "orders"]);
    expect(ann.body.sources.every((s: { authorized: boolean; access?: unknown }) => s.authorized === true && s.access === undefined)).toBe(true);
    const list = await w.s.call("GET", `${API}/organizations/acme/environments/prod/packages/sales/models`, { token: w.ann });
    expect(list.body[0].sources.sort()).toEqual(["big_orders", "orders"]);
    const modeler = await w.s.call("GET", MODEL, { token: mo });
    const marks = Object.fromEntries(modeler.body.sources.map((s: { name: string; authorized: boolean }) => [s.name, s.authorized]));
    expect(marks).toEqual({ orders: true, big_orders: true, payroll: false, payroll_with_orders: false });
    const bob = await w.s.call("GET", MODEL, { token: w.bob });
    expect(bob.body.sources.length).toBe(4);
  });

  test("entity vectors take in a dimension's indexed values; a bound source has none stored or embedded", async () => {
    await waitForIndexing(w.s.service.ctx);
    const embedder = (await getEmbedder())!;
    const rows = await w.s.service.db.sql`
      SELECT me.source_name, ee.text, ee.indexed_values, ee.embedding::text AS embedding
        FROM entity_embeddings ee JOIN model_entities me ON me.id = ee.entity_id
       WHERE me.kind = 'dimension' AND me.path IN ('order_region', 'payroll_region') AND me.source_name IN ('orders', 'payroll')`;
    const bySource = new Map(rows.map((r) => [r.source_name as string, r]));
    const stored = (source: string) => Float32Array.from(JSON.parse(bySource.get(source)!.embedding as string) as number[]);
    const docs = { orders: "Orders; every caller sees the rows of its own region", payroll: "Salaries, for the finance group only" };
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
    for (const [source, sourceDoc] of Object.entries(docs)) {
      const row = bySource.get(source)!;
      expect((row.indexed_values as unknown[] | null)?.length ?? 0).toBe(source === "orders" ? 0 : 2);
      const [textOnly] = await embedEntities(embedder, [{ text: row.text as string, sourceDoc }]);
      const similarity = dot(stored(source), textOnly!);
      // bound orders: the vector of the text alone; payroll: its values moved it
      if (source === "orders") expect(similarity).toBeCloseTo(1, 3);
      else expect(similarity).toBeLessThan(0.999);
    }
  });

  test("retrieval API and get_context: no unauthorized source, fields or values; no values of bound sources", async () => {
    const search = (token: string) => w.s.call("POST", `${API}/retrieval/context`, {
      token,
      body: { organization: "acme", search_targets: [{ entity_type: "source" }, { entity_type: "dimension", search_text: "salary region" }, { entity_type: "dimensional_value", search_text: "EU" }] },
    });
    const ann = (await search(w.ann)).body.results;
    const annText = JSON.stringify(ann);
    expect(annText).not.toContain("payroll");
    expect(annText).not.toContain("total_salary");
    expect(annText).not.toContain("Salaries");
    expect(ann[2].items).toEqual([]);
    const bob = (await search(w.bob)).body.results;
    expect(bob[0].items.map((i: { name: string }) => i.name)).toEqual(expect.arrayContaining(["payroll", "payroll_with_orders"]));
    // values of the authorized payroll_region (once indexed) only; never of the bound orders
    expect(bob[2].items.every((i: { source_name: string }) => i.source_name.startsWith("payroll"))).toBe(true);
    // right after bob's search (whatever the retrieval caches hold), ann still sees nothing of payroll
    expect(JSON.stringify((await search(w.ann)).body.results)).not.toContain("payroll");
    const context = await keyClient.callTool({ name: "get_context", arguments: { natural_language_query: "total salary by region", environment_name: "prod" } });
    expect(text(context)).not.toContain("payroll");
    const oauth = await oauthClient.callTool({ name: "get_context", arguments: { natural_language_query: "total salary by region", environment_name: "prod" } });
    expect(text(oauth)).not.toContain("payroll");
  });

  test("get_context's field lists, close sources and first query name no payroll field to a caller outside finance; a finance key gets payroll's every field", async () => {
    type Field = { name: string; fields?: Field[] };
    type Answer = { sources: { source_name: string; fields?: Field[]; phrases: { entities: { name: string }[] }[] }[]; close_sources?: unknown[]; next_steps: string[] };
    const question = { natural_language_query: "salary and revenue of each region", environment_name: "prod", package_name: "sales" };
    const names = (fields: Field[] = []): string[] => fields.flatMap((f) => [f.name, ...names(f.fields).map((n) => `${f.name}.${n}`)]);
    for (const client of [keyClient, oauthClient]) {
      const answer = JSON.parse(text(await client.callTool({ name: "get_context", arguments: question }))) as Answer;
      expect(answer.sources.length).toBeGreaterThan(0);
      expect(answer.sources.every((s) => Array.isArray(s.fields))).toBe(true);
      const shown = JSON.stringify({ fields: answer.sources.map((s) => s.fields), close: answer.close_sources ?? [], steps: answer.next_steps, sources: answer.sources.map((s) => s.source_name) });
      expect(shown).not.toMatch(/payroll|salary/);
    }
    const key = await w.s.call("POST", `${API}/organizations/acme/groups/finance/tokens?name=fields`, { token: w.admin });
    const finance = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${key.body.secret}`);
    try {
      const answer = JSON.parse(text(await finance.callTool({ name: "get_context", arguments: question }))) as Answer;
      const payroll = answer.sources.find((s) => s.source_name === "payroll");
      expect(payroll).toBeDefined();
      // every field of payroll once: the matched ones as entities, the others in fields
      const all = [...payroll!.phrases.flatMap((p) => p.entities.map((e) => e.name)), ...names(payroll!.fields)];
      expect(all).toEqual(expect.arrayContaining(["salary", "total_salary", "payroll_region"]));
      expect(new Set(all).size).toBe(all.length);
      // the finance key's other sources are named in close_sources with their fields by name (the part the leak check above reads)
      const close = (answer.close_sources ?? []) as { source_name: string; fields?: string[] }[];
      expect(close.some((c) => (c.fields?.length ?? 0) > 0)).toBe(true);
    } finally {
      await finance.close();
    }
  });

  test("a group named finance in another organization authorizes nothing here: names count within the package's organization", async () => {
    // ann makes an organization of her own (any user may, once), a group 'finance' in it, and joins it
    const own = await w.s.call("POST", `${API}/demo/organizations`, { token: w.ann, body: { name: "annco", demoEnvironment: false } });
    expect(own.status).toBe(201);
    expect((await w.s.call("POST", `${API}/organizations/annco/groups`, { token: w.ann, body: { name: "finance" } })).status).toBe(201);
    const joined = await w.s.call("POST", `${API}/organizations/annco/groups/finance/members`, { token: w.ann, body: { members: [{ principal: "user:ann" }] } });
    expect(joined.status).toBe(200);
    // acme's payroll is still refused to her on every path
    const payroll = await q({ token: w.ann }, { query: "payroll -> { aggregate: total_salary }" });
    expect([payroll.status, payroll.body.code]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
    const named = await q({ token: w.ann }, { query: "payroll_with_orders -> { aggregate: total_salary }" });
    expect(named.status).toBe(403);
    const model = await w.s.call("GET", MODEL, { token: w.ann });
    expect(model.body.sources.map((s: { name: string }) => s.name).sort()).toEqual(["big_orders", "orders"]);
    const search = await w.s.call("POST", `${API}/retrieval/context`, {
      token: w.ann,
      body: { organization: "acme", search_targets: [{ entity_type: "source" }, { entity_type: "dimension", search_text: "salary region" }] },
    });
    expect(search.status).toBe(200);
    expect(JSON.stringify(search.body.results)).not.toContain("payroll");
    // bob, in acme's own finance, still queries it
    expect((await q({ token: w.bob }, { query: "payroll -> { aggregate: total_salary }" })).status).toBe(200);
  });
});
