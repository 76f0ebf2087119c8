import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import {
  absoluteTablePath,
  closePackageDuckDB,
  createPackageRuntime,
  engineLimits,
  extractArchive,
  openPackageDuckDB,
  openSession,
  type PackageDuckDBConnection,
  type PackageRuntime,
  removeExtracted,
} from "../../src/engine/mod.ts";
import { fixtureFiles, tempDir, zipFiles } from "../fixtures/engine_package.ts";

const DENIED = /query not allowed|disabled by configuration|Permission Error/;
let cacheDir: string;
let pkgDir: string;
let duckdb: PackageDuckDBConnection;
let pkg: PackageRuntime;

beforeAll(async () => {
  const files = await fixtureFiles();
  cacheDir = await tempDir("engine-sandbox-");
  pkgDir = await extractArchive(zipFiles(files), { cacheDir, files });
  duckdb = openPackageDuckDB(pkgDir);
  pkg = createPackageRuntime(files, pkgDir, { duckdb });
}, 120_000);

afterAll(async () => {
  await closePackageDuckDB(pkgDir);
  await removeExtracted(pkgDir);
  await rm(cacheDir, { recursive: true, force: true });
}, 120_000);

async function malloy(text: string): Promise<Record<string, unknown>[]> {
  const result = await pkg.runtime.loadQuery(text).run({ rowLimit: 100 });
  return result.data.toObject() as Record<string, unknown>[];
}

async function sqlError(sql: string): Promise<string> {
  try {
    await duckdb.runSQL(sql, { rowLimit: 10 });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`DuckDB ran: ${sql}`);
}

async function malloyError(text: string): Promise<string> {
  try {
    await malloy(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`Malloy ran: ${text}`);
}

describe("the package's own files", () => {
  test("a relative CSV path in duckdb.table() resolves against the package folder", async () => {
    const rows = await malloy(
      "run: duckdb.table('data/flights.csv') -> { aggregate: n is count(); where: carrier = 'AA' }",
    );
    expect(rows).toEqual([{ n: 3 }]);
  });

  test("a relative Parquet path works too", async () => {
    const rows = await malloy(
      "run: duckdb.table('data/carriers.parquet') -> { select: code, nickname; order_by: code }",
    );
    expect(rows.map((r) => r.code)).toEqual(["AA", "UA", "WN"]);
    expect(rows[2].nickname).toBe("Southwest Airlines");
  });

  test("an absolute path inside the package works in duckdb.sql()", async () => {
    const path = join(pkgDir, "data/flights.csv");
    const rows = await malloy(`run: duckdb.sql("select count(*) as n from read_csv('${path}')") -> { select: n }`);
    expect(rows).toEqual([{ n: 8n }]);
  });
});

describe("reads outside the package fail", () => {
  test("duckdb.table('/etc/passwd')", async () => {
    // DuckDB only scans paths with a known extension, so this one is not even a file to it.
    expect(await malloyError("run: duckdb.table('/etc/passwd') -> { select: * }"))
      .toMatch(/query not allowed|disabled by configuration|Permission Error|does not exist/);
  });

  test("duckdb.table() of an existing CSV next to (outside) the package folder", async () => {
    const outside = join(cacheDir, "outside.csv");
    await Bun.write(outside, "secret\nhunter2\n");
    expect(await malloyError(`run: duckdb.table('${outside}') -> { select: * }`)).toMatch(DENIED);
    expect(await malloyError("run: duckdb.table('../outside.csv') -> { select: * }")).toMatch(DENIED);
    expect(await malloyError(`run: duckdb.sql("select * from read_csv('${outside}')") -> { select: * }`))
      .toMatch(DENIED);
  });

  test("duckdb.sql() with read_text('/etc/passwd')", async () => {
    expect(await malloyError(`run: duckdb.sql("select * from read_text('/etc/passwd')") -> { select: * }`))
      .toMatch(DENIED);
  });

  test("duckdb.sql() with read_csv('/etc/passwd')", async () => {
    expect(await malloyError(`run: duckdb.sql("select * from read_csv('/etc/passwd')") -> { select: * }`))
      .toMatch(DENIED);
  });

  test("a ../ escape from the package folder", async () => {
    const depth = pkgDir.split("/").length;
    const escape = "../".repeat(depth) + "etc/passwd";
    expect(await malloyError(`run: duckdb.sql("select * from read_text('${escape}')") -> { select: * }`))
      .toMatch(DENIED);
    expect(await malloyError(`run: duckdb.sql("select * from read_csv('data/${escape}')") -> { select: * }`))
      .toMatch(DENIED);
    expect(await sqlError(`select * from read_text('${pkgDir}/${escape}')`)).toMatch(DENIED);
  });

  test("raw read_text / read_csv of /etc/passwd", async () => {
    expect(await sqlError("select * from read_text('/etc/passwd')")).toMatch(DENIED);
    expect(await sqlError("select * from read_csv('/etc/passwd')")).toMatch(DENIED);
  });

  test("remote URLs", async () => {
    expect(await sqlError("select * from read_csv('https://example.com/x.csv')")).toMatch(DENIED);
  });
});

describe("writes, attaches and configuration changes fail", () => {
  test("COPY ... TO a file outside the package", async () => {
    const target = `/tmp/engine-sandbox-${crypto.randomUUID()}.csv`;
    expect(await sqlError(`COPY (select 1) TO '${target}'`)).toMatch(DENIED);
    expect(existsSync(target)).toBe(false);
  });

  test("ATTACH a database file", async () => {
    const target = `/tmp/engine-sandbox-${crypto.randomUUID()}.db`;
    expect(await sqlError(`ATTACH '${target}'`)).toMatch(DENIED);
    expect(existsSync(target)).toBe(false);
  });

  test("SET enable_external_access=true", async () => {
    expect(await sqlError("SET enable_external_access=true")).toContain("query not allowed");
  });

  test("SET lock_configuration=false", async () => {
    expect(await sqlError("SET lock_configuration=false")).toContain("query not allowed");
  });

  test("SET allowed_directories", async () => {
    expect(await sqlError("SET allowed_directories=['/']")).toContain("query not allowed");
  });

  test("INSTALL httpfs", async () => {
    expect(await sqlError("INSTALL httpfs")).toMatch(DENIED);
  });
});

describe("settings", () => {
  test("a session: no extension autoload or autoinstall, external access off, configuration locked, the limits applied", async () => {
    const session = await openSession(pkgDir, { ...engineLimits(), memoryLimitBytes: 256 * 1024 * 1024, threads: 1 });
    try {
      const reader = await session.connection.runAndReadAll(
        `select current_setting('autoload_known_extensions') as autoload,
                current_setting('autoinstall_known_extensions') as autoinstall,
                current_setting('enable_external_access') as external,
                current_setting('lock_configuration') as locked,
                current_setting('threads') as threads,
                current_setting('memory_limit') as memory`,
      );
      const row = reader.getRowObjectsJson()[0];
      expect(row).toMatchObject({ autoload: false, autoinstall: false, external: false, locked: true, threads: "1" });
      expect(String(row.memory)).toMatch(/^(256\.0 MiB|268\.4 MB)$/);
      await expect(session.connection.run("SET lock_configuration=false")).rejects.toThrow(/configuration has been locked/);
      await expect(session.connection.run("select current_setting('s3_region')")).rejects.toThrow(/s3_region/);
    } finally {
      await session.close();
    }
  });

  test("current_setting() is refused in queries (it would show server paths)", async () => {
    expect(await sqlError("select current_setting('allowed_directories')")).toContain("query not allowed");
  });

  test("one connection per package folder in a process", () => {
    expect(openPackageDuckDB(pkgDir)).toBe(duckdb);
  });
});

describe("a session reused by the next query", () => {
  const SPLIT = "\n-- hack: split on this\n";
  async function streamed(sql: string, rowLimit = 100): Promise<unknown[]> {
    const rows: unknown[] = [];
    for await (const row of duckdb.runSQLStream(sql, { rowLimit })) rows.push(row);
    return rows;
  }

  test("carries nothing over: a temporary macro of one query is unknown to the next, on the same instance", async () => {
    expect(await streamed(`CREATE MACRO leak_probe(_param) AS (_param + 1);${SPLIT}SELECT leak_probe(41) AS v`)).toEqual([{ v: 42 }]);
    expect(duckdb.idleInstances).toBe(1);
    const error = await streamed("SELECT leak_probe(41) AS v").then(() => "ran", (e: Error) => e.message);
    expect(error).toMatch(/leak_probe/);
    expect(error).not.toBe("ran");
    expect(duckdb.idleInstances).toBe(1);
    // the macro's query again: its own connection, the macro created anew
    expect(await streamed(`CREATE MACRO leak_probe(_param) AS (_param + 2);${SPLIT}SELECT leak_probe(40) AS v`)).toEqual([{ v: 42 }]);
  });

  test("a query stopped at its row limit, and repeated texts, answer each their own rows", async () => {
    const numbers = (n: number) => Array.from({ length: n }, (_, i) => ({ n: i }));
    expect(await streamed("SELECT range::INTEGER AS n FROM range(100000) ORDER BY 1", 3)).toEqual(numbers(3));
    expect(await streamed("SELECT range::INTEGER AS n FROM range(100000) ORDER BY 1", 2)).toEqual(numbers(2));
    expect(await streamed("SELECT range::INTEGER AS n FROM range(4) ORDER BY 1")).toEqual(numbers(4));
    expect(await streamed("SELECT range::INTEGER AS n FROM range(4) ORDER BY 1")).toEqual(numbers(4));
    expect(await streamed("SELECT range::INTEGER AS n FROM range(5) ORDER BY 1")).toEqual(numbers(5));
  });
});

describe("absoluteTablePath", () => {
  test("rewrites relative files and leaves tables, absolute paths and URLs", () => {
    expect(absoluteTablePath("'data/x.csv'", "/p")).toBe("'/p/data/x.csv'");
    expect(absoluteTablePath("x.parquet", "/p")).toBe("'/p/x.parquet'");
    expect(absoluteTablePath("'it''s.csv'", "/p")).toBe("'/p/it''s.csv'");
    expect(absoluteTablePath("main.flights", "/p")).toBe("main.flights");
    expect(absoluteTablePath("'/etc/passwd'", "/p")).toBe("'/etc/passwd'");
    expect(absoluteTablePath("'s3://bucket/x.csv'", "/p")).toBe("'s3://bucket/x.csv'");
    expect(absoluteTablePath("'../x.csv'", "/p/q")).toBe("'/p/x.csv'");
  });
});
