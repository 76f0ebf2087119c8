/**
 * Benchmark: `GET /health` latency while a burst of sign-ins (argon2id at the
 * default cost) hits `POST /api/v0/auth/token`, over HTTP on loopback, embedded
 * database. Prints /health p50/p99 at rest and during the burst, and how many
 * sign-ins got 200 and 429 (the bounded queue of PASSWORD_HASH_CONCURRENCY /
 * PASSWORD_HASH_QUEUE). Goal: /health p99 < 50 ms.
 * Run: `bun test/bench/login_burst.ts` (BENCH_LOGINS, BENCH_CONCURRENCY).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { startService } from "../../src/service.ts";

const LOGINS = Number(process.env.BENCH_LOGINS ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function probeHealth(base: string, until: () => boolean, minSamples = 0): Promise<number[]> {
  const samples: number[] = [];
  while (!until() || samples.length < minSamples) {
    const t0 = performance.now();
    const r = await fetch(`${base}/health`);
    await r.arrayBuffer();
    samples.push(performance.now() - t0);
    await Bun.sleep(5);
  }
  return samples.sort((a, b) => a - b);
}

const dataDir = await mkdtemp(join(tmpdir(), "mp-bench-"));
const config = readConfig({
  DATA_DIR: dataDir,
  BOOTSTRAP_ADMIN_PASSWORD: "bench-password",
  LOG_REQUESTS: "false",
  RATE_LIMIT_PER_MINUTE: "0",
  JWT_SECRET: "b".repeat(40),
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("PASSWORD_HASH_"))),
});
const db = await openDatabase({ dataDir: join(dataDir, "pg") });
const service = await startService(config, { db, log: () => {} });
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => service.handle(r) });
const base = `http://127.0.0.1:${server.port}`;
try {
  const rest = await probeHealth(base, () => true, 200);
  let done = false;
  const statuses = new Map<number, number>();
  let next = 0;
  const burst = (async () => {
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < LOGINS) {
        next++;
        const r = await fetch(`${base}/api/v0/auth/token`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ userName: "admin", password: "bench-password" }),
        });
        await r.arrayBuffer();
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    }));
    done = true;
  })();
  const t0 = performance.now();
  const during = await probeHealth(base, () => done);
  await burst;
  const seconds = (performance.now() - t0) / 1000;
  console.log(`/health at rest: p50 ${pct(rest, 50).toFixed(2)} ms, p99 ${pct(rest, 99).toFixed(2)} ms (${rest.length} probes)`);
  console.log(
    `/health during ${LOGINS} sign-ins (concurrency ${CONCURRENCY}, argon2 slots ${config.passwordHashConcurrency}, queue ${config.passwordHashQueue}): ` +
      `p50 ${pct(during, 50).toFixed(2)} ms, p99 ${pct(during, 99).toFixed(2)} ms, max ${during.at(-1)!.toFixed(2)} ms (${during.length} probes, ${seconds.toFixed(1)} s)`,
  );
  console.log(`sign-in answers: ${[...statuses].map(([s, n]) => `${s}: ${n}`).join(", ")}`);
} finally {
  server.stop(true);
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
}
