import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { connectClient, createOrgWithKey, INITIALIZE, postRpc, serveOnLoopback, type OrgWithKey, type Served } from "../helpers/mcp.ts";

let s: TestService;
let served: Served;
let acme: OrgWithKey;
let globex: OrgWithKey;

beforeAll(async () => {
  s = await startTestService();
  served = serveOnLoopback(s.service.handle);
  acme = await createOrgWithKey(s.service.db.sql, "acme");
  globex = await createOrgWithKey(s.service.db.sql, "globex");
}, 60_000);
afterAll(async () => {
  served?.stop();
  await s?.close();
}, 120_000);

describe("authentication", () => {
  test("no credentials: 401 pointing at the protected resource metadata", async () => {
    const r = await postRpc(`${served.url}/mcp/acme`, INITIALIZE);
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("AUTHENTICATION_REQUIRED");
    expect(r.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${served.url}/.well-known/oauth-protected-resource/mcp/acme"`);
  });

  test("no credentials on a workspace endpoint: the challenge names that endpoint's metadata", async () => {
    const r = await postRpc(`${served.url}/mcp/acme/workspace/sales`, INITIALIZE);
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${served.url}/.well-known/oauth-protected-resource/mcp/acme/workspace/sales"`,
    );
  });

  test("an unknown API key: 401 with error=invalid_token", async () => {
    const r = await postRpc(`${served.url}/mcp/acme`, INITIALIZE, { authorization: "ApiKey not-a-real-key" });
    expect(r.status).toBe(401);
    expect(r.headers.get("www-authenticate")).toBe(
      `Bearer resource_metadata="${served.url}/.well-known/oauth-protected-resource/mcp/acme", error="invalid_token"`,
    );
    expect(r.body.message).toContain("API key is invalid");
  });

  test("the protected resource metadata document (RFC 9728), without authentication", async () => {
    const r = await fetch(`${served.url}/.well-known/oauth-protected-resource/mcp/acme`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toContain("application/json");
    const doc = await r.json();
    expect(doc).toMatchObject({
      resource: `${served.url}/mcp/acme`,
      authorization_servers: [served.url],
      bearer_methods_supported: ["header"],
      scopes_supported: ["mcp"],
    });
    const ws = await (await fetch(`${served.url}/.well-known/oauth-protected-resource/mcp/acme/workspace/sales`)).json();
    expect(ws.resource).toBe(`${served.url}/mcp/acme/workspace/sales`);
  });

  test("a bad organization name in the metadata path is 400", async () => {
    const r = await fetch(`${served.url}/.well-known/oauth-protected-resource/mcp/a%20b`);
    expect(r.status).toBe(400);
    expect((await r.json()).code).toBe("VALIDATION_ERROR");
  });

  test("behind a trusted proxy the forwarded origin is used", async () => {
    const proxied = await startTestService({ TRUST_PROXY: "true" });
    try {
      const r = await proxied.call("GET", "/.well-known/oauth-protected-resource/mcp/acme", {
        headers: { "x-forwarded-proto": "https", "x-forwarded-host": "data.example.com" },
      });
      expect(r.body.resource).toBe("https://data.example.com/mcp/acme");
      expect(r.body.authorization_servers).toEqual(["https://data.example.com"]);
    } finally {
      await proxied.close();
    }
  });

  test("a user's access token (Bearer) of a member works like an API key", async () => {
    const client = await connectClient(`${served.url}/mcp/acme`, `Bearer ${await s.adminToken()}`);
    expect((await client.listTools()).tools).toHaveLength(2);
    await client.close();
  });
});

describe("organization boundaries", () => {
  test("a key of organization globex on acme's endpoint is 404, like an unknown organization", async () => {
    const foreign = await postRpc(`${served.url}/mcp/acme`, INITIALIZE, { authorization: `ApiKey ${globex.secret}` });
    const unknown = await postRpc(`${served.url}/mcp/nowhere`, INITIALIZE, { authorization: `ApiKey ${globex.secret}` });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ code: "RESOURCE_NOT_FOUND", message: "organization 'acme' not found" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "RESOURCE_NOT_FOUND", message: "organization 'nowhere' not found" });
    const own = await postRpc(`${served.url}/mcp/globex`, INITIALIZE, { authorization: `ApiKey ${globex.secret}` });
    expect(own.status).toBe(200);
  });

  test("a deleted token is refused on the next request of a connected client", async () => {
    const temp = await createOrgWithKey(s.service.db.sql, "initech");
    const client = await connectClient(`${served.url}/mcp/initech`, `ApiKey ${temp.secret}`);
    expect((await client.listTools()).tools).toHaveLength(2);
    await s.service.db.sql`DELETE FROM group_tokens WHERE id = ${temp.tokenId}`;
    const error = await client.listTools().then(() => null, (e: Error & { code?: number }) => e);
    expect(error?.code).toBe(401);
    expect(String(error?.message)).toContain("API key is invalid, expired or deleted");
    const raw = await postRpc(`${served.url}/mcp/initech`, INITIALIZE, { authorization: `ApiKey ${temp.secret}` });
    expect(raw.status).toBe(401);
    await client.close();
  });

  test("an expired token is refused", async () => {
    const temp = await createOrgWithKey(s.service.db.sql, "umbrella");
    await s.service.db.sql`UPDATE group_tokens SET expires_at = now() - interval '1 second' WHERE id = ${temp.tokenId}`;
    const r = await postRpc(`${served.url}/mcp/umbrella`, INITIALIZE, { authorization: `ApiKey ${temp.secret}` });
    expect(r.status).toBe(401);
  });
});

describe("workspace endpoint", () => {
  test("an unknown workspace is 404", async () => {
    const r = await postRpc(`${served.url}/mcp/acme/workspace/nope`, INITIALIZE, { authorization: `ApiKey ${acme.secret}` });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: "RESOURCE_NOT_FOUND", message: "workspace 'nope' not found in organization 'acme'" });
  });

  test("a workspace the group has no role on is 404; with a viewer grant it is served", async () => {
    const [ws] = await s.service.db.sql`INSERT INTO workspaces (org_id, name) VALUES (${acme.orgId}, 'sales') RETURNING id`;
    const hidden = await postRpc(`${served.url}/mcp/acme/workspace/sales`, INITIALIZE, { authorization: `ApiKey ${acme.secret}` });
    expect(hidden.status).toBe(404);
    await s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
      VALUES ('workspace', ${ws!.id as string}, 'group', ${acme.groupId}, 'viewer')`;
    const client = await connectClient(`${served.url}/mcp/acme/workspace/sales`, `ApiKey ${acme.secret}`);
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["execute_query", "get_context"]);
    await client.close();
  });

  test("a workspace of another organization with the same name is not reachable", async () => {
    await s.service.db.sql`INSERT INTO workspaces (org_id, name) VALUES (${globex.orgId}, 'only-globex')`;
    const r = await postRpc(`${served.url}/mcp/acme/workspace/only-globex`, INITIALIZE, { authorization: `ApiKey ${acme.secret}` });
    expect(r.status).toBe(404);
  });
});
