/**
 * Benchmark: query isolation and limits, through the REST API on loopback.
 *
 * Prints:
 * 1. the latency of a small query (10 CSV rows; median and p95 of
 *    `BENCH_RUNS`, 20) alone, then while a heavy query of the same package
 *    runs, then while a heavy query of another organization's package runs;
 * 2. `/health` latency (p50, p99, max, sampled every 20 ms) while a
 *    300-source model compiles at publish, the event loop's lag, the load
 *    average, and (Linux) the main thread's CPU time during the publish and
 *    the time it waited for a core: on a shared host the lag follows the
 *    load, the main thread's own work does not;
 * 3. the service's peak RSS while a query whose full result is about 1 GiB
 *    runs (the row cap streams only `QUERY_ROW_LIMIT` rows out of DuckDB),
 *    next to `QUERY_MEMORY_LIMIT`.
 * Run: `bun test/bench/isolation.ts` (embedded database); `BENCH_SECTIONS=2`
 * (a comma list) runs only those sections.
 */
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { readConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { startService } from "../../src/service.ts";
import { bytes, zipFiles } from "../fixtures/engine_package.ts";
import { shopFiles } from "../query/fixtures.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const SECTIONS = new Set((process.env.BENCH_SECTIONS ?? "1,2,3").split(",").map((s) => s.trim()));
const PASSWORD = "bench-password";
const HEAVY = `run: duckdb.sql("select a.range as x from range(400000) a, range(400000) b") -> { aggregate: s is x.sum() }`;
const BIG = `run: duckdb.sql("select i, repeat('x', 1000) as pad from range(1100000) t(i)") -> { select: i, pad }`;

/** CPU time of a thread and time it waited, runnable, for a core (ms). */
interface ThreadSchedule {
  runMs: number;
  waitMs: number;
}

/** The main thread's schedule statistics (Linux `/proc/<pid>/task/<pid>/schedstat`); undefined elsewhere. */
function mainThreadSchedule(): ThreadSchedule | undefined {
  try {
    const [run, wait] = readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, "utf8").split(" ").map(Number);
    return { runMs: run! / 1e6, waitMs: wait! / 1e6 };
  } catch {
    return undefined;
  }
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "isolation-bench-"));
  const env = { DATA_DIR: dataDir, BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, LOG_REQUESTS: "false", RATE_LIMIT_PER_MINUTE: "0", JWT_SECRET: "i".repeat(40), QUERY_TIMEOUT_MS: "120000" };
  const config = readConfig(env);
  const db = await openDatabase({ dataDir: join(dataDir, "pg") });
  const service = await startService(config, { db, log: () => {} });
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => service.handle(r) });
  const root = `http://127.0.0.1:${server.port}`;
  const base = `${root}/api/v0`;
  try {
    const login = await fetch(`${base}/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: "admin", password: PASSWORD }) });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
    async function publish(org: string, files: Map<string, Uint8Array>, name = "shop"): Promise<number> {
      const zip = zipFiles(files);
      const form = new FormData();
      form.set("version", JSON.stringify({ id: "1.0.0" }));
      form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>]), `${name}.zip`);
      form.set("md5Hash", new Bun.CryptoHasher("md5").update(zip).digest("hex"));
      const r = await fetch(`${base}/organizations/${org}/environments/prod/packages/${name}`, { method: "POST", headers: { authorization: headers.authorization }, body: form });
      if (r.status !== 201) throw new Error(`publish ${org}/${name}: ${r.status} ${await r.text()}`);
      return r.status;
    }
    for (const org of ["alpha", "beta"]) {
      await fetch(`${base}/organizations`, { method: "POST", headers, body: JSON.stringify({ name: org }) });
      await fetch(`${base}/organizations/${org}/environments`, { method: "POST", headers, body: JSON.stringify({ name: "prod" }) });
      const files = await shopFiles();
      files.set("publisher.json", bytes('{"name": "shop"}'));
      await publish(org, files);
    }
    const url = (org: string) => `${base}/organizations/${org}/environments/prod/packages/shop/models/models/shop.malloy/query`;
    async function run(org: string, query: string): Promise<{ ms: number; status: number }> {
      const started = performance.now();
      const r = await fetch(url(org), { method: "POST", headers, body: JSON.stringify({ query }) });
      await r.arrayBuffer();
      return { ms: performance.now() - started, status: r.status };
    }
    async function small(label: string): Promise<void> {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const r = await run("alpha", "orders -> { aggregate: order_count }");
        if (r.status !== 200) throw new Error(`small query: ${r.status}`);
        times.push(r.ms);
      }
      console.log(`  ${label.padEnd(44)} median ${fmt(quantile(times, 0.5))}  p95 ${fmt(quantile(times, 0.95))}`);
    }

    if (SECTIONS.has("1")) {
    console.log(`1. small query latency (${RUNS} runs, REST on loopback)`);
    await run("alpha", "orders -> { aggregate: order_count }");
    await small("alone");
    for (const [label, org] of [["while a heavy query of the same package runs", "alpha"], ["while a heavy query of another organization runs", "beta"]]) {
      const stop = new AbortController();
      const heavy = fetch(url(org), { method: "POST", headers, body: JSON.stringify({ query: HEAVY }), signal: stop.signal }).catch(() => undefined);
      await Bun.sleep(300);
      await small(label);
      stop.abort();
      await heavy;
    }
    }

    if (SECTIONS.has("2")) {
    console.log("\n2. /health while a 300-source model compiles at publish");
    const sources = Array.from({ length: 300 }, (_, i) =>
      `source: s${i} is duckdb.table('data/orders.csv') extend {\n  dimension: d${i} is concat(status, '${i}')\n  measure: m${i} is amount.sum() * ${i}\n  view: v${i} is { group_by: d${i}; aggregate: m${i} }\n}`).join("\n");
    const big = await shopFiles();
    big.set("publisher.json", bytes('{"name": "wide"}'));
    big.set("models/wide.malloy", bytes(sources));
    const health: number[] = [];
    const lags: number[] = [];
    let publishing = true;
    const started = performance.now();
    const schedBefore = mainThreadSchedule();
    let schedAfter: ThreadSchedule | undefined;
    const published = publish("alpha", big, "wide").finally(() => {
      schedAfter = mainThreadSchedule();
      publishing = false;
    });
    // The client shares the service's event loop: a /health sample only sees a
    // stall that starts while its request is out, so the loop's own lag (a 10 ms
    // timer's lateness) is printed beside it.
    let tick = performance.now();
    const lagTimer = setInterval(() => {
      const now = performance.now();
      lags.push(Math.max(0, now - tick - 10));
      tick = now;
    }, 10);
    while (publishing) {
      const t = performance.now();
      await (await fetch(`${root}/health`)).arrayBuffer();
      health.push(performance.now() - t);
      await Bun.sleep(20);
    }
    clearInterval(lagTimer);
    await published;
    console.log(`  publish ${fmt(performance.now() - started)}; /health over ${health.length} samples: p50 ${fmt(quantile(health, 0.5))}  p99 ${fmt(quantile(health, 0.99))}  max ${fmt(Math.max(...health))}`);
    console.log(`  event-loop lag (10 ms timer, ${lags.length} ticks): p99 ${fmt(quantile(lags, 0.99))}  max ${fmt(Math.max(...lags))}  (load average ${loadavg()[0]!.toFixed(2)}, ${cpus().length} cores)`);
    if (schedBefore && schedAfter) {
      // Linux: how much of the publish the main thread (service and client) ran, and how long
      // it was runnable but waiting for a core (other processes, the compile worker)
      console.log(`  main thread during the publish: ${fmt(schedAfter.runMs - schedBefore.runMs)} on a core, ${fmt(schedAfter.waitMs - schedBefore.waitMs)} waiting for one`);
    }
    }

    if (SECTIONS.has("3")) {

    console.log(`\n3. service RSS during a query whose full result is about 1 GiB (QUERY_MEMORY_LIMIT ${(config.queryMemoryLimit / 1024 ** 2).toFixed(0)} MiB, QUERY_ROW_LIMIT ${config.queryRowLimit})`);
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const r = await run("alpha", BIG);
    clearInterval(sampler);
    console.log(`  status ${r.status} in ${fmt(r.ms)}; RSS before ${(before / 1024 ** 2).toFixed(0)} MiB, peak ${(peak / 1024 ** 2).toFixed(0)} MiB (+${((peak - before) / 1024 ** 2).toFixed(0)} MiB)`);
    }
  } finally {
    server.stop(true);
    await service.close();
  }
}

await main();
process.exit(0);
