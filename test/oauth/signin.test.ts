/**
 * The OAuth authorization server's sign-in: per-account lockout on the form,
 * a registration bucket apart from sign-in, PUBLIC_URL as the issuer whatever
 * the Host, and revocation of refresh tokens and grants when the user's
 * password changes, is reset, or the user is removed.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { createOrgWithKey, INITIALIZE, postRpc, serveOnLoopback, type Served } from "../helpers/mcp.ts";
import { authorize, authorizeUrl, loadForm, pkce, registerClient, submitForm, tokenRequest } from "../helpers/oauth.ts";

const PUBLIC = "https://data.example.com";

describe("sign-in form and registration (PUBLIC_URL, low limits)", () => {
  let s: TestService;
  let served: Served;
  beforeAll(async () => {
    s = await startTestService({ PUBLIC_URL: PUBLIC, LOGIN_MAX_FAILURES_ACCOUNT: "3", RATE_LIMIT_PER_MINUTE: "3" });
    served = serveOnLoopback(s.service.handle);
    const acme = await createOrgWithKey(s.service.db.sql, "acme");
    const hash = await Bun.password.hash("pw-olivia-secret", { algorithm: "argon2id", memoryCost: 1024, timeCost: 1 });
    const [u] = await s.service.db.sql`INSERT INTO users (user_name, email, password_hash) VALUES ('olivia', 'olivia@example.com', ${hash}) RETURNING id`;
    await s.service.db.sql`INSERT INTO users (user_name, email, password_hash) VALUES ('pat', 'pat@example.com', ${hash})`;
    await s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
      VALUES ('organization', ${acme.orgId}, 'user', ${u!.id as string}, 'member')`;
  }, 60_000);
  afterAll(async () => {
    served?.stop();
    await s?.close();
  }, 120_000);

  test("PUBLIC_URL is the issuer and the MCP resource, whatever Host the request carries", async () => {
    const meta = await fetch(`${served.url}/.well-known/oauth-authorization-server`, { headers: { host: "evil.example" } });
    const body = await meta.json();
    expect(body.issuer).toBe(PUBLIC);
    expect(body.token_endpoint).toBe(`${PUBLIC}/oauth/token`);
    const unauth = await postRpc(`${served.url}/mcp/acme`, INITIALIZE, { host: "evil.example" });
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get("www-authenticate")).toContain(`${PUBLIC}/.well-known/oauth-protected-resource/mcp/acme`);
  });

  test("registrations have their own bucket: after the limit, sign-in still works", async () => {
    const clientId = await registerClient(served.url);
    await registerClient(served.url);
    await registerClient(served.url);
    const fourth = await fetch(`${served.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ redirect_uris: ["http://127.0.0.1:9/callback"] }),
    });
    expect(fourth.status).toBe(429);
    const { challenge } = await pkce();
    const back = await authorize(served.url, { clientId, resource: `${PUBLIC}/mcp/acme`, challenge, userName: "pat", password: "pw-olivia-secret" });
    expect(back.searchParams.get("code")).toBeString();
    expect(back.searchParams.get("iss")).toBe(PUBLIC);
  });

  test("after LOGIN_MAX_FAILURES_ACCOUNT wrong passwords the form answers 429 even for the right one, and issues no code", async () => {
    // registration bucket is spent (previous test): use a client stored directly
    const clientId = "mcp-test-lockout";
    await s.service.db.sql`INSERT INTO oauth_clients (client_id, client_name, redirect_uris)
      VALUES (${clientId}, 'lockout', ${JSON.stringify(["http://127.0.0.1:9/callback"])}::jsonb)`;
    const { challenge } = await pkce();
    const url = authorizeUrl(served.url, { clientId, resource: `${PUBLIC}/mcp/acme`, challenge });
    for (let i = 0; i < 3; i++) {
      const form = await loadForm(url);
      const r = await submitForm(served.url, form, { userName: "olivia", password: `wrong-${i}` });
      expect(r.status).toBe(401);
      expect(r.headers.get("location")).toBeNull();
    }
    const form = await loadForm(url);
    const right = await submitForm(served.url, form, { userName: "olivia", password: "pw-olivia-secret" });
    expect(right.status).toBe(429);
    expect(right.headers.get("location")).toBeNull();
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await right.text()).toContain("too many failed sign-ins");
    // by email it is the same account
    const byEmail = await submitForm(served.url, await loadForm(url), { userName: "olivia@example.com", password: "pw-olivia-secret" });
    expect(byEmail.status).toBe(429);
    const [codes] = await s.service.db.sql`SELECT count(*)::int AS n FROM oauth_grants g JOIN users u ON u.id = g.user_id WHERE u.user_name = 'olivia'`;
    expect(codes!.n).toBe(0);
  });
});

describe("revocation of OAuth grants", () => {
  let s: TestService;
  let served: Served;
  let admin: string;
  let clientId: string;
  beforeAll(async () => {
    s = await startTestService();
    served = serveOnLoopback(s.service.handle);
    admin = await s.adminToken();
    const acme = await createOrgWithKey(s.service.db.sql, "acme");
    for (const name of ["uma", "vik", "wes"]) {
      await s.createUser(name);
      const [u] = await s.service.db.sql`SELECT id FROM users WHERE user_name = ${name}`;
      await s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
        VALUES ('organization', ${acme.orgId}, 'user', ${u!.id as string}, 'member')`;
    }
    clientId = await registerClient(served.url);
  }, 60_000);
  afterAll(async () => {
    served?.stop();
    await s?.close();
  }, 120_000);

  /** Authorizes `user` and exchanges the code: access and refresh token. */
  async function tokensOf(user: string, password: string) {
    const resource = `${served.url}/mcp/acme`;
    const { verifier, challenge } = await pkce();
    const back = await authorize(served.url, { clientId, resource, challenge, userName: user, password });
    const t = await tokenRequest(served.url, {
      grant_type: "authorization_code",
      code: back.searchParams.get("code")!,
      code_verifier: verifier,
      redirect_uri: "http://127.0.0.1:9/callback",
      client_id: clientId,
    });
    expect(t.status).toBe(200);
    return { access: t.body.access_token as string, refresh: t.body.refresh_token as string, resource };
  }

  async function expectRevoked(t: { access: string; refresh: string; resource: string }) {
    const mcp = await postRpc(t.resource, INITIALIZE, { authorization: `Bearer ${t.access}` });
    expect(mcp.status).toBe(401);
    const refreshed = await tokenRequest(served.url, { grant_type: "refresh_token", refresh_token: t.refresh, client_id: clientId });
    expect(refreshed.status).toBe(400);
    expect(refreshed.body.error).toBe("invalid_grant");
  }

  test("a password change by the user revokes its OAuth access and refresh tokens", async () => {
    const t = await tokensOf("uma", "pw-uma-secret");
    expect((await postRpc(t.resource, INITIALIZE, { authorization: `Bearer ${t.access}` })).status).toBe(200);
    const token = await s.login("uma", "pw-uma-secret");
    const r = await s.call("PATCH", "/api/v0/users/uma", { token, body: { password: "uma-new-password", currentPassword: "pw-uma-secret" } });
    expect(r.status).toBe(200);
    await expectRevoked(t);
  });

  test("an administrator's reset revokes them", async () => {
    const t = await tokensOf("vik", "pw-vik-secret");
    expect((await s.call("PATCH", "/api/v0/users/vik", { token: admin, body: { password: "reset-by-admin" } })).status).toBe(200);
    await expectRevoked(t);
    // a new authorization with the new password works
    const again = await tokensOf("vik", "reset-by-admin");
    expect((await postRpc(again.resource, INITIALIZE, { authorization: `Bearer ${again.access}` })).status).toBe(200);
  });

  test("removing the user revokes them", async () => {
    const t = await tokensOf("wes", "pw-wes-secret");
    expect((await s.call("DELETE", "/api/v0/users/wes", { token: admin })).status).toBe(204);
    await expectRevoked(t);
  });
});
