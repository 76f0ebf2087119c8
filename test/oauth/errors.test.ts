import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { createOrgWithKey, INITIALIZE, postRpc, serveOnLoopback, type Served } from "../helpers/mcp.ts";
import { authorize, authorizeUrl, loadForm, pkce, REDIRECT_URI, registerClient, submitForm, tokenRequest } from "../helpers/oauth.ts";

let s: TestService;
let served: Served;
let clientId: string;
const PASSWORD = "pw-olivia-secret";

beforeAll(async () => {
  s = await startTestService();
  served = serveOnLoopback(s.service.handle);
  await s.createUser("olivia");
  const [u] = await s.service.db.sql`SELECT id FROM users WHERE user_name = 'olivia'`;
  for (const name of ["acme", "globex"]) {
    const org = await createOrgWithKey(s.service.db.sql, name);
    await s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
      VALUES ('organization', ${org.orgId}, 'user', ${u!.id as string}, 'member')`;
  }
  clientId = await registerClient(served.url);
}, 60_000);
afterAll(async () => {
  served?.stop();
  await s?.close();
}, 120_000);

/** Authorizes olivia for a resource; returns the code and its verifier. */
async function codeFor(resource: string) {
  const { verifier, challenge } = await pkce();
  const back = await authorize(served.url, { clientId, resource, challenge, userName: "olivia", password: PASSWORD });
  return { code: back.searchParams.get("code")!, verifier, resource };
}

function exchange(c: { code: string; verifier: string; resource: string }, extra: Record<string, string> = {}) {
  return tokenRequest(served.url, {
    grant_type: "authorization_code",
    code: c.code,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: c.verifier,
    resource: c.resource,
    ...extra,
  });
}

describe("authorization endpoint errors", () => {
  test("an unknown client or an unregistered redirect_uri is a 400 page, never a redirect", async () => {
    const { challenge } = await pkce();
    const resource = `${served.url}/mcp/acme`;
    const unknown = await fetch(authorizeUrl(served.url, { clientId: "nope", resource, challenge }), { redirect: "manual" });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain("client_id &#39;nope&#39; is not registered");
    const evil = await fetch(authorizeUrl(served.url, { clientId, resource, challenge, redirectUri: "https://evil.example.com/cb" }), {
      redirect: "manual",
    });
    expect(evil.status).toBe(400);
    expect(evil.headers.get("location")).toBeNull();
  });

  test("a missing PKCE challenge, a foreign resource or a bad response_type is a 400 page, never a redirect (RFC 9700 4.11.2)", async () => {
    const url = authorizeUrl(served.url, { clientId, resource: `${served.url}/mcp/acme`, challenge: "x" });
    url.searchParams.delete("code_challenge");
    const noPkce = await fetch(url, { redirect: "manual" });
    expect(noPkce.status).toBe(400);
    expect(noPkce.headers.get("location")).toBeNull();
    expect(await noPkce.text()).toContain("invalid_request");
    const { challenge } = await pkce();
    const foreign = await fetch(authorizeUrl(served.url, { clientId, resource: "https://other.example.com/mcp/acme", challenge }), {
      redirect: "manual",
    });
    expect(foreign.status).toBe(400);
    expect(foreign.headers.get("location")).toBeNull();
    expect(await foreign.text()).toContain("invalid_target");
    const token = authorizeUrl(served.url, { clientId, resource: `${served.url}/mcp/acme`, challenge });
    token.searchParams.set("response_type", "token");
    const implicit = await fetch(token, { redirect: "manual" });
    expect(implicit.status).toBe(400);
    expect(implicit.headers.get("location")).toBeNull();
  });

  test("a form without its CSRF cookie, or with an altered resource, is refused", async () => {
    const { challenge } = await pkce();
    const form = await loadForm(authorizeUrl(served.url, { clientId, resource: `${served.url}/mcp/acme`, challenge }));
    const noCookie = await submitForm(served.url, { ...form, cookie: "" }, { userName: "olivia", password: PASSWORD });
    expect(noCookie.status).toBe(403);
    const altered = await submitForm(served.url, { ...form, fields: { ...form.fields, resource: `${served.url}/mcp/globex` } }, {
      userName: "olivia",
      password: PASSWORD,
    });
    expect(altered.status).toBe(403);
  });

  test("deny sends access_denied back", async () => {
    const { challenge } = await pkce();
    const form = await loadForm(authorizeUrl(served.url, { clientId, resource: `${served.url}/mcp/acme`, challenge }));
    const r = await submitForm(served.url, form, { userName: "", password: "", consent: "deny" });
    expect(r.status).toBe(302);
    expect(new URL(r.headers.get("location")!).searchParams.get("error")).toBe("access_denied");
  });
});

describe("token endpoint errors", () => {
  test("a wrong code_verifier is invalid_grant", async () => {
    const c = await codeFor(`${served.url}/mcp/acme`);
    const r = await exchange({ ...c, verifier: (await pkce()).verifier });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("invalid_grant");
    expect(r.body.error_description).toContain("code_verifier does not match");
  });

  test("a reused code is refused and revokes the tokens issued for it", async () => {
    const c = await codeFor(`${served.url}/mcp/acme`);
    const first = await exchange(c);
    expect(first.status).toBe(200);
    const again = await exchange(c);
    expect(again.status).toBe(400);
    expect(again.body.error_description).toContain("already used");
    const r = await postRpc(c.resource, INITIALIZE, { authorization: `Bearer ${first.body.access_token}` });
    expect(r.status).toBe(401);
    expect(r.body.message).toContain("revoked");
  });

  test("a wrong redirect_uri is invalid_grant", async () => {
    const c = await codeFor(`${served.url}/mcp/acme`);
    const r = await exchange(c, { redirect_uri: "http://127.0.0.1:9/other" });
    expect(r.body.error).toBe("invalid_grant");
    expect(r.body.error_description).toContain("redirect_uri");
  });

  test("an expired code is invalid_grant", async () => {
    const c = await codeFor(`${served.url}/mcp/acme`);
    await s.service.db.sql`UPDATE oauth_codes SET expires_at = now() - interval '1 second'`;
    const r = await exchange(c);
    expect(r.body.error).toBe("invalid_grant");
    expect(r.body.error_description).toContain("expired");
  });

  test("a resource other than the authorized one is invalid_target", async () => {
    const c = await codeFor(`${served.url}/mcp/acme`);
    const r = await exchange(c, { resource: `${served.url}/mcp/globex` });
    expect(r.body.error).toBe("invalid_target");
  });

  test("an unknown grant_type and a JSON body are refused", async () => {
    expect((await tokenRequest(served.url, { grant_type: "password", client_id: clientId })).body.error).toBe("unsupported_grant_type");
    const json = await fetch(`${served.url}/oauth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(json.status).toBe(400);
    expect((await json.json()).error).toBe("invalid_request");
  });
});

describe("audience and refresh", () => {
  test("a token for acme is refused on globex (401 invalid_token) and by the REST API", async () => {
    const c = await codeFor(`${served.url}/mcp/acme`);
    const t = await exchange(c);
    const ok = await postRpc(`${served.url}/mcp/acme`, INITIALIZE, { authorization: `Bearer ${t.body.access_token}` });
    expect(ok.status).toBe(200);
    const other = await postRpc(`${served.url}/mcp/globex`, INITIALIZE, { authorization: `Bearer ${t.body.access_token}` });
    expect(other.status).toBe(401);
    expect(other.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(other.body.message).toContain(`not for ${served.url}/mcp/globex`);
    const ws = await postRpc(`${served.url}/mcp/acme/workspace/sales`, INITIALIZE, { authorization: `Bearer ${t.body.access_token}` });
    expect(ws.status).toBe(401);
    const rest = await fetch(`${served.url}/api/v0/organizations`, { headers: { authorization: `Bearer ${t.body.access_token}` } });
    expect(rest.status).toBe(401);
    expect((await rest.json()).message).toContain("accepted only by the MCP endpoint");
  });

  test("refresh rotates; presenting an old refresh token revokes the whole grant", async () => {
    const c = await codeFor(`${served.url}/mcp/acme`);
    const t1 = await exchange(c);
    const refresh = (token: string) => tokenRequest(served.url, { grant_type: "refresh_token", refresh_token: token, client_id: clientId });
    const t2 = await refresh(t1.body.refresh_token);
    expect(t2.status).toBe(200);
    expect(t2.body.refresh_token).not.toBe(t1.body.refresh_token);
    const ok = await postRpc(c.resource, INITIALIZE, { authorization: `Bearer ${t2.body.access_token}` });
    expect(ok.status).toBe(200);

    const reuse = await refresh(t1.body.refresh_token);
    expect(reuse.status).toBe(400);
    expect(reuse.body.error).toBe("invalid_grant");
    expect(reuse.body.error_description).toContain("already used");
    const next = await refresh(t2.body.refresh_token);
    expect(next.body.error).toBe("invalid_grant");
    const dead = await postRpc(c.resource, INITIALIZE, { authorization: `Bearer ${t2.body.access_token}` });
    expect(dead.status).toBe(401);
  });

  test("revocation (RFC 7009) ends the grant", async () => {
    const c = await codeFor(`${served.url}/mcp/acme`);
    const t = await exchange(c);
    const r = await fetch(`${served.url}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: t.body.refresh_token, client_id: clientId }),
    });
    expect(r.status).toBe(200);
    const after = await postRpc(c.resource, INITIALIZE, { authorization: `Bearer ${t.body.access_token}` });
    expect(after.status).toBe(401);
  });

  test("our normal access tokens and API keys still work on the MCP endpoint", async () => {
    const r = await postRpc(`${served.url}/mcp/acme`, INITIALIZE, { authorization: `Bearer ${await s.login("olivia", PASSWORD)}` });
    expect(r.status).toBe(200);
  });
});
