/**
 * get_context's entity records (src/retrieval/index/scoped_entities.ts) are
 * kept per version only while searches read them: the memory governor
 * forgets the versions no search read during IDLE_RELEASE_MS, the cache
 * holds at most its budget (a quarter of MEMORY_BUDGET) beyond what one
 * search needs, and a search after either answers the same.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Principal } from "../../src/access/principal.ts";
import { releaseIdleMemory, stopMemoryGovernor } from "../../src/query/memory_governor.ts";
import { entityCacheSize, setEntityCacheBudget } from "../../src/retrieval/index/entity_cache.ts";
import { createContextSearcher, type ContextSearcher } from "../../src/retrieval/search.ts";
import { waitForRuns } from "../../src/runs/worker.ts";
import { publish, startWorld, type World } from "../packages/helpers.ts";
import { ecommerceFiles } from "./fixtures.ts";

let w: World;
let searcher: ContextSearcher;
let admin: Principal;
const ask = (scope: { package_name?: string } = {}) =>
  searcher.search(admin, { organization: "acme", natural_language_query: "average delivery delay by carrier", environment_name: "prod", ...scope });

beforeAll(async () => {
  w = await startWorld({ IDLE_RELEASE_MS: "1000" });
  for (const name of ["shop", "store"]) {
    expect((await publish(w, name, "1.0.0", { token: w.admin, files: ecommerceFiles() })).status).toBe(201);
  }
  await waitForRuns(w.s.service.ctx);
  // the sweeps run when these tests call them, not on the service's timer
  stopMemoryGovernor(w.s.service.ctx);
  searcher = createContextSearcher(w.s.service.ctx);
  const [u] = await w.s.service.db.sql`SELECT id FROM users WHERE user_name = 'admin'`;
  admin = { kind: "user", userId: u!.id as string, userName: "admin", systemAdmin: true };
}, 120_000);

afterAll(async () => {
  setEntityCacheBudget(Math.floor(w.s.service.ctx.config.memoryBudget / 4));
  await w.s.close();
}, 120_000);

describe("get_context entity cache", () => {
  test("versions no search read during IDLE_RELEASE_MS are forgotten by the sweep; the next search answers the same", async () => {
    const ctx = w.s.service.ctx;
    const first = await ask();
    expect(first.sources.length).toBeGreaterThan(0);
    const held = entityCacheSize();
    expect(held.versions).toBeGreaterThanOrEqual(2);
    expect(held.entities).toBeGreaterThan(0);
    expect(held.bytes).toBeGreaterThan(0);
    // just read: kept
    expect((await releaseIdleMemory(ctx, { rssBytes: 0 })).cached).toBe(0);
    expect(entityCacheSize().versions).toBe(held.versions);
    await Bun.sleep(1_100);
    const released = await releaseIdleMemory(ctx, { rssBytes: 0 });
    expect(released.cached).toBeGreaterThanOrEqual(2);
    expect(entityCacheSize()).toEqual({ versions: 0, entities: 0, bytes: 0 });
    expect(await ask()).toEqual(first);
    expect(entityCacheSize().versions).toBe(held.versions);
  }, 60_000);

  test("over MEMORY_BUDGET every version not read in the last sweep goes", async () => {
    const ctx = w.s.service.ctx;
    await ask();
    expect(entityCacheSize().versions).toBe(2);
    await Bun.sleep(400); // longer than a sweep (a quarter of IDLE_RELEASE_MS)
    await ask({ package_name: "shop" });
    const released = await releaseIdleMemory(ctx, { rssBytes: ctx.config.memoryBudget + 1 });
    expect(released.cached).toBe(1);
    expect(entityCacheSize().versions).toBe(1);
  }, 60_000);

  test("the cache keeps within its budget: versions of earlier searches go first, those of the current search stay", async () => {
    const before = await ask({ package_name: "shop" });
    setEntityCacheBudget(1);
    await ask({ package_name: "store" });
    expect(entityCacheSize().versions).toBe(1);
    expect(await ask({ package_name: "shop" })).toEqual(before);
    expect(entityCacheSize().versions).toBe(1);
    setEntityCacheBudget(Math.floor(w.s.service.ctx.config.memoryBudget / 4));
    await ask();
    expect(entityCacheSize().versions).toBe(2);
  }, 60_000);
});
