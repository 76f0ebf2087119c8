/**
 * The console in a real browser (Chromium from Debian, headless, driven by
 * playwright-core): an organization admin signs in, browses to a field and its
 * indexed values, runs a view and sees the chart Malloy's renderer draws for
 * its `# bar_chart` tag, runs Malloy text with an error and sees the error at
 * its line, creates an API key (the secret shown once works) and revokes it
 * (it stops working), and sees the package's runs with their units. A viewer
 * sees no admin action, and the API refuses the actions if forced. Any console
 * error or page error fails the test. With `CONSOLE_SCREENSHOTS=<dir>` it
 * saves the screenshots of docs/console.md there.
 * @module
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { API, startWorld, userWith, type World } from "../packages/helpers.ts";

setDefaultTimeout(90_000);

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const PKG = `${API}/organizations/acme/environments/demo/packages/shop`;
const SHOTS = process.env.CONSOLE_SCREENSHOTS;

let w: World;
let browser: Browser;
let server: ReturnType<typeof Bun.serve>;
let base = "";
/** Console errors, page errors and failed requests of every page. */
const problems: string[] = [];

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, name), fullPage: false });
}

/** A new browser context signed in as `userName`, on the console's home. */
async function signedIn(userName: string, password: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 } });
  const page = await context.newPage();
  page.on("console", (m) => {
    // a failed request is logged by Chromium too; the response listener below keeps those
    if ((m.type() === "error" || m.type() === "warning") && !m.text().startsWith("Failed to load resource")) problems.push(`[${userName} console ${m.type()}] ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`[${userName} page error] ${e.message}`));
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`[${userName} http ${r.status()}] ${r.url()}`);
  });
  page.on("dialog", (d) => void d.accept());
  await page.goto(`${base}/`);
  await page.click('a[href="/signin"]');
  await page.fill("#userName", userName);
  await page.fill("#password", password);
  await Promise.all([page.waitForURL(`${base}/`), page.click("button[type=submit]")]);
  await page.waitForSelector(".cards .card");
  return { context, page };
}

async function apiStatus(path: string, init: { method?: string; authorization: string }): Promise<number> {
  const r = await fetch(`${base}${path}`, { method: init.method ?? "GET", headers: { authorization: init.authorization } });
  await r.body?.cancel();
  return r.status;
}

describe.skipIf(!existsSync(CHROMIUM))("the console in Chromium", () => {
  beforeAll(async () => {
    w = await startWorld();
    const demo = await w.s.call("POST", `${API}/organizations/acme/demo-environment`, { token: w.admin, body: {} });
    expect(demo.status).toBe(201);
    const group = await w.s.call("POST", `${API}/organizations/acme/groups`, { token: w.admin, body: { name: "analysts", description: "Analysts' MCP clients" } });
    expect(group.status).toBe(201);
    const [env] = await w.s.service.db.sql`SELECT id FROM environments WHERE name = 'demo'`;
    await userWith(w, "viewer", { kind: "environment", id: env!.id as string, role: "viewer" });
    // a member of the organization (its lowest role), viewer of the demo environment
    await w.s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
      SELECT 'organization', ${w.orgId}, 'user', id, 'member' FROM users WHERE user_name = 'viewer'`;
    // the publish's run builds the indexes the field view shows
    for (let i = 0; i < 120; i++) {
      const p = await w.s.call("GET", PKG, { token: w.admin });
      if (p.body.indexStatus === "indexed") break;
      await Bun.sleep(500);
    }
    server = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: (r) => w.s.service.handle(r) });
    base = `http://127.0.0.1:${server.port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    server?.stop(true);
    await w?.s.close();
    if (w) await rm(w.dataDir, { recursive: true, force: true });
  }, 120_000);

  test("an admin browses to a field, runs a view as a chart and Malloy text with an error, manages an API key and sees runs", async () => {
    const { context, page } = await signedIn("admin", "admin-password-for-tests");
    // browse: organization -> environment -> package -> model -> a field and its indexed values
    await page.click('.card[href="#/o/acme"]');
    await page.click('a[href="#/o/acme/e/demo"]');
    await page.click('a[href="#/o/acme/e/demo/p/shop"]');
    await page.click('a[href="#/o/acme/e/demo/p/shop/m/models/shop.malloy"]');
    const orders = page.locator('.source[data-source="orders"]');
    await orders.waitFor();
    const field = orders.locator('li.field[data-field="product_category"]');
    expect(await field.textContent()).toContain("Product category, e.g. Books or Coffee");
    expect(await field.textContent()).toContain("string");
    await field.locator("button", { hasText: "values" }).click();
    const values = page.locator('.index-values[data-field="product_category"]');
    await values.waitFor();
    expect(await values.textContent()).toContain("Books");
    await shot(page, "console-browse.png");

    // a view with # bar_chart: Malloy's renderer draws a chart (SVG or canvas), and the rows and SQL are beside it
    await orders.locator("button.run", { hasText: "by_category" }).click();
    await page.waitForSelector(".malloy-render svg, .malloy-render canvas", { timeout: 30_000 });
    expect(await page.textContent(".figures")).toMatch(/5 rows · [\d.]+ ms · version 1\.0\.0/);
    await shot(page, "console-query-chart.png");
    await page.click('.result .tabs button:has-text("SQL")');
    expect(await page.textContent("pre.sql")).toMatch(/SELECT/i);

    // completion of the model's names: typing a prefix offers them, Tab takes the first
    await page.fill("textarea.code", "");
    await page.type("textarea.code", "run: orders -> { aggregate: order_c");
    await page.waitForSelector('.suggest button:has-text("order_count")');
    await page.keyboard.press("Tab");
    expect(await page.inputValue("textarea.code")).toBe("run: orders -> { aggregate: order_count");

    // Malloy text with an error on its third line: the error names the line, and the gutter marks it
    await page.fill("textarea.code", "run: orders -> {\n  group_by: product_category\n  aggregate: no_such_measure\n}");
    await page.click('button.primary:has-text("Run")');
    const problem = page.locator(".problems .problem");
    await problem.first().waitFor();
    expect(await problem.first().textContent()).toMatch(/^line 3, column \d+: .*no_such_measure/);
    expect(await page.textContent(".gutter .ln.err")).toBe("3");
    const compileErrors = problems.filter((p) => p.includes("http 400"));
    expect(compileErrors.length).toBe(1);
    problems.splice(problems.indexOf(compileErrors[0]!), 1);
    await shot(page, "console-error.png");

    // API keys: create shows the secret once, and it works; revoke ends it
    await page.goto(`${base}/#/o/acme?tab=keys`);
    const group = page.locator('.group-keys[data-group="analysts"]');
    await group.waitFor();
    await group.locator('input[name="keyName"]').fill("console-test");
    await group.locator('button[type="submit"]').click();
    const secret = (await group.locator('[data-testid="secret"]').textContent({ timeout: 15_000 }))!.trim();
    expect(secret.length).toBeGreaterThan(20);
    expect(await apiStatus(`${API}/organizations/acme`, { authorization: `ApiKey ${secret}` })).toBe(200);
    await group.locator('button[data-revoke="console-test"]').click();
    await group.locator('button[data-revoke="console-test"]').waitFor({ state: "detached" });
    expect(await apiStatus(`${API}/organizations/acme`, { authorization: `ApiKey ${secret}` })).toBe(401);
    problems.splice(0, problems.length, ...problems.filter((p) => !p.includes("http 401")));

    // the query log shows the queries just run; the runs tab the publish's run with its units
    await page.click('.tabs button:has-text("Query log")');
    await page.waitForSelector(".tab-panel table.grid");
    expect(await page.textContent(".tab-panel table.grid")).toContain("by_category");
    await page.goto(`${base}/#/o/acme/e/demo/p/shop?tab=runs`);
    await page.waitForSelector(".run-card .badge.s-succeeded");
    expect(await page.textContent(".run-card")).toContain("orders.product_category");
    // a new run shows up and ends, followed live
    await page.click('button:has-text("Start a full run of 1.0.0")');
    await page.waitForFunction(() => document.querySelectorAll(".run-card").length === 2, undefined, { timeout: 30_000 });
    await page.waitForFunction(() => document.querySelector(".run-card .badge")?.textContent === "succeeded", undefined, { timeout: 60_000 });
    await shot(page, "console-runs.png");
    await context.close();
    expect(problems).toEqual([]);
  });

  test("a viewer sees no admin action, and the API refuses them if forced", async () => {
    const { context, page } = await signedIn("viewer", "pw-viewer-secret");
    await page.goto(`${base}/#/o/acme/e/demo/p/shop?tab=runs`);
    await page.waitForSelector(".run-card");
    expect(await page.locator('button:has-text("Start a full run")').count()).toBe(0);
    await page.goto(`${base}/#/o/acme/e/demo/p/shop/m/models/shop.malloy?run=orders.by_category`);
    await page.waitForSelector(".malloy-render svg, .malloy-render canvas", { timeout: 30_000 });
    // the organization's page: no query log tab; no group whose keys the viewer manages
    await page.goto(`${base}/#/o/acme?tab=keys`);
    await page.waitForSelector('[data-testid="no-keys"]');
    expect(await page.locator('.tabs button:has-text("Query log")').count()).toBe(0);
    expect(await page.locator('button:has-text("Create API key")').count()).toBe(0);
    // forced with the console's own token: refused
    const token = await page.evaluate(async () => {
      const r = await fetch("/api/v0/auth/token", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ grantType: "session" }) });
      return (await r.json()).accessToken as string;
    });
    const auth = `Bearer ${token}`;
    expect(await apiStatus(`${API}/organizations/acme/groups/analysts/tokens?name=forced`, { method: "POST", authorization: auth })).toBeOneOf([403, 404]);
    expect(await apiStatus(`${API}/organizations/acme/query-log`, { authorization: auth })).toBeOneOf([403, 404]);
    expect(await apiStatus(`${PKG}/versions/1.0.0/runs`, { method: "POST", authorization: auth })).toBe(403);
    await context.close();
    // the viewer's access tabs answer "only admins see who has access" (403 or 404 of the permissions lists are expected)
    expect(problems.filter((p) => !/http (403|404)\] .*\/(permissions|tokens)$/.test(p))).toEqual([]);
  });

  test("the API docs page loads from the service only and renders the operations", async () => {
    // the viewer's expected refusals are behind
    problems.length = 0;
    const context = await browser.newContext();
    const page = await context.newPage();
    const foreign: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(base) && !r.url().startsWith("data:")) foreign.push(r.url());
    });
    page.on("pageerror", (e) => problems.push(`[docs page error] ${e.message}`));
    await page.goto(`${base}/api/v0/docs`);
    await page.waitForSelector(".opblock", { timeout: 30_000 });
    // Swagger UI (served by the service) read the OpenAPI document and draws its operations
    expect(await page.textContent(".info .title")).toContain("Malloy data-modeling platform");
    expect(await page.locator(".opblock").count()).toBeGreaterThan(0);
    expect(foreign).toEqual([]);
    await context.close();
    expect(problems).toEqual([]);
  });
});
