import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { startTestService, type TestService } from "../helpers/service.ts";
import { connectClient, createOrgWithKey, INITIALIZE, postRpc, rpcError, serveOnLoopback, type OrgWithKey, type Served } from "../helpers/mcp.ts";

let s: TestService;
let served: Served;
let acme: OrgWithKey;
let client: Client;

beforeAll(async () => {
  s = await startTestService();
  served = serveOnLoopback(s.service.handle);
  acme = await createOrgWithKey(s.service.db.sql, "acme");
  client = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${acme.secret}`);
}, 60_000);
afterAll(async () => {
  await client?.close();
  served?.stop();
  await s?.close();
}, 120_000);

describe("initialize and tools/list", () => {
  test("the server reports its name, instructions and the tools capability only", () => {
    expect(client.getServerVersion()).toEqual({ name: "malloy-platform-mcp", version: "0.1.0" });
    expect(Object.keys(client.getServerCapabilities() ?? {})).toEqual(["tools"]);
    const instructions = client.getInstructions() ?? "";
    expect(instructions).toContain("get_context");
    expect(instructions).toContain("execute_query");
    expect(instructions).toContain("query_name` + `source_name");
  });

  test("both tools are listed with the seed's argument names and required lists", async () => {
    const { tools } = await client.listTools();
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(byName).sort()).toEqual(["execute_query", "get_context"]);
    const exec = byName.execute_query!;
    expect(Object.keys(exec.inputSchema.properties ?? {}).sort()).toEqual(
      ["dry_run", "environment_name", "givens", "limit", "max_chars", "model_uri", "package_name", "query", "query_name", "source_name", "version_id"],
    );
    expect(exec.inputSchema.required).toEqual(["environment_name", "package_name", "model_uri"]);
    expect(exec.description).toContain("query_name");
    const ctx = byName.get_context!;
    expect(Object.keys(ctx.inputSchema.properties ?? {}).sort()).toEqual(
      ["environment_name", "model_uri", "natural_language_query", "package_name", "source_name"],
    );
    expect(ctx.inputSchema.required).toEqual(["natural_language_query"]);
    // the seed's arguments are strings; API.md adds limit (integer) and dry_run (boolean) to execute_query, and max_chars (integer) bounds its
    // answer; givens (an object) sets the model's givens that no trusted attribute fills
    const options: Record<string, string> = { limit: "integer", max_chars: "integer", dry_run: "boolean", givens: "object" };
    for (const tool of tools) {
      for (const [name, property] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((property as { type: string }).type).toBe(options[name] ?? "string");
      }
    }
  });
});

const base = { environment_name: "prod", package_name: "flights", model_uri: "models/flights.malloy" };

describe("argument rules are JSON-RPC -32602 naming the rule", () => {
  const cases: [string, string, Record<string, unknown>, string][] = [
    ["execute_query", "both query and query_name", { ...base, query: "flights -> by_carrier", query_name: "by_carrier", source_name: "flights" }, "not both"],
    ["execute_query", "neither query nor query_name", { ...base }, "neither was given"],
    ["execute_query", "query_name without source_name", { ...base, query_name: "by_carrier" }, "'query_name' needs 'source_name'"],
    ["execute_query", "source_name with query", { ...base, query: "flights -> by_carrier", source_name: "flights" }, "'source_name' goes only with 'query_name'"],
    ["execute_query", "missing package_name and model_uri", { environment_name: "prod", query: "x -> y" }, "missing required arguments 'package_name', 'model_uri'"],
    ["execute_query", "a number for query", { ...base, query: 42 }, "argument 'query' must be a string, got number"],
    ["execute_query", "an array for version_id", { ...base, query: "x", version_id: ["1.0.0"] }, "argument 'version_id' must be a string, got array"],
    ["execute_query", "an unknown argument", { ...base, queryName: "x", source_name: "flights" }, "unknown argument 'queryName'"],
    ["execute_query", "an empty query", { ...base, query: "  " }, "argument 'query' must not be empty"],
    ["execute_query", "a bad environment name", { ...base, environment_name: "../etc", query: "x" }, "argument 'environment_name'"],
    ["execute_query", "a model_uri climbing out of the package", { ...base, model_uri: "../../etc/passwd", query: "x" }, "'model_uri' must be a package-relative path"],
    ["execute_query", "a model_uri that is not a model file", { ...base, model_uri: "data/orders.csv", query: "x" }, "'model_uri' must name a .malloy or .malloynb file"],
    ["get_context", "an absolute model_uri", { natural_language_query: "q", environment_name: "prod", package_name: "p", model_uri: "/etc/x.malloy" }, "'model_uri' must be a package-relative path"],
    ["get_context", "missing natural_language_query", { environment_name: "prod" }, "missing required argument 'natural_language_query'"],
    ["get_context", "package_name without environment_name", { natural_language_query: "q", package_name: "flights" }, "'package_name' requires 'environment_name'"],
    ["get_context", "model_uri without package_name", { natural_language_query: "q", environment_name: "prod", model_uri: "m.malloy" }, "'model_uri' requires 'package_name'"],
    ["get_context", "source_name without model_uri", { natural_language_query: "q", environment_name: "prod", package_name: "p", source_name: "s" }, "'source_name' requires 'model_uri'"],
    ["get_context", "source_name alone", { natural_language_query: "q", source_name: "s" }, "'source_name' requires 'environment_name' and 'package_name' and 'model_uri'"],
    ["get_context", "a boolean question", { natural_language_query: true }, "must be a string, got boolean"],
  ];
  for (const [tool, rule, args, message] of cases) {
    test(`${tool}: ${rule}`, async () => {
      const error = await rpcError(client.callTool({ name: tool, arguments: args }));
      expect(error.code).toBe(-32602);
      expect(error.message).toContain(message);
    });
  }

  test("an unknown tool is -32602", async () => {
    const error = await rpcError(client.callTool({ name: "drop_tables", arguments: {} }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("unknown tool 'drop_tables'");
  });

  test("the raw JSON-RPC error has code -32602 and the message without a prefix", async () => {
    const r = await postRpc(`${served.url}/mcp/acme`, { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "execute_query", arguments: { ...base } } }, {
      authorization: `ApiKey ${acme.secret}`,
      "mcp-protocol-version": "2025-06-18",
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32602, message: "execute_query: give 'query' (Malloy query text) or 'query_name' with 'source_name'; neither was given" },
    });
  });
});

describe("tools on an organization without packages", () => {
  test("execute_query with valid arguments answers isError: the package is not found", async () => {
    const result = await client.callTool({ name: "execute_query", arguments: { ...base, query_name: "by_carrier", source_name: "flights" } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toContain("RESOURCE_NOT_FOUND");
  });

  test("get_context naming an environment that does not exist answers isError: not found", async () => {
    const result = await client.callTool({ name: "get_context", arguments: { natural_language_query: "late flights by carrier", environment_name: "prod" } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0]!.text).toContain("RESOURCE_NOT_FOUND");
  });
});

describe("transport", () => {
  test("GET and DELETE are 405 with Allow: POST (stateless endpoint)", async () => {
    for (const method of ["GET", "DELETE"]) {
      const r = await fetch(`${served.url}/mcp/acme`, { method, headers: { authorization: `ApiKey ${acme.secret}`, accept: "text/event-stream" } });
      expect(r.status).toBe(405);
      expect(r.headers.get("allow")).toBe("POST");
    }
  });

  test("no session id is issued (stateless) and a body that is not JSON is a parse error", async () => {
    const init = await postRpc(`${served.url}/mcp/acme`, INITIALIZE, { authorization: `ApiKey ${acme.secret}` });
    expect(init.status).toBe(200);
    expect(init.headers.get("mcp-session-id")).toBeNull();
    expect(init.body.result.protocolVersion).toBe("2025-06-18");
    const bad = await fetch(`${served.url}/mcp/acme`, {
      method: "POST",
      headers: { authorization: `ApiKey ${acme.secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: "{not json",
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe(-32700);
  });

  test("valid JSON that is not a JSON-RPC message is -32600 (invalid request), not a parse error", async () => {
    const post = (body: string) => fetch(`${served.url}/mcp/acme`, {
      method: "POST",
      headers: { authorization: `ApiKey ${acme.secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body,
    });
    for (const body of ['{"id":1}', '{"jsonrpc":"2.0","id":1}', '{"jsonrpc":"1.0","id":1,"method":"tools/list"}', "42", "[]", '[{"id":1}]', '{"jsonrpc":"2.0","id":{},"method":"tools/list"}']) {
      const r = await post(body);
      expect(r.status).toBe(400);
      const answer = await r.json();
      expect(answer.jsonrpc).toBe("2.0");
      expect(answer.error.code).toBe(-32600);
      expect(answer.error.message).toContain("Invalid Request");
    }
    expect((await (await post('{"id":7}')).json()).id).toBe(7);
    expect((await (await post('{"id":{}}')).json()).id).toBeNull();
  });

  test("a plain JSON POST without Accept (server-to-server) is answered with JSON; Accept: text/html is 406", async () => {
    const plain = await fetch(`${served.url}/mcp/acme`, {
      method: "POST",
      headers: { authorization: `ApiKey ${acme.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/list" }),
    });
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-type")).toContain("application/json");
    const body = await plain.json();
    expect(body.result.tools.map((tool: { name: string }) => tool.name).sort()).toEqual(["execute_query", "get_context"]);
    const html = await postRpc(`${served.url}/mcp/acme`, INITIALIZE, { authorization: `ApiKey ${acme.secret}`, accept: "text/html" });
    expect(html.status).toBe(406);
  });

  test("a foreign browser Origin is 403, a loopback Origin is served", async () => {
    const auth = { authorization: `ApiKey ${acme.secret}` };
    const evil = await postRpc(`${served.url}/mcp/acme`, INITIALIZE, { ...auth, origin: "http://evil.example.com" });
    expect(evil.status).toBe(403);
    expect(evil.body.code).toBe("INSUFFICIENT_PERMISSIONS");
    expect(evil.body.message).toContain("MCP_ALLOWED_ORIGINS");
    const local = await postRpc(`${served.url}/mcp/acme`, INITIALIZE, { ...auth, origin: "http://localhost:6274" });
    expect(local.status).toBe(200);
  });
});
