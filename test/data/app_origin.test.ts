/**
 * `APP_ORIGIN`: apps on an origin of their own. Two host names reach the same
 * service (`platform.test` is `PUBLIC_URL`, `apps.test` is `APP_ORIGIN`): the
 * app origin serves app files only and reads no credential of the platform;
 * the platform serves no app file, it signs in and sends the browser there.
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { rm } from "node:fs/promises";
import { readConfig } from "../../src/config.ts";
import { API, publish, smallPackage, startWorld, userWith, type World } from "../packages/helpers.ts";

setDefaultTimeout(60_000);

const PLATFORM = "http://platform.test";
const APPS = "http://apps.test";
const PKG = `${API}/organizations/acme/environments/prod/packages/flights`;

let w: World;
let viewer: string;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false", PUBLIC_URL: PLATFORM, APP_ORIGIN: APPS });
  const files = smallPackage({
    "public/index.html": "<!doctype html><html><head><title>v1</title></head><body>app</body></html>",
    "public/app.js": "console.log('v1')",
  });
  expect((await publish(w, "flights", "1.0.0", { token: w.admin, files })).status).toBe(201);
  expect((await publish(w, "plain", "1.0.0", { token: w.admin, files })).status).toBe(201);
  viewer = await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });
}, 120_000);

afterAll(async () => {
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

/** A request to one of the two origins, through the service's handler. */
async function at(origin: string, method: string, path: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}): Promise<Response> {
  return await w.s.service.handle(new Request(`${origin}${path}`, { method, headers: init.headers, body: init.body, redirect: "manual" }));
}

/** Opens an app page on the platform as `token`; answers the launch form's action and credential. */
async function launchOf(token: string, path = `${PKG}/app/`): Promise<{ action: string; launch: string; response: Response; html: string }> {
  const response = await at(PLATFORM, "GET", path, { headers: { authorization: `Bearer ${token}`, accept: "text/html" } });
  const html = await response.text();
  const action = /<form method="post" action="([^"]+)">/.exec(html)?.[1] ?? "";
  const launch = /name="launch" value="([^"]+)"/.exec(html)?.[1] ?? "";
  return { action: action.replaceAll("&amp;", "&"), launch, response, html };
}

function post(origin: string, path: string, launch: string, headers: Record<string, string> = {}): Promise<Response> {
  return at(origin, "POST", path, { headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams({ launch }).toString() });
}

describe("APP_ORIGIN", () => {
  test("the setting needs PUBLIC_URL on another host, and an origin without a path", () => {
    expect(() => readConfig({ APP_ORIGIN: APPS })).toThrow(/needs PUBLIC_URL/);
    expect(() => readConfig({ APP_ORIGIN: "http://platform.test:8080", PUBLIC_URL: "http://platform.test:8080" })).toThrow(/another host/);
    expect(() => readConfig({ APP_ORIGIN: `${APPS}/apps`, PUBLIC_URL: PLATFORM })).toThrow(/origin only/);
    expect(() => readConfig({ APP_ORIGIN: "ftp://apps.test", PUBLIC_URL: PLATFORM })).toThrow(/http or https/);
    expect(readConfig({ APP_ORIGIN: `${APPS}/`, PUBLIC_URL: PLATFORM }).appOrigin).toBe(APPS);
  });

  test("the app origin serves nothing but app files: no REST API, MCP, sign-in, docs or preflight, whatever the credentials", async () => {
    const admin = { authorization: `Bearer ${w.admin}` };
    const tries: [string, string, Record<string, string>][] = [
      ["GET", "/health", {}],
      ["GET", "/", {}],
      ["GET", "/signin", {}],
      ["GET", `${API}/openapi.json`, {}],
      ["GET", `${API}/organizations`, admin],
      ["GET", `${API}/users/admin`, admin],
      ["GET", `${PKG}/models`, admin],
      ["POST", `${PKG}/app-token`, admin],
      ["GET", `${PKG}/events`, admin],
      ["POST", "/mcp/acme", admin],
      ["POST", "/api/v0/auth/token", {}],
      ["OPTIONS", `${PKG}/models/models/flights.malloy/query`, { origin: "null", "access-control-request-method": "POST" }],
      ["DELETE", `${PKG}/app/index.html`, admin],
    ];
    for (const [method, path, headers] of tries) {
      const r = await at(APPS, method, path, { headers });
      expect(`${method} ${path}: ${r.status}`).toBe(`${method} ${path}: 404`);
      expect(await r.json()).toMatchObject({ code: "RESOURCE_NOT_FOUND", message: expect.stringContaining("APP_ORIGIN") });
    }
  });

  test("the platform answers an app page with a launch form to the app origin (no token in any URL)", async () => {
    const { action, launch, response, html } = await launchOf(viewer);
    expect(response.status).toBe(200);
    expect(action).toBe(`${APPS}${PKG}/app/`);
    expect(launch.split(".")).toHaveLength(3);
    expect(html).not.toContain("app-token");
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).toContain(`form-action ${APPS}`);
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get("cache-control")).toBe("no-store");
    // the launch credential opens nothing on the platform
    expect((await at(PLATFORM, "GET", `${PKG}/models`, { headers: { authorization: `Bearer ${launch}` } })).status).toBe(401);
    expect((await post(PLATFORM, `${PKG}/app/`, launch)).status).toBe(404);
    // a browser without credentials signs in first, on the platform
    const anonymous = await at(PLATFORM, "GET", `${PKG}/app/`, { headers: { accept: "text/html" } });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get("location")).toStartWith("/signin?return=");
  });

  test("the launch post answers the sandboxed page with an app token and the platform's API address", async () => {
    const { action, launch } = await launchOf(viewer);
    const page = await post(APPS, new URL(action).pathname, launch);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toBe("sandbox allow-scripts allow-forms allow-popups");
    const html = await page.text();
    expect(html).toContain("<title>v1</title>");
    expect(html).toContain(`<meta name="app-api" content="${PLATFORM}${PKG}">`);
    const token = /<meta name="app-token" content="([^"]+)">/.exec(html)![1]!;
    const base = /<base href="([^"]+)">/.exec(html)![1]!;
    expect(base).toStartWith(`${PKG}/app/~`);
    // the app token works on the platform's data routes, with CORS for the sandboxed page
    const models = await at(PLATFORM, "GET", `${PKG}/models`, { headers: { authorization: `Bearer ${token}`, origin: "null" } });
    expect(models.status).toBe(200);
    expect(models.headers.get("access-control-allow-origin")).toBe("null");
    // the page's files load on the app origin through its <base>; the same link on the platform redirects there
    const js = await at(APPS, "GET", `${base}app.js`, { headers: { origin: "null" } });
    expect(js.status).toBe(200);
    expect(await js.text()).toBe("console.log('v1')");
    expect(js.headers.get("content-security-policy")).toBe("sandbox allow-scripts allow-forms allow-popups");
    const moved = await at(PLATFORM, "GET", `${base}app.js`);
    expect(moved.status).toBe(308);
    expect(moved.headers.get("location")).toBe(`${APPS}${base}app.js`);
  });

  test("a launch opens one page once: a replay, sequential or concurrent, goes back to the platform", async () => {
    const { action, launch } = await launchOf(viewer);
    const path = new URL(action).pathname;
    expect((await post(APPS, path, launch)).status).toBe(200);
    const replay = await post(APPS, path, launch);
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toBe(`${PLATFORM}${path}`);
    expect(await replay.text()).not.toContain("app-token");
    // posted many times at once, it still opens one page
    const fresh = await launchOf(viewer);
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(APPS, path, fresh.launch)));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 303, 303, 303, 303, 303, 303, 303]);
    // a launch refused for another package is not spent by the refusal
    const other = await launchOf(viewer);
    expect((await post(APPS, `${API}/organizations/acme/environments/prod/packages/plain/app/`, other.launch)).status).toBe(404);
    expect((await post(APPS, path, other.launch)).status).toBe(200);
  });

  test("no credential of the platform is valid on the app origin; a page there without a launch goes back to the platform", async () => {
    const session = await w.s.service.handle(new Request(`${PLATFORM}/signin`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ userName: "viewer", password: "pw-viewer-secret", return: "/" }),
      redirect: "manual",
    }));
    const cookie = (session.headers.get("set-cookie") ?? "").split(";")[0]!;
    expect(cookie).toStartWith("mp_session=");
    for (const headers of [{}, { cookie }, { authorization: `Bearer ${w.admin}` }] as Record<string, string>[]) {
      const r = await at(APPS, "GET", `${PKG}/app/index.html?x=1`, { headers: { accept: "text/html", ...headers } });
      expect(r.status).toBe(303);
      expect(r.headers.get("location")).toBe(`${PLATFORM}${PKG}/app/index.html?x=1`);
      expect(await r.text()).toBe("");
    }
    // an expired or forged launch also goes back (a reload after a minute)
    const forged = await post(APPS, `${PKG}/app/`, "a.b.c", { cookie });
    expect(forged.status).toBe(303);
    expect(forged.headers.get("location")).toBe(`${PLATFORM}${PKG}/app/`);
    // a launch of one package opens no other package's page
    const { launch } = await launchOf(viewer);
    expect((await post(APPS, `${API}/organizations/acme/environments/prod/packages/plain/app/`, launch)).status).toBe(404);
  });

  test("a plain file URL on the platform redirects to a file link on the app origin", async () => {
    const r = await at(PLATFORM, "GET", `${PKG}/app/app.js`, { headers: { authorization: `Bearer ${viewer}` } });
    expect(r.status).toBe(303);
    const location = r.headers.get("location")!;
    expect(location).toStartWith(`${APPS}${PKG}/app/~`);
    const file = await at(APPS, "GET", new URL(location).pathname);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe("console.log('v1')");
  });

  test("CORS from APP_ORIGIN reaches the app-token routes only", async () => {
    const allowed = await at(PLATFORM, "OPTIONS", `${PKG}/models/models/flights.malloy/query`, {
      headers: { origin: APPS, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(APPS);
    expect(allowed.headers.get("access-control-allow-credentials")).toBeNull();
    for (const path of [`${API}/organizations`, `${PKG}/versions`, `${API}/users/viewer`]) {
      const r = await at(PLATFORM, "GET", path, { headers: { origin: APPS, authorization: `Bearer ${viewer}` } });
      expect(`${path}: ${r.headers.has("access-control-allow-origin")}`).toBe(`${path}: false`);
    }
  });
});
