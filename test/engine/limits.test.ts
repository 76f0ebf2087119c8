import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { rm } from "node:fs/promises";
import {
  closePackageDuckDB,
  type CompiledModel,
  compileModel,
  createPackageRuntime,
  engineLimits,
  extractArchive,
  openPackageDuckDB,
  PackageDuckDBConnection,
  QueryError,
  removeExtracted,
  runQuery,
  setEngineLimits,
} from "../../src/engine/mod.ts";
import { fixtureFiles, tempDir, zipFiles } from "../fixtures/engine_package.ts";

setDefaultTimeout(60_000);

const SLOW = `run: duckdb.sql("select a.range as x from range(300000) a, range(300000) b") -> { aggregate: s is x.sum() }`;
let cacheDir: string;
let pkgDir: string;
let compiled: CompiledModel;
const saved = engineLimits();

beforeAll(async () => {
  setEngineLimits({ threads: 1, memoryLimitBytes: 256 * 1024 * 1024 });
  const files = await fixtureFiles();
  cacheDir = await tempDir("engine-limits-");
  pkgDir = await extractArchive(zipFiles(files), { cacheDir, files });
  compiled = await compileModel(createPackageRuntime(files, pkgDir), "flights.malloy");
}, 120_000);

afterAll(async () => {
  setEngineLimits(saved);
  await closePackageDuckDB(pkgDir);
  await removeExtracted(pkgDir);
  await rm(cacheDir, { recursive: true, force: true });
}, 120_000);

describe("queries of one package run concurrently", () => {
  test("a fast query answers while a slow query of the same package is still running", async () => {
    const stop = new AbortController();
    let slowSettled = false;
    const slow = runQuery(compiled, { query: SLOW, timeoutMs: 60_000, signal: stop.signal })
      .catch((error: QueryError) => error)
      .finally(() => {
        slowSettled = true;
      });
    await Bun.sleep(200);
    const fast = await runQuery(compiled, { query: "flights -> { aggregate: flight_count }" });
    expect(fast.data).toEqual([{ flight_count: 8 }]);
    expect(slowSettled).toBe(false);
    const stopped = performance.now();
    stop.abort();
    const error = await slow;
    expect(error).toBeInstanceOf(QueryError);
    expect((error as QueryError).message).toContain("cancelled");
    expect(performance.now() - stopped).toBeLessThan(1000);
  });
});

describe("idle instances", () => {
  test("a package keeps up to idleSessions idle instances after concurrent queries, and reuses them", async () => {
    const connection = openPackageDuckDB(pkgDir);
    const count = "flights -> { aggregate: flight_count }";
    try {
      setEngineLimits({ idleSessions: 4 });
      const answers = await Promise.all(Array.from({ length: 6 }, () => runQuery(compiled, { query: count })));
      expect(answers.map((a) => a.data)).toEqual(Array.from({ length: 6 }, () => [{ flight_count: 8 }]));
      expect(connection.idleInstances).toBe(4);
      // the next queries take idle instances (none is opened, none closed)
      await Promise.all(Array.from({ length: 4 }, () => runQuery(compiled, { query: count })));
      expect(connection.idleInstances).toBe(4);
      setEngineLimits({ idleSessions: 1 });
      await Promise.all(Array.from({ length: 3 }, () => runQuery(compiled, { query: count })));
      expect(connection.idleInstances).toBe(1);
    } finally {
      setEngineLimits({ idleSessions: saved.idleSessions });
    }
  });
});

describe("idle instances of the whole process", () => {
  test("all packages together keep at most idleInstancesTotal idle instances; the least recently used go first", async () => {
    // a second package folder (same files, another cache folder)
    const files = await fixtureFiles();
    const otherCache = await tempDir("engine-limits-other-");
    const otherDir = await extractArchive(zipFiles(files), { cacheDir: otherCache, files });
    const other = await compileModel(createPackageRuntime(files, otherDir), "flights.malloy");
    const count = "flights -> { aggregate: flight_count }";
    const first = openPackageDuckDB(pkgDir);
    const second = openPackageDuckDB(otherDir);
    try {
      setEngineLimits({ idleSessions: 4, idleInstancesTotal: 3 });
      await Promise.all(Array.from({ length: 4 }, () => runQuery(compiled, { query: count })));
      expect(first.idleInstances).toBe(3);
      expect(PackageDuckDBConnection.idleInstancesEverywhere).toBe(3);
      // the other package's queries take the places of the first package's oldest idle instances
      const answers = await Promise.all(Array.from({ length: 2 }, () => runQuery(other, { query: count })));
      expect(answers.map((a) => a.data)).toEqual([[{ flight_count: 8 }], [{ flight_count: 8 }]]);
      expect([first.idleInstances, second.idleInstances]).toEqual([1, 2]);
      expect(PackageDuckDBConnection.idleInstancesEverywhere).toBe(3);
      // lowering the bound closes idle instances at once; 0 keeps none, and queries still run
      setEngineLimits({ idleInstancesTotal: 0 });
      expect(PackageDuckDBConnection.idleInstancesEverywhere).toBe(0);
      expect([first.idleInstances, second.idleInstances]).toEqual([0, 0]);
      expect((await runQuery(compiled, { query: count })).data).toEqual([{ flight_count: 8 }]);
      expect(first.idleInstances).toBe(0);
    } finally {
      setEngineLimits({ idleSessions: saved.idleSessions, idleInstancesTotal: saved.idleInstancesTotal });
      await closePackageDuckDB(otherDir);
      await removeExtracted(otherDir);
      await rm(otherCache, { recursive: true, force: true });
    }
  });

  test("a package's schema-lookup instance is closed once unused for schemaIdleMs, and opened again by the next lookup", async () => {
    const connection = openPackageDuckDB(pkgDir);
    try {
      setEngineLimits({ schemaIdleMs: 100 });
      // a lookup as Malloy runs them while compiling (schemas are cached by the connection, so run one directly)
      const lookup = "SELECT count(*)::INTEGER AS n FROM 'data/flights.csv'";
      expect((await connection.runSQL(lookup)).rows).toEqual([{ n: 8 }]);
      expect(connection.schemaInstanceOpen).toBe(true);
      await Bun.sleep(400);
      expect(connection.schemaInstanceOpen).toBe(false);
      expect((await connection.runSQL(lookup)).rows).toEqual([{ n: 8 }]);
      expect(connection.schemaInstanceOpen).toBe(true);
    } finally {
      setEngineLimits({ schemaIdleMs: saved.schemaIdleMs });
    }
  });
});

describe("timeout", () => {
  test("answers within 1 s of the limit; the engine is interrupted and the next query runs", async () => {
    const started = performance.now();
    const error = await runQuery(compiled, { query: SLOW, timeoutMs: 1000 }).catch((e: QueryError) => e);
    const elapsed = performance.now() - started;
    expect((error as QueryError).kind).toBe("timeout");
    expect(elapsed).toBeGreaterThanOrEqual(990);
    expect(elapsed).toBeLessThan(2000);
    const next = await runQuery(compiled, { query: "flights -> { aggregate: flight_count }" });
    expect(next.data).toEqual([{ flight_count: 8 }]);
  });
});

describe("settings of a query's session", () => {
  test("memory limit, threads and spill cap come from the engine limits; the memory limit is at most a quarter of the host", async () => {
    const limits = openPackageDuckDB(pkgDir).limits;
    expect(limits.threads).toBe(1);
    expect(limits.memoryLimitBytes).toBe(256 * 1024 * 1024);
    const huge = setEngineLimits({ memoryLimitBytes: 1024 ** 5 });
    expect(huge.memoryLimitBytes).toBeLessThanOrEqual(Math.floor(require("node:os").totalmem() / 4));
    setEngineLimits({ memoryLimitBytes: 256 * 1024 * 1024 });
  });

  test("a query over its memory limit fails with DuckDB's out-of-memory error", async () => {
    const error = await runQuery(compiled, {
      query: `run: duckdb.sql("select string_agg(repeat('x', 1000), ',') as s from range(1000000)") -> { select: n is length(s) }`,
      timeoutMs: 30_000,
    }).catch((e: QueryError) => e);
    expect((error as QueryError).kind).toBe("execution");
    expect((error as QueryError).message).toMatch(/memory/i);
  });
});
