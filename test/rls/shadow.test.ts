/**
 * A `#(bind)` filter reads the columns of the source as the package
 * published it, whatever the caller's text renames, removes or redefines:
 * `orders extend { rename: r is region; dimension: region is 'EU' }` made the
 * model's `where: region = region_param` read the caller's constant, and
 * every region came back. Each variant runs for ann (EU), bob (US, the same
 * attack with his own value) and the sales_eu API key, on REST, as a dry
 * run (the SQL) and over MCP with an API key and with an OAuth client; each
 * must answer only the caller's own rows.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { publish } from "../packages/helpers.ts";
import { admin, SALES_MODEL, SALES_QUERY, salesFiles, type SalesClients, type SalesWorld, connectSalesClients, startSalesWorld } from "./world.ts";

let w: SalesWorld;
let keyClient: Client;
let oauthClient: Client;
let clients: SalesClients | undefined;
const base = { environment_name: "prod", package_name: "sales", model_uri: "models/sales.malloy" };

type Auth = { token?: string; apiKey?: string };
const q = (auth: Auth, body: object, path = SALES_QUERY) => w.s.call("POST", path, { ...auth, body });

beforeAll(async () => {
  w = await startSalesWorld();
  // an OAuth client of ann's (a viewer, EU)
  clients = await connectSalesClients(w);
  ({ keyClient, oauthClient } = clients);
}, 300_000);
afterAll(async () => {
  await (clients ? clients.close() : w?.s.close());
}, 120_000);

/**
 * Attacks that free the name `region` and put the caller's own value under
 * it, each answering the ids of the rows it sees (`VALUE` is the caller's
 * region). The right answer: the caller's rows only.
 */
const ATTACKS: [string, string][] = [
  ["rename, then a dimension under the freed name", "source: x is orders extend { rename: r is region; dimension: region is VALUE }\nrun: x -> { group_by: id; order_by: id }"],
  ["except, then a dimension under the freed name", "run: orders extend { except: region; dimension: region is VALUE } -> { group_by: id; order_by: id }"],
  ["an expression instead of a literal", "run: orders extend { except: region; dimension: region is concat(substr(VALUE, 1, 1), substr(VALUE, 2)) } -> { group_by: id; order_by: id }"],
  ["a pick of the caller's value", "run: orders extend { except: region; dimension: region is pick VALUE when amount > -1 else 'none' } -> { group_by: id; order_by: id }"],
  ["a chain of the caller's named sources", "source: a is orders extend { rename: r is region }\nsource: b is a extend { dimension: region is VALUE }\nsource: c is b extend { dimension: z is 1 }\nrun: c -> { group_by: id; order_by: id }"],
  ["the package's derived source big_orders, renamed and redefined", "run: big_orders extend { rename: r is region; dimension: region is VALUE } -> { group_by: id; order_by: id }"],
  ["a pipeline after the redefinition", "run: orders extend { except: region; dimension: region is VALUE } -> { select: id, region } -> { group_by: id; order_by: id }"],
  ["a nested view over the redefinition", "run: orders extend { except: region; dimension: region is VALUE } -> { nest: n is { group_by: id; order_by: id } }"],
  ["a source over a query of the redefinition", "source: s is orders extend { except: region; dimension: region is VALUE } -> { select: id }\nrun: s -> { group_by: id; order_by: id }"],
  ["a join in the caller's text of the redefined source", "source: j is orders extend { join_one: o2 is orders extend { rename: rr is region; dimension: region is VALUE } on id = o2.id }\nrun: j -> { where: o2.id != null; group_by: o2.id; order_by: id }"],
  ["a join of the redefined source from an unbound one", "source: j is payroll_with_orders extend { join_many: o3 is orders extend { except: region; dimension: region is VALUE } on true }\nrun: j -> { where: o3.id != null; group_by: o3.id; order_by: id }"],
  ["a refinement of the package's view", "run: orders extend { except: region; dimension: region is VALUE } -> by_region + { group_by: id; order_by: id }"],
];

/** The ids of each region's orders (test/rls/world.ts); big_orders keeps those over 15. */
const IDS: Record<string, number[]> = { EU: [1, 2], US: [3, 4] };
const BIG_IDS: Record<string, number[]> = { EU: [2], US: [4] };
const expected = (query: string, region: string) => (query.includes("big_orders") ? BIG_IDS : IDS)[region]!;

/** The ids an answer's rows name, wherever the attack put them. */
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

const callers: [string, () => Auth, string][] = [
  ["ann", () => ({ token: w.ann }), "EU"],
  ["bob", () => ({ token: w.bob }), "US"],
  ["the sales_eu API key", () => ({ apiKey: w.salesKey }), "EU"],
];

/** Attacks refused outright (see the end of the file). */
const refusals = new Set<string>();

describe("query text cannot change what a #(bind) filter reads", () => {
  for (const [label, template] of ATTACKS) {
    test(`${label}: REST answers only the caller's rows`, async () => {
      for (const [who, auth, region] of callers) {
        const query = template.replaceAll("VALUE", `'${region}'`);
        const r = await q(auth(), { query });
        // the payroll join variant is bob's (finance) only: others are refused
        if (r.status === 403 && query.includes("payroll_with_orders") && who !== "bob") continue;
        // refused (the query redefines a name the package's definitions read), or answered with the caller's rows only
        if (r.status === 400) {
          expect([who, r.body.message]).toEqual([who, expect.stringMatching(/^the query redefines '(region|r)' of source '(orders|big_orders)', whose row-level security definitions read it by name/)]);
          refusals.add(label);
          continue;
        }
        expect([who, r.status, r.body.message]).toEqual([who, 200, undefined]);
        const seen = ids(r.body.data);
        expect([who, seen]).toEqual([who, expected(query, region)]);
              }
    });
  }

  test("a dry run's SQL applies the caller's value to the table's region column, in the stage, before anything of the caller", async () => {
    // a rename alone (no redefinition under the freed name) is answered, its column read from the stage
    const query = "source: x is orders extend { rename: r is region }\nrun: x -> { group_by: id, r; order_by: id }";
    const answered = await q({ token: w.ann }, { query });
    expect([answered.status, answered.body.data]).toEqual([200, [{ id: 1, r: "EU" }, { id: 2, r: "EU" }]]);
    const r = await q({ token: w.ann }, { query, dryRun: true });
    expect(r.status).toBe(200);
    const sql = String(r.body.sql);
    expect(sql).toContain(`base."region"='EU'`);
    expect(sql).not.toMatch(/\('EU'\)='EU'/);
    expect(sql.indexOf("LIMIT 9007199254740991")).toBeGreaterThan(sql.indexOf(`base."region"='EU'`));
  });

  test("over MCP execute_query, with an API key and with an OAuth client, every variant answers the EU rows only", async () => {
    for (const [label, template] of ATTACKS) {
      if (template.includes("payroll_with_orders")) continue;
      const query = template.replaceAll("VALUE", "'EU'");
      for (const [who, client] of [["API key", keyClient], ["OAuth", oauthClient]] as const) {
        const result = await client.callTool({ name: "execute_query", arguments: { ...base, query } }) as { isError?: boolean; structuredContent?: { data?: unknown }; content: { text: string }[] };
        if (result.isError) {
          expect([label, who, result.content[0]!.text]).toEqual([label, who, expect.stringContaining("the query redefines '")]);
          continue;
        }
        const data = result.structuredContent?.data ?? JSON.parse(result.content[0]!.text).data;
        expect([label, who, ids(data)]).toEqual([label, who, expected(query, "EU")]);
      }
    }
  });
});

describe("filter<string> and string_list binds read the package's column too", () => {
  const multiModel = SALES_MODEL.replace("#(bind) region_param=region", "#(bind) region_param=regions")
    .replace("orders(region_param::string)", "orders(region_param::filter<string>)")
    .replace("where: region = region_param", "where: region ~ region_param")
    .replaceAll(`region_param is "ignored"`, `region_param is f'x'`);
  const path = SALES_QUERY.replace("/packages/sales/", "/packages/multi/");

  beforeAll(async () => {
    await admin(w, "PUT", "/organizations/acme/attributes/regions", { type: "string_list" }, 201);
    expect((await publish(w, "multi", "1.0.0", { token: w.admin, files: salesFiles(multiModel) })).status).toBe(201);
    await admin(w, "PUT", "/organizations/acme/attributes/regions/groups/sales_eu", { value: ["EU"], rank: 1 }, [200, 201]);
  });

  test("rename, except and redefinition answer ann's EU rows only", async () => {
    for (const [label, template] of ATTACKS.slice(0, 5)) {
      const r = await q({ token: w.ann }, { query: template.replaceAll("VALUE", "'EU'") }, path);
      if (r.status === 400) expect([label, r.body.message]).toEqual([label, expect.stringContaining("the query redefines '")]);
      else expect([label, r.status, ids(r.body.data)]).toEqual([label, 200, [1, 2]]);
    }
  });
});

test("every attack above is refused or answered with the caller's rows; the refused ones are listed", () => {
  expect(refusals.size).toBeGreaterThan(0);
  console.log(`refused outright: ${[...refusals].join("; ")}`);
});
