/**
 * MCP test helpers: organizations, groups and group tokens inserted with SQL
 * (the governance routes are built elsewhere), the service served over real
 * HTTP on loopback, and SDK clients that talk to it.
 * @module
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { sha256Hex } from "../../src/http/auth.ts";
import type { Db } from "../../src/db/database.ts";

/** An organization with one group and a group token (API key). */
export interface OrgWithKey {
  orgId: string;
  groupId: string;
  tokenId: string;
  /** The API key: `Authorization: ApiKey <secret>`. */
  secret: string;
}

/** Inserts an organization, a group in it and a token of that group valid for a day. */
export async function createOrgWithKey(sql: Db, orgName: string): Promise<OrgWithKey> {
  const [org] = await sql`INSERT INTO organizations (name) VALUES (${orgName}) RETURNING id`;
  const [group] = await sql`INSERT INTO groups (org_id, name) VALUES (${org!.id as string}, ${`${orgName}-agents`}) RETURNING id`;
  const secret = `key-${crypto.randomUUID()}-${crypto.randomUUID()}`;
  const [token] = await sql`
    INSERT INTO group_tokens (group_id, name, secret_hash, expires_at)
    VALUES (${group!.id as string}, 'mcp', ${await sha256Hex(secret)}, now() + interval '1 day') RETURNING id`;
  return { orgId: org!.id as string, groupId: group!.id as string, tokenId: token!.id as string, secret };
}

/** A handler served on a loopback port. */
export interface Served {
  url: string;
  stop(): void;
}

/** Serves a request handler over HTTP on 127.0.0.1 with a free port. */
export function serveOnLoopback(handle: (request: Request) => Promise<Response>): Served {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => handle(request) });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

/** An SDK client connected to `url` with the given `Authorization` header value. */
export async function connectClient(url: string, authorization: string): Promise<Client> {
  const client = new Client({ name: "mcp-tests", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization } } });
  await client.connect(transport);
  return client;
}

/** What a rejected SDK call carried: JSON-RPC code and message. */
export async function rpcError(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (error) {
    return { code: (error as { code: number }).code, message: (error as Error).message };
  }
  throw new Error("expected the call to fail, it succeeded");
}

/** One raw JSON-RPC POST: status, headers and parsed body. */
export async function postRpc(url: string, message: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(message),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch { /* not JSON */ }
  // deno-lint-ignore no-explicit-any
  return { status: response.status, headers: response.headers, body: body as any };
}

/** A JSON-RPC `initialize` request. */
export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
