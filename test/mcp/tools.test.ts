import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { buildApp, createHandler } from "../../src/app.ts";
import { notFound } from "../../src/http/errors.ts";
import type { Principal } from "../../src/http/principal.ts";
import type { ContextResult, ContextSearcher, ExecuteQueryArgs, GetContextArgs, QueryRunner, ToolScope } from "../../src/mcp/tools.ts";
import { startTestService, type TestService } from "../helpers/service.ts";
import { connectClient, createOrgWithKey, serveOnLoopback, type OrgWithKey, type Served } from "../helpers/mcp.ts";

/** Stands in for the engine's QueryError (src/engine/problems.ts): same name, kind and problems. */
class FakeQueryError extends Error {
  readonly kind = "compile";
  readonly problems = [{ file: "models/flights.malloy", line: 3, column: 14, message: "'carier' is not defined" }];
  constructor() {
    super("the query does not compile");
    this.name = "QueryError";
  }
}

const calls: { principal: Principal; args: ExecuteQueryArgs | GetContextArgs; scope: ToolScope }[] = [];
const logged: Record<string, unknown>[] = [];

const runner: QueryRunner = {
  run(principal, args, scope) {
    calls.push({ principal, args, scope });
    if (args.package_name === "missing") return Promise.reject(notFound(`package '${args.package_name}' not found`));
    if (args.query === "flights -> { group_by: carier }") return Promise.reject(new FakeQueryError());
    if (args.query === "boom") return Promise.reject(new Error("socket hang up at 10.0.0.3:5432"));
    return Promise.resolve({ data: [{ carrier: "AA", flight_count: 3 }], totalRows: 1, executionTime: 12, metadata: { sql: "SELECT 1" } });
  },
};

const searcher: ContextSearcher = {
  search(principal, args, scope): Promise<ContextResult> {
    calls.push({ principal, args, scope });
    return Promise.resolve({ sources: [], next_steps: ["write a query"], malloy_documentation: "# Malloy" });
  },
};

let s: TestService;
let served: Served;
let acme: OrgWithKey;
let client: Client;
const base = { environment_name: "prod", package_name: "flights", model_uri: "models/flights.malloy" };

function text(result: object): string {
  return ((result as { content: { text: string }[] }).content)[0]!.text;
}

beforeAll(async () => {
  s = await startTestService();
  const ctx = { ...s.service.ctx, log: (line: Record<string, unknown>) => void logged.push(line) };
  const handle = createHandler(ctx, buildApp(ctx, { mcp: { queryRunner: runner, contextSearcher: searcher } }));
  served = serveOnLoopback(handle);
  acme = await createOrgWithKey(s.service.db.sql, "acme");
  client = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${acme.secret}`);
}, 60_000);
afterAll(async () => {
  await client?.close();
  served?.stop();
  await s?.close();
});

describe("get_context through a ContextSearcher", () => {
  test("the result is returned as text and structuredContent; the workspace endpoint passes its workspace", async () => {
    const [ws] = await s.service.db.sql`INSERT INTO workspaces (org_id, name) VALUES (${acme.orgId}, 'sales') RETURNING id`;
    await s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
      VALUES ('workspace', ${ws!.id as string}, 'group', ${acme.groupId}, 'viewer')`;
    const wsClient = await connectClient(`${served.url}/mcp/acme/workspace/sales`, `ApiKey ${acme.secret}`);
    calls.length = 0;
    const result = await wsClient.callTool({ name: "get_context", arguments: { natural_language_query: "late flights", environment_name: "prod" } });
    await wsClient.close();
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ sources: [], next_steps: ["write a query"], malloy_documentation: "# Malloy" });
    expect(JSON.parse(text(result))).toEqual(result.structuredContent as object);
    expect(calls[0]!.args).toEqual({ natural_language_query: "late flights", environment_name: "prod" });
    expect(calls[0]!.scope.workspace).toEqual({ id: ws!.id as string, name: "sales" });
  });

  test("invalid arguments never reach the searcher", async () => {
    calls.length = 0;
    await client.callTool({ name: "get_context", arguments: { natural_language_query: "q", model_uri: "m.malloy" } }).catch(() => {});
    expect(calls).toHaveLength(0);
  });
});
