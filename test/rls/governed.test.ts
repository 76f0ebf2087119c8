/**
 * Publisher's governed-analytics example (test/fixtures/governed-analytics,
 * MIT, Credible Data Inc.), published unmodified: its `#(authorize)
 * "$ROLE = 'admin'"` gates and its `where: $ROLE = 'admin' or tenant =
 * $TENANT` read givens that this platform fills from the trusted attributes
 * ROLE and TENANT, never from the request. ada (group admins, ROLE admin)
 * reads every tenant, tom (group acme, TENANT acme) and the acme API key
 * read acme's rows, eve (no value) is refused; nobody can set ROLE or
 * TENANT in a request, and query text cannot shadow the column the filter
 * reads. Givens that are no attribute (REGION, MIN_AMOUNT) keep Malloy's
 * behaviour: the request sets them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { API } from "../packages/helpers.ts";
import { waitForIndexing } from "../../src/retrieval/index/indexer.ts";
import { GOVERNED_MODELS as M, type GovernedWorld, startGovernedWorld } from "./world.ts";


let w: GovernedWorld;
let acmeClient: Client;
let ada: string;
let tom: string;
let eve: string;
let acmeKey: string;

beforeAll(async () => {
  w = await startGovernedWorld();
  ({ ada, tom, eve, acmeKey, acmeClient } = w);
}, 300_000);
afterAll(async () => {
  await w?.close();
}, 120_000);

type Auth = { token?: string; apiKey?: string };
const q = (auth: Auth, model: string, body: object) => w.s.call("POST", `${M}/${model}/query`, { ...auth, body });
const tenants = (data: { tenant: string }[]) => data.map((r) => r.tenant).sort();

describe("Publisher's governed-analytics, with ROLE and TENANT from trusted attributes", () => {
  test("publishes unmodified; ada (ROLE admin) reads every tenant, tom and the acme API key read acme's rows", async () => {
    const byTenant = { query: "run: orders_secured -> by_tenant" };
    const a = await q({ token: ada }, "secured.malloy", byTenant);
    expect([a.status, tenants(a.body.data)]).toEqual([200, ["acme", "globex", "initech"]]);
    for (const auth of [{ token: tom }, { apiKey: acmeKey }]) {
      const r = await q(auth, "secured.malloy", byTenant);
      expect([r.status, tenants(r.body.data)]).toEqual([200, ["acme"]]);
    }
  });

  test("eve, with neither attribute, is refused by the gates (403 naming them), also over a view and a dry run", async () => {
    for (const body of [{ query: "run: orders_secured -> by_status" }, { queryName: "by_tenant", sourceName: "orders_secured" }, { query: "run: orders_secured -> by_status", dryRun: true }]) {
      const r = await q({ token: eve }, "secured.malloy", body);
      expect(r.status).toBe(403);
      expect(r.body.message).toContain(`"$ROLE = 'admin'"`);
    }
  });

  test("a request cannot set a given that a trusted attribute fills (400), whoever sends it", async () => {
    for (const [auth, givens] of [[{ token: eve }, { ROLE: "admin" }], [{ token: tom }, { ROLE: "admin" }], [{ token: eve }, { TENANT: "acme" }], [{ apiKey: acmeKey }, { TENANT: "globex" }]] as const) {
      const r = await q(auth, "secured.malloy", { query: "run: orders_secured -> by_tenant", givens });
      expect([r.status, r.body.code]).toEqual([400, "VALIDATION_ERROR"]);
      expect(r.body.message).toContain("cannot be set by a request");
    }
    const mcp = await acmeClient.callTool({ name: "execute_query", arguments: { environment_name: "prod", package_name: "governed-analytics", model_uri: "secured.malloy", query: "run: orders_secured -> by_tenant", givens: { ROLE: "admin" } } }) as { isError?: boolean; content: { text: string }[] };
    expect(mcp.isError).toBe(true);
    expect(mcp.content[0]!.text).toContain("cannot be set by a request");
  });

  test("query text cannot shadow the column the row filter reads (rename, except, a dimension under the freed name): refused", async () => {
    for (const query of [
      "run: orders_secured extend { rename: t is tenant; dimension: tenant is 'acme' } -> { group_by: t }",
      "run: orders_secured extend { except: tenant; dimension: tenant is 'acme' } -> { group_by: region; aggregate: c is count() }",
      "source: x is orders_secured extend { rename: t is tenant; dimension: tenant is 'acme' }\nrun: x -> { group_by: t; aggregate: order_count }",
    ]) {
      const r = await q({ token: tom }, "secured.malloy", { query });
      // refused (it puts another definition under a name the package's filter reads), or only tom's rows
      if (r.status === 400) {
        expect([query, r.body.message]).toEqual([query, expect.stringContaining("the query redefines 'tenant' of source 'orders_secured'")]);
        continue;
      }
      expect([query, r.status, r.body.message]).toEqual([query, 200, undefined]);
      const all = await q({ token: ada }, "secured.malloy", { query: "run: orders_secured -> { aggregate: order_count }" });
      const mine = await q({ token: tom }, "secured.malloy", { query: "run: orders_secured -> { aggregate: order_count }" });
      expect(mine.body.data[0].order_count).toBeLessThan(all.body.data[0].order_count);
      const seen = r.body.data.map((row: Record<string, unknown>) => row.t).filter((t: unknown) => t !== undefined);
      if (seen.length > 0) expect([...new Set(seen)]).toEqual(["acme"]);
      const counted = r.body.data.reduce((n: number, row: Record<string, number>) => n + (row.c ?? row.order_count ?? 0), 0);
      if (counted > 0) expect(counted).toBe(mine.body.data[0].order_count);
    }
  });

  test("over MCP the acme API key reads acme's rows only", async () => {
    const result = await acmeClient.callTool({ name: "execute_query", arguments: { environment_name: "prod", package_name: "governed-analytics", model_uri: "secured.malloy", query: "run: orders_secured -> by_tenant" } }) as unknown as { structuredContent: { data: { tenant: string }[] } };
    expect(tenants(result.structuredContent.data)).toEqual(["acme"]);
  });

  test("givens that are no attribute keep Malloy's behaviour: REGION and MIN_AMOUNT come from the request", async () => {
    const all = await q({ token: eve }, "orders.malloy", { query: "run: sales -> by_region" });
    expect([all.status, all.body.data.length]).toEqual([200, 3]);
    const east = await q({ token: eve }, "orders.malloy", { query: "run: sales -> by_region", givens: { REGION: "us-east" } });
    expect([east.status, east.body.data.map((r: { region: string }) => r.region)]).toEqual([200, ["us-east"]]);
    const unknown = await q({ token: eve }, "orders.malloy", { query: "run: sales -> by_region", givens: { NOPE: 1 } });
    expect([unknown.status, unknown.body.message]).toEqual([400, expect.stringContaining("given 'NOPE' is not declared by the model")]);
  });

  test("the models API shows orders_secured to tom and hides it from eve", async () => {
    const seen = async (token: string) => (await w.s.call("GET", `${M}/secured.malloy`, { token })).body.sources.map((s: { name: string }) => s.name);
    expect(await seen(tom)).toContain("orders_secured");
    expect(await seen(eve)).not.toContain("orders_secured");
  });
});

describe("discovery curation (publisher.json explores with queryableSources: declared)", () => {
  test("internal.malloy compiles for the models that import it but is no model of the version: not listed, a query answers 404", async () => {
    const list = await w.s.call("GET", M, { token: w.admin });
    expect(list.body.map((m: { path?: string; modelPath?: string }) => m.path ?? m.modelPath).filter((p: string) => p.endsWith(".malloy")).sort()).toEqual(["orders.malloy", "secured.malloy"]);
    for (const token of [w.admin, tom]) {
      const r = await q({ token }, "internal.malloy", { query: "run: orders_base -> { aggregate: c is count() }" });
      expect([r.status, r.body.code]).toEqual([404, "RESOURCE_NOT_FOUND"]);
    }
  });
});

describe("retrieval and get_context follow the gates", () => {
  test("eve's retrieval shows no orders_secured, tom's does; nobody sees internal.malloy's orders_base", async () => {
    await waitForIndexing(w.s.service.ctx);
    const search = (token: string) => w.s.call("POST", `${API}/retrieval/context`, {
      token,
      body: { organization: "acme", search_targets: [{ entity_type: "source" }] },
    });
    const names = async (token: string) => (await search(token)).body.results[0].items.map((i: { name: string }) => i.name);
    expect(await names(tom)).toEqual(expect.arrayContaining(["orders_secured", "sales"]));
    const seenByEve = await names(eve);
    expect(seenByEve).toContain("sales");
    expect(seenByEve).not.toContain("orders_secured");
    for (const token of [tom, eve, w.admin]) expect(await names(token)).not.toContain("orders_base");
    const context = await acmeClient.callTool({ name: "get_context", arguments: { natural_language_query: "orders by tenant", environment_name: "prod" } }) as { content: { text: string }[] };
    expect(context.content[0]!.text).not.toContain("orders_base");
  });
});
