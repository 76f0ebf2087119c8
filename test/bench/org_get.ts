/**
 * Benchmark: authenticated `GET /api/v0/organizations/{org}` over HTTP on
 * loopback, against the embedded database and (when BENCH_DATABASE_URL or the
 * local server is reachable) a PostgreSQL server, beside a bare Elysia route
 * answering the same path with the same body (no authentication, no
 * database) in the same run, with the same client, at 16 and at 64
 * concurrent clients (`BENCH_CONCURRENCY`, comma separated).
 *
 * Each measurement is a window of `BENCH_SECONDS` (2) seconds of requests,
 * not a fixed count: 4,000 requests took 50-170 ms here, too short to hold
 * still (one collection pause or JIT tier-up moved the share by ten
 * points). The bare route and the platform alternate for `BENCH_ROUNDS` (3)
 * rounds; each round prints both, and the verdict is the median of the
 * rounds' shares. Prints throughput and p50/p99 latency and the platform's
 * share of the bare route's throughput (goal >= 25%, p99 < 20 ms at 64
 * clients). Run: `bun test/bench/org_get.ts`.
 */
import postgres from "postgres";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Elysia } from "elysia";
import { readConfig } from "../../src/config.ts";
import { startService } from "../../src/service.ts";
import { openDatabase } from "../../src/db/database.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? "16,64").split(",").map(Number);
const SERVER = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** GETs of `url` from `concurrency` client loops for `SECONDS`: requests, requests/s, p50, p99. */
async function hammer(url: string, headers: Record<string, string>, concurrency: number) {
  const latencies: number[] = [];
  const start = performance.now();
  const end = start + SECONDS * 1000;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      const r = await fetch(url, { headers });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`status ${r.status}`);
      latencies.push(performance.now() - t0);
    }
  }));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, rps: latencies.length / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99) };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function run(label: string, databaseUrl?: string): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "mp-bench-"));
  const config = readConfig({ DATA_DIR: dataDir, BOOTSTRAP_ADMIN_PASSWORD: "bench-password", LOG_REQUESTS: "false", RATE_LIMIT_PER_MINUTE: "0", JWT_SECRET: "b".repeat(40) });
  const db = await openDatabase({ url: databaseUrl, dataDir: join(dataDir, "pg") });
  const service = await startService(config, { db, log: () => {} });
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => service.handle(r) });
  const base = `http://127.0.0.1:${server.port}/api/v0`;
  try {
    const login = await fetch(`${base}/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: "admin", password: "bench-password" }) });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
    await fetch(`${base}/organizations`, { method: "POST", headers, body: JSON.stringify({ name: "bench" }) });
    for (let i = 0; i < 200; i++) await fetch(`${base}/organizations/bench`, { headers }); // warm-up
    const body = await (await fetch(`${base}/organizations/bench`, { headers })).json();
    const bare = new Elysia().get("/api/v0/organizations/:org", () => body).listen({ port: 0, hostname: "127.0.0.1" });
    const bareBase = `http://127.0.0.1:${bare.server!.port}/api/v0`;
    try {
      for (let i = 0; i < 200; i++) await fetch(`${bareBase}/organizations/bench`, { headers });
      for (const concurrency of CONCURRENCY) {
        const shares: number[] = [];
        const p99s: number[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          const framework = await hammer(`${bareBase}/organizations/bench`, headers, concurrency);
          const platform = await hammer(`${base}/organizations/bench`, headers, concurrency);
          const show = (name: string, r: typeof platform) =>
            console.log(`${label.padEnd(9)} ${name.padEnd(8)} GET /organizations/{org}, concurrency ${concurrency}, round ${round}: ` +
              `${r.requests} requests, ${r.rps.toFixed(0).padStart(6)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`);
          show("bare", framework);
          show("platform", platform);
          shares.push(platform.rps / framework.rps);
          p99s.push(platform.p99);
        }
        const share = median(shares);
        const p99 = median(p99s);
        console.log(`${label.padEnd(9)} platform / bare at ${concurrency} clients: rounds ${shares.map((x) => `${(x * 100).toFixed(0)}%`).join(", ")}; ` +
          `median ${(share * 100).toFixed(0)}% (goal >= 25%: ${share >= 0.25 ? "met" : "NOT met"})` +
          (concurrency >= 64 ? `, median p99 ${p99.toFixed(1)} ms (goal < 20 ms: ${p99 < 20 ? "met" : "NOT met"})` : "") +
          `; load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
      }
    } finally {
      await bare.stop(true);
    }
  } finally {
    server.stop(true);
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await run("embedded");
let serverDb: string | undefined;
try {
  const admin = postgres(SERVER, { max: 1, onnotice: () => {}, connect_timeout: 3 });
  serverDb = `bench_${Date.now()}`;
  await admin.unsafe(`CREATE DATABASE ${serverDb}`);
  await admin.end();
} catch (error) {
  console.log(`server    skipped: ${(error as Error).message}`);
  serverDb = undefined;
}
if (serverDb) {
  const url = new URL(SERVER);
  url.pathname = `/${serverDb}`;
  try {
    await run("server", url.toString());
  } finally {
    const admin = postgres(SERVER, { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${serverDb} WITH (FORCE)`);
    await admin.end();
  }
}
