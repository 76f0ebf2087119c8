import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import { API, publish, smallPackage, startWorld, userWith, type World } from "../packages/helpers.ts";
import { serve } from "./helpers.ts";

let w: World;
let origin: string;
let stop: () => void;
const APP = `${API}/organizations/acme/environments/prod/packages/flights/app`;

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
});

afterAll(async () => {
  stop();
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
});

function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${origin}${path}`, { headers: { authorization: `Bearer ${w.admin}`, ...headers }, redirect: "manual" });
}

describe("in-package web apps", () => {
  test("serves public/ files with content types, index.html by default", async () => {
    const index = await get(`${APP}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await index.text()).toContain("<title>v1</title>");
    expect(index.headers.get("x-version-id")).toBe("1.0.0");
    const js = await get(`${APP}/app.js`);
    expect(js.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const svg = await get(`${APP}/img/logo.svg`);
    expect(svg.headers.get("content-type")).toBe("image/svg+xml");
    const folder = await get(`${APP}/docs/`);
    expect(await folder.text()).toBe("<p>docs</p>");
    const bare = await get(APP);
    expect(bare.status).toBe(301);
    expect(bare.headers.get("location")).toEndWith("/packages/flights/app/");
  });

  test("ETag and Cache-Control; If-None-Match answers 304; a new version changes the file", async () => {
    const first = await get(`${APP}/index.html`);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(first.headers.get("cache-control")).toBe("no-cache");
    const again = await get(`${APP}/index.html`, { "if-none-match": etag });
    expect(again.status).toBe(304);
    const files = smallPackage({ "public/index.html": "<!doctype html><title>v2</title>" });
    expect((await publish(w, "flights", "1.1.0", { token: w.admin, files })).status).toBe(201);
    const updated = await get(`${APP}/index.html`, { "if-none-match": etag });
    expect(updated.status).toBe(200);
    expect(await updated.text()).toContain("v2");
    expect(updated.headers.get("etag")).not.toBe(etag);
  });

  test("404 for a missing file or a package without public/, 400 for '..'", async () => {
    expect((await get(`${APP}/missing.js`)).status).toBe(404);
    expect((await get(`${API}/organizations/acme/environments/prod/packages/plain/app/`)).status).toBe(404);
    const dots = await get(`${APP}/..%2Fpublisher.json`);
    expect(dots.status).toBe(400);
    expect(((await dots.json()) as { code: string }).code).toBe("VALIDATION_ERROR");
    expect((await get(`${APP}/img/..%2F..%2Fmodels/flights.malloy`)).status).toBe(400);
  });

  test("package viewers only; ?access_token= sets a cookie scoped to the package that serves later requests", async () => {
    expect((await fetch(`${origin}${APP}/`)).status).toBe(401);
    const outsider = await userWith(w, "outsider");
    expect((await get(`${APP}/`, { authorization: `Bearer ${outsider}` })).status).toBe(404);
    const viewer = await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });
    const opened = await fetch(`${origin}${APP}/?access_token=${encodeURIComponent(viewer)}`);
    expect(opened.status).toBe(200);
    const cookie = opened.headers.get("set-cookie")!;
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("Path=/api/v0/organizations/acme/environments/prod/packages/flights/");
    const asset = await fetch(`${origin}${APP}/index.html`, { headers: { cookie: cookie.split(";")[0]! } });
    expect(asset.status).toBe(200);
  });
});
