/**
 * Memory that follows use (src/query/memory_governor.ts): what a package
 * version keeps after its queries (idle DuckDB instances, compiled queries)
 * is released once it went unused for IDLE_RELEASE_MS, everything idle is
 * released and least recently used models go when the process is over
 * MEMORY_BUDGET, and the next query answers the same rows.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { PackageDuckDBConnection } from "../../src/engine/mod.ts";
import { modelCacheOf } from "../../src/archives/compiled_models.ts";
import { releaseIdleMemory, stopMemoryGovernor } from "../../src/query/memory_governor.ts";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { BY_REGION, shopFiles } from "./fixtures.ts";

let w: World;
const Q = `${API}/organizations/acme/environments/prod/packages/shop/models/models/shop.malloy/query`;
const byRegion = async () => {
  const r = await w.s.call("POST", Q, { token: w.admin, body: { queryName: "by_region", sourceName: "orders" } });
  expect(r.status).toBe(200);
  return r.body.data;
};

beforeAll(async () => {
  w = await startWorld({ IDLE_RELEASE_MS: "1000", MEMORY_BUDGET: "64GiB", INDEX_ON_PUBLISH: "false" });
  expect((await publish(w, "shop", "1.0.0", { token: w.admin, files: await shopFiles() })).status).toBe(201);
  // the sweeps run when these tests call them, not on the service's timer
  stopMemoryGovernor(w.s.service.ctx);
}, 120_000);
afterAll(() => w.s.close());

describe("memory governor", () => {
  test("a version unused for IDLE_RELEASE_MS keeps no DuckDB instance and no compiled query; its next query answers the same", async () => {
    const ctx = w.s.service.ctx;
    expect(await byRegion()).toEqual(BY_REGION);
    expect(await byRegion()).toEqual(BY_REGION);
    expect(PackageDuckDBConnection.idleInstancesEverywhere).toBeGreaterThan(0);
    // just used: nothing of this package is released (packages of other test files in this process may be)
    const early = await releaseIdleMemory(ctx, { rssBytes: 0 });
    expect({ queries: early.queries, models: early.models }).toEqual({ queries: 0, models: 0 });
    expect(PackageDuckDBConnection.idleInstancesEverywhere).toBeGreaterThan(0);
    await Bun.sleep(1_100);
    const late = await releaseIdleMemory(ctx, { rssBytes: 0 });
    expect(late.instances).toBeGreaterThan(0);
    expect(late.queries).toBeGreaterThan(0);
    expect(late.models).toBe(0);
    expect(PackageDuckDBConnection.idleInstancesEverywhere).toBe(0);
    expect(modelCacheOf(ctx).size).toBeGreaterThan(0); // the model stays: the next query compiles only its text
    expect(await byRegion()).toEqual(BY_REGION);
  }, 60_000);

  test("over MEMORY_BUDGET: idle instances close at once and least recently used models go", async () => {
    const ctx = w.s.service.ctx;
    expect(await byRegion()).toEqual(BY_REGION);
    const models = modelCacheOf(ctx).size;
    expect(models).toBeGreaterThan(0);
    const released = await releaseIdleMemory(ctx, { rssBytes: ctx.config.memoryBudget + 1 });
    expect(released.instances).toBeGreaterThan(0);
    expect(released.models).toBe(models - Math.floor(models / 2));
    expect(PackageDuckDBConnection.idleInstancesEverywhere).toBe(0);
    expect(await byRegion()).toEqual(BY_REGION);
  }, 60_000);
});
