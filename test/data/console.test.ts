/**
 * The console's server side: `/` answers API clients with JSON, a browser that
 * is not signed in with the landing page and a signed-in one with the console
 * page (no inline script, strict CSP); the console's files; the session token
 * of `POST /auth/token` (`grantType: "session"`), refused without the cookie
 * or from another site and acting exactly as the user; and the query route's
 * `malloyResult`, the result Malloy's renderer draws with the view's tags.
 * @module
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { rm } from "node:fs/promises";
import { API, startWorld, userWith, type World } from "../packages/helpers.ts";

setDefaultTimeout(60_000);

let w: World;
const HTML = { accept: "text/html,application/xhtml+xml" };
const PKG = `${API}/organizations/acme/environments/demo/packages/shop`;

function request(path: string, init: RequestInit = {}): Promise<Response> {
  return w.s.service.handle(new Request(`http://localhost${path}`, init));
}

/** The session cookie of a browser sign-in of `userName`. */
async function signIn(userName: string): Promise<string> {
  const r = await request("/signin", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" },
    body: new URLSearchParams({ userName, password: `pw-${userName}-secret`, return: "/" }),
  });
  expect(r.status).toBe(303);
  return (r.headers.get("set-cookie") ?? "").split(";")[0]!;
}

async function sessionToken(cookie: string, headers: Record<string, string> = {}): Promise<Response> {
  return await request(`${API}/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, ...headers },
    body: JSON.stringify({ grantType: "session" }),
  });
}

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  const demo = await w.s.call("POST", `${API}/organizations/acme/demo-environment`, { token: w.admin, body: {} });
  expect(demo.status).toBe(201);
  const [env] = await w.s.service.db.sql`SELECT id FROM environments WHERE name = 'demo'`;
  await userWith(w, "viewer", { kind: "environment", id: env!.id as string, role: "viewer" });
}, 120_000);

afterAll(async () => {
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

describe("the landing page and the console page", () => {
  test("API clients get JSON; a browser without a session the landing page with the sign-in link", async () => {
    const json = await request("/");
    expect(await json.json()).toEqual({ name: expect.any(String), version: "0.1.0", docs: "/api/v0/docs" });
    const page = await request("/", { headers: HTML });
    const html = await page.text();
    expect(html).toContain('href="/signin"');
    expect(html).not.toContain("/console/app.js");
  });

  test("a signed-in browser gets the console: its script from this origin, no inline script, a CSP without unsafe-inline scripts or eval", async () => {
    const cookie = await signIn("viewer");
    const page = await request("/", { headers: { ...HTML, cookie } });
    expect(page.status).toBe(200);
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*(unsafe-inline|unsafe-eval)/);
    expect(csp).toContain("frame-ancestors 'none'");
    const html = await page.text();
    expect(html).toContain('<script type="module" src="/console/app.js"></script>');
    expect(html.match(/<script/g)?.length).toBe(1);
    expect(html).toContain("viewer");
  });

  test("the console's files: a JavaScript bundle (gzip when accepted, 304 on its ETag), the style sheet; another name is 404", async () => {
    const js = await request("/console/app.js", { headers: { "accept-encoding": "gzip" } });
    expect(js.status).toBe(200);
    expect(js.headers.get("content-type")).toStartWith("text/javascript");
    const etag = js.headers.get("etag")!;
    const body = new Uint8Array(await js.arrayBuffer());
    // the handler's body is the gzip stream (a server passes it through with Content-Encoding)
    expect(js.headers.get("content-encoding")).toBe("gzip");
    const text = new TextDecoder().decode(Bun.gunzipSync(body));
    expect(text.length).toBeGreaterThan(100_000);
    expect(text).toContain("/auth/token");
    expect(text).toContain('grantType:"session"');
    expect((await request("/console/app.js", { headers: { "if-none-match": etag } })).status).toBe(304);
    const css = await request("/console/console.css");
    expect(css.headers.get("content-type")).toStartWith("text/css");
    const missing = await request("/console/other.js");
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe("RESOURCE_NOT_FOUND");
  });
});

describe("the session token", () => {
  test("the sign-in cookie gets a short-lived access token of that user, which acts with the user's rights only", async () => {
    const cookie = await signIn("viewer");
    const r = await sessionToken(cookie, { origin: "http://localhost" });
    expect(r.status).toBe(200);
    const body = await r.json();
    expect(body.tokenType).toBe("Bearer");
    expect(body.expiresIn).toBe(900);
    const models = await w.s.call("GET", `${PKG}/models`, { token: body.accessToken });
    expect(models.status).toBe(200);
    // a viewer's token: no admin action, whatever the console shows
    const log = await w.s.call("GET", `${API}/organizations/acme/query-log`, { token: body.accessToken });
    expect([403, 404]).toContain(log.status);
    const run = await w.s.call("POST", `${PKG}/versions/1.0.0/runs`, { token: body.accessToken, body: {} });
    expect(run.status).toBe(403);
  });

  test("without the cookie it is 401; from another site's page 403; with a password besides 400", async () => {
    const none = await sessionToken("");
    expect(none.status).toBe(401);
    expect((await none.json()).message).toContain("/signin");
    const cookie = await signIn("viewer");
    const foreign = await sessionToken(cookie, { origin: "http://evil.example" });
    expect(foreign.status).toBe(403);
    const mixed = await request(`${API}/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ grantType: "session", userName: "viewer", password: "x" }),
    });
    expect(mixed.status).toBe(400);
    const wrongGrant = await request(`${API}/auth/token`, { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify({ grantType: "cookie" }) });
    expect(wrongGrant.status).toBe(400);
  });

  test("the password sign-in is unchanged: a missing password is 400", async () => {
    const r = await w.s.call("POST", `${API}/auth/token`, { body: { userName: "viewer" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("password");
  });
});

describe("malloyResult of the query route", () => {
  test("a view answers Malloy's result with the view's # bar_chart tag, its rows as cells and no SQL", async () => {
    const r = await w.s.call("POST", `${PKG}/models/models/shop.malloy/query`, {
      token: w.admin,
      body: { queryName: "by_category", sourceName: "orders", malloyResult: true },
    });
    expect(r.status).toBe(200);
    const result = r.body.malloyResult;
    expect(result.data.kind).toBe("array_cell");
    expect(result.data.array_value.length).toBe(r.body.data.length);
    expect(result.schema.fields.map((f: { name: string }) => f.name)).toEqual(["product_category", "revenue", "order_count", "units"]);
    expect(JSON.stringify(result.annotations ?? [])).toContain("bar_chart");
    expect(result.sql).toBeUndefined();
  });

  test("left out (or false) the answer has no malloyResult; a non-boolean is 400", async () => {
    const plain = await w.s.call("POST", `${PKG}/models/models/shop.malloy/query`, { token: w.admin, body: { queryName: "by_category", sourceName: "orders" } });
    expect(plain.status).toBe(200);
    expect(plain.body.malloyResult).toBeUndefined();
    const bad = await w.s.call("POST", `${PKG}/models/models/shop.malloy/query`, { token: w.admin, body: { queryName: "by_category", sourceName: "orders", malloyResult: "yes" } });
    expect(bad.status).toBe(400);
  });
});
