/**
 * Benchmark: what row-level security and the query log add to a query.
 *
 * - `bound` vs `unbound`: the same aggregate through the query runner (access
 *   check, compiled-model cache, query log included) on a `#(bind)` source
 *   (the caller's region filled in from its effective attributes: one more
 *   statement; the rewrite and its SQL are cached per bound values) and on an
 *   identical source filtering on a literal. Median of `BENCH_RUNS` (default
 *   50) warm runs each, interleaved, and the median of the per-round
 *   differences (robust to a loaded machine); then the same as dry runs.
 * - `large`: the same pair over a Parquet file of `BENCH_LARGE_ROWS` (default
 *   3,000,000) rows, a third of them the caller's: what the barrier of
 *   `#(bind)` (src/rls/barrier.ts, an inner stage ending in a LIMIT) costs
 *   DuckDB on a scan, median of `BENCH_LARGE_RUNS` (default 10). Set
 *   `QUERY_THREADS` to measure with more DuckDB threads than the default.
 * - the effective-value statement alone (the one round trip a bound query adds);
 * - query log: the latency of one entry's group commit (`record` until its
 *   INSERT committed) alone, and per query when 32 queries answer at once.
 * Run: `bun test/bench/rls.ts` (embedded database; `TEST_DATABASE_URL` for a server).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import type { Principal } from "../../src/access/principal.ts";
import type { QueryLogEntry } from "../../src/query_log/store.ts";
import { effectiveValues } from "../../src/attributes/effective.ts";
import { queryLogWriter } from "../../src/query_log/writer.ts";
import { createQueryRunner } from "../../src/query/service.ts";
import { SALES_MODEL, startSalesWorld } from "../rls/world.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const LARGE_ROWS = Number(process.env.BENCH_LARGE_ROWS ?? 3_000_000);
const LARGE_RUNS = Number(process.env.BENCH_LARGE_RUNS ?? 10);
const model = `${SALES_MODEL}
source: open_orders is duckdb.table('data/orders.csv') extend {
  where: region = "EU"
  measure: revenue is amount.sum()
}

#(bind) region_param=region
source: large_orders(region_param::string) is duckdb.table('data/large.parquet') extend {
  where: region = region_param
  measure: revenue is amount.sum()
}

source: large_open is duckdb.table('data/large.parquet') extend {
  where: region = "EU"
  measure: revenue is amount.sum()
}
`;

/** A Parquet file of `rows` orders, regions EU, US, APAC in turn. */
async function largeParquet(rows: number): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), "bench-rls-"));
  try {
    const instance = await DuckDBInstance.create(":memory:");
    const conn = await instance.connect();
    const file = join(dir, "large.parquet");
    await conn.run(`COPY (SELECT i AS id, CASE i % 3 WHEN 0 THEN 'EU' WHEN 1 THEN 'US' ELSE 'APAC' END AS region, (i * 7) % 1000 AS amount FROM range(${rows}) t(i)) TO '${file}' (FORMAT parquet)`);
    conn.closeSync();
    instance.closeSync();
    return new Uint8Array(readFileSync(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

// QUERY_THREADS (DuckDB threads per query) is passed on: the barrier's LIMIT keeps a scan in order, on one thread
const w = await startSalesWorld(process.env.QUERY_THREADS ? { QUERY_THREADS: process.env.QUERY_THREADS } : {}, { model, files: new Map([["data/large.parquet", await largeParquet(LARGE_ROWS)]]) });
try {
  const ctx = w.s.service.ctx;
  const runner = createQueryRunner(ctx);
  const [u] = await w.s.service.db.sql`SELECT id FROM users WHERE user_name = 'ann'`;
  const ann: Principal = { kind: "user", userId: u!.id as string, userName: "ann", systemAdmin: false };
  const args = (source: string) => ({
    organization: "acme", environment_name: "prod", package_name: "sales", model_uri: "models/sales.malloy",
    query: `${source} -> { aggregate: revenue }`,
  });
  const times = { bound: [] as number[], unbound: [] as number[] };
  for (let i = 0; i < RUNS + 5; i++) {
    for (const [name, source] of [["bound", "orders"], ["unbound", "open_orders"]] as const) {
      const t0 = performance.now();
      const r = await runner.run(ann, args(source));
      const ms = performance.now() - t0;
      if (r.data[0]!.revenue !== 30) throw new Error(`${name}: unexpected ${JSON.stringify(r.data)}`);
      if (i >= 5) times[name].push(ms);
    }
  }
  const bound = median(times.bound);
  const unbound = median(times.unbound);
  // per-round differences: each pair ran back to back, so a loaded machine's drift cancels out
  const paired = median(times.bound.map((b, i) => b - times.unbound[i]!));
  console.log(`query runner, median of ${RUNS}: bound ${bound.toFixed(2)} ms, unbound ${unbound.toFixed(2)} ms, added by #(bind) ${(bound - unbound).toFixed(2)} ms (median of per-round differences ${paired.toFixed(2)} ms; goal < 1 ms) (load average ${loadavg().map((x) => x.toFixed(2)).join(" ")})`);
  // the same without running the SQL (dry runs): what the platform adds, without DuckDB's own variance
  const dry = { bound: [] as number[], unbound: [] as number[] };
  for (let i = 0; i < RUNS + 5; i++) {
    for (const [name, source] of [["bound", "orders"], ["unbound", "open_orders"]] as const) {
      const t0 = performance.now();
      await runner.run(ann, { ...args(source), dry_run: true });
      if (i >= 5) dry[name].push(performance.now() - t0);
    }
  }
  const dryPaired = median(dry.bound.map((b, i) => b - dry.unbound[i]!));
  console.log(`dry runs, median of ${RUNS}: bound ${median(dry.bound).toFixed(2)} ms, unbound ${median(dry.unbound).toFixed(2)} ms, median of per-round differences ${dryPaired.toFixed(2)} ms`);

  const large = { bound: [] as number[], unbound: [] as number[] };
  let revenues: unknown[] = [];
  for (let i = 0; i < LARGE_RUNS + 2; i++) {
    for (const [name, source] of [["bound", "large_orders"], ["unbound", "large_open"]] as const) {
      const t0 = performance.now();
      const r = await runner.run(ann, args(source));
      if (i >= 2) large[name].push(performance.now() - t0);
      revenues.push(r.data[0]!.revenue);
    }
  }
  revenues = [...new Set(revenues)];
  if (revenues.length !== 1) throw new Error(`large: bound and unbound differ: ${JSON.stringify(revenues)}`);
  const largePaired = median(large.bound.map((b, i) => b - large.unbound[i]!));
  console.log(`large (${LARGE_ROWS} rows of Parquet, a third the caller's), median of ${LARGE_RUNS}: bound ${median(large.bound).toFixed(1)} ms, unbound ${median(large.unbound).toFixed(1)} ms, median of per-round differences ${largePaired.toFixed(1)} ms`);

  const lookups: number[] = [];
  for (let i = 0; i < RUNS + 5; i++) {
    const t0 = performance.now();
    await effectiveValues(ctx.sql, { kind: "user", id: ann.kind === "user" ? ann.userId : "" }, { orgId: w.orgId, names: ["region"] });
    if (i >= 5) lookups.push(performance.now() - t0);
  }
  console.log(`of which the effective-value statement: median ${median(lookups).toFixed(2)} ms`);

  const writer = queryLogWriter(ctx);
  const entry = (): QueryLogEntry => ({
    orgId: w.orgId, at: new Date(), principal: "user:bench", via: "rest", environmentName: "prod", packageName: "sales",
    versionId: "1.0.0", modelPath: "models/sales.malloy", query: "orders -> { aggregate: revenue }", boundAttributes: ["region"],
    rows: 1, ms: 1, status: "ok",
  });
  const alone: number[] = [];
  for (let i = 0; i < RUNS + 5; i++) {
    const t0 = performance.now();
    await writer.record(entry());
    if (i >= 5) alone.push(performance.now() - t0);
  }
  const together: number[] = [];
  for (let round = 0; round < 10; round++) {
    await Promise.all(Array.from({ length: 32 }, async () => {
      const t0 = performance.now();
      await writer.record(entry());
      together.push(performance.now() - t0);
    }));
  }
  console.log(`query log, until the entry is committed: alone median ${median(alone).toFixed(2)} ms; 32 at once median ${median(together).toFixed(2)} ms per query (one INSERT per flush)`);
} finally {
  await w.s.close();
}
