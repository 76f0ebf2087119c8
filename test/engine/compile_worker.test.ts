import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import type { Connection } from "@malloydata/malloy";
import { apiErrorOf } from "../../src/http/error_handler.ts";
import {
  closePackageDuckDB,
  compileLimits,
  compileModel,
  compilePackage,
  CompileTimeoutError,
  compileWorkerStats,
  createPackageRuntime,
  extractArchive,
  openPackageDuckDB,
  type Problem,
  removeExtracted,
  setCompileLimits,
} from "../../src/engine/mod.ts";
import { bytes, fixtureFiles, tempDir, zipFiles } from "../fixtures/engine_package.ts";

// Compiles run in worker threads (src/engine/compile/pool.ts); these tests
// check that the main thread stays free, that the time limit stops the
// worker, and that what callers get is what Malloy compiles in-process.

let cacheDir: string;
let pkgDir: string;
let files: Map<string, Uint8Array>;

/** A model of `count` sources over the fixture's CSV, each with a dimension, a measure and a view. */
function wideModel(count: number): string {
  return Array.from({ length: count }, (_, i) =>
    `source: s${i} is duckdb.table('data/flights.csv') extend {\n  dimension: d${i} is concat(carrier, '${i}')\n  measure: m${i} is distance.sum() * ${i}\n  view: v${i} is { group_by: d${i}; aggregate: m${i} }\n}`).join("\n");
}

beforeAll(async () => {
  files = await fixtureFiles();
  files.set("wide.malloy", bytes(wideModel(200)));
  cacheDir = await tempDir("engine-compile-worker-");
  pkgDir = await extractArchive(zipFiles(files), { cacheDir, files });
}, 120_000);

afterAll(async () => {
  await closePackageDuckDB(pkgDir);
  await removeExtracted(pkgDir);
  await rm(cacheDir, { recursive: true, force: true });
}, 120_000);

/** The fixture's files without the wide model (quick to compile). */
function small(): Map<string, Uint8Array> {
  return new Map([...files].filter(([path]) => path !== "wide.malloy"));
}

/**
 * The package's own DuckDB connection, unchanged, that also notes how many
 * timer ticks had passed when its last schema lookup answered.
 */
function observed(connection: Connection, onSchema: () => void): Connection {
  return new Proxy(connection, {
    get(target, prop) {
      if (prop === "fetchSchemaForTables") {
        return async (...args: Parameters<Connection["fetchSchemaForTables"]>) => {
          const answer = await target.fetchSchemaForTables(...args);
          onSchema();
          return answer;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** Counts 1 ms timer ticks until stopped: the main thread's progress. */
function ticker() {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 1);
  return { get ticks() { return ticks; }, stop: () => clearInterval(timer) };
}

describe("compiling in a worker", () => {
  test("answers the model Malloy compiles in-process: same definition, warnings and sources", async () => {
    const pkg = createPackageRuntime(files, pkgDir);
    for (const path of ["flights.malloy", "airports.malloy"]) {
      const compiled = await compileModel(pkg, path);
      const inProcess = await pkg.runtime.loadModel(pkg.urlOf(path)).getModel();
      expect(compiled.model._modelDef).toEqual(inProcess._modelDef);
      expect(compiled.model.problems).toEqual(inProcess.problems);
      expect(compiled.model.fromSources).toEqual(inProcess.fromSources);
      expect(compiled.bytes).toBe(JSON.stringify(inProcess._modelDef).length);
      expect(compiled.model.explores.map((e) => e.name).sort()).toEqual(inProcess.explores.map((e) => e.name).sort());
    }
  }, 120_000);

  test("the main thread's timers keep running while the translator works; in-process they stop", async () => {
    // After the last schema lookup the rest of a compile is pure translation: in a
    // worker the main thread's timers fire meanwhile; in-process none can.
    const duckdb = openPackageDuckDB(pkgDir);
    const clock = ticker();
    let atLastSchema = -1;
    const pkg = createPackageRuntime(files, pkgDir, { duckdb: observed(duckdb, () => (atLastSchema = clock.ticks)) });
    try {
      const compiled = await compileModel(pkg, "wide.malloy");
      const inWorker = clock.ticks - atLastSchema;
      expect(compiled.model.explores.length).toBe(200);
      expect(atLastSchema).toBeGreaterThanOrEqual(0);
      expect(inWorker).toBeGreaterThanOrEqual(3);

      atLastSchema = -1;
      await pkg.runtime.loadModel(pkg.urlOf("wide.malloy")).getModel();
      const ended = clock.ticks;
      expect(atLastSchema).toBeGreaterThanOrEqual(0);
      expect(ended - atLastSchema).toBeLessThanOrEqual(1);
    } finally {
      clock.stop();
    }
  }, 120_000);

  test("past its time limit the worker is terminated (its thread ends), the compile fails, and the pool still compiles", async () => {
    const pkg = createPackageRuntime(files, pkgDir);
    const before = compileWorkerStats();
    const failed = await compileModel(pkg, "wide.malloy", { timeoutMs: 20 }).catch((error) => error);
    expect(failed).toBeInstanceOf(CompileTimeoutError);
    expect((failed as CompileTimeoutError).message).toContain("did not compile within 20 ms (COMPILE_TIMEOUT_MS)");
    expect(compileWorkerStats().busy).toBe(0);
    // the terminated thread ends (its `close` event), so its CPU work stopped
    while (compileWorkerStats().stopped <= before.stopped) await Bun.sleep(10);
    const next = await compileModel(pkg, "flights.malloy");
    expect(next.model.explores.map((e) => e.name)).toEqual(["flights"]);
    // the next compile ran on another idle worker or on a new one, never on the terminated thread
    expect(compileWorkerStats().stopped).toBeGreaterThan(before.stopped);
  }, 120_000);

  test("at publish a model past the time limit is a problem naming its file and the setting", async () => {
    let problems: Problem[] = [];
    try {
      await compilePackage(files, pkgDir, { timeoutMs: 20 });
    } catch (error) {
      expect(apiErrorOf(error)?.status).toBe(400);
      problems = apiErrorOf(error)!.details.problems as Problem[];
    }
    expect(problems.map((p) => p.file)).toContain("wide.malloy");
    expect(problems.find((p) => p.file === "wide.malloy")!.message).toContain("COMPILE_TIMEOUT_MS");
  }, 120_000);

  test("compile errors keep their file, line and column", async () => {
    const broken = small();
    broken.set("broken.malloy", bytes("source: b is duckdb.table('data/flights.csv') extend {\n  dimension: x is no_such_column\n}\n"));
    let problems: Problem[] = [];
    try {
      await compilePackage(broken, pkgDir);
    } catch (error) {
      problems = apiErrorOf(error)!.details.problems as Problem[];
    }
    expect(problems).toContainEqual(expect.objectContaining({ file: "broken.malloy", line: 2, column: 19 }));
    expect(problems[0]!.message).toContain("no_such_column");
  }, 120_000);

  test("schema lookups still go through the SQL guard on the main thread", async () => {
    const hostile = small();
    hostile.set("hostile.malloy", bytes(`source: h is duckdb.sql("""SELECT 1 AS a; COPY (SELECT 1) TO 'out.csv'""")\n`));
    let problems: Problem[] = [];
    try {
      await compilePackage(hostile, pkgDir);
    } catch (error) {
      problems = apiErrorOf(error)!.details.problems as Problem[];
    }
    expect(problems.find((p) => p.file === "hostile.malloy")?.message).toContain("query not allowed");
    expect(await Bun.file(`${pkgDir}/out.csv`).exists()).toBe(false);
  }, 120_000);

  test("imports resolve through the package's reader on the main thread: outside the archive is refused", async () => {
    const escaping = small();
    escaping.set("escape.malloy", bytes(`import "../../../../etc/passwd.malloy"\n`));
    let problems: Problem[] = [];
    try {
      await compilePackage(escaping, pkgDir);
    } catch (error) {
      problems = apiErrorOf(error)!.details.problems as Problem[];
    }
    expect(problems.find((p) => p.file === "escape.malloy")?.message).toContain("outside the package");
  }, 120_000);

  test("COMPILE_WORKERS bounds the workers; compiles beyond it wait their turn", async () => {
    const saved = compileLimits();
    setCompileLimits({ workers: 1 });
    try {
      const pkg = createPackageRuntime(files, pkgDir);
      const both = Promise.all([compileModel(pkg, "flights.malloy"), compileModel(pkg, "airports.malloy")]);
      expect(compileWorkerStats()).toMatchObject({ busy: 1, queued: 1 });
      const [flights, airports] = await both;
      expect(flights.path).toBe("flights.malloy");
      expect(airports.model.explores.map((e) => e.name)).toContain("airports");
      expect(compileWorkerStats().running).toBeLessThanOrEqual(1);
    } finally {
      setCompileLimits(saved);
    }
  }, 120_000);

  test("a free worker takes the oldest compile of the key running the fewest: another environment's compile goes before the rest of one's burst", async () => {
    const saved = compileLimits();
    setCompileLimits({ workers: 1 });
    try {
      const pkg = createPackageRuntime(files, pkgDir);
      const done: string[] = [];
      const compile = (key: string, path: string) => compileModel(pkg, path, { key }).then(() => done.push(`${key} ${path}`));
      // environment a queues three compiles, then environment b one
      const all = Promise.all([
        compile("a", "flights.malloy"),
        compile("a", "airports.malloy"),
        compile("a", "flights.malloy"),
        compile("b", "airports.malloy"),
      ]);
      expect(compileWorkerStats()).toMatchObject({ busy: 1, queued: 3 });
      await all;
      // a's first was running; then b (running none) before a's second and third
      expect(done).toEqual(["a flights.malloy", "b airports.malloy", "a airports.malloy", "a flights.malloy"]);
    } finally {
      setCompileLimits(saved);
    }
  }, 120_000);
});

/** Nice values of this process's threads (Linux), by thread id. */
async function threadNices(): Promise<number[]> {
  const { readdir, readFile } = await import("node:fs/promises");
  const out: number[] = [];
  for (const tid of await readdir("/proc/self/task")) {
    const stat = await readFile(`/proc/self/task/${tid}/stat`, "utf8").catch(() => "");
    // proc(5): nice is field 19, the 17th after the command name
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields.length > 16) out.push(Number(fields[16]));
  }
  return out;
}

describe("compile worker details", () => {
  test("a describer module runs on the model in the worker and answers what it answers on this thread", async () => {
    const { DESCRIBE_MODEL, describeModel } = await import("../../src/publishing/describe_model.ts");
    const described = await compilePackage(small(), pkgDir, { describe: DESCRIBE_MODEL });
    const plain = await compilePackage(small(), pkgDir);
    expect([...described.models.keys()].sort()).toEqual(["airports.malloy", "flights.malloy"]);
    for (const [path, compiled] of described.models) {
      const here = plain.models.get(path)!;
      const expected = describeModel({ path, model: here.model, fileOf: here.pkg.fileOf });
      expect(compiled.described).toEqual(expected);
      expect((compiled.described as typeof expected).metadata.sources.length).toBeGreaterThan(0);
    }
    // without a describer nothing is described
    expect(plain.models.get("flights.malloy")!.described).toBeUndefined();
  }, 120_000);

  test.if(process.platform === "linux")("the worker's thread runs at a lower priority than the main thread", async () => {
    const pkg = createPackageRuntime(small(), pkgDir);
    await compileModel(pkg, "flights.malloy");
    expect(compileWorkerStats().running).toBeGreaterThan(0);
    const nices = await threadNices();
    const main = (await import("node:os")).getPriority();
    expect(nices.filter((n) => n > main).length).toBeGreaterThan(0);
  }, 120_000);
});
