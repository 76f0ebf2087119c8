import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { API, groupApiKey, publish, startWorld, type World } from "../packages/helpers.ts";
import { BY_REGION, BY_STATUS, shopFiles } from "../query/fixtures.ts";
import { connectClient, postRpc, rpcError, serveOnLoopback, type Served } from "../helpers/mcp.ts";

let w: World;
let served: Served;
let client: Client;
let key: string;
const base = { environment_name: "prod", package_name: "shop", model_uri: "models/shop.malloy" };

function text(result: object): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

beforeAll(async () => {
  w = await startWorld();
  expect((await publish(w, "shop", "1.0.0", { token: w.admin, files: await shopFiles() })).status).toBe(201);
  key = await groupApiKey(w, "agents", { viewerOf: "/organizations/acme/environments/prod" });
  served = serveOnLoopback(w.s.service.handle);
  client = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${key}`);
}, 120_000);
afterAll(async () => {
  await client?.close();
  served?.stop();
  await w?.s.close();
}, 120_000);

describe("execute_query over MCP with an API key", () => {
  test("one tools/call is answered directly with the SDK transport's answer (a batch of one still goes there)", async () => {
    // executionTime differs from run to run; everything else must be the same
    const same = (body: { result?: { content: { text: string }[]; structuredContent: { executionTime: number } } }) => {
      if (!body.result?.structuredContent) return body;
      const envelope = JSON.parse(body.result.content[0]!.text);
      envelope.executionTime = 0;
      return { ...body, result: { ...body.result, content: [{ ...body.result.content[0], text: JSON.stringify(envelope) }], structuredContent: { ...body.result.structuredContent, executionTime: 0 } } };
    };
    const calls = [
      { ...base, query_name: "by_region", source_name: "orders" },
      { ...base, query: "orders -> { group_by: customers.name; aggregate: revenue; order_by: name }", max_chars: 150 },
      { ...base, query: "orders -> { group_by: nope }" },
      { ...base, query_name: "by_region" },
    ];
    for (const [i, args] of calls.entries()) {
      const message = { jsonrpc: "2.0", id: 40 + i, method: "tools/call", params: { name: "execute_query", arguments: args } };
      const direct = await postRpc(`${served.url}/mcp/acme`, message, { authorization: `ApiKey ${key}` });
      const batched = await postRpc(`${served.url}/mcp/acme`, [message], { authorization: `ApiKey ${key}` });
      expect(direct.status).toBe(200);
      expect(batched.status).toBe(200);
      expect(direct.headers.get("content-type")).toBe("application/json");
      expect(same(direct.body)).toEqual(same(batched.body));
    }
    // the four answers: rows, a cut, a compile error result, a JSON-RPC error
    const rows = await postRpc(`${served.url}/mcp/acme`, { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "execute_query", arguments: calls[0] } }, { authorization: `ApiKey ${key}` });
    expect(rows.body.id).toBe("a");
    expect(rows.body.result.structuredContent.data).toEqual(BY_REGION);
    expect(JSON.parse(rows.body.result.content[0].text)).toEqual(rows.body.result.structuredContent);
    const invalid = await postRpc(`${served.url}/mcp/acme`, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "execute_query", arguments: calls[3] } }, { authorization: `ApiKey ${key}` });
    expect(invalid.body.error.code).toBe(-32602);
  });

  test("a view: exact rows in text and structuredContent", async () => {
    const result = await client.callTool({ name: "execute_query", arguments: { ...base, query_name: "by_region", source_name: "orders" } });
    expect(result.isError).toBeFalsy();
    const envelope = JSON.parse(text(result));
    expect(envelope.data).toEqual(BY_REGION);
    expect(envelope.totalRows).toBe(3);
    expect(envelope.metadata).toMatchObject({ sourceName: "orders", queryName: "by_region", versionId: "1.0.0", connection: "duckdb" });
    expect(result.structuredContent).toEqual(envelope);
  });

  test("a named query and an ad-hoc query", async () => {
    const named = await client.callTool({ name: "execute_query", arguments: { ...base, query_name: "by_status", source_name: "orders" } });
    expect(JSON.parse(text(named)).data).toEqual(BY_STATUS);
    const adhoc = await client.callTool({
      name: "execute_query",
      arguments: { ...base, query: "orders -> { group_by: customers.name; aggregate: revenue; order_by: name }", version_id: "1.0.0" },
    });
    expect(adhoc.isError).toBeFalsy();
    expect(JSON.parse(text(adhoc)).data).toEqual([
      { name: "Ada", revenue: 60.5 },
      { name: "Bo", revenue: 15 },
      { name: "Cy", revenue: 150 },
      { name: "Di", revenue: 20 },
    ]);
  });

  test("max_chars cuts rows from the end and says so; a result within the budget is unchanged", async () => {
    const args = { ...base, query: "orders -> { group_by: customers.name; aggregate: revenue; order_by: name }" };
    const full = await client.callTool({ name: "execute_query", arguments: args });
    const whole = text(full);
    expect(JSON.parse(whole).truncated).toBeUndefined();
    // (executionTime changes between runs: a few characters of slack)
    const same = JSON.parse(text(await client.callTool({ name: "execute_query", arguments: { ...args, max_chars: whole.length + 20 } })));
    expect(same.truncated).toBeUndefined();
    expect(same.data).toEqual(JSON.parse(whole).data);
    const budget = whole.length - 10;
    const cut = await client.callTool({ name: "execute_query", arguments: { ...args, max_chars: budget } });
    const envelope = JSON.parse(text(cut));
    // (four short rows: the note outweighs them, so none is kept; the unit test checks the sizes)
    expect(envelope).toMatchObject({ truncated: true, totalRows: 4 });
    expect(envelope.returnedRows).toBe(envelope.data.length);
    expect(envelope.data.length).toBeLessThan(4);
    expect(envelope.data).toEqual(JSON.parse(whole).data.slice(0, envelope.data.length));
    expect(envelope.note).toContain("max_chars");
    const small = await rpcError(client.callTool({ name: "execute_query", arguments: { ...args, max_chars: 499 } }));
    expect(small.code).toBe(-32602);
  });

  test("argument rules are JSON-RPC -32602", async () => {
    const both = await rpcError(client.callTool({ name: "execute_query", arguments: { ...base, query: "orders -> { aggregate: order_count }", query_name: "by_region", source_name: "orders" } }));
    expect(both.code).toBe(-32602);
    const neither = await rpcError(client.callTool({ name: "execute_query", arguments: base }));
    expect(neither.code).toBe(-32602);
  });

  test("a compile error is an isError result with the line and column", async () => {
    const result = await client.callTool({ name: "execute_query", arguments: { ...base, query: "orders -> { group_by: statuz }" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("compile error");
    expect(text(result)).toMatch(/:\d+:\d+: .*statuz/);
  });

  test("an archived version is not queryable; an unknown package is not found", async () => {
    expect((await publish(w, "shop", "1.1.0", { token: w.admin, files: await shopFiles() })).status).toBe(201);
    const archived = await w.s.call("PATCH", `${API}/organizations/acme/projects/prod/packages/shop/versions/1.1.0`, {
      token: w.admin,
      body: { archiveStatus: "archive" },
    });
    expect(archived.status).toBe(200);
    const result = await client.callTool({ name: "execute_query", arguments: { ...base, query_name: "by_region", source_name: "orders", version_id: "1.1.0" } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("archived");
    const latest = await client.callTool({ name: "execute_query", arguments: { ...base, query_name: "by_region", source_name: "orders" } });
    expect(JSON.parse(text(latest)).metadata.versionId).toBe("1.0.0");
    const missing = await client.callTool({ name: "execute_query", arguments: { ...base, package_name: "nope", query_name: "by_region", source_name: "orders" } });
    expect(missing.isError).toBe(true);
    expect(text(missing)).toContain("RESOURCE_NOT_FOUND");
  });

  test("a key of a group without access to the package gets nothing", async () => {
    const otherKey = await groupApiKey(w, "outsiders");
    const other = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${otherKey}`);
    try {
      const result = await other.callTool({ name: "execute_query", arguments: { ...base, query_name: "by_region", source_name: "orders" } });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain("RESOURCE_NOT_FOUND");
      expect(text(result)).not.toContain("east");
    } finally {
      await other.close();
    }
  });

  test("a key of another organization cannot reach this organization's MCP endpoint", async () => {
    expect((await w.s.call("POST", `${API}/organizations`, { token: w.admin, body: { name: "globex" } })).status).toBe(201);
    const foreign = await groupApiKey(w, "agents", { org: "globex" });
    const r = await fetch(`${served.url}/mcp/acme`, {
      method: "POST",
      headers: { authorization: `ApiKey ${foreign}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "execute_query", arguments: { ...base, query_name: "by_region", source_name: "orders" } } }),
    });
    expect(r.status).toBe(404);
    expect(await r.text()).not.toContain("east");
  });

  test("revoking the grant, then the key, takes effect on the very next request", async () => {
    const revokedKey = await groupApiKey(w, "revoked", { viewerOf: "/organizations/acme/environments/prod" });
    const c = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${revokedKey}`);
    try {
      const call = () => c.callTool({ name: "execute_query", arguments: { ...base, query_name: "by_region", source_name: "orders" } });
      expect((await call()).isError).toBeFalsy();
      expect((await w.s.call("DELETE", `${API}/organizations/acme/environments/prod/permissions/group:revoked`, { token: w.admin })).status).toBe(204);
      const denied = await call();
      expect(denied.isError).toBe(true);
      expect(text(denied)).toContain("RESOURCE_NOT_FOUND");
      expect((await w.s.call("DELETE", `${API}/organizations/acme/groups/revoked/tokens/mcp`, { token: w.admin })).status).toBe(204);
      const afterDelete = await fetch(`${served.url}/mcp/acme`, {
        method: "POST",
        headers: { authorization: `ApiKey ${revokedKey}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(afterDelete.status).toBe(401);
    } finally {
      await c.close().catch(() => {});
    }
  });
});
