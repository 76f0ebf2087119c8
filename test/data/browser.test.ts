/**
 * The demo app in a real browser (Chromium from Debian, headless, driven by
 * playwright-core; `.ci/run` installs it when missing): a viewer signs in,
 * the data renders, a republish shows live, the app's script holds no token
 * that can call admin routes, a restart replays the events missed while the
 * service was down, and a revoked viewer's stream ends. Then the same with
 * `APP_ORIGIN`: the platform on 127.0.0.1, the app on localhost.
 * @module
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { chromium, type Browser, type Page } from "playwright-core";
import { closePackageStreams } from "../../src/events/hub.ts";
import { readFolder, zipFolderFiles } from "../../src/watch/folder.ts";
import { DEMO_PACKAGE_DIR } from "../../src/demo/store.ts";
import { startService, type Service } from "../../src/service.ts";
import { API, publish, userWith, type World, startWorld } from "../packages/helpers.ts";

// explicit: a file run after another in the same process must not fall back to bun's 5 s
setDefaultTimeout(60_000);

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const PKG = `${API}/organizations/acme/environments/demo/packages/shop`;

let w: World;
let browser: Browser;
let page: Page;
let server: ReturnType<typeof Bun.serve>;
let port = 0;
let current: Service;
const extra: Service[] = [];

function listen(service: Service): void {
  current = service;
  server = Bun.serve({ port, hostname: "127.0.0.1", idleTimeout: 0, fetch: (r) => service.handle(r) });
  port = server.port!;
}

/** The demo package with its orders' categories renamed, so a new version shows different rows. */
async function shopZip(category: string): Promise<Uint8Array> {
  const files = await readFolder(DEMO_PACKAGE_DIR);
  const csv = new TextDecoder().decode(files.get("data/orders.csv")!);
  const [header, ...rows] = csv.trimEnd().split("\n");
  const col = header!.split(",").indexOf("category");
  const renamed = rows.map((r) => {
    const cells = r.split(",");
    if (cells[col] === "Books") cells[col] = category;
    return cells.join(",");
  });
  files.set("data/orders.csv", new TextEncoder().encode([header, ...renamed].join("\n") + "\n"));
  return zipFolderFiles(files);
}

async function republish(version: string, category: string): Promise<void> {
  const r = await publish(w, "shop", version, { token: w.admin, zip: await shopZip(category), prefix: `${API}/organizations/acme/environments/demo` });
  expect(r.status).toBe(201);
}

async function statusText(): Promise<string> {
  return (await page.textContent("#status")) ?? "";
}

describe.skipIf(!existsSync(CHROMIUM))("the demo app in Chromium", () => {
  beforeAll(async () => {
    w = await startWorld({ INDEX_ON_PUBLISH: "false" });
    const demo = await w.s.call("POST", `${API}/organizations/acme/demo-environment`, { token: w.admin, body: {} });
    expect(demo.status).toBe(201);
    const [env] = await w.s.service.db.sql`SELECT id FROM environments WHERE name = 'demo'`;
    await userWith(w, "viewer", { kind: "environment", id: env!.id as string, role: "viewer" });
    listen(w.s.service);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    page = await browser.newPage();
    page.on("console", (m) => console.log(`[page] ${m.text()}`));
    page.on("pageerror", (e) => console.log(`[page error] ${e.message}`));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.stop(true);
    for (const s of extra) {
      await closePackageStreams(s.ctx);
      await s.close();
    }
    await w.s.close();
    await rm(w.dataDir, { recursive: true, force: true });
  }, 120_000);

  test("a viewer signs in and the data renders", async () => {
    const app = `http://127.0.0.1:${port}${PKG}/app/`;
    await page.goto(app);
    expect(page.url()).toContain("/signin?return=");
    await page.fill("#userName", "viewer");
    await page.fill("#password", "pw-viewer-secret");
    await Promise.all([page.waitForURL(app), page.click("button[type=submit]")]);
    await page.waitForFunction(() => document.querySelectorAll("#rows tr").length > 0, undefined, { timeout: 30_000 });
    expect(await statusText()).toContain("version 1.0.0");
    expect(await page.textContent("#rows")).toContain("Books");
  });

  test("the app's script reads no token that can call admin routes, and no cookie or storage", async () => {
    const seen = await page.evaluate(async () => {
      const out: Record<string, unknown> = {};
      try {
        out.cookie = document.cookie;
      } catch (e) {
        out.cookie = `blocked: ${(e as Error).name}`;
      }
      try {
        out.storage = localStorage.length;
      } catch (e) {
        out.storage = `blocked: ${(e as Error).name}`;
      }
      out.origin = self.origin;
      out.html = document.documentElement.outerHTML;
      out.url = location.href;
      const token = document.querySelector('meta[name="app-token"]')?.getAttribute("content") ?? "";
      // the app token against an admin route and against a user's own settings, as a hostile script would
      const tries: string[] = [];
      for (const [method, path] of [["GET", "/api/v0/organizations"], ["PATCH", "/api/v0/users/viewer"], ["POST", "/api/v0/organizations"]]) {
        try {
          const r = await fetch(path!, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: method === "GET" ? undefined : "{}", credentials: "include" });
          tries.push(`${method} ${path}: ${r.status}`);
        } catch {
          tries.push(`${method} ${path}: blocked`);
        }
      }
      out.tries = tries;
      return out;
    });
    expect(String(seen.cookie)).toStartWith("blocked");
    expect(String(seen.storage)).toStartWith("blocked");
    expect(seen.origin).toBe("null");
    for (const t of seen.tries as string[]) expect(t).toMatch(/: (blocked|401|403)$/);
    // every JWT-shaped string the page can see: none opens an admin route (or any route but its package's data)
    const tokens = new Set([...String(seen.html).matchAll(/[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g)].map((m) => m[0]));
    expect(tokens.size).toBeGreaterThan(0);
    for (const token of tokens) {
      for (const path of [`${API}/organizations`, `${API}/organizations/acme/environments/demo/packages/shop/versions`, `${API}/users/viewer`]) {
        const r = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } });
        expect([401, 403]).toContain(r.status);
      }
    }
    expect(String(seen.url)).not.toContain("token");
  });

  test("a republish shows live", async () => {
    await republish("1.0.1", "Novels");
    await page.waitForFunction(() => document.getElementById("status")?.textContent?.includes("version 1.0.1"), undefined, { timeout: 30_000 });
    expect(await page.textContent("#rows")).toContain("Novels");
  });

  test("a restart replays the events missed while the service was down", async () => {
    server.stop(true);
    await closePackageStreams(current.ctx);
    // published while no server listens: only the database knows the event
    await republish("1.0.2", "Comics");
    const next = await startService({ ...w.s.config, logRequests: false }, { db: { ...w.s.service.db, close: async () => {} }, log: () => {} });
    extra.push(next);
    listen(next);
    await page.waitForFunction(() => document.getElementById("status")?.textContent?.includes("version 1.0.2"), undefined, { timeout: 30_000 });
    expect(await page.textContent("#rows")).toContain("Comics");
  });

  test("a revoked viewer's stream ends", async () => {
    await w.s.service.db.sql`DELETE FROM grants WHERE principal_id = (SELECT id FROM users WHERE user_name = 'viewer')`;
    await republish("1.0.3", "Magazines");
    await page.waitForFunction(() => document.body.dataset.revoked === "true", undefined, { timeout: 30_000 });
    expect(await statusText()).toContain("access to this package was removed");
    expect(await page.textContent("#rows")).not.toContain("Magazines");
  });

  test("with APP_ORIGIN: the app opens on its own origin (localhost), the data renders, and it reads no platform credential", async () => {
    const [env] = await w.s.service.db.sql`SELECT id FROM environments WHERE name = 'demo'`;
    const [u] = await w.s.service.db.sql`SELECT id FROM users WHERE user_name = 'viewer'`;
    await w.s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
      VALUES ('environment', ${env!.id as string}, 'user', ${u!.id as string}, 'viewer') ON CONFLICT DO NOTHING`;
    // one listener, two host names: 127.0.0.1 is the platform (PUBLIC_URL), localhost the app origin
    let handle: (r: Request) => Promise<Response> = async () => new Response("starting", { status: 503 });
    const two = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: (r) => handle(r) });
    const platform = `http://127.0.0.1:${two.port}`;
    const apps = `http://localhost:${two.port}`;
    const separate = await startService({ ...w.s.config, logRequests: false, publicUrl: platform, appOrigin: apps }, { db: { ...w.s.service.db, close: async () => {} }, log: () => {} });
    extra.push(separate);
    handle = (r) => separate.handle(r);
    const context = await browser.newContext();
    try {
      const tab = await context.newPage();
      tab.on("console", (m) => console.log(`[app origin page] ${m.text()}`));
      await tab.goto(`${platform}${PKG}/app/`);
      expect(tab.url()).toContain("/signin?return=");
      await tab.fill("#userName", "viewer");
      await tab.fill("#password", "pw-viewer-secret");
      await Promise.all([tab.waitForURL(`${apps}${PKG}/app/`), tab.click("button[type=submit]")]);
      await tab.waitForFunction(() => document.querySelectorAll("#rows tr").length > 0, undefined, { timeout: 30_000 });
      expect(await tab.textContent("#status")).toContain("version 1.0.3");
      const seen = await tab.evaluate(async (platformOrigin) => {
        const out: Record<string, unknown> = { origin: self.origin, url: location.href, html: document.documentElement.outerHTML };
        try {
          out.cookie = document.cookie;
        } catch (e) {
          out.cookie = `blocked: ${(e as Error).name}`;
        }
        const token = document.querySelector('meta[name="app-token"]')?.getAttribute("content") ?? "";
        const tries: string[] = [];
        for (const url of ["/api/v0/organizations", `${platformOrigin}/api/v0/organizations`, `${platformOrigin}/api/v0/users/viewer`]) {
          try {
            const r = await fetch(url, { headers: { authorization: `Bearer ${token}` }, credentials: "include" });
            tries.push(`${url}: ${r.status}`);
          } catch {
            tries.push(`${url}: blocked`);
          }
        }
        out.tries = tries;
        return out;
      }, platform);
      expect(seen.origin).toBe("null");
      expect(String(seen.url)).toBe(`${apps}${PKG}/app/`);
      expect(String(seen.cookie)).toStartWith("blocked");
      for (const t of seen.tries as string[]) expect(t).toMatch(/: (blocked|401|403|404)$/);
      // the platform's session cookie stays on the platform's host: the app origin never received one it would accept
      const cookies = await context.cookies(apps);
      expect(cookies.filter((c) => c.name === "mp_session")).toEqual([]);
      // the cross-origin event stream (to the platform) shows a republish live
      await republish("1.0.4", "Zines");
      await tab.waitForFunction(() => document.getElementById("status")?.textContent?.includes("version 1.0.4"), undefined, { timeout: 30_000 });
      expect(await tab.textContent("#rows")).toContain("Zines");
    } finally {
      await context.close();
      two.stop(true);
    }
  });
});
