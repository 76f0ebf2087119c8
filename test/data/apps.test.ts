import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { rm } from "node:fs/promises";
import { API, publish, smallPackage, startWorld, userWith, type World } from "../packages/helpers.ts";
import { openEvents, serve } from "./helpers.ts";
import { signCredential, verifyCredential } from "../../src/apps/credentials.ts";
import { appPrincipalNow } from "../../src/apps/scope.ts";
import type { Sql } from "../../src/db/database.ts";
import { authorize, pkce, registerClient, REDIRECT_URI, tokenRequest } from "../helpers/oauth.ts";

// explicit: a file run after another in the same process must not fall back to bun's 5 s
setDefaultTimeout(60_000);

let w: World;
let origin: string;
let stop: () => void;
const PKG = `${API}/organizations/acme/environments/prod/packages/flights`;
const APP = `${PKG}/app`;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  ({ origin, stop } = serve(w));
  const files = smallPackage({
    "public/index.html": "<!doctype html><title>v1</title>",
    "public/app.js": "console.log('v1')",
    "public/img/logo.svg": "<svg xmlns='http://www.w3.org/2000/svg'/>",
    "public/docs/index.html": "<p>docs</p>",
  });
  expect((await publish(w, "flights", "1.0.0", { token: w.admin, files })).status).toBe(201);
  expect((await publish(w, "plain", "1.0.0", { token: w.admin })).status).toBe(201);
  await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });
}, 120_000);

afterAll(async () => {
  stop();
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${w.admin}`, ...headers }, redirect: "manual" });
}

/** Signs a user in through the sign-in form; answers the session cookie (`name=value`). */
async function signIn(userName: string, password: string, returnTo = "/"): Promise<{ status: number; location: string | null; cookie: string; setCookie: string }> {
  const r = await fetch(`${origin}/signin`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin },
    body: new URLSearchParams({ userName, password, return: returnTo }),
    redirect: "manual",
  });
  const setCookie = r.headers.get("set-cookie") ?? "";
  return { status: r.status, location: r.headers.get("location"), cookie: setCookie.split(";")[0]!, setCookie };
}

/**
 * The service's database handle, counting the statements that read
 * `oauth_grants` (the driver's tagged-template calls; everything else passes through).
 */
function countingGrantReads(sql: Sql): { sql: Sql; count: () => number } {
  let count = 0;
  const counting = new Proxy(sql, {
    apply(target, self, args: unknown[]) {
      const strings = args[0];
      if (Array.isArray(strings) && "raw" in strings && strings.join("?").includes("oauth_grants")) count++;
      return Reflect.apply(target, self, args);
    },
  });
  return { sql: counting, count: () => count };
}

function metaToken(html: string): string {
  return /<meta name="app-token" content="([^"]+)">/.exec(html)![1]!;
}

function baseHref(html: string): string {
  return /<base href="([^"]+)">/.exec(html)![1]!;
}

describe("in-package web apps", () => {
  test("serves public/ files sandboxed (CSP), index.html by default, content types", async () => {
    const index = await get(`${APP}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(index.headers.get("content-security-policy")).toBe("sandbox allow-scripts allow-forms allow-popups");
    expect(index.headers.get("cache-control")).toBe("no-store");
    expect(await index.text()).toContain("<title>v1</title>");
    expect(index.headers.get("x-version-id")).toBe("1.0.0");
    const js = await get(`${APP}/app.js`);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(js.headers.get("content-security-policy")).toBe("sandbox allow-scripts allow-forms allow-popups");
    const svg = await get(`${APP}/img/logo.svg`);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    const folder = await get(`${APP}/docs/`);
    expect(await folder.text()).toEndWith("<p>docs</p>");
    const bare = await get(APP);
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toEndWith("/packages/flights/app/");
  });

  test("ETag and Cache-Control on files; If-None-Match answers 304; a new version changes the file", async () => {
    const first = await get(`${APP}/app.js`);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const again = await get(`${APP}/app.js`, { "if-none-match": etag });
    expect(again.status).toBe(304);
    const files = smallPackage({ "public/index.html": "<!doctype html><title>v2</title>", "public/app.js": "console.log('v2')" });
    expect((await publish(w, "flights", "1.1.0", { token: w.admin, files })).status).toBe(201);
    const updated = await get(`${APP}/app.js`, { "if-none-match": etag });
    expect(updated.status).toBe(200);
    expect(await updated.text()).toContain("v2");
    expect(updated.headers.get("etag")).not.toBe(etag);
    expect(await (await get(`${APP}/index.html`)).text()).toContain("v2");
  });

  test("404 for a missing file or a package without public/, 400 for '..'", async () => {
    expect((await get(`${APP}/missing.js`)).status).toBe(404);
    expect((await get(`${API}/organizations/acme/environments/prod/packages/plain/app/`)).status).toBe(404);
    const dots = await get(`${APP}/..%2Fpublisher.json`);
    expect(dots.status).toBe(400);
    expect(((await dots.json()) as { code: string }).code).toBe("INVALID_PATH");
    expect((await get(`${APP}/img/..%2F..%2Fmodels/flights.malloy`)).status).toBe(400);
  });

  test("a browser without credentials is sent to sign-in and back; the session cookie opens the app", async () => {
    const api = await fetch(`${origin}${APP}/`);
    expect(api.status).toBe(401);
    const page = await fetch(`${origin}${APP}/?x=1`, { headers: { accept: "text/html" }, redirect: "manual" });
    expect(page.status).toBe(303);
    const location = page.headers.get("location")!;
    expect(location).toBe(`/signin?return=${encodeURIComponent(`${APP}/?x=1`)}`);
    const form = await fetch(`${origin}${location}`);
    expect(form.status).toBe(200);
    expect(form.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await form.text();
    expect(html).toContain('name="password"');
    expect(html).toContain(`value="${APP}/?x=1"`);

    const wrong = await signIn("viewer", "not-the-password", `${APP}/?x=1`);
    expect(wrong.status).toBe(401);
    expect(wrong.setCookie).toBe("");
    const ok = await signIn("viewer", "pw-viewer-secret", `${APP}/?x=1`);
    expect(ok.status).toBe(303);
    expect(ok.location).toBe(`${APP}/?x=1`);
    expect(ok.setCookie).toContain("HttpOnly");
    expect(ok.setCookie).toContain("SameSite=Strict");
    expect(ok.setCookie).toContain("Path=/;");
    expect(ok.setCookie).not.toContain("Secure"); // plain http here; behind https (or X-Forwarded-Proto with TRUST_PROXY) it is Secure
    const opened = await fetch(`${origin}${APP}/`, { headers: { cookie: ok.cookie, accept: "text/html" } });
    expect(opened.status).toBe(200);
    expect(await opened.text()).toContain("<title>v2</title>");

    // a return address of another site is ignored
    expect((await signIn("viewer", "pw-viewer-secret", "//evil.example/x")).location).toBe("/");
    expect((await signIn("viewer", "pw-viewer-secret", "https://evil.example/x")).location).toBe("/");
    expect((await signIn("viewer", "pw-viewer-secret", "/\\evil.example/x")).location).toBe("/");
    // also when it reaches another site only once resolved (dot segments, %2e, backslashes, tabs): the resolved path is checked
    for (const sneaky of ["/.//evil.example/x", "/a/..//evil.example/x", "/%2e//evil.example/x", "/x/../\\evil.example/x", "/%2e%2e//evil.example/x", "/\t/evil.example/x"]) {
      expect({ sneaky, location: (await signIn("viewer", "pw-viewer-secret", sneaky)).location }).toEqual({ sneaky, location: "/" });
    }
    // the sign-in page's form carries the same safe address
    const signInPage = await (await fetch(`${origin}/signin?return=${encodeURIComponent("/.//evil.example/x")}`)).text();
    expect(signInPage).not.toContain("evil.example");
    // a same-site address is kept as the browser would resolve it
    expect((await signIn("viewer", "pw-viewer-secret", `${APP}/../app/?x=1`)).location).toBe(`${APP}/?x=1`);
    // a cross-site form post is refused
    const foreign = await fetch(`${origin}/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example" },
      body: new URLSearchParams({ userName: "viewer", password: "pw-viewer-secret" }),
      redirect: "manual",
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("set-cookie")).toBeNull();
    // X-Forwarded-Host is a client's word without TRUST_PROXY: naming the foreign host there changes nothing
    const forwarded = await fetch(`${origin}/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://evil.example", "x-forwarded-host": "evil.example" },
      body: new URLSearchParams({ userName: "viewer", password: "pw-viewer-secret" }),
      redirect: "manual",
    });
    expect(forwarded.status).toBe(403);
    expect(forwarded.headers.get("set-cookie")).toBeNull();
    // a post from this service's own origin signs in
    const own = await fetch(`${origin}/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams({ userName: "viewer", password: "pw-viewer-secret" }),
      redirect: "manual",
    });
    expect(own.status).toBe(303);
  });

  test("the session cookie is refused by the REST API and MCP (Bearer/ApiKey only)", async () => {
    const ok = await signIn("viewer", "pw-viewer-secret");
    for (const path of [`${API}/organizations`, `${API}/organizations/acme/environments/prod/packages/flights/models`]) {
      const r = await fetch(`${origin}${path}`, { headers: { cookie: ok.cookie } });
      expect(r.status).toBe(401);
    }
    const mcp = await fetch(`${origin}/mcp/acme`, {
      method: "POST",
      headers: { cookie: ok.cookie, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(401);
    // nor is the cookie's value a bearer token
    const value = ok.cookie.split("=")[1]!;
    expect((await fetch(`${origin}${API}/organizations`, { headers: { authorization: `Bearer ${value}` } })).status).toBe(401);
  });

  test("the app HTML carries an app token (never the viewer's) and a <base> whose capability serves only files", async () => {
    const viewer = await w.s.login("viewer", "pw-viewer-secret");
    const html = await (await get(`${APP}/`, { authorization: `Bearer ${viewer}` })).text();
    const token = metaToken(html);
    expect(token).not.toBe(viewer);
    expect(html).not.toContain(viewer);
    const base = baseHref(html);
    expect(base).toStartWith(`${APP}/~`);
    // the capability loads non-HTML files without a cookie (a sandboxed page sends none) ...
    const js = await fetch(`${origin}${base}app.js`);
    expect(js.status).toBe(200);
    expect(await js.text()).toContain("v2");
    // ... but no page (no app token through a URL), and nothing of another package
    expect((await fetch(`${origin}${base}index.html`)).status).toBe(404);
    const capability = base.slice(`${APP}/`.length, -1);
    const other = `${API}/organizations/acme/environments/prod/packages/plain/app/${capability}/x.js`;
    expect((await fetch(`${origin}${other}`)).status).toBe(404);
    // a capability is not a token of any API route
    expect((await fetch(`${origin}${API}/organizations`, { headers: { authorization: `Bearer ${capability.slice(1)}` } })).status).toBe(401);
    expect((await fetch(`${origin}${base.replace("/~", "/~x")}app.js`)).status).toBe(401);
  });

  test("app token: reads its package's models, queries and events; refused by every other route", async () => {
    const viewer = await w.s.login("viewer", "pw-viewer-secret");
    const issued = await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: { authorization: `Bearer ${viewer}` } });
    expect(issued.status).toBe(200);
    const { token, expiresAt } = await issued.json() as { token: string; expiresAt: string };
    const ttl = Date.parse(expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(890_000);
    expect(ttl).toBeLessThanOrEqual(900_000);
    const bearer = { authorization: `Bearer ${token}` };
    expect((await fetch(`${origin}${PKG}/models`, { headers: bearer })).status).toBe(200);
    expect((await fetch(`${origin}${PKG}/models/models/flights.malloy`, { headers: bearer })).status).toBe(200);
    const q = await fetch(`${origin}${PKG}/models/models/flights.malloy/query`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json" },
      body: JSON.stringify({ query: "run: flights -> { aggregate: n is count() }" }),
    });
    expect(q.status).toBe(200);
    expect(((await q.json()) as { data: { n: number }[] }).data[0]!.n).toBeGreaterThan(0);
    const events = await openEvents(`${origin}${PKG}/events?app_token=${encodeURIComponent(token)}`);
    expect(events.status).toBe(200);
    expect((await events.next("ready")).data.package).toBe("flights");
    events.close();
    // renewable with itself; the renewed token keeps the time the chain began
    const renewed = await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: bearer });
    expect(renewed.status).toBe(200);
    const first = await verifyCredential(w.s.service.ctx.jwtSecret, "app", token);
    const next = await verifyCredential(w.s.service.ctx.jwtSecret, "app", ((await renewed.json()) as { token: string }).token);
    expect(next!.since).toBe(first!.since);
    // a chain that began more than SESSION_TTL_S ago renews no more (a leaked app token does not live on); the user's own credential still gets one
    const [u] = await w.s.service.db.sql`SELECT id, token_version FROM users WHERE user_name = 'viewer'`;
    const { token: old } = await signCredential(w.s.service.ctx.jwtSecret, "app", {
      subject: { kind: "user", id: u!.id as string, version: u!.token_version as number },
      scope: { envId: w.envId, packageName: "flights" },
      ttlSeconds: 600,
      since: Math.floor(Date.now() / 1000) - w.s.service.ctx.config.sessionTtlSeconds - 5,
    });
    expect((await fetch(`${origin}${PKG}/models`, { headers: { authorization: `Bearer ${old}` } })).status).toBe(200);
    const ended = await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: { authorization: `Bearer ${old}` } });
    expect(ended.status).toBe(401);
    expect(((await ended.json()) as { message: string }).message).toContain("SESSION_TTL_S");
    expect((await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: { authorization: `Bearer ${viewer}` } })).status).toBe(200);
    // refused elsewhere: other routes of the package, other packages, admin routes, MCP
    const refused: [string, string][] = [
      ["GET", `${API}/organizations`],
      ["GET", `${API}/organizations/acme`],
      ["GET", `${API}/users/viewer`],
      ["PATCH", `${API}/users/viewer`],
      ["POST", `${API}/users`],
      ["GET", PKG],
      ["GET", `${PKG}/versions`],
      ["PATCH", `${PKG}/versions/1.0.0`],
      ["GET", `${PKG}/app/`],
      ["GET", `${API}/organizations/acme/environments/prod/packages/plain/models`],
      ["POST", `${API}/organizations/acme/environments/prod/packages/plain/app-token`],
      ["POST", `${API}/organizations/acme/groups`],
      ["GET", `${API}/organizations/acme/environments/prod/connections`],
    ];
    for (const [method, path] of refused) {
      const r = await fetch(`${origin}${path}`, { method, headers: { ...bearer, "content-type": "application/json" }, body: method === "GET" ? undefined : "{}" });
      expect(`${method} ${path}: ${[401, 403].includes(r.status) ? "refused" : r.status}`).toBe(`${method} ${path}: refused`);
    }
    const mcp = await fetch(`${origin}/mcp/acme`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
    });
    expect(mcp.status).toBe(401);
    // an outsider gets none; the session cookie gets one (same-site only: SameSite=Strict)
    const outsider = await userWith(w, "outsider2");
    expect((await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: { authorization: `Bearer ${outsider}` } })).status).toBe(404);
    expect((await fetch(`${origin}${PKG}/app-token`, { method: "POST" })).status).toBe(401);
    const session = await signIn("viewer", "pw-viewer-secret");
    expect((await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: { cookie: session.cookie } })).status).toBe(200);
  });

  test("an OAuth access token of the user gets an app token at the app-token endpoint only, for its organization's packages", async () => {
    const clientId = await registerClient(origin);
    const oauthToken = async (userName: string, password: string, resource: string) => {
      const { verifier, challenge } = await pkce();
      const back = await authorize(origin, { clientId, resource, challenge, userName, password });
      const t = await tokenRequest(origin, {
        grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: REDIRECT_URI,
        client_id: clientId, code_verifier: verifier, resource,
      });
      expect(t.status).toBe(200);
      return t.body.access_token as string;
    };
    const viewerOAuth = await oauthToken("viewer", "pw-viewer-secret", `${origin}/mcp/acme`);
    const bearer = { authorization: `Bearer ${viewerOAuth}` };
    const issued = await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: bearer });
    expect(issued.status).toBe(200);
    const { token } = await issued.json() as { token: string };
    expect((await fetch(`${origin}${PKG}/models`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // the same path under /projects
    expect((await fetch(`${origin}${PKG.replace("/environments/", "/projects/")}/app-token`, { method: "POST", headers: bearer })).status).toBe(200);
    // the OAuth token itself still opens no REST route, not even the package's data routes
    for (const [method, path] of [["GET", `${PKG}/models`], ["GET", PKG], ["GET", `${API}/organizations/acme`], ["GET", `${PKG}/events`], ["GET", `${PKG}/app/`]] as const) {
      const r = await fetch(`${origin}${path}`, { method, headers: bearer, redirect: "manual" });
      expect(`${method} ${path}: ${r.status}`).toBe(`${method} ${path}: 401`);
    }
    // nor the MCP resource of another organization (its audience is /mcp/acme)
    await w.s.call("POST", `${API}/organizations`, { token: w.admin, body: { name: "elsewhere" } });
    const other = await fetch(`${origin}/mcp/elsewhere`, {
      method: "POST",
      headers: { ...bearer, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
    });
    expect(other.status).toBe(401);
    // a token issued for another organization's MCP resource gets no app token of acme
    const forOther = await oauthToken("viewer", "pw-viewer-secret", `${origin}/mcp/elsewhere`);
    const refused = await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: { authorization: `Bearer ${forOther}` } });
    expect(refused.status).toBe(403);
    expect((await refused.json()).code).toBe("INSUFFICIENT_PERMISSIONS");
    // a user who cannot read the package gets none; a revoked grant gets none
    await userWith(w, "oauth-outsider");
    const outsider = await oauthToken("oauth-outsider", "pw-oauth-outsider-secret", `${origin}/mcp/acme`);
    expect((await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: { authorization: `Bearer ${outsider}` } })).status).toBe(404);
    const revoke = await fetch(`${origin}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: viewerOAuth, client_id: clientId }),
    });
    expect(revoke.status).toBe(200);
    const afterRevoke = await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: bearer });
    expect(afterRevoke.status).toBe(401);
  });

  test("an OAuth access token issued for a workspace's MCP resource gets app tokens of that workspace's packages only", async () => {
    const clientId = await registerClient(origin);
    const oauthToken = async (resource: string) => {
      const { verifier, challenge } = await pkce();
      const back = await authorize(origin, { clientId, resource, challenge, userName: "viewer", password: "pw-viewer-secret" });
      const t = await tokenRequest(origin, {
        grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: REDIRECT_URI,
        client_id: clientId, code_verifier: verifier, resource,
      });
      expect(t.status).toBe(200);
      return t.body.access_token as string;
    };
    const O = `${API}/organizations/acme`;
    expect((await w.s.call("POST", `${O}/workspaces`, { token: w.admin, body: { name: "sales" } })).status).toBe(201);
    expect((await w.s.call("POST", `${O}/workspaces/sales/packages?environmentName=prod&packageName=plain`, { token: w.admin })).status).toBe(201);
    const [u] = await w.s.service.db.sql`SELECT id FROM users WHERE user_name = 'viewer'`;
    const [ws] = await w.s.service.db.sql`SELECT id FROM workspaces WHERE name = 'sales'`;
    await w.s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
      VALUES ('workspace', ${ws!.id as string}, 'user', ${u!.id as string}, 'viewer')`;
    const appToken = (oauth: string, pkg: string) =>
      fetch(`${origin}${O}/environments/prod/packages/${pkg}/app-token`, { method: "POST", headers: { authorization: `Bearer ${oauth}` } });
    const forSales = await oauthToken(`${origin}/mcp/acme/workspace/sales`);
    const gotForSales = await appToken(forSales, "plain");
    expect(gotForSales.status).toBe(200);
    const salesApp = ((await gotForSales.json()) as { token: string }).token;
    const P = `${origin}${O}/environments/prod/packages/plain`;
    expect((await fetch(`${P}/models`, { headers: { authorization: `Bearer ${salesApp}` } })).status).toBe(200);
    // a check of the app token (as an open stream makes before every event) reads its OAuth grant once:
    // whether it stands and the workspace it is bound to come from the same row
    const salesClaims = (await verifyCredential(w.s.service.ctx.jwtSecret, "app", salesApp))!;
    const plainRoute = { org: "acme", env: "prod", pkg: "plain" };
    const standing = countingGrantReads(w.s.service.db.sql);
    expect(await appPrincipalNow(standing.sql, salesClaims, plainRoute)).toMatchObject({ userName: "viewer", oauthGrant: salesClaims.subject.oauthGrant });
    expect(standing.count()).toBe(1);
    // flights is readable by the viewer, but not a package of the workspace the client was authorized for
    const outside = await appToken(forSales, "flights");
    expect(outside.status).toBe(403);
    expect((await outside.json()).code).toBe("INSUFFICIENT_PERMISSIONS");
    // a workspace that does not exist (or that the user cannot see) reaches nothing, not every package
    const forNowhere = await oauthToken(`${origin}/mcp/acme/workspace/nowhere`);
    for (const pkg of ["plain", "flights"]) expect([pkg, (await appToken(forNowhere, pkg)).status]).toEqual([pkg, 403]);
    // the organization's resource still reaches every package the user reads
    const forOrg = await oauthToken(`${origin}/mcp/acme`);
    for (const pkg of ["plain", "flights"]) expect([pkg, (await appToken(forOrg, pkg)).status]).toEqual([pkg, 200]);
    // an event stream opened with the workspace's app token
    const events = await openEvents(`${P}/events?app_token=${encodeURIComponent(salesApp)}`);
    expect(events.status).toBe(200);
    await events.next("ready");
    // taking the package out of the workspace ends it for the workspace's token
    expect((await w.s.call("DELETE", `${O}/workspaces/sales/packages?environmentName=prod&packageName=plain`, { token: w.admin })).status).toBe(204);
    expect((await appToken(forSales, "plain")).status).toBe(403);
    const lost = countingGrantReads(w.s.service.db.sql);
    expect(await appPrincipalNow(lost.sql, salesClaims, plainRoute)).toBeNull();
    expect(lost.count()).toBe(1);
    // the open stream too, at its next event (the user still reads the package; the workspace no longer holds it)
    expect((await publish(w, "plain", "1.0.1", { token: w.admin })).status).toBe(201);
    expect((await events.next("revoked")).data.package).toBe("plain");
    expect(events.pending().some((e) => e.event === "published")).toBe(false);
    events.close();
    // and for the app token it got before: no models, no renewal (it was the workspace's, not the user's)
    const after = await fetch(`${P}/models`, { headers: { authorization: `Bearer ${salesApp}` } });
    expect(after.status).toBe(403);
    expect(((await after.json()) as { message: string }).message).toContain("workspace 'sales'");
    expect((await fetch(`${P}/app-token`, { method: "POST", headers: { authorization: `Bearer ${salesApp}` } })).status).toBe(403);
  });

  test("an app token got with an OAuth access token keeps the OAuth client's restriction (no connections, imports or redefinitions)", async () => {
    const clientId = await registerClient(origin);
    const [pkg] = await w.s.service.db.sql`SELECT id FROM packages WHERE name = 'flights'`;
    await userWith(w, "appmodeler", { kind: "package", id: pkg!.id as string, role: "modeler" });
    const resource = `${origin}/mcp/acme`;
    const { verifier, challenge } = await pkce();
    const back = await authorize(origin, { clientId, resource, challenge, userName: "appmodeler", password: "pw-appmodeler-secret" });
    const t = await tokenRequest(origin, {
      grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier, resource,
    });
    expect(t.status).toBe(200);
    const appTokenWith = async (authorization: string) =>
      ((await (await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: { authorization } })).json()) as { token: string }).token;
    const query = (token: string, text: string) =>
      fetch(`${origin}${PKG}/models/models/flights.malloy/query`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ query: text }),
      });
    const direct = "run: duckdb.sql(\"SELECT 1 AS x\")";
    // the modeler's own app token queries like the modeler
    const own = await appTokenWith(`Bearer ${await w.s.login("appmodeler", "pw-appmodeler-secret")}`);
    expect((await query(own, direct)).status).toBe(200);
    // the OAuth client's app token, and the app token it renews into, stay restricted like the client
    const viaOAuth = await appTokenWith(`Bearer ${t.body.access_token as string}`);
    const refused = await query(viaOAuth, direct);
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
    const renewed = await appTokenWith(`Bearer ${viaOAuth}`);
    expect((await query(renewed, direct)).status).toBe(403);
    expect((await query(renewed, "run: flights -> { aggregate: flight_count }")).status).toBe(200);
    // revoking the OAuth authorization ends them too (they renew themselves, so they would outlive it)
    const revoke = await fetch(`${origin}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: t.body.refresh_token as string, client_id: clientId }),
    });
    expect(revoke.status).toBe(200);
    expect((await query(renewed, "run: flights -> { aggregate: flight_count }")).status).toBe(401);
    expect((await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: { authorization: `Bearer ${renewed}` } })).status).toBe(401);
    // the modeler's own app token is not the client's: it stays
    expect((await query(own, direct)).status).toBe(200);
  });

  test("CORS for the sandboxed app (origin null): app-token, models, query, events; never credentials", async () => {
    const pre = await fetch(`${origin}${PKG}/models/models/flights.malloy/query`, {
      method: "OPTIONS",
      headers: { origin: "null", "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("null");
    expect(pre.headers.get("access-control-allow-headers")).toContain("authorization");
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
    const viewer = await w.s.login("viewer", "pw-viewer-secret");
    const r = await fetch(`${origin}${PKG}/app-token`, { method: "POST", headers: { origin: "null", authorization: `Bearer ${viewer}` } });
    expect(r.headers.get("access-control-allow-origin")).toBe("null");
    expect(r.headers.get("access-control-allow-credentials")).toBeNull();
    // not on admin routes, not for other origins
    const admin = await fetch(`${origin}${API}/organizations`, { method: "OPTIONS", headers: { origin: "null", "access-control-request-method": "GET" } });
    expect(admin.headers.get("access-control-allow-origin")).toBeNull();
    const evil = await fetch(`${origin}${PKG}/models`, { headers: { origin: "https://evil.example", authorization: `Bearer ${viewer}` } });
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });
});
