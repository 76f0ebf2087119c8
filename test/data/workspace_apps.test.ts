/**
 * App credentials bound to a workspace: an MCP client authorized for
 * `/mcp/{org}/workspace/{ws}` gets app tokens of that workspace's packages,
 * and every credential carrying its grant (app token, asset link of a page,
 * launch credential on `APP_ORIGIN`) reads the app only while the grant
 * stands and the workspace still holds the package. Served by the listener
 * main.ts uses (`serveRaw`), so paths reach the service as sent.
 *
 * The asset links and launch credentials here are signed with the service's
 * key for the subject the service put in the workspace's app token: no route
 * hands them to such a subject today (the app token and the OAuth token open
 * no app page, asserted below), so these tests hold the checks of
 * `serveAsset` and `launchApp` to what the app token already gets.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { rm } from "node:fs/promises";
import { rawRequest } from "../helpers/raw_http.ts";
import { API, publish, smallPackage, startWorld, userWith, type World } from "../packages/helpers.ts";
import { openEvents } from "./helpers.ts";
import { signCredential, type Subject, verifyCredential } from "../../src/apps/credentials.ts";
import { type RawServer, serveRaw } from "../../src/http/raw_server.ts";
import { authorize, pkce, registerClient, REDIRECT_URI, tokenRequest } from "../helpers/oauth.ts";

setDefaultTimeout(60_000);

const PLATFORM = "http://platform.test";
const APPS = "http://apps.test";
const O = `${API}/organizations/acme`;
const PLAIN = `${O}/environments/prod/packages/plain`;
const FLIGHTS = `${O}/environments/prod/packages/flights`;

let w: World;
let server: RawServer;
/** The listener's own address (OAuth endpoints; PUBLIC_URL names the issuer). */
let local: string;
let clientId: string;
/** The viewer's OAuth tokens for the `sales` workspace's MCP resource. */
let sales: { access: string; refresh: string };
/** An app token of `plain` got with them. */
let salesApp: string;
/** The subject the service signed into it (the viewer, carrying the OAuth grant). */
let subject: Subject;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false", PUBLIC_URL: PLATFORM, APP_ORIGIN: APPS });
  server = await serveRaw({ port: 0, hostname: "127.0.0.1", fetch: (r) => w.s.service.handle(r) });
  local = `http://127.0.0.1:${server.port}`;
  const files = (title: string) =>
    smallPackage({
      "public/index.html": `<!doctype html><html><head><title>${title}</title></head><body>app</body></html>`,
      "public/app.js": `console.log('${title}')`,
    });
  expect((await publish(w, "plain", "1.0.0", { token: w.admin, files: files("plain") })).status).toBe(201);
  expect((await publish(w, "flights", "1.0.0", { token: w.admin, files: files("flights") })).status).toBe(201);
  await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });
  // a member of the organization (to be given workspaces), who reads prod's packages
  expect((await w.s.call("POST", `${O}/permissions`, { token: w.admin, body: { userGroupId: "user:viewer", permission: "member" } })).status).toBe(201);
  // two workspaces the viewer sees: sales holds plain, ops holds flights
  for (const [ws, pkg] of [["sales", "plain"], ["ops", "flights"]]) {
    expect((await w.s.call("POST", `${O}/workspaces`, { token: w.admin, body: { name: ws } })).status).toBe(201);
    expect((await w.s.call("POST", `${O}/workspaces/${ws}/packages?environmentName=prod&packageName=${pkg}`, { token: w.admin })).status).toBe(201);
    const g = await w.s.call("POST", `${O}/workspaces/${ws}/permissions`, { token: w.admin, body: { userGroupId: "user:viewer", permission: "viewer" } });
    expect([g.status, g.body]).toMatchObject([201, {}]);
  }
  clientId = await registerClient(local);
  const resource = `${PLATFORM}/mcp/acme/workspace/sales`;
  const { verifier, challenge } = await pkce();
  const back = await authorize(local, { clientId, resource, challenge, userName: "viewer", password: "pw-viewer-secret" });
  const t = await tokenRequest(local, {
    grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: REDIRECT_URI,
    client_id: clientId, code_verifier: verifier, resource,
  });
  expect(t.status).toBe(200);
  sales = { access: t.body.access_token as string, refresh: t.body.refresh_token as string };
  const issued = await at(PLATFORM, "POST", `${PLAIN}/app-token`, { headers: { authorization: `Bearer ${sales.access}` } });
  expect(issued.status).toBe(200);
  salesApp = ((await issued.json()) as { token: string }).token;
  subject = (await verifyCredential(w.s.service.ctx.jwtSecret, "app", salesApp))!.subject;
  expect(subject.oauthGrant).toMatch(/^[0-9a-f-]{36}$/);
}, 120_000);

afterAll(async () => {
  await server.stop(0);
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

/** A request to one of the two origins, through the listener (Host names the origin). */
async function at(origin: string, method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}): Promise<Response> {
  return await fetch(`${local}${path}`, { method, headers: { host: new URL(origin).host, ...init.headers }, body: init.body, redirect: "manual" });
}

/** Sends a request line exactly as written (no client normalizes the path). */
function raw(origin: string, method: string, target: string, body = ""): Promise<{ status: number; body: string }> {
  const lines = [`${method} ${target} HTTP/1.1`, `Host: ${new URL(origin).host}`];
  if (body) lines.push("Content-Type: application/x-www-form-urlencoded");
  return rawRequest(server.port, lines, body);
}

/** A credential of `kind` for the workspace-bound subject and a package (`plain` unless told). */
async function credential(kind: "asset" | "launch", packageName = "plain"): Promise<string> {
  const { token } = await signCredential(w.s.service.ctx.jwtSecret, kind, { subject, scope: { envId: w.envId, packageName }, ttlSeconds: 600 });
  return token;
}

/** GET of an app file through an asset link on the app origin. */
function asset(link: string, pkgPath = PLAIN, file = "app.js"): Promise<Response> {
  return at(APPS, "GET", `${pkgPath}/app/~${link}/${file}`, { headers: { origin: "null" } });
}

/** The launch post of a page on the app origin. */
function launch(token: string, pkgPath = PLAIN): Promise<Response> {
  return at(APPS, "POST", `${pkgPath}/app/`, { headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ launch: token }).toString() });
}

/** The app token's models route and its renewal. */
async function appTokenReads(token = salesApp, pkgPath = PLAIN): Promise<{ models: Response; renewal: Response }> {
  const authorization = `Bearer ${token}`;
  return {
    models: await at(PLATFORM, "GET", `${pkgPath}/models`, { headers: { authorization } }),
    renewal: await at(PLATFORM, "POST", `${pkgPath}/app-token`, { headers: { authorization } }),
  };
}

async function errorOf(r: Response): Promise<{ status: number; code: string; message: string }> {
  const body = (await r.json()) as { code: string; message: string };
  return { status: r.status, code: body.code, message: body.message };
}

/** A launch refused the way an expired one is: back to the platform, no page, no app token. */
async function expectSentBack(r: Response, pkgPath = PLAIN): Promise<void> {
  expect(r.status).toBe(303);
  expect(r.headers.get("location")).toBe(`${PLATFORM}${pkgPath}/app/`);
  expect(await r.text()).not.toContain("app-token");
}

describe("app credentials of a workspace", () => {
  test("open the workspace's app: files through an asset link, a page through a launch, its models through the app token", async () => {
    const js = await asset(await credential("asset"));
    expect(js.status).toBe(200);
    expect(await js.text()).toBe("console.log('plain')");
    expect(js.headers.get("content-security-policy")).toBe("sandbox allow-scripts allow-forms allow-popups");
    const page = await launch(await credential("launch"));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("<title>plain</title>");
    // the page's app token is the workspace's too: it carries the same grant, and reads plain
    const pageToken = /<meta name="app-token" content="([^"]+)">/.exec(html)![1]!;
    expect((await verifyCredential(w.s.service.ctx.jwtSecret, "app", pageToken))!.subject.oauthGrant).toBe(subject.oauthGrant);
    const { models, renewal } = await appTokenReads(pageToken);
    expect([models.status, renewal.status]).toEqual([200, 200]);
    // the page's asset link is bound to the grant as well, and loads the page's files
    const base = /<base href="([^"]+)">/.exec(html)![1]!;
    const link = base.slice(`${PLAIN}/app/~`.length, -1);
    expect((await verifyCredential(w.s.service.ctx.jwtSecret, "asset", link))!.subject.oauthGrant).toBe(subject.oauthGrant);
    expect((await at(APPS, "GET", `${base}app.js`)).status).toBe(200);
    // neither the app token nor the OAuth token opens an app page on the platform: no route hands a workspace's client a page
    const byAppToken = await at(PLATFORM, "GET", `${PLAIN}/app/`, { headers: { authorization: `Bearer ${salesApp}`, accept: "text/html" } });
    expect(byAppToken.status).toBe(403);
    const byOAuth = await at(PLATFORM, "GET", `${PLAIN}/app/`, { headers: { authorization: `Bearer ${sales.access}`, accept: "text/html" } });
    expect(byOAuth.status).toBe(401);
  });

  test("another package's app, or another workspace's, is refused", async () => {
    // plain's credentials on flights' URLs: not found, as a user's own link of another package is
    expect(await errorOf(await asset(await credential("asset"), FLIGHTS))).toMatchObject({ status: 404, code: "RESOURCE_NOT_FOUND" });
    const plainLaunch = await credential("launch");
    expect(await errorOf(await launch(plainLaunch, FLIGHTS))).toMatchObject({ status: 404, code: "RESOURCE_NOT_FOUND" });
    // the refusal does not spend it: plain's page still opens with it
    expect((await launch(plainLaunch)).status).toBe(200);
    const wrongPackage = await appTokenReads(salesApp, FLIGHTS);
    expect(await errorOf(wrongPackage.models)).toEqual({ status: 403, code: "INSUFFICIENT_PERMISSIONS", message: "this app token is for package 'plain' only" });
    // flights is ops' (the viewer reads it, and sees ops): sales' grant reaches none of it
    const opsFile = await errorOf(await asset(await credential("asset", "flights"), FLIGHTS));
    expect(opsFile).toMatchObject({ status: 403, code: "INSUFFICIENT_PERMISSIONS" });
    expect(opsFile.message).toContain("workspace 'sales'");
    await expectSentBack(await launch(await credential("launch", "flights"), FLIGHTS), FLIGHTS);
    const opsToken = await at(PLATFORM, "POST", `${FLIGHTS}/app-token`, { headers: { authorization: `Bearer ${sales.access}` } });
    const refused = await errorOf(opsToken);
    expect(refused).toMatchObject({ status: 403, code: "INSUFFICIENT_PERMISSIONS" });
    expect(refused.message).toContain("/mcp/acme/workspace/sales");
    // nor any other organization's path, through the same credentials
    expect((await at(APPS, "GET", `${API}/organizations/other/environments/prod/packages/plain/app/~${await credential("asset")}/app.js`)).status).toBe(404);
  });

  test("a path that leaves the app folder is refused in every encoding, before any file is read", async () => {
    const link = await credential("asset");
    const control = await raw(APPS, "GET", `${PLAIN}/app/~${link}/app.js`);
    expect([control.status, control.body]).toEqual([200, "console.log('plain')"]);
    const escapes = [
      "../publisher.json",
      "../../../flights/app/app.js",
      "%2e%2e/publisher.json",
      "%2E%2E/%2E%2E/models/flights.malloy",
      "..%2fpublisher.json",
      "..%2Fmodels%2Fflights.malloy",
      "%2e%2e%2fpublisher.json",
      "img/%2e%2e/%2e%2e/publisher.json",
      "%252e%252e%252fpublisher.json",
      "..%252fpublisher.json",
      "%252E%252E/publisher.json",
      "%c0%ae%c0%ae/publisher.json",
      "..%5cpublisher.json",
      "%2e/app.js",
    ];
    for (const escape of escapes) {
      for (const [method, target, body] of [
        ["GET", `${PLAIN}/app/~${link}/${escape}`, ""],
        ["POST", `${PLAIN}/app/${escape}`, new URLSearchParams({ launch: await credential("launch") }).toString()],
      ] as const) {
        const r = await raw(APPS, method, target, body);
        const parsed = JSON.parse(r.body) as { code: string };
        expect({ escape, method, status: r.status, code: parsed.code }).toEqual({ escape, method, status: 400, code: "INVALID_PATH" });
        expect(r.body).not.toContain("from publisher.json");
        expect(r.body).not.toContain("source:");
      }
    }
    // an encoded slash alone stays inside public/ (public/publisher.json does not exist), never the package's own file
    const slashed = await raw(APPS, "GET", `${PLAIN}/app/~${link}/%2fpublisher.json`);
    expect(slashed.status).toBe(404);
    expect(JSON.parse(slashed.body).code).toBe("RESOURCE_NOT_FOUND");
    expect(slashed.body).not.toContain("from publisher.json");
  });

  test("taking the package out of the workspace refuses them all; giving it back opens them again", async () => {
    const link = await credential("asset");
    expect((await asset(link)).status).toBe(200);
    expect((await w.s.call("DELETE", `${O}/workspaces/sales/packages?environmentName=prod&packageName=plain`, { token: w.admin })).status).toBe(204);
    const file = await errorOf(await asset(link));
    expect(file).toMatchObject({ status: 403, code: "INSUFFICIENT_PERMISSIONS" });
    expect(file.message).toContain("workspace 'sales'");
    await expectSentBack(await launch(await credential("launch")));
    const { models, renewal } = await appTokenReads();
    for (const r of [models, renewal]) {
      expect(await errorOf(r)).toEqual({
        status: 403,
        code: "INSUFFICIENT_PERMISSIONS",
        message: "this app token was got for workspace 'sales', which no longer holds package 'prod/plain'",
      });
    }
    // the user still reads plain with their own credentials: only what the workspace's client got is refused
    expect((await at(PLATFORM, "GET", `${PLAIN}/models`, { headers: { authorization: `Bearer ${await w.s.login("viewer", "pw-viewer-secret")}` } })).status).toBe(200);
    expect((await w.s.call("POST", `${O}/workspaces/sales/packages?environmentName=prod&packageName=plain`, { token: w.admin })).status).toBe(201);
    expect((await asset(link)).status).toBe(200);
    expect((await launch(await credential("launch"))).status).toBe(200);
    expect((await appTokenReads()).models.status).toBe(200);
  });

  test("revoking the client's authorization refuses them all at the next request, an open event stream included", async () => {
    const link = await credential("asset");
    expect((await asset(link)).status).toBe(200);
    const events = await openEvents(`${local}${PLAIN}/events?app_token=${encodeURIComponent(salesApp)}`, { headers: { host: new URL(PLATFORM).host } });
    expect(events.status).toBe(200);
    await events.next("ready");
    const revoke = await fetch(`${local}/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: sales.refresh, client_id: clientId }),
    });
    expect(revoke.status).toBe(200);
    const file = await errorOf(await asset(link));
    expect(file).toMatchObject({ status: 401, code: "AUTHENTICATION_REQUIRED" });
    expect(file.message).toContain("revoked");
    await expectSentBack(await launch(await credential("launch")));
    const { models, renewal } = await appTokenReads();
    for (const r of [models, renewal]) {
      const e = await errorOf(r);
      expect(e).toMatchObject({ status: 401, code: "AUTHENTICATION_REQUIRED" });
      expect(e.message).toContain("revoked");
    }
    expect((await at(PLATFORM, "POST", `${PLAIN}/app-token`, { headers: { authorization: `Bearer ${sales.access}` } })).status).toBe(401);
    // the open stream ends at its next event
    expect((await publish(w, "plain", "1.0.1", { token: w.admin })).status).toBe(201);
    expect((await events.next("revoked")).data.package).toBe("plain");
    expect(events.pending().some((e) => e.event === "published")).toBe(false);
    events.close();
  });
});
