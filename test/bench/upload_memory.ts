/**
 * Upload benchmark: a service in a child process (`bun src/main.ts`) receives
 * a package of about 190 MiB unpacked (128 MiB of CSV deflated, 64 MiB of
 * random bytes stored; about 108 MiB zipped), streamed from disk as
 * multipart. Prints the service's peak resident memory growth (VmHWM, reset
 * just before, minus VmRSS before), the publish time, `/health` latency
 * (p50/p99, polled every 50 ms during the publish), and the same for
 * downloading the archive back. Embedded PGlite by default; the server of
 * DATABASE_URL when set (a scratch database is created there and dropped).
 *
 * Run: `bun test/bench/upload_memory.ts [csvMiB] [randomMiB]`
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { startChildService, streamedPublishBody, writeLargePackage } from "../fixtures/large_upload.ts";

const csvMiB = Number(process.argv[2] ?? 128);
const randomMiB = Number(process.argv[3] ?? 64);
const PASSWORD = "bench-password";
const work = await mkdtemp(join(tmpdir(), "bench-upload-"));
const env: Record<string, string> = { DATA_DIR: join(work, "data"), BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, INDEX_ON_PUBLISH: "false", RATE_LIMIT_PER_MINUTE: "0" };
let scratch: string | undefined;
const server = process.env.DATABASE_URL;
if (server) {
  scratch = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(server, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${scratch}`);
  await admin.end();
  const u = new URL(server);
  u.pathname = `/${scratch}`;
  env.DATABASE_URL = u.toString();
}

const MiB = 2 ** 20;
const large = await writeLargePackage(join(work, "large.zip"), { csvMiB, randomMiB });
const small = await writeLargePackage(join(work, "small.zip"), { csvMiB: 1, randomMiB: 1 });
const child = await startChildService(join(import.meta.dir, "..", ".."), env);
try {
  const login = await fetch(`${child.url}/api/v0/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userName: "admin", password: PASSWORD }),
  });
  const token = ((await login.json()) as { accessToken: string }).accessToken;
  const api = (method: string, path: string, body?: unknown) =>
    fetch(`${child.url}/api/v0${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  await api("POST", "/organizations", { name: "acme" });
  await api("POST", "/organizations/acme/environments", { name: "prod" });
  const publish = async (zip: { path: string; md5: string }, versionId: string) => {
    const { body, contentType } = streamedPublishBody(zip, versionId);
    const r = await fetch(`${child.url}/api/v0/organizations/acme/environments/prod/packages/large`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": contentType },
      body,
      duplex: "half",
    } as RequestInit);
    const text = await r.text();
    if (r.status !== 201) throw new Error(`publish ${versionId}: ${r.status} ${text}`);
  };
  await publish(small, "0.0.1");

  const measured = async (label: string, run: () => Promise<void>) => {
    const latencies: number[] = [];
    let done = false;
    const poll = (async () => {
      while (!done) {
        const t = performance.now();
        await fetch(`${child.url}/health`).then((r) => r.text());
        latencies.push(performance.now() - t);
        await Bun.sleep(50);
      }
    })();
    const before = await child.rssMiB();
    await child.resetPeak();
    const start = performance.now();
    await run();
    const ms = performance.now() - start;
    const peak = await child.peakMiB();
    done = true;
    await poll;
    latencies.sort((a, b) => a - b);
    const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(1);
    console.log(`${label}: ${(ms / 1000).toFixed(1)} s, RSS ${before.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB, growth ${(peak - before).toFixed(0)} MiB; /health p50 ${q(0.5)} ms, p99 ${q(0.99)} ms (${latencies.length} polls)`);
  };
  console.log(`package: ${(large.size / MiB).toFixed(0)} MiB zip, ${(large.unpacked / MiB).toFixed(0)} MiB unpacked; database: ${server ? "server" : "embedded PGlite"}`);
  await measured("publish", () => publish(large, "1.0.0"));
  await measured("download", async () => {
    const r = await api("GET", "/organizations/acme/environments/prod/packages/large/source?versionId=1.0.0");
    let size = 0;
    for await (const chunk of r.body!) size += chunk.length;
    if (size !== large.size) throw new Error(`downloaded ${size} bytes, not ${large.size}`);
  });
} finally {
  await child.close();
  await rm(work, { recursive: true, force: true });
  if (scratch) {
    const admin = postgres(server!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await admin.end();
  }
}
