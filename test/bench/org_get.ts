/**
 * Benchmark: authenticated `GET /api/v0/organizations/{org}` over HTTP on
 * loopback, against the embedded database and (when BENCH_DATABASE_URL or the
 * local server is reachable) a PostgreSQL server, beside a bare Elysia route
 * answering the same path with the same body (no authentication, no
 * database) in the same run, with the same client: `BENCH_REQUESTS` (4000)
 * requests at 16 and at 64 concurrent clients (`BENCH_CONCURRENCY`, comma
 * separated). Prints throughput and p50/p99 latency and the platform's share
 * of the bare route's throughput (goal >= 25%, p99 < 20 ms at 64 clients).
 * Run: `bun test/bench/org_get.ts`.
 */
import postgres from "postgres";
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { Elysia } from "elysia";
import { readConfig } from "../../src/config.ts";
import { startService } from "../../src/service.ts";
import { openDatabase } from "../../src/db/database.ts";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = (process.env.BENCH_CONCURRENCY ?? "16,64").split(",").map(Number);
const SERVER = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `REQUESTS` GETs of `url` from `concurrency` client loops: requests/s, p50, p99. */
async function hammer(url: string, headers: Record<string, string>, concurrency: number) {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < REQUESTS) {
      next++;
      const t0 = performance.now();
      const r = await fetch(url, { headers });
      await r.arrayBuffer();
      if (r.status !== 200) throw new Error(`status ${r.status}`);
      latencies.push(performance.now() - t0);
    }
  }));
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { rps: REQUESTS / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99) };
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
        const framework = await hammer(`${bareBase}/organizations/bench`, headers, concurrency);
        const platform = await hammer(`${base}/organizations/bench`, headers, concurrency);
        const show = (name: string, r: typeof platform) =>
          console.log(`${label.padEnd(9)} ${name.padEnd(8)} GET /organizations/{org}: ${REQUESTS} requests, concurrency ${concurrency}: ` +
            `${r.rps.toFixed(0).padStart(6)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms`);
        show("bare", framework);
        show("platform", platform);
        const share = platform.rps / framework.rps;
        console.log(`${label.padEnd(9)} platform / bare: ${(share * 100).toFixed(0)}% (goal >= 25%: ${share >= 0.25 ? "met" : "NOT met"})` +
          (concurrency >= 64 ? `, p99 ${platform.p99.toFixed(1)} ms (goal < 20 ms: ${platform.p99 < 20 ? "met" : "NOT met"})` : "") +
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
