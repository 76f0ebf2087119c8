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
import { readdirSync, readFileSync } from "node:fs";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient, serveOnLoopback, type Served } from "../helpers/mcp.ts";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { admin } from "./world.ts";

const DIR = new URL("../fixtures/governed-analytics/", import.meta.url).pathname;
const M = `${API}/organizations/acme/environments/prod/packages/governed-analytics/models`;
let w: World;
let served: Served;
let acmeClient: Client;
let tom: string;
let eve: string;
let acmeKey: string;
beforeAll(async () => {
  w = await startWorld();
  await admin(w, "PUT", "/organizations/acme/attributes/ROLE", { type: "string" }, 201);
  await admin(w, "PUT", "/organizations/acme/attributes/TENANT", { type: "string" }, 201);
  const files = new Map(readdirSync(DIR).filter((f) => f !== "LICENSE").map((f) => [f, new Uint8Array(readFileSync(`${DIR}/${f}`))]));
  const published = await publish(w, "governed-analytics", "1.0.0", { token: w.admin, files });
  if (published.status !== 201) throw new Error(`publish: ${published.status}`);
  tom = await w.s.createUser("tom");
  eve = await w.s.createUser("eve");
  await admin(w, "POST", "/organizations/acme/groups", { name: "acme_team" }, 201);
  for (const user of ["tom", "eve"]) {
    await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: `user:${user}`, permission: "member" }, 201);
    await admin(w, "POST", "/organizations/acme/environments/prod/permissions", { userGroupId: `user:${user}`, permission: "viewer" }, 201);
  }
  await admin(w, "POST", "/organizations/acme/environments/prod/permissions", { userGroupId: "group:acme_team", permission: "viewer" }, 201);
  await admin(w, "POST", "/organizations/acme/groups/acme_team/members", { members: [{ principal: "user:tom", status: "member" }] }, [200, 201]);
  await admin(w, "PUT", "/organizations/acme/attributes/TENANT/groups/acme_team", { value: "acme", rank: 1 }, [200, 201]);
  acmeKey = (await w.s.call("POST", `${API}/organizations/acme/groups/acme_team/tokens?name=bot`, { token: w.admin })).body.secret as string;
  served = serveOnLoopback(w.s.service.handle);
  acmeClient = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${acmeKey}`);
}, 300_000);
afterAll(async () => {
  await acmeClient?.close();
  served?.stop();
  await w?.s.close();
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
