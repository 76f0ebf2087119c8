import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import {
  approximateModelBytes,
  closePackageDuckDB,
  type CompiledModel,
  compileModel,
  createModelCache,
  createPackageRuntime,
  extractArchive,
  type PackageRuntime,
  removeExtracted,
  runQuery,
} from "../../src/engine/mod.ts";
import { fixtureFiles, tempDir, zipFiles } from "../fixtures/engine_package.ts";

let cacheDir: string;
let pkgDir: string;
let pkg: PackageRuntime;

beforeAll(async () => {
  const files = await fixtureFiles();
  cacheDir = await tempDir("engine-cache-test-");
  pkgDir = await extractArchive(zipFiles(files), { cacheDir, files });
  pkg = createPackageRuntime(files, pkgDir);
}, 120_000);

afterAll(async () => {
  await closePackageDuckDB(pkgDir);
  await removeExtracted(pkgDir);
  await rm(cacheDir, { recursive: true, force: true });
}, 120_000);

describe("createModelCache", () => {
  test("compiles once, then serves the cached model; logs cold and warm timings", async () => {
    const events: Record<string, unknown>[] = [];
    const cache = createModelCache<CompiledModel>({ log: (e) => events.push(e) });
    let compiles = 0;
    const load = () => {
      compiles++;
      return compileModel(pkg, "airports.malloy");
    };
    const key = { versionId: "v1", modelPath: "airports.malloy" };
    const cold = await cache.get(key, load);
    const warm = await cache.get(key, load);
    expect(warm).toBe(cold);
    expect(compiles).toBe(1);
    expect(events.map((e) => e.phase)).toEqual(["cold", "warm"]);
    expect(events[0]).toMatchObject({ event: "model_cache", versionId: "v1", modelPath: "airports.malloy" });
    expect(typeof events[0].ms).toBe("number");
    const result = await runQuery(warm, { query: "airports -> { aggregate: airport_count }" });
    expect(result.data).toEqual([{ airport_count: 3376 }]);
  }, 60_000); // the file's first compile also starts a compile worker (it loads Malloy)

  test("concurrent misses share one load", async () => {
    const cache = createModelCache<number>({ log: () => {} });
    let loads = 0;
    const load = async () => {
      loads++;
      await Bun.sleep(20);
      return 7;
    };
    const key = { versionId: "v1", modelPath: "m.malloy" };
    expect(await Promise.all([cache.get(key, load), cache.get(key, load)])).toEqual([7, 7]);
    expect(loads).toBe(1);
  });

  test("evicts the least recently used entry past maxEntries", async () => {
    const cache = createModelCache<string>({ maxEntries: 2, log: () => {} });
    const loaded: string[] = [];
    const get = (path: string) =>
      cache.get({ versionId: "v", modelPath: path }, () => {
        loaded.push(path);
        return Promise.resolve(path);
      });
    await get("a");
    await get("b");
    await get("a");
    await get("c");
    expect(cache.size).toBe(2);
    await get("a");
    await get("b");
    expect(loaded).toEqual(["a", "b", "c", "b"]);
  });

  test("evicts past maxBytes using sizeOf", async () => {
    const cache = createModelCache<string>({ maxBytes: 10, sizeOf: (v) => v.length, log: () => {} });
    await cache.get({ versionId: "v", modelPath: "a" }, () => Promise.resolve("123456"));
    await cache.get({ versionId: "v", modelPath: "b" }, () => Promise.resolve("123456"));
    expect(cache.size).toBe(1);
    expect(cache.bytes).toBe(6);
  });

  test("a failing load is not cached", async () => {
    const cache = createModelCache<string>({ log: () => {} });
    const key = { versionId: "v", modelPath: "a" };
    await expect(cache.get(key, () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await cache.get(key, () => Promise.resolve("ok"))).toBe("ok");
  });

  test("deleteVersion drops only that version", async () => {
    const cache = createModelCache<string>({ log: () => {} });
    await cache.get({ versionId: "v1", modelPath: "a" }, () => Promise.resolve("1"));
    await cache.get({ versionId: "v2", modelPath: "a" }, () => Promise.resolve("2"));
    cache.deleteVersion("v1");
    expect(cache.size).toBe(1);
    expect(await cache.get({ versionId: "v2", modelPath: "a" }, () => Promise.resolve("new"))).toBe("2");
  });

  test("approximateModelBytes grows with the model", async () => {
    const small = await compileModel(pkg, "flights.malloy");
    const large = await compileModel(pkg, "airports.malloy");
    expect(approximateModelBytes(small)).toBeGreaterThan(1000);
    expect(approximateModelBytes(large)).toBeGreaterThan(approximateModelBytes(small));
  });
});
