import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { waitForRuns } from "../../src/runs/worker.ts";
import { API, groupApiKey, publish, startWorld, type World } from "../packages/helpers.ts";
import { ecommerceFiles } from "../retrieval/fixtures.ts";
import { connectClient, rpcError, serveOnLoopback, type Served } from "../helpers/mcp.ts";

let w: World;
let served: Served;
let client: Client;

function text(result: object): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

interface Source {
  source_name: string;
  model_uri: string;
  package_name: string;
  phrases: { phrase: string; entities: { name: string; score: number; field_type: string; match_reason: string }[] }[];
}

beforeAll(async () => {
  w = await startWorld();
  expect((await publish(w, "shop", "1.0.0", { token: w.admin, files: ecommerceFiles() })).status).toBe(201);
  expect((await publish(w, "secret", "1.0.0", { token: w.admin, files: ecommerceFiles({ delayMeasure: "hidden_delay_metric" }) })).status).toBe(201);
  await waitForRuns(w.s.service.ctx);
  const key = await groupApiKey(w, "agents", { viewerOf: "/organizations/acme/environments/prod/packages/shop" });
  served = serveOnLoopback(w.s.service.handle);
  client = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${key}`);
}, 120_000);
afterAll(async () => {
  await client?.close();
  served?.stop();
  await w?.s.close();
}, 120_000);

describe("get_context over MCP with an API key", () => {
  test("a question finds the measure it means, with the seed's result fields", async () => {
    const result = await client.callTool({
      name: "get_context",
      arguments: { natural_language_query: "average delivery delay by carrier", environment_name: "prod" },
    });
    expect(result.isError).toBeFalsy();
    const body = JSON.parse(text(result)) as { sources: Source[]; next_steps: unknown; malloy_documentation: string; retrieval: string };
    expect(result.structuredContent).toEqual(body as unknown as Record<string, unknown>);
    // no LLM_BASE_URL: the local path split the question
    expect(body.retrieval).toBe("local");
    expect(body.malloy_documentation.length).toBeGreaterThan(200);
    expect(JSON.stringify(body.next_steps)).toContain("models/shipments.malloy");
    const shipments = body.sources.find((s) => s.source_name === "shipments")!;
    expect(shipments.model_uri).toBe("models/shipments.malloy");
    const names = shipments.phrases.flatMap((p) => p.entities.map((e) => e.name));
    expect(names).toContain("avg_delivery_delay");
    expect(names).toContain("carrier");
    for (const phrase of shipments.phrases) {
      const scores = phrase.entities.map((e) => e.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      for (const e of phrase.entities) {
        expect(e.score).toBeGreaterThan(0);
        expect(e.score).toBeLessThanOrEqual(1);
        expect(e.match_reason).toBeString();
      }
    }
  });

  test("the key never sees entities of a package its group cannot read", async () => {
    const result = await client.callTool({ name: "get_context", arguments: { natural_language_query: "hidden delay metric" } });
    expect(result.isError).toBeFalsy();
    expect(text(result)).not.toContain("hidden_delay_metric");
    expect(JSON.parse(text(result)).sources.every((s: Source) => s.package_name === "shop")).toBe(true);
  });

  test("scope chain violations are JSON-RPC -32602", async () => {
    const e = await rpcError(client.callTool({ name: "get_context", arguments: { natural_language_query: "delay", package_name: "shop" } }));
    expect(e.code).toBe(-32602);
    expect(e.message).toContain("environment_name");
  });

  test("a question over 10,000 characters is JSON-RPC -32602 (a question, not a document); 10,000 are answered", async () => {
    const long = await rpcError(client.callTool({ name: "get_context", arguments: { natural_language_query: `delay ${"x".repeat(10_000)}` } }));
    expect(long.code).toBe(-32602);
    expect(long.message).toContain("natural_language_query");
    const atLimit = await client.callTool({ name: "get_context", arguments: { natural_language_query: `delay ${"x ".repeat(4_997)}` } });
    expect(atLimit.isError).toBeFalsy();
  });

  test("a package scope the key cannot read is not found", async () => {
    const result = await client.callTool({
      name: "get_context",
      arguments: { natural_language_query: "delay", environment_name: "prod", package_name: "secret" },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("RESOURCE_NOT_FOUND");
  });

  test("the workspace endpoint searches only the packages the workspace has access to", async () => {
    const [org] = await w.s.service.db.sql`SELECT id FROM organizations WHERE name = 'acme'`;
    const [ws] = await w.s.service.db.sql`INSERT INTO workspaces (org_id, name) VALUES (${org!.id as string}, 'sales') RETURNING id`;
    const [group] = await w.s.service.db.sql`SELECT id FROM groups WHERE name = 'agents'`;
    await w.s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
      VALUES ('workspace', ${ws!.id as string}, 'group', ${group!.id as string}, 'viewer')`;
    // the group may also read "secret", but the workspace only has "shop"
    expect((await w.s.call("POST", `${API}/organizations/acme/environments/prod/packages/secret/permissions`, {
      token: w.admin, body: { userGroupId: "group:agents", permission: "viewer" },
    })).status).toBe(201);
    expect((await w.s.call("POST", `${API}/organizations/acme/environments/prod/packages/shop/permissions`, {
      token: w.admin, body: { userGroupId: "workspace:sales", permission: "viewer" },
    })).status).toBe(201);
    const key = (await w.s.call("POST", `${API}/organizations/acme/groups/agents/tokens?name=ws`, { token: w.admin })).body.secret as string;
    const wsClient = await connectClient(`${served.url}/mcp/acme/workspace/sales`, `ApiKey ${key}`);
    try {
      const everywhere = await client.callTool({ name: "get_context", arguments: { natural_language_query: "hidden delay metric" } });
      expect(text(everywhere)).toContain("hidden_delay_metric");
      const inWorkspace = await wsClient.callTool({ name: "get_context", arguments: { natural_language_query: "hidden delay metric" } });
      expect(inWorkspace.isError).toBeFalsy();
      expect(text(inWorkspace)).not.toContain("hidden_delay_metric");
      expect(JSON.parse(text(inWorkspace)).sources.every((s: Source) => s.package_name === "shop")).toBe(true);
    } finally {
      await wsClient.close();
    }
  });
});
