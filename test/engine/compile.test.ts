import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import { DuckDBConnection } from "@malloydata/db-duckdb";
import { apiErrorOf } from "../../src/http/error_handler.ts";
import {
  closePackageDuckDB,
  compilePackage,
  extractArchive,
  notebookToModel,
  type Problem,
  removeExtracted,
} from "../../src/engine/mod.ts";
import { bytes, fixtureFiles, tempDir, zipFiles } from "../fixtures/engine_package.ts";

let cacheDir: string;
let pkgDir: string;
let files: Map<string, Uint8Array>;
let warehouse: DuckDBConnection;

beforeAll(async () => {
  files = await fixtureFiles();
  cacheDir = await tempDir("engine-compile-");
  pkgDir = await extractArchive(zipFiles(files), { cacheDir, files });
  warehouse = new DuckDBConnection({
    name: "warehouse",
    securityPolicy: "local",
    workingDirectory: cacheDir,
  });
}, 120_000);

afterAll(async () => {
  await warehouse.close();
  await closePackageDuckDB(pkgDir);
  await removeExtracted(pkgDir);
  await rm(cacheDir, { recursive: true, force: true });
}, 120_000);

function withFiles(extra: Record<string, string>): Map<string, Uint8Array> {
  const out = new Map(files);
  for (const [path, text] of Object.entries(extra)) out.set(path, bytes(text));
  return out;
}

async function problemsOf(extra: Record<string, string>): Promise<Problem[]> {
  try {
    await compilePackage(withFiles(extra), pkgDir);
  } catch (error) {
    const api = apiErrorOf(error);
    expect(api?.status).toBe(400);
    return api!.details.problems as Problem[];
  }
  throw new Error("the package compiled");
}

describe("compilePackage", () => {
  test("compiles every model, including one that imports another", async () => {
    const compiled = await compilePackage(files, pkgDir);
    expect([...compiled.models.keys()]).toEqual(["airports.malloy", "flights.malloy"]);
    const airports = compiled.models.get("airports.malloy")!.model;
    expect(airports.explores.map((e) => e.name).sort()).toEqual(["airports", "flights", "long_flights"]);
  });

  test("lists every problem of every file with file, line and column", async () => {
    const problems = await problemsOf({
      "broken/one.malloy": "source: a is duckdb.table('data/flights.csv')\n\nsource: b is a extend {\n  measure: m is nope.sum()\n}\n",
      "broken/two.malloy": "source: c is missing_source\n",
    });
    expect(problems).toContainEqual(expect.objectContaining({
      file: "broken/one.malloy",
      line: 4,
      column: 17,
      message: expect.stringContaining("nope"),
    }));
    expect(problems).toContainEqual(expect.objectContaining({
      file: "broken/two.malloy",
      line: 1,
      column: 14,
      message: expect.stringContaining("missing_source"),
    }));
  });

  test("the error message names the files and says what to do", async () => {
    try {
      await compilePackage(withFiles({ "bad.malloy": "source: c is missing_source\n" }), pkgDir);
      throw new Error("compiled");
    } catch (error) {
      expect((error as Error).message).toContain("bad.malloy:1:14");
      expect((error as Error).message).toContain("fix these problems and publish again");
    }
  });

  test("an import outside the package is a problem", async () => {
    const problems = await problemsOf({ "sub/escape.malloy": 'import "../../../../etc/x.malloy"\n' });
    expect(problems).toEqual([expect.objectContaining({
      file: "sub/escape.malloy",
      line: 1,
      message: expect.stringContaining("outside the package"),
    })]);
  });

  test("an import of a file missing from the archive is a problem", async () => {
    const problems = await problemsOf({ "a.malloy": 'import "not_there.malloy"\n' });
    expect(problems[0]).toMatchObject({ file: "a.malloy", line: 1 });
    expect(problems[0].message).toContain("'not_there.malloy' is not in the package archive");
  });

  test("an unknown connection is a problem that says how to fix it", async () => {
    const problems = await problemsOf({ "w.malloy": 'source: w is warehouse.sql("select 42 as answer")\n' });
    expect(problems[0].file).toBe("w.malloy");
    expect(problems[0].message).toContain("connection 'warehouse' is not defined");
  });

  test("problems name package files, never the server's extraction folder", async () => {
    const problems = await problemsOf({ "m.malloy": "source: m is duckdb.table('data/missing.csv')\n" });
    expect(problems[0]).toMatchObject({ file: "m.malloy", line: 1 });
    expect(problems[0].message).toContain("data/missing.csv");
    expect(problems[0].message).not.toContain(pkgDir);
  });

  test("environment connections come from lookupConnection", async () => {
    const compiled = await compilePackage(
      withFiles({ "w.malloy": 'source: w is warehouse.sql("select 42 as answer")\n' }),
      pkgDir,
      { lookupConnection: (name) => (name === "warehouse" ? warehouse : undefined) },
    );
    const w = compiled.models.get("w.malloy")!.model.getExploreByName("w");
    expect(w.allFields.map((f) => f.name)).toEqual(["answer"]);
  });

  test("a notebook compiles from its malloy cells, problems on the notebook's own lines", async () => {
    const notebook = ">>>markdown\n# Title\n\nsome prose\n>>>malloy\nimport \"flights.malloy\"\n>>>markdown\nmore prose\n>>>malloy\nrun: flights -> { aggregate: nothing_here }\n";
    const problems = await problemsOf({ "nb.malloynb": notebook });
    expect(problems).toEqual([expect.objectContaining({ file: "nb.malloynb", line: 10 })]);
    expect(notebookToModel(notebook).split("\n")[5]).toBe('import "flights.malloy"');
  });

  test("a valid notebook compiles", async () => {
    const compiled = await compilePackage(
      withFiles({ "nb.malloynb": '>>>malloy\nimport "flights.malloy"\n>>>malloy\nsource: f2 is flights\n' }),
      pkgDir,
    );
    expect(compiled.models.get("nb.malloynb")!.model.getExploreByName("f2").name).toBe("f2");
  });
});
