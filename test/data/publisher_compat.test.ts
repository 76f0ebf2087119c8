/**
 * Packages written for Malloy Publisher: `package`/`version` JSON parts sent
 * as files (`curl -F 'package=@package.json;type=application/json'`), and a
 * failing notebook that does not refuse a package whose models compile.
 * @module
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { rm } from "node:fs/promises";
import { zipFiles } from "../fixtures/engine_package.ts";
import { API, md5, publish, smallPackage, startWorld, type World } from "../packages/helpers.ts";

// explicit: a file run after another in the same process must not fall back to bun's 5 s
setDefaultTimeout(60_000);

let w: World;
const ENV = `${API}/organizations/acme/environments/prod`;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
}, 120_000);

afterAll(async () => {
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

describe("Publisher compatibility of publish", () => {
  test("package and version parts as application/json file parts, or as text", async () => {
    const zip = zipFiles(smallPackage());
    const form = new FormData();
    form.set("package", new Blob([JSON.stringify({ description: "from a file part" })], { type: "application/json" }), "package.json");
    form.set("version", new Blob([JSON.stringify({ id: "1.0.0" })], { type: "application/json" }), "version.json");
    form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>], { type: "application/zip" }), "package.zip");
    form.set("md5Hash", md5(zip));
    const r = await w.s.call("POST", `${ENV}/packages/files`, { token: w.admin, body: form });
    expect(r.status).toBe(201);
    expect(r.body.description).toBe("from a file part");
    expect(r.body.version.id).toBe("1.0.0");
    expect((await publish(w, "files", "1.0.1", { token: w.admin })).status).toBe(201);
    // a file part that is not a JSON object is still a 400 naming the part
    const bad = new FormData();
    bad.set("version", new Blob(["[1, 2]"], { type: "application/json" }), "version.json");
    bad.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>]), "package.zip");
    bad.set("md5Hash", md5(zip));
    const refused = await w.s.call("POST", `${ENV}/packages/files`, { token: w.admin, body: bad });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain("part 'version'");
  });

  test("a failing notebook is reported with its cells marked; the package is published; its models are queryable", async () => {
    const notebook = [
      ">>>markdown",
      "# Flights",
      ">>>malloy",
      'import "../models/flights.malloy"',
      ">>>malloy",
      "run: flights -> { group_by: no_such_field }",
    ].join("\n");
    const files = smallPackage({ "notebooks/broken.malloynb": notebook });
    const r = await publish(w, "nb", "1.0.0", { token: w.admin, files: files });
    expect(r.status).toBe(201);
    expect(r.body.models).toEqual(["models/flights.malloy"]);
    expect(r.body.failedNotebooks).toHaveLength(1);
    expect(r.body.failedNotebooks[0].file).toBe("notebooks/broken.malloynb");
    expect(r.body.failedNotebooks[0].cells).toHaveLength(1);
    expect(r.body.failedNotebooks[0].cells[0].cell).toBe(2);
    expect(r.body.failedNotebooks[0].cells[0].problems[0].message).toContain("no_such_field");
    const q = await w.s.call("POST", `${ENV}/packages/nb/models/models/flights.malloy/query`, {
      token: w.admin,
      body: { query: "run: flights -> { aggregate: n is count() }" },
    });
    expect(q.status).toBe(200);
    // a failing model still refuses the package
    const model = smallPackage({ "notebooks/broken.malloynb": notebook, "models/bad.malloy": "source: x is nothing_here" });
    const refused = await publish(w, "nb", "1.0.1", { token: w.admin, files: model });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.details?.problems ?? refused.body)).toContain("models/bad.malloy");
  });

  test("a failing notebook's cells name package files, never the server's folders (the publish answer is a success, which no scrub visits)", async () => {
    // DuckDB quotes the statement it refused, with the absolute path the platform gave the package's file, cut short
    const notebook = [">>>malloy", `source: bad is duckdb.sql("select nosuch_column from 'data/flights.csv'")`].join("\n");
    const r = await publish(w, "nbpath", "1.0.0", { token: w.admin, files: smallPackage({ "notebooks/paths.malloynb": notebook }) });
    expect(r.status).toBe(201);
    const problem = r.body.failedNotebooks[0].cells[0].problems[0].message as string;
    expect(problem).toContain("nosuch_column");
    expect(problem).not.toContain(w.dataDir);
    expect(problem).not.toMatch(/packages\/[0-9a-f]{7}/);
  });
});
