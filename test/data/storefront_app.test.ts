/**
 * Malloy Publisher's own data apps, `examples/storefront` and
 * `examples/html-data-app` (copied unmodified into test/fixtures, MIT, see their
 * ATTRIBUTION.md), published as they are and opened in Chromium (headless,
 * playwright-core). The storefront's page loads
 * `/sdk/publisher.js`, renders its four tabs with their KPI tiles, Chart.js
 * charts and tables through `Publisher.queryFull`, logs no console error, and
 * reloads itself when the package is republished. The html-data-app's
 * dashboard renders and refilters through `Publisher.query`, and its
 * embed-test page mounts the dashboard with `Publisher.embed`, sized to it.
 * @module
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { readFolder, zipFolderFiles } from "../../src/watch/folder.ts";
import { API, publish, startWorld, userWith, type World } from "../packages/helpers.ts";
import { serve } from "./helpers.ts";

setDefaultTimeout(90_000);

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const STOREFRONT = join(import.meta.dir, "..", "fixtures", "publisher_storefront");
const HTML_DATA_APP = join(import.meta.dir, "..", "fixtures", "publisher_html_data_app");
const PKG = `${API}/organizations/acme/environments/prod/packages/storefront`;
const SAAS = `${API}/organizations/acme/environments/prod/packages/html-data-app`;

let w: World;
let origin: string;
let stop: () => void;
let browser: Browser;
let page: Page;
const problems: string[] = [];

async function publishStorefront(version: string): Promise<void> {
  const zip = zipFolderFiles(await readFolder(STOREFRONT));
  const r = await publish(w, "storefront", version, { token: w.admin, zip });
  expect(r.status).toBe(201);
}

/** Opens an app page, signing the viewer in when the browser has no session yet. */
async function open(url: string): Promise<void> {
  await page.goto(url);
  if (!page.url().includes("/signin?return=")) return;
  await page.fill("#userName", "viewer");
  await page.fill("#password", "pw-viewer-secret");
  await Promise.all([page.waitForURL(url), page.click("button[type=submit]")]);
}

/** Waits until the visible tab shows its KPI values and a drawn chart or table in every tile. */
async function tabRendered(slug: string): Promise<{ kpis: string[]; charts: number; tables: number; tiles: number }> {
  await page.waitForFunction((tab) => {
    const panel = document.querySelector(`section.panel[data-tab="${tab}"]`) as HTMLElement | null;
    if (!panel || panel.hidden || panel.dataset.busy) return false;
    const tiles = [...panel.querySelectorAll("section.tile[data-tile]")];
    return tiles.length > 0 && tiles.every((t) => t.querySelector("table tbody tr") || t.querySelector("canvas"));
  }, slug, { timeout: 60_000 });
  return await page.evaluate((tab) => {
    const panel = document.querySelector(`section.panel[data-tab="${tab}"]`)!;
    // a canvas Chart.js drew on has a chart instance (window.Chart is the vendored Chart.js)
    const chart = (window as unknown as { Chart: { getChart(c: HTMLCanvasElement): unknown } }).Chart;
    const canvases = [...panel.querySelectorAll("canvas")] as HTMLCanvasElement[];
    return {
      kpis: [...panel.querySelectorAll(".kpi-value")].map((k) => k.textContent ?? ""),
      charts: canvases.filter((c) => chart.getChart(c)).length,
      tables: panel.querySelectorAll("table tbody tr").length,
      tiles: panel.querySelectorAll("section.tile[data-tile]").length,
    };
  }, slug);
}

describe.skipIf(!existsSync(CHROMIUM))("Publisher's storefront data app, unmodified", () => {
  beforeAll(async () => {
    w = await startWorld({ INDEX_ON_PUBLISH: "false" });
    ({ origin, stop } = serve(w));
    await publishStorefront("1.0.0");
    const saas = await publish(w, "html-data-app", "0.0.1", { token: w.admin, zip: zipFolderFiles(await readFolder(HTML_DATA_APP)) });
    expect(saas.status).toBe(201);
    const [env] = await w.s.service.db.sql`SELECT id FROM environments WHERE name = 'prod'`;
    await userWith(w, "viewer", { kind: "environment", id: env!.id as string, role: "viewer" });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    page = await browser.newPage();
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(`[console ${m.type()}] ${m.text()} ${m.location().url.replace(/~[^/]+/, "~…")}`);
    });
    page.on("pageerror", (e) => problems.push(`[page error] ${e.message}`));
    page.on("response", (r) => {
      if (r.status() >= 400) problems.push(`[response ${r.status()}] ${r.url().replace(/~[^/]+/, "~…")}`);
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    stop?.();
    await w?.s.close();
    if (w) await rm(w.dataDir, { recursive: true, force: true });
  }, 120_000);

  test("/sdk/publisher.js is served without credentials, as JavaScript", async () => {
    const r = await fetch(`${origin}/sdk/publisher.js`);
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toStartWith("text/javascript");
    const text = await r.text();
    expect(text).toContain("window.Publisher");
    expect((await fetch(`${origin}/sdk/publisher.js`, { headers: { "if-none-match": r.headers.get("etag")! } })).status).toBe(304);
  });

  test("a viewer signs in; the four tabs render their KPIs, charts and tables with no console error", async () => {
    const app = `${origin}${PKG}/app/`;
    await page.goto(app);
    expect(page.url()).toContain("/signin?return=");
    await page.fill("#userName", "viewer");
    await page.fill("#password", "pw-viewer-secret");
    await Promise.all([page.waitForURL(app), page.click("button[type=submit]")]);
    // the sign-in page is the platform's, not the app's (its /favicon.ico request is not the app's)
    problems.length = 0;
    expect(await page.evaluate(() => typeof (window as unknown as { Publisher?: unknown }).Publisher)).toBe("object");
    expect(await page.evaluate(() => (window as unknown as { Publisher: { context: unknown } }).Publisher.context))
      .toEqual({ organization: "acme", environment: "prod", package: "storefront" });
    const tabs = await page.$$eval("#tabs button", (b) => b.map((x) => x.textContent));
    expect(tabs).toEqual(["Overview", "Category detail", "Regions", "Seasonality"]);
    const overview = await tabRendered("overview");
    expect(overview.kpis).toHaveLength(4);
    for (const k of overview.kpis) expect(k).toMatch(/\d/);
    expect(overview.charts).toBe(2);
    expect(overview.tables).toBeGreaterThan(0);
    for (const [label, slug] of [["Category detail", "category"], ["Regions", "regions"], ["Seasonality", "seasonality"]] as const) {
      await page.click(`#tabs button:text("${label}")`);
      const shown = await tabRendered(slug);
      // the tab is in the page's own URL (history.pushState), not in the file link of its <base>
      expect(page.url()).toBe(`${app}?tab=${slug}`);
      expect(shown.charts + (shown.tables > 0 ? 1 : 0)).toBeGreaterThan(0);
    }
    expect(await page.textContent("#errors")).toBe("");
    expect(problems).toEqual([]);
  });

  test("the page reloads itself when the package is republished, still signed in", async () => {
    await page.click('#tabs button:text("Regions")');
    await tabRendered("regions");
    await page.evaluate(() => {
      (window as unknown as { beforeRepublish: boolean }).beforeRepublish = true;
    });
    const reloaded = page.waitForEvent("load", { timeout: 30_000 });
    await publishStorefront("1.0.1");
    await reloaded;
    expect(await page.evaluate(() => (window as unknown as { beforeRepublish?: boolean }).beforeRepublish)).toBeUndefined();
    // the same page and tab, not the sign-in page
    expect(page.url()).toBe(`${origin}${PKG}/app/?tab=regions`);
    const again = await tabRendered("regions");
    expect(again.charts + again.tables).toBeGreaterThan(0);
    expect(await page.textContent("#errors")).toBe("");
    expect(problems).toEqual([]);
  });

  test("html-data-app: KPIs, two charts and the accounts table render; a filter re-queries; no console error", async () => {
    problems.length = 0;
    await open(`${origin}${SAAS}/app/`);
    problems.length = 0;
    await page.waitForFunction(() => document.querySelectorAll("#rows tbody tr").length > 0 && document.getElementById("kpi-mrr")?.textContent !== "…", undefined, { timeout: 60_000 });
    expect(await page.textContent("#kpi-mrr")).toMatch(/^\$[\d,]+$/);
    const charts = await page.evaluate(() => {
      const chart = (window as unknown as { Chart: { getChart(c: Element): unknown } }).Chart;
      return ["mrrByMonth", "planMix"].filter((id) => chart.getChart(document.getElementById(id)!)).length;
    });
    expect(charts).toBe(2);
    const plansShown = () => page.$$eval("#rows tbody tr td:nth-child(2)", (cells) => [...new Set(cells.map((c) => c.textContent))]);
    expect((await plansShown()).length).toBeGreaterThan(1);
    const plan = await page.$eval("#f-plan option:nth-child(2)", (o) => (o as HTMLOptionElement).value);
    await page.selectOption("#f-plan", plan);
    // the table is queried again with the plan's filter: only its accounts remain
    await page.waitForFunction((p) => {
      const cells = [...document.querySelectorAll("#rows tbody tr td:nth-child(2)")];
      return cells.length > 0 && cells.every((c) => c.textContent === p);
    }, plan, { timeout: 30_000 });
    expect(await plansShown()).toEqual([plan]);
    expect(await page.textContent("#errors")).toBe("");
    expect(problems).toEqual([]);
  });

  test("html-data-app's embed-test page mounts the dashboard with Publisher.embed, signed in and sized to its content", async () => {
    problems.length = 0;
    await open(`${origin}${SAAS}/app/embed-test.html`);
    const frame = page.frameLocator("#dashboard iframe");
    await frame.locator("#rows tbody tr").first().waitFor({ timeout: 60_000 });
    expect(await frame.locator("#kpi-mrr").textContent()).toMatch(/^\$[\d,]+$/);
    // the embedded page reported its height: the frame is as tall as the dashboard
    await page.waitForFunction(() => (document.querySelector("#dashboard iframe") as HTMLIFrameElement).getBoundingClientRect().height > 400, undefined, { timeout: 30_000 });
    expect(problems).toEqual([]);
  });
});
