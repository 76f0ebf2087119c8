import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import {
  checkDuckDBSql,
  closePackageDuckDB,
  compileModel,
  createPackageRuntime,
  engineLimits,
  extractArchive,
  openPackageDuckDB,
  openSession,
  type PackageDuckDBConnection,
  type PackageRuntime,
  QueryError,
  removeExtracted,
  runQuery,
} from "../../src/engine/mod.ts";
import { bytes, fixtureFiles, tempDir, zipFiles } from "../fixtures/engine_package.ts";

setDefaultTimeout(30_000);

let cacheDir: string;
let pkgDir: string;
let duckdb: PackageDuckDBConnection;
let pkg: PackageRuntime;
const files = new Map<string, Uint8Array>();

beforeAll(async () => {
  for (const [path, data] of await fixtureFiles()) files.set(path, data);
  files.set("data/t.csv", bytes("a,b\n1,x\n2,y\n3,z\n"));
  files.set("models/publisher.malloy", bytes(`source: t is duckdb.sql("SELECT * FROM 'data/t.csv'")\nsource: t2 is duckdb.table('data/t.csv')\n`));
  cacheDir = await tempDir("engine-guard-");
  pkgDir = await extractArchive(zipFiles(files), { cacheDir, files });
  duckdb = openPackageDuckDB(pkgDir);
  pkg = createPackageRuntime(files, pkgDir, { duckdb });
}, 120_000);

afterAll(async () => {
  await closePackageDuckDB(pkgDir);
  await removeExtracted(pkgDir);
  await rm(cacheDir, { recursive: true, force: true });
}, 120_000);

/** The refusal of checkDuckDBSql, or a failure when it passes. */
async function refusal(sql: string): Promise<QueryError> {
  try {
    await checkDuckDBSql(sql, { packageDir: pkgDir });
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw new Error(`refused with a non-QueryError: ${(error as Error).message}`);
  }
  throw new Error(`passed the guard: ${sql}`);
}

async function malloyRefusal(query: string): Promise<QueryError> {
  const compiled = await compileModel(pkg, "flights.malloy");
  try {
    await runQuery(compiled, { query, timeoutMs: 20_000 });
  } catch (error) {
    if (error instanceof QueryError) return error;
    throw error;
  }
  throw new Error(`ran: ${query}`);
}

describe("exactly one SELECT statement, by DuckDB's parser", () => {
  const target = () => `/tmp/guard-${crypto.randomUUID()}.csv`;
  test.each([
    ["a second statement", (t: string) => `SELECT 1; COPY (SELECT 1) TO '${t}'`],
    ["mixed case", (t: string) => `SeLeCt 1; CoPy (select 1) tO '${t}'`],
    ["a block comment between", (t: string) => `SELECT 1 /* ; */ ; /* x */ COPY (SELECT 1) TO '${t}'`],
    ["a line comment before the second", (t: string) => `SELECT 1 -- first\n;\n-- second\nCOPY (SELECT 1) TO '${t}'`],
    ["a trailing CREATE MACRO", () => "select 42 as x; create macro evil(a) as a"],
    ["COPY alone", (t: string) => `COPY (SELECT 1) TO '${t}'`],
    ["ATTACH", (t: string) => `ATTACH '${t}.db' AS other`],
    ["INSTALL", () => "INSTALL httpfs"],
    ["LOAD", () => "load 'httpfs'"],
    ["CREATE TABLE AS", () => "CREATE TABLE leak AS SELECT 1"],
    ["CREATE TEMP TABLE", () => "create temporary table leak as select 1"],
    ["SET", () => "SET enable_external_access = true"],
    ["PRAGMA", () => "PRAGMA database_list"],
    ["EXPORT DATABASE", (t: string) => `EXPORT DATABASE '${t}'`],
    ["a SELECT after a leading semicolon", () => ";;select 1; select 2"],
  ])("%s is refused", async (_, make) => {
    const file = target();
    const error = await refusal(make(file));
    expect(error.kind).toBe("not_allowed");
    expect(error.message).toStartWith("query not allowed: ");
    expect(existsSync(file)).toBe(false);
  });

  test("a SELECT, a CTE, DESCRIBE and SUMMARIZE of a query pass", async () => {
    for (const sql of ["select 1", "WITH x AS (SELECT 1 AS a) SELECT * FROM x", "DESCRIBE SELECT 1 AS a", "SUMMARIZE SELECT 1 AS a", "select 1;", "/* c */ select 1 -- c"]) {
      expect((await checkDuckDBSql(sql, { packageDir: pkgDir })).sql).toBe(sql);
    }
  });

  test("a syntax error is reported as such, not run", async () => {
    await expect(checkDuckDBSql("selec 1", { packageDir: pkgDir })).rejects.toThrow(/syntax error/);
  });
});

describe("functions and files, whatever the nesting", () => {
  test.each([
    ["read_text of /etc/passwd in a CTE", "WITH x AS (SELECT 1) SELECT * FROM read_text('/etc/passwd')"],
    ["read_csv of a list escaping with ..", "SELECT * FROM read_csv(['data/t.csv', '../../x.csv'])"],
    ["read_csv of ../ in a subquery of a WHERE", "select 1 where 1 in (select 1 from read_csv('data/../../../etc/passwd'))"],
    ["a quoted path outside", "SELECT * FROM '/etc/passwd.csv'"],
    ["a double-quoted path outside", 'SELECT * FROM "/etc/hosts.csv"'],
    ["a home path", "SELECT * FROM read_csv('~/.bashrc')"],
    ["a URL", "SELECT * FROM read_parquet('https://example.com/x.parquet')"],
    ["a file: URL", "SELECT * FROM read_csv('file:///etc/passwd')"],
    ["glob", "SELECT * FROM glob('/*')"],
    ["GLOB in capitals inside a lateral join", "SELECT * FROM range(1) r, LATERAL (SELECT * FROM GLOB('/etc/*')) g"],
    ["a computed path", "SELECT * FROM read_text('/etc/' || 'passwd')"],
    ["getenv", "SELECT getenv('JWT_SECRET')"],
    ["GetEnv nested in a CASE in a CTE", "WITH a AS (SELECT CASE WHEN true THEN GetEnv('HOME') END AS h) SELECT * FROM a"],
    ["current_setting", "select current_setting('allowed_directories')"],
    ["duckdb_settings()", "SELECT * FROM duckdb_settings()"],
    ["a duckdb_ catalog view", "SELECT * FROM duckdb_tables"],
    ["query()", "SELECT * FROM query('COPY (SELECT 1) TO ''/tmp/x''')"],
    ["query_table()", "SELECT * FROM query_table('t')"],
    ["sqlite_scan", "SELECT * FROM sqlite_scan('/tmp/x.db', 't')"],
    ["set_variable", "SELECT set_variable('x', 1)"],
    ["a schema-qualified getenv", "SELECT main.getenv('HOME')"],
  ])("%s is refused", async (_, sql) => {
    expect((await refusal(sql)).kind).toBe("not_allowed");
  });

  test("package-relative paths are rewritten to the package folder, quoted or listed", async () => {
    const one = await checkDuckDBSql("SELECT * FROM 'data/t.csv'", { packageDir: pkgDir });
    expect(one.sql).toBe(`SELECT * FROM '${join(pkgDir, "data/t.csv")}'`);
    const list = await checkDuckDBSql("select * from read_csv(['data/t.csv', 'data/flights.csv'], header = true)", { packageDir: pkgDir });
    expect(list.sql).toBe(`select * from read_csv(['${join(pkgDir, "data/t.csv")}', '${join(pkgDir, "data/flights.csv")}'], header = true)`);
    const quoted = await checkDuckDBSql('SELECT a FROM "data/t.csv" WHERE a > 1', { packageDir: pkgDir });
    expect(quoted.sql).toBe(`SELECT a FROM "${join(pkgDir, "data/t.csv")}" WHERE a > 1`);
  });
});

describe("through Malloy: sql() blocks, tables and the schema lookups", () => {
  test("duckdb.sql() with a second statement is refused before anything runs, DESCRIBE included", async () => {
    const file = `/tmp/guard-${crypto.randomUUID()}.csv`;
    const error = await malloyRefusal(`run: duckdb.sql("""SELECT 1 AS x; COPY (SELECT 1) TO '${file}'""") -> { select: * }`);
    expect(error.kind).toBe("not_allowed");
    expect(error.message).toContain("query not allowed");
    expect(existsSync(file)).toBe(false);
  });

  test("duckdb.sql() closing the DESCRIBE's parenthesis to add a statement is refused", async () => {
    const error = await malloyRefusal(`run: duckdb.sql("""SELECT 1 AS x); CREATE MACRO evil(a) AS a; SELECT * FROM (SELECT 1 AS x""") -> { select: * }`);
    expect(error.kind).toBe("not_allowed");
  });

  test("duckdb.sql() reading /etc/passwd through a CTE is refused", async () => {
    const error = await malloyRefusal(`run: duckdb.sql("WITH x AS (SELECT 1) SELECT * FROM read_text('/etc/passwd')") -> { select: * }`);
    expect(error.kind).toBe("not_allowed");
  });

  test("Publisher-style relative paths read the package's own files", async () => {
    const compiled = await compileModel(pkg, "models/publisher.malloy");
    const viaSql = await runQuery(compiled, { query: "run: t -> { aggregate: n is count(), s is a.sum() }" });
    expect(viaSql.data).toEqual([{ n: 3, s: 6 }]);
    const viaTable = await runQuery(compiled, { query: "run: t2 -> { select: b; order_by: b }" });
    expect(viaTable.data).toEqual([{ b: "x" }, { b: "y" }, { b: "z" }]);
    expect(viaTable.metadata.sql).not.toContain(pkgDir);
  });

  test("each query runs in its own instance: a table made in one session is not seen by another", async () => {
    const first = await openSession(pkgDir, engineLimits());
    const second = await openSession(pkgDir, engineLimits());
    try {
      await first.connection.run("CREATE TABLE leak AS SELECT 42 AS secret");
      await first.connection.run("CREATE MACRO evil(a) AS a");
      await expect(second.connection.run("SELECT * FROM leak")).rejects.toThrow(/leak/);
      await expect(second.connection.run("SELECT evil(1)")).rejects.toThrow(/evil/);
    } finally {
      await first.close();
      await second.close();
    }
  });
});

describe("environment DuckDB connections (guardDuckDB)", () => {
  test("one checked SELECT per statement, no files, for runSQL and runSQLStream", async () => {
    const { DuckDBConnection } = await import("@malloydata/db-duckdb");
    const { guardDuckDB } = await import("../../src/engine/guards/duckdb_guard.ts");
    const dir = await tempDir("engine-envdb-");
    const env = guardDuckDB(new DuckDBConnection({ name: "envdb", databasePath: ":memory:", securityPolicy: "sandboxed", allowedDirectories: [dir], workingDirectory: dir })) as InstanceType<typeof DuckDBConnection>;
    try {
      expect((await env.runSQL("select 1 as x")).rows).toEqual([{ x: 1 }]);
      for (const sql of ["select 1; create table t as select 1", "SELECT GETENV('HOME')", "select * from glob('/*')"]) {
        await expect(env.runSQL(sql)).rejects.toThrow(/query not allowed/);
        const stream = async () => {
          for await (const _ of env.runSQLStream(sql, {})) { /* drain */ }
        };
        await expect(stream()).rejects.toThrow(/query not allowed/);
      }
    } finally {
      await env.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
