/**
 * A page's own reload (live reload of /sdk/publisher.js): a sandboxed page's
 * reload sends no cookie, so it posts a launch got with its app token
 * (`POST .../app-token?launch=true`) to its own URL. The launch opens the page
 * of its package once, continues the app token's chain, and is refused for
 * another package's page.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rm } from "node:fs/promises";
import { API, publish, smallPackage, startWorld, type World } from "../packages/helpers.ts";
import { serve } from "./helpers.ts";

setDefaultTimeout(60_000);

let w: World;
let origin: string;
let stop: () => void;
const ENV = `${API}/organizations/acme/environments/prod/packages`;
const PAGE = "<!doctype html><html><head><title>t</title></head><body>hello</body></html>";

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  ({ origin, stop } = serve(w));
  for (const name of ["one", "two"]) {
    expect((await publish(w, name, "1.0.0", { token: w.admin, files: smallPackage({ "public/index.html": PAGE }) })).status).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  stop();
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

function metaOf(html: string, name: string): string {
  return new RegExp(`<meta name="${name}" content="([^"]+)">`).exec(html)?.[1] ?? "";
}

function claimsOf(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString()) as Record<string, unknown>;
}

async function appToken(pkg: string): Promise<string> {
  const page = await fetch(`${origin}${ENV}/${pkg}/app/`, { headers: { authorization: `Bearer ${w.admin}` } });
  expect(page.status).toBe(200);
  return metaOf(await page.text(), "app-token");
}

async function launchOf(pkg: string, token: string): Promise<string> {
  const r = await fetch(`${origin}${ENV}/${pkg}/app-token?launch=true`, { method: "POST", headers: { authorization: `Bearer ${token}`, origin: "null" } });
  expect(r.status).toBe(200);
  expect(r.headers.get("access-control-allow-origin")).toBe("null");
  const body = await r.json() as { token: string; launch?: string };
  expect(body.token).toBeString();
  return body.launch!;
}

function post(pkg: string, launch: string): Promise<Response> {
  return fetch(`${origin}${ENV}/${pkg}/app/?tab=x`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" },
    body: new URLSearchParams({ launch }),
    redirect: "manual",
  });
}

describe("a page reloading itself with a launch", () => {
  test("without ?launch=true the app-token answer has no launch", async () => {
    const token = await appToken("one");
    const r = await fetch(`${origin}${ENV}/one/app-token`, { method: "POST", headers: { authorization: `Bearer ${token}` } });
    expect(Object.keys(await r.json() as object).sort()).toEqual(["expiresAt", "token"]);
  });

  test("the launch opens the page once, with a new app token continuing the chain; a second post goes to the page's URL", async () => {
    const first = await appToken("one");
    await Bun.sleep(1100); // the chain's start must be kept, not reset to now
    const launch = await launchOf("one", first);
    const opened = await post("one", launch);
    expect(opened.status).toBe(200);
    expect(opened.headers.get("content-security-policy")).toStartWith("sandbox");
    const html = await opened.text();
    expect(html).toContain("hello");
    const next = metaOf(html, "app-token");
    expect(next).not.toBe(first);
    expect(claimsOf(next).auth).toBe(claimsOf(first).auth);
    const again = await post("one", launch);
    expect(again.status).toBe(303);
    expect(again.headers.get("location")).toBe(`${ENV}/one/app/?tab=x`);
  });

  test("a launch of one package opens no page of another; a forged launch goes back to the page's URL", async () => {
    const launch = await launchOf("one", await appToken("one"));
    expect((await post("two", launch)).status).toBe(404);
    const forged = await post("one", `${launch.slice(0, -4)}AAAA`);
    expect(forged.status).toBe(303);
  });
});

describe("with APP_ORIGIN", () => {
  test("/sdk/publisher.js is served on the app origin too; other platform paths stay 404 there; a launch posted to the platform origin is 404", async () => {
    const { startTestService } = await import("../helpers/service.ts");
    const apps = await startTestService({ PUBLIC_URL: "http://platform.test", APP_ORIGIN: "http://apps.test", INDEX_ON_PUBLISH: "false" });
    try {
      const sdk = await apps.service.handle(new Request("http://apps.test/sdk/publisher.js"));
      expect(sdk.status).toBe(200);
      expect(await sdk.text()).toContain("window.Publisher");
      expect((await apps.service.handle(new Request("http://apps.test/api/v0/openapi.json"))).status).toBe(404);
      const onPlatform = await apps.service.handle(new Request(`http://platform.test${ENV}/one/app/`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "launch=x",
      }));
      expect(onPlatform.status).toBe(404);
    } finally {
      await apps.close();
    }
  });
});
