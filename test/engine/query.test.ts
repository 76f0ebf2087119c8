import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import {
  closePackageDuckDB,
  type CompiledPackage,
  compilePackage,
  createSemaphore,
  extractArchive,
  QueryError,
  removeExtracted,
  runQuery,
  type RunQueryOptions,
} from "../../src/engine/mod.ts";
import { fixtureFiles, tempDir, zipFiles } from "../fixtures/engine_package.ts";

const SLOW = `run: duckdb.sql("select a.range as x from range(100000) a, range(100000) b") -> { aggregate: s is x.sum() }`;
const BY_CARRIER = [
  { carrier: "AA", flight_count: 3, total_distance: 7536 },
  { carrier: "UA", flight_count: 3, total_distance: 6257 },
  { carrier: "WN", flight_count: 2, total_distance: 478 },
];

let cacheDir: string;
let pkgDir: string;
let compiled: CompiledPackage;

beforeAll(async () => {
  const files = await fixtureFiles();
  cacheDir = await tempDir("engine-query-");
  pkgDir = await extractArchive(zipFiles(files), { cacheDir, files });
  compiled = await compilePackage(files, pkgDir);
}, 120_000);

afterAll(async () => {
  await closePackageDuckDB(pkgDir);
  await removeExtracted(pkgDir);
  await rm(cacheDir, { recursive: true, force: true });
}, 120_000);

function run(modelPath: string, options: RunQueryOptions) {
  return runQuery(compiled.models.get(modelPath)!, options);
}

async function queryError(modelPath: string, options: RunQueryOptions): Promise<QueryError> {
  try {
    await run(modelPath, options);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryError);
    return error as QueryError;
  }
  throw new Error("the query ran");
}

describe("runQuery", () => {
  test("runs a view of a source (queryName + sourceName)", async () => {
    const result = await run("flights.malloy", { queryName: "by_carrier", sourceName: "flights" });
    expect(result.data).toEqual(BY_CARRIER);
    expect(result.totalRows).toBe(3);
    expect(result.truncated).toBe(false);
    expect(result.metadata).toMatchObject({
      sourceName: "flights",
      queryName: "by_carrier",
      connection: "duckdb",
      schema: [
        { name: "carrier", type: "string" },
        { name: "flight_count", type: "number" },
        { name: "total_distance", type: "number" },
      ],
    });
    expect(result.metadata.sql).toContain("GROUP BY");
    expect(result.executionTime).toBeGreaterThan(0);
  });

  test("runs a top-level named query", async () => {
    const alone = await run("flights.malloy", { queryName: "carrier_summary" });
    expect(alone.data).toEqual(BY_CARRIER);
    expect(alone.metadata.queryName).toBe("carrier_summary");
    expect(alone.metadata.sourceName).toBe("flights");
    const withSource = await run("flights.malloy", { queryName: "carrier_summary", sourceName: "flights" });
    expect(withSource.data).toEqual(BY_CARRIER);
  });

  test("runs an ad-hoc query with a join to Parquet, with or without run:", async () => {
    const text = "flights -> { group_by: carriers.nickname; aggregate: flight_count; order_by: nickname }";
    const expected = [
      { nickname: "American Airlines", flight_count: 3 },
      { nickname: "Southwest Airlines", flight_count: 2 },
      { nickname: "United Airlines", flight_count: 3 },
    ];
    expect((await run("flights.malloy", { query: text })).data).toEqual(expected);
    expect((await run("flights.malloy", { query: `run: ${text}` })).data).toEqual(expected);
  });

  test("runs against sources imported from another model file", async () => {
    const result = await run("airports.malloy", { query: "run: long_flights -> { aggregate: flight_count }" });
    expect(result.data).toEqual([{ flight_count: 4 }]);
    const texas = await run("airports.malloy", { queryName: "texas" });
    expect(texas.data).toEqual([{ airport_count: 209 }]);
  });

  test("cuts the result at rowLimit and counts every row", async () => {
    const result = await run("airports.malloy", {
      query: "airports -> { select: iata, state; order_by: iata }",
      rowLimit: 10,
    });
    expect(result.data).toHaveLength(10);
    expect(result.data[0]).toEqual({ iata: "00M", state: "MS" });
    expect(result.truncated).toBe(true);
    expect(result.totalRows).toBe(3376);
  });

  test("without the count, a truncated result says so", async () => {
    const result = await run("airports.malloy", {
      query: "airports -> { select: iata }",
      rowLimit: 5,
      countTotalRows: false,
    });
    expect(result.data).toHaveLength(5);
    expect(result.truncated).toBe(true);
    expect(result.totalRows).toBe(5);
  });

  test("the default row limit is 1000", async () => {
    const result = await run("airports.malloy", { query: "airports -> { select: iata }" });
    expect(result.data).toHaveLength(1000);
    expect(result.totalRows).toBe(3376);
  });

  test("big integers become strings, safe ones numbers, dates ISO strings", async () => {
    const result = await run("flights.malloy", {
      query: `run: duckdb.sql("select 9007199254740993::bigint as big, 42::bigint as small, date '2024-01-02' as d, timestamp '2024-01-02 03:04:05' as ts") -> { select: * }`,
    });
    expect(result.data).toEqual([{
      big: "9007199254740993",
      small: 42,
      d: "2024-01-02T00:00:00.000Z",
      ts: "2024-01-02T03:04:05.000Z",
    }]);
    expect(JSON.parse(JSON.stringify(result.data))).toEqual(result.data);
  });

  test("a compile error carries Malloy's problems with line and column", async () => {
    const error = await queryError("flights.malloy", { query: "run: flights -> {\n  aggregate: no_such_measure\n}" });
    expect(error.kind).toBe("compile");
    expect(error.problems[0]).toMatchObject({ file: "query", line: 2, column: 14 });
    expect(error.problems[0].message).toContain("no_such_measure");
    const api = error.toApiError();
    expect(api.status).toBe(400);
    expect(api.details.problems).toEqual(error.problems);
  });

  test("an unknown view names the views there are", async () => {
    const error = await queryError("flights.malloy", { queryName: "nope", sourceName: "flights" });
    expect(error.kind).toBe("request");
    expect(error.message).toContain("'by_carrier'");
  });

  test("an unknown source or named query is a request error", async () => {
    expect((await queryError("flights.malloy", { queryName: "x", sourceName: "nope" })).message)
      .toContain("no source named 'nope'");
    expect((await queryError("flights.malloy", { queryName: "nope" })).message)
      .toContain("'carrier_summary'");
  });

  test("query and queryName together, or neither, are refused", async () => {
    expect((await queryError("flights.malloy", { query: "flights -> by_carrier", queryName: "by_carrier" })).kind)
      .toBe("request");
    expect((await queryError("flights.malloy", {})).kind).toBe("request");
  });

  test("a database error is an execution error", async () => {
    const error = await queryError("flights.malloy", {
      query: `run: duckdb.sql("select 'abc' as s") -> { select: n is s::number }`,
    });
    expect(error.kind).toBe("execution");
    expect(error.message).toContain("abc");
  });

  test("a timeout interrupts DuckDB and frees the connection", async () => {
    const started = performance.now();
    const error = await queryError("flights.malloy", { query: SLOW, timeoutMs: 300 });
    expect(error.kind).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(3000);
    const quick = performance.now();
    const result = await run("flights.malloy", { query: "flights -> { aggregate: flight_count }" });
    expect(result.data).toEqual([{ flight_count: 8 }]);
    expect(performance.now() - quick).toBeLessThan(2000);
  });

  test("the concurrency bound queues queries, and the wait counts toward the timeout", async () => {
    const semaphore = createSemaphore(1);
    const slow = run("flights.malloy", { query: SLOW, timeoutMs: 1000, semaphore });
    slow.catch(() => {});
    await Bun.sleep(50);
    expect(semaphore.active).toBe(1);
    const waiting = await queryError("flights.malloy", {
      query: "flights -> { aggregate: flight_count }",
      timeoutMs: 200,
      semaphore,
    });
    expect(waiting.kind).toBe("timeout");
    await expect(slow).rejects.toMatchObject({ kind: "timeout" });
    expect(semaphore.active).toBe(0);
    const parallel = await Promise.all(
      [1, 2, 3].map(() => run("flights.malloy", { query: "flights -> { aggregate: flight_count }", semaphore })),
    );
    expect(parallel.map((r) => r.data)).toEqual([[{ flight_count: 8 }], [{ flight_count: 8 }], [{ flight_count: 8 }]]);
  });
});
