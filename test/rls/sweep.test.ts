/**
 * A hostile-tenant sweep of row-level security (issue 25), by an engineer who
 * did not write the fix. Each attempt is a way a viewer, an API key, an OAuth
 * MCP client or a modeler of another package might get rows outside its
 * `#(bind)` filter or anything of an `#(authorize)` source it is outside of;
 * each test asserts the safe answer (the caller's rows only, or a refusal).
 * The world is the README's example (test/rls/world.ts) with more sources of
 * the kinds the barrier matches: a composite, a bound source whose filter
 * reads a dimension, a bound SQL source, a bound source over nested JSON, a
 * package query source over the bound one; and a second package whose
 * unbound source carries the same filter text as its bound one.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { bytes } from "../fixtures/engine_package.ts";
import { API, publish } from "../packages/helpers.ts";
import { waitRun } from "../runs/fixtures.ts";
import { SALES_MODEL, SALES_QUERY, salesFiles, type SalesClients, type SalesWorld, connectSalesClients, startSalesWorld } from "./world.ts";

const EXTRA = `
source: comp is compose(orders(region_param is "ignored"), orders(region_param is "ignored") extend { dimension: extra is 1 })

#(bind) p=region
source: dorders(p::string) is duckdb.table('data/orders.csv') extend { dimension: reg is region; where: reg = p }

#(bind) region_param=region
source: sorders(region_param::string) is duckdb.sql("""select * from 'data/orders.csv'""") extend { where: region = region_param }

#(bind) region_param=region
source: nested(region_param::string) is duckdb.table('data/nested.json') extend { where: region = region_param }

source: oq is orders(region_param is "ignored") -> { select: * }

source: pay_or_orders is compose(payroll, orders(region_param is "ignored"))

source: pass_through(rp::string) is orders(region_param is rp) extend { dimension: shown is rp }
`;
const MODEL = SALES_MODEL.replace("##! experimental.parameters", "##! experimental { parameters composite_sources }") + EXTRA;
const NESTED = [
  { id: 1, region: "EU", tags: ["a", "b"], info: { code: "e1", amount: 10 } },
  { id: 3, region: "US", tags: ["c"], info: { code: "u1", amount: 5 } },
  { id: 5, region: "APAC", tags: ["d"], info: { code: "p1", amount: 7 } },
].map((x) => JSON.stringify(x)).join("\n");

/** An unbound source written before the bound one, with the same filter text over a redefined `region`. */
const TWIN = `##! experimental.parameters
source: twin(region_param::string) is duckdb.table('data/orders.csv') extend {
  rename: r is region
  dimension: region is 'EU'
  where: region = region_param
}
#(doc) Orders; every caller sees the rows of its own region
#(bind) region_param=region
source: orders(region_param::string) is duckdb.table('data/orders.csv') extend { where: region = region_param }
`;

let w: SalesWorld;
let keyClient: Client;
let oauthClient: Client;
let clients: SalesClients | undefined;
const base = { environment_name: "prod", package_name: "sales", model_uri: "models/sales.malloy" };
const V = `${API}/organizations/acme/environments/prod/packages/sales/versions/1.0.0`;

type Auth = { token?: string; apiKey?: string };
const q = (auth: Auth, body: object, path = SALES_QUERY) => w.s.call("POST", path, { ...auth, body });
const callers: [string, () => Auth, string][] = [
  ["ann", () => ({ token: w.ann }), "EU"],
  ["bob", () => ({ token: w.bob }), "US"],
  ["the sales_eu API key", () => ({ apiKey: w.salesKey }), "EU"],
];

beforeAll(async () => {
  w = await startSalesWorld({}, { model: MODEL, files: new Map([["data/nested.json", bytes(NESTED)]]) });
  expect((await publish(w, "twin", "1.0.0", { token: w.admin, files: salesFiles(TWIN) })).status).toBe(201);
  clients = await connectSalesClients(w);
  ({ keyClient, oauthClient } = clients);
}, 300_000);
afterAll(async () => {
  await (clients ? clients.close() : w?.s.close());
}, 120_000);

/** The ids an answer's rows name, wherever the query put them. */
function ids(data: unknown): number[] {
  const out = new Set<number>();
  const walk = (v: unknown, key?: string): void => {
    if (Array.isArray(v)) return v.forEach((x) => walk(x, key));
    if (v && typeof v === "object") return Object.entries(v).forEach(([k, x]) => walk(x, k));
    if (typeof v === "number" && key !== undefined && /(^|\.|_)id$/.test(key)) out.add(v);
  };
  walk(data);
  return [...out].sort((a, b) => a - b);
}

const IDS: Record<string, number[]> = { EU: [1, 2], US: [3, 4] };
const NESTED_IDS: Record<string, number[]> = { EU: [1], US: [3] };

/** [what, query text (VALUE is the caller's region), the ids by region; null: a refusal (4xx) is safe too]. */
const SHADOWS: [string, string, Record<string, number[]>][] = [
  ["a composite over the bound source", "run: comp -> { group_by: id, extra; order_by: id }", IDS],
  ["a composite's freed name redefined", "run: comp extend { except: region; dimension: region is VALUE } -> { group_by: id; order_by: id }", IDS],
  ["a swap of names: the filtered column renamed, another column renamed to its name", "run: orders extend { rename: tmp is region; rename: region is amount } -> { group_by: id, tmp, region; order_by: id }", IDS],
  ["except: of the filtered column alone", "run: orders extend { except: region } -> { group_by: id; order_by: id }", IDS],
  ["a filter on a dimension: the dimension removed and redefined", "run: dorders extend { except: reg; dimension: reg is VALUE } -> { group_by: id; order_by: id }", IDS],
  ["a filter on a dimension: the dimension renamed and redefined", "run: dorders extend { rename: reg2 is reg; dimension: reg is VALUE } -> { group_by: id; order_by: id }", IDS],
  ["a filter on a dimension: the column under it renamed and redefined", "run: dorders extend { rename: r is region; dimension: region is VALUE } -> { group_by: id; order_by: id }", IDS],
  ["a bound SQL source, renamed and redefined", "run: sorders extend { rename: r is region; dimension: region is VALUE } -> { group_by: id; order_by: id }", IDS],
  ["nested JSON: arrays and records read after a redefinition", "run: nested extend { rename: r is region; dimension: region is VALUE } -> { group_by: id, info.code, t is tags.each; order_by: id }", NESTED_IDS],
  ["a package query source over the bound source, renamed and redefined", "run: oq extend { rename: r is region; dimension: region is VALUE } -> { group_by: id; order_by: id }", IDS],
  ["having: on the filtered column after the redefinition", "run: orders extend { rename: r is region; dimension: region is VALUE } -> { group_by: id, r; having: r != VALUE }", { EU: [], US: [] }],
  ["a package source passing its own (unbound) parameter to the bound one, set by the caller", "run: pass_through(rp is 'APAC') -> { group_by: id, shown; order_by: id }", IDS],
  ["the same, with the filtered column redefined", "run: pass_through(rp is 'APAC') extend { rename: r is region; dimension: region is 'APAC' } -> { group_by: id; order_by: id }", IDS],
  ["a caller's where: that is always true", "run: orders -> { where: region = 'APAC' or true; group_by: id; order_by: id }", IDS],
  ["a composite in the caller's text over a redefined bound source", "run: compose(orders extend { except: region; dimension: region is VALUE }, orders) -> { group_by: id; order_by: id }", IDS],
];

describe("the barrier at its edges: composites, dimensions, SQL sources, nested data, renames", () => {
  for (const [label, template, expected] of SHADOWS) {
    test(`${label}: only the caller's rows, or a refusal`, async () => {
      for (const [who, auth, region] of callers) {
        const query = template.replaceAll("VALUE", `'${region}'`);
        const r = await q(auth(), { query });
        if (r.status >= 400 && r.status < 500) {
          expect([who, JSON.stringify(r.body)]).not.toEqual([who, expect.stringMatching(/APAC|\b(5|7|40)\b/)]);
          continue;
        }
        expect([who, r.status, ids(r.body.data)]).toEqual([who, 200, expected[region]!]);
      }
    });
  }

  test("over MCP execute_query (API key and OAuth) the same texts answer the EU rows only, or an error", async () => {
    for (const [label, template, expected] of SHADOWS) {
      const query = template.replaceAll("VALUE", "'EU'");
      for (const [who, client] of [["API key", keyClient], ["OAuth", oauthClient]] as const) {
        const result = await client.callTool({ name: "execute_query", arguments: { ...base, query } }) as { isError?: boolean; structuredContent?: { data?: unknown }; content: { text: string }[] };
        if (result.isError) continue;
        const data = result.structuredContent?.data ?? JSON.parse(result.content[0]!.text).data;
        expect([label, who, ids(data)]).toEqual([label, who, expected.EU!]);
      }
    }
  });

  test("Malloy's index: and sample: operators over the bound source (also redefined) list only the caller's values", async () => {
    const texts = [
      "run: orders -> { index: * }",
      "run: orders extend { rename: r is region; dimension: region is 'EU' } -> { index: * }",
      "run: orders extend { except: region; dimension: region is 'EU' } -> { index: *; sample: true }",
      "run: orders -> { group_by: region; sample: 1 }",
    ];
    for (const query of texts) {
      for (const [who, auth] of [["ann", { token: w.ann }], ["key", { apiKey: w.salesKey }]] as const) {
        const r = await q(auth, { query });
        expect([query, who, r.status < 500]).toEqual([query, who, true]);
        expect([query, who, JSON.stringify(r.body)]).not.toEqual([query, who, expect.stringMatching(/APAC|"US"|\b40\b/)]);
        // the plain index answers, with the caller's own region in it
        if (query === texts[0]) expect([who, r.status, JSON.stringify(r.body.data)]).toEqual([who, 200, expect.stringContaining('"EU"')]);
      }
    }
  });

  test("a package's unbound source with the same filter text, written first, is not the stage of its bound one", async () => {
    const path = SALES_QUERY.replace("/packages/sales/", "/packages/twin/");
    for (const query of ["run: orders -> { group_by: id; order_by: id }", "run: orders extend { rename: r is region } -> { group_by: id, r; order_by: id }"]) {
      const r = await q({ token: w.ann }, { query }, path);
      expect([query, r.status, ids(r.body.data)]).toEqual([query, 200, [1, 2]]);
    }
    const attack = await q({ token: w.ann }, { query: "run: orders extend { rename: r is region; dimension: region is 'EU' } -> { group_by: id; order_by: id }" }, path);
    expect([attack.status, attack.body.message]).toEqual([400, expect.stringContaining("the query redefines 'region'")]);
  });
});

const text = (result: object) => (result as { content: { text: string }[] }).content[0]!.text;

describe("an #(authorize) source through composites, syntaxes and side doors", () => {
  test("a package composite over payroll and orders is refused to callers outside finance, even when it would read orders", async () => {
    for (const query of ["run: pay_or_orders -> { group_by: id; order_by: id }", "run: pay_or_orders -> { aggregate: total_salary }"]) {
      for (const [who, auth] of [["ann", { token: w.ann }], ["key", { apiKey: w.salesKey }]] as const) {
        for (const dryRun of [false, true]) {
          const r = await q(auth, { query, dryRun });
          expect([query, who, dryRun, r.status]).toEqual([query, who, dryRun, 403]);
          expect(JSON.stringify(r.body)).not.toMatch(/salary|\b(100|200|300)\b/);
        }
      }
    }
    const bob = await q({ token: w.bob }, { query: "run: pay_or_orders -> { aggregate: total_salary }" });
    expect([bob.status, bob.body.data]).toEqual([200, [{ total_salary: 300 }]]);
  });

  test("a composite in the caller's text naming payroll is refused as payroll is", async () => {
    for (const query of ["run: compose(payroll, orders) -> { aggregate: total_salary }", "run: compose(orders, payroll) -> { group_by: id }"]) {
      const r = await q({ token: w.ann }, { query });
      expect([query, r.status]).toEqual([query, 403]);
      expect(JSON.stringify(r.body)).not.toMatch(/salary|\b(100|200|300)\b/);
      const mcp = await oauthClient.callTool({ name: "execute_query", arguments: { ...base, query } });
      expect([query, mcp.isError]).toEqual([query, true]);
      expect(text(mcp)).not.toMatch(/salary|\b(100|200|300)\b/);
    }
  });
});

describe("bound parameters through other syntaxes and caches", () => {
  test("a bound parameter set in any spelling answers a refusal or the caller's own rows", async () => {
    const texts = [
      "run: orders(region_param is 'US') -> { group_by: id; order_by: id }",
      "run: orders(`region_param` is 'US') -> { group_by: id; order_by: id }",
      "run: orders(Region_Param is 'US') -> { group_by: id; order_by: id }",
      "run: orders('US') -> { group_by: id; order_by: id }",
      "run: big_orders(region_param is 'US') -> { group_by: id; order_by: id }",
      "source: x(region_param::string) is orders extend { dimension: z is 1 }\nrun: x(region_param is 'US') -> { group_by: id; order_by: id }",
      "source: y is orders(region_param is 'US')\nrun: y -> { group_by: id; order_by: id }",
      "run: orders(region_param is 'US' /* a comment */) -> { group_by: id; order_by: id }",
      "run: dorders(p is 'US') -> { group_by: id; order_by: id }",
    ];
    for (const query of texts) {
      const r = await q({ token: w.ann }, { query });
      expect([query, r.status === 200 ? ids(r.body.data) : r.status]).toEqual([query, r.status === 200 ? [1, 2] : expect.any(Number)]);
      expect([query, r.status < 500]).toEqual([query, true]);
      const mcp = await keyClient.callTool({ name: "execute_query", arguments: { ...base, query } }) as { isError?: boolean; content: { text: string }[] };
      if (!mcp.isError) expect([query, ids(JSON.parse(mcp.content[0]!.text).data)]).toEqual([query, [1, 2]]);
    }
  });

  test("one query text, asked in turn by callers of different regions and groups, answers each its own rows (no cached answer crosses)", async () => {
    const bodies = [
      { query: "run: orders -> { group_by: id; order_by: id }" },
      { query: "run: orders extend { rename: r is region } -> { group_by: id, r; order_by: id }" },
      { query: "run: revenue_by_region" },
      { sourceName: "orders", queryName: "by_region" },
    ];
    const regionOf: Record<string, string> = { ann: "EU", bob: "US", "the sales_eu API key": "EU" };
    for (let round = 0; round < 2; round++) {
      for (const body of bodies) {
        for (const [who, auth] of [callers[1]!, callers[0]!, callers[2]!, callers[1]!]) {
          const dry = await q(auth(), { ...body, dryRun: true });
          expect([who, body, dry.status, dry.body.message]).toEqual([who, body, 200, undefined]);
          const other = regionOf[who] === "EU" ? "US" : "EU";
          expect([who, String(dry.body.sql)]).not.toEqual([who, expect.stringContaining(`'${other}'`)]);
          const r = await q(auth(), body);
          expect([who, r.status]).toEqual([who, 200]);
          const rows = JSON.stringify(r.body.data);
          if (ids(r.body.data).length > 0) expect([who, ids(r.body.data)]).toEqual([who, IDS[regionOf[who]!]!]);
          else expect([who, rows]).toEqual([who, `[{"region":"${regionOf[who]}","revenue":${regionOf[who] === "EU" ? 30 : 45}}]`]);
        }
      }
    }
  });
});

describe("outside queries: get_context, indexes, the query log", () => {
  test("get_context over MCP (API key, OAuth) names no value outside the caller's filter and nothing of payroll", async () => {
    for (const question of ["orders revenue by region", "which regions have orders", "salary totals by region", "composite of payroll and orders"]) {
      for (const [who, client] of [["API key", keyClient], ["OAuth", oauthClient]] as const) {
        const answer = text(await client.callTool({ name: "get_context", arguments: { natural_language_query: question, environment_name: "prod", package_name: "sales" } }));
        expect([question, who, answer]).not.toEqual([question, who, expect.stringMatching(/APAC|total_salary|payroll_region|pay_or_orders|Salaries, for the finance|"salary"/)]);
      }
    }
  });

  test("the index list and each index answer a viewer no value or count of a bound or authorized source", async () => {
    const list = await w.s.call("GET", `${V}/indexes`, { token: w.ann });
    expect(list.status).toBe(200);
    for (const index of list.body as { id: string; sourceName: string; valueCount: number | null }[]) {
      const one = await w.s.call("GET", `${V}/indexes/${index.id}`, { token: w.ann });
      const body = JSON.stringify(one.body);
      expect([index.sourceName, body]).not.toEqual([index.sourceName, expect.stringMatching(/APAC|"US"/)]);
      if (["payroll", "pay_or_orders", "payroll_with_orders"].includes(index.sourceName)) {
        expect([index.sourceName, one.status === 200 ? [one.body.valueCount ?? null, one.body.values ?? []] : one.status]).toEqual([index.sourceName, one.status === 200 ? [null, []] : expect.any(Number)]);
      }
    }
  });

  test("retrieval's entity kinds (source, dimension, measure, view, value) name nothing of payroll to ann or the API key; bob finds its salary column", async () => {
    const targets = ["source", "dimension", "measure", "view", "dimensional_value"].map((entity_type) => ({ entity_type, search_text: "salary payroll" }));
    const items = async (auth: Auth) => {
      const r = await w.s.call("POST", `${API}/retrieval/context`, { ...auth, body: { organization: "acme", search_targets: targets } });
      expect([r.status, r.body.message]).toEqual([200, undefined]);
      return (r.body.results as { items: { source_name?: string; name: string }[] }[]).flatMap((x) => x.items);
    };
    for (const auth of [{ token: w.ann }, { apiKey: w.salesKey }]) {
      const found = await items(auth);
      expect(found.filter((i) => /pay|salary/.test(`${i.source_name} ${i.name}`))).toEqual([]);
    }
    expect((await items({ token: w.bob })).some((i) => i.name === "salary")).toBe(true);
  });

  test("a scoped run naming the bound source's indexed dimension builds no value a viewer can read", async () => {
    const run = await w.s.call("POST", `${V}/runs`, { token: w.admin, body: { dimensions: ["orders.order_region", "big_orders.order_region"] } });
    if (run.status === 201) {
      const ended = await waitRun(w, `${API}/organizations/acme/environments/prod/packages/sales/runs/${run.body.id}`, { token: w.admin });
      expect(["succeeded", "failed"]).toContain(ended.state);
    } else {
      // today: 400, a bound source's #(index) dimension is no index dimension of the version
      expect([run.status, String(run.body.message)]).toEqual([400, expect.stringContaining("not #(index) dimensions")]);
    }
    const list = await w.s.call("GET", `${V}/indexes`, { token: w.ann });
    for (const index of list.body as { id: string }[]) {
      const one = await w.s.call("GET", `${V}/indexes/${index.id}`, { token: w.ann });
      expect(JSON.stringify(one.body)).not.toMatch(/APAC|"US"/);
    }
    const answer = text(await keyClient.callTool({ name: "get_context", arguments: { natural_language_query: "order region values", environment_name: "prod", package_name: "sales" } }));
    expect(answer).not.toMatch(/APAC|"US"/);
  });

  test("the query log is refused to a viewer and to an API key", async () => {
    for (const auth of [{ token: w.ann }, { apiKey: w.salesKey }]) {
      const r = await w.s.call("GET", `${API}/organizations/acme/query-log`, auth);
      expect(r.status).toBe(403);
    }
  });
});
