import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { connectClient, createOrgWithKey, INITIALIZE, postRpc, serveOnLoopback, type Served } from "../helpers/mcp.ts";
import { authorize, pkce, REDIRECT_URI, registerClient, tokenRequest } from "../helpers/oauth.ts";

let s: TestService;
let served: Served;
const PASSWORD = "pw-olivia-secret";

beforeAll(async () => {
  s = await startTestService();
  served = serveOnLoopback(s.service.handle);
  const acme = await createOrgWithKey(s.service.db.sql, "acme");
  await createOrgWithKey(s.service.db.sql, "globex");
  await s.createUser("olivia");
  const [u] = await s.service.db.sql`SELECT id FROM users WHERE user_name = 'olivia'`;
  await s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
    VALUES ('organization', ${acme.orgId}, 'user', ${u!.id as string}, 'member')`;
}, 60_000);
afterAll(async () => {
  served?.stop();
  await s?.close();
}, 120_000);

describe("discovery", () => {
  test("401 -> protected resource metadata -> authorization server metadata", async () => {
    const unauth = await postRpc(`${served.url}/mcp/acme`, INITIALIZE);
    expect(unauth.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(unauth.headers.get("www-authenticate")!)![1]!;
    const prm = await (await fetch(metadataUrl)).json();
    expect(prm.resource).toBe(`${served.url}/mcp/acme`);
    const issuer = prm.authorization_servers[0];
    const r = await fetch(`${issuer}/.well-known/oauth-authorization-server`);
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(await r.json()).toMatchObject({
      issuer: served.url,
      authorization_endpoint: `${served.url}/oauth/authorize`,
      token_endpoint: `${served.url}/oauth/token`,
      registration_endpoint: `${served.url}/oauth/register`,
      revocation_endpoint: `${served.url}/oauth/revoke`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
      token_endpoint_auth_methods_supported: ["none"],
      scopes_supported: ["mcp"],
    });
  });
});

describe("dynamic client registration", () => {
  test("a public client with loopback and https redirect URIs is registered", async () => {
    const r = await fetch(`${served.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Desk", redirect_uris: [REDIRECT_URI, "https://app.example.com/cb", "http://[::1]:8080/cb"] }),
    });
    expect(r.status).toBe(201);
    const body = await r.json();
    expect(body.client_id).toMatch(/^mcp-/);
    expect(body).toMatchObject({ client_name: "Desk", token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] });
    expect(body.redirect_uris).toHaveLength(3);
  });

  test.each([
    [["http://app.example.com/cb"], "invalid_redirect_uri", "must use https, or http on a loopback"],
    [["https://app.example.com/cb#x"], "invalid_redirect_uri", "fragment"],
    [["not a url"], "invalid_redirect_uri", "not an absolute URL"],
    [[], "invalid_redirect_uri", "array of 1 to 10"],
  ])("redirect_uris %j is refused", async (uris, error, text) => {
    const r = await fetch(`${served.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: uris }),
    });
    expect(r.status).toBe(400);
    const body = await r.json();
    expect(body.error).toBe(error);
    expect(body.error_description).toContain(text);
  });

  test("registration is rate limited per client address", async () => {
    const limited = await startTestService({ RATE_LIMIT_PER_MINUTE: "3" });
    try {
      const body = { redirect_uris: [REDIRECT_URI] };
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await limited.call("POST", "/oauth/register", { body })).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
    } finally {
      await limited.close();
    }
  });

  test("a client nobody authorized within a day is removed at the next registration; an authorized one stays", async () => {
    const idle = await registerClient(served.url);
    const used = await registerClient(served.url);
    const [user] = await s.service.db.sql`SELECT id FROM users WHERE user_name = 'admin'`;
    await s.service.db.sql`INSERT INTO oauth_grants (client_id, user_id, resource, scope) VALUES (${used}, ${user!.id as string}, ${`${served.url}/mcp/acme`}, 'mcp')`;
    await s.service.db.sql`UPDATE oauth_clients SET created_at = now() - interval '25 hours' WHERE client_id IN (${idle}, ${used})`;
    const fresh = await registerClient(served.url);
    const left = await s.service.db.sql`SELECT client_id FROM oauth_clients WHERE client_id IN (${idle}, ${used}, ${fresh}) ORDER BY client_id`;
    expect(left.map((r) => r.client_id).sort()).toEqual([fresh, used].sort());
  });

  test("a confidential client is refused: clients are public", async () => {
    const r = await fetch(`${served.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "client_secret_basic" }),
    });
    expect(r.status).toBe(400);
    expect((await r.json()).error).toBe("invalid_client_metadata");
  });
});

describe("authorization code with PKCE", () => {
  test("form, consent, code, token exchange, then an SDK client lists tools with the token", async () => {
    const clientId = await registerClient(served.url);
    const { verifier, challenge } = await pkce();
    const resource = `${served.url}/mcp/acme`;
    const back = await authorize(served.url, { clientId, resource, challenge, userName: "olivia", password: PASSWORD, state: "xyz" });
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get("state")).toBe("xyz");
    expect(back.searchParams.get("iss")).toBe(served.url);
    const code = back.searchParams.get("code")!;
    expect(code.length).toBeGreaterThan(20);

    const t = await tokenRequest(served.url, {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
      resource,
    });
    expect(t.status).toBe(200);
    expect(t.headers.get("cache-control")).toBe("no-store");
    expect(t.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "mcp" });
    expect(typeof t.body.refresh_token).toBe("string");
    const [, payload] = (t.body.access_token as string).split(".");
    const claims = JSON.parse(atob(payload!.replaceAll("-", "+").replaceAll("_", "/")));
    expect(claims).toMatchObject({ aud: resource, iss: served.url, client_id: clientId, scope: "mcp" });

    const client = await connectClient(resource, `Bearer ${t.body.access_token}`);
    expect((await client.listTools()).tools.map((x) => x.name).sort()).toEqual(["execute_query", "get_context"]);
    await client.close();
  });

  test("signing in with an email works too; a wrong password re-shows the form with 401", async () => {
    const clientId = await registerClient(served.url);
    const { challenge } = await pkce();
    const resource = `${served.url}/mcp/acme`;
    const { authorizeUrl, loadForm, submitForm } = await import("../helpers/oauth.ts");
    const form = await loadForm(authorizeUrl(served.url, { clientId, resource, challenge }));
    expect(form.html).toContain("test client");
    expect(form.html).toContain(resource);
    const wrong = await submitForm(served.url, form, { userName: "olivia", password: "nope" });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain("User name or password is wrong");
    const ok = await submitForm(served.url, form, { userName: "olivia@example.com", password: PASSWORD });
    expect(ok.status).toBe(302);
    expect(new URL(ok.headers.get("location")!).searchParams.get("code")).toBeTruthy();
  });

  test("a workspace endpoint is a resource of its own", async () => {
    const clientId = await registerClient(served.url);
    const { challenge } = await pkce();
    const back = await authorize(served.url, {
      clientId,
      resource: `${served.url}/mcp/acme/workspace/sales`,
      challenge,
      userName: "olivia",
      password: PASSWORD,
    });
    expect(back.searchParams.get("code")).toBeTruthy();
  });
});
