/**
 * Warming Malloy on the main thread once per process.
 *
 * Models compile in worker threads, but each query is still translated and
 * turned into SQL on the main thread. The first time a process does that,
 * Malloy's parser, translator and SQL generator run cold (seconds on a loaded
 * host), which used to be hidden in the first model compile on this thread
 * and would now fall inside the first query's `QUERY_TIMEOUT_MS`. So the
 * service compiles one small model and prepares queries on it at start,
 * before it answers requests: the same code, on a real (sandboxed, empty)
 * package folder, with nothing kept. Each step gives the event loop a turn
 * first (`setImmediate`), so requests that arrive meanwhile (`/health` during
 * a start) wait for one step, not for the whole warm-up.
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPackageRuntime } from "./compile.ts";
import { closePackageDuckDB } from "../duckdb/sandbox.ts";

const MODEL = `source: items is duckdb.sql("""
  SELECT 1 AS id, 'a' AS kind, 2.5 AS price, DATE '2024-01-01' AS sold_on
""") extend {
  primary_key: id
  dimension: label is concat(kind, '-', id::string)
  measure: item_count is count()
  measure: revenue is price.sum()
  join_one: other is duckdb.sql("SELECT 1 AS id, 'b' AS name") on id = other.id
  view: by_kind is {
    group_by: kind
    aggregate: item_count, revenue
    order_by: kind
  }
}
query: top is items -> by_kind
`;

const QUERIES = [
  "run: items -> { group_by: sold_on.month, other.name; aggregate: revenue; where: price > 1; nest: by_kind; limit: 10 }",
  "run: items -> { select: label, price; order_by: price desc; limit: 5 }",
];

let warmed: Promise<void> | undefined;

/** Lets pending I/O (requests) run before the next synchronous stretch of Malloy work. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
let warming = false;

/** Whether the warm-up has started and not ended yet (readiness answers `starting` meanwhile). */
export function malloyWarming(): boolean {
  return warming;
}

/**
 * Compiles a small model and prepares a few queries on this thread, once per
 * process (later calls answer the first call's promise). Never throws.
 */
export function warmMalloy(): Promise<void> {
  warmed ??= (async () => {
    warming = true;
    await turn();
    const dir = await mkdtemp(join(tmpdir(), "malloy-warmup-"));
    try {
      const files = new Map([["warmup.malloy", new TextEncoder().encode(MODEL)]]);
      const pkg = createPackageRuntime(files, dir);
      const model = await pkg.runtime.loadModel(pkg.urlOf("warmup.malloy")).getModel();
      const loaded = pkg.runtime._loadModelFromModelDef(model._modelDef);
      for (const query of QUERIES) {
        await turn();
        await loaded.loadQuery(query).getPreparedResult();
        await turn();
        await loaded.loadRestrictedQuery(query).getPreparedResult().catch(() => undefined);
      }
      await turn();
      await loaded.loadQueryByName("top").getPreparedResult();
    } catch {
      // a warm-up that fails only leaves the first query slower
    } finally {
      await closePackageDuckDB(dir).catch(() => {});
      await rm(dir, { recursive: true, force: true }).catch(() => {});
      warming = false;
    }
  })();
  return warmed;
}
