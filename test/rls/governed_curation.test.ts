/**
 * Publisher's governed-analytics sets `"queryableSources": "declared"`;
 * internal.malloy says a direct `run: orders_base -> ...` is denied. The
 * second sweep found orders_base, imported by secured.malloy and
 * orders.malloy, queryable by name in either model: tom (TENANT acme), the
 * acme API key over REST and MCP, and eve (refused by orders_secured's gates)
 * read every tenant's rows around the gates and the where: over $TENANT.
 * A query of a curated package now compiles against the model without what
 * its undeclared files define (src/models/curation.ts).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { GOVERNED_MODELS as M, type GovernedWorld, startGovernedWorld } from "./world.ts";

let w: GovernedWorld;
let acmeClient: Client;
let tom: string;
let eve: string;
let acmeKey: string;
beforeAll(async () => {
  w = await startGovernedWorld();
  ({ tom, eve, acmeKey, acmeClient } = w);
}, 300_000);
afterAll(async () => {
  await w?.close();
}, 120_000);

test("orders_base (internal.malloy, not declared) is not queryable through the models that import it (it answered 200 with acme, globex and initech)", async () => {
  for (const [who, auth] of [["tom", { token: tom }], ["eve", { token: eve }], ["key", { apiKey: acmeKey }]] as const) {
    for (const model of ["secured.malloy", "orders.malloy"]) {
      for (const query of ["run: orders_base -> { group_by: tenant }", "source: x is orders_base -> { select: * }\nrun: x -> { group_by: tenant }"]) {
        const r = await w.s.call("POST", `${M}/${model}/query`, { ...auth, body: { query } });
        expect([who, model, query, JSON.stringify(r.body.data ?? null)]).toEqual([who, model, query, expect.not.stringMatching(/globex|initech/)]);
      }
    }
  }
  const mcp = await acmeClient.callTool({ name: "execute_query", arguments: { environment_name: "prod", package_name: "governed-analytics", model_uri: "secured.malloy", query: "run: orders_base -> { group_by: tenant }" } }) as { content: { text: string }[] };
  expect(mcp.content[0]!.text).not.toMatch(/globex|initech/);
});
