/**
 * Benchmark: `GET /health` latency (p50/p99) while attackers send malicious
 * bodies to an authenticated PATCH route: 100,000-level nested JSON, JSON
 * bodies over `MAX_BODY_BYTES` (streamed, no Content-Length), and uploads
 * declaring more than `MAX_UPLOAD_BYTES`. Listens with the same node:http
 * server as main.ts, on loopback, against the embedded database. Goal: p99 < 50 ms.
 * Run: `bun test/bench/edge_health.ts` (BENCH_SECONDS, default 10; BENCH_ATTACKERS, default 4).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "node:net";
import { readConfig } from "../../src/config.ts";
import { startService } from "../../src/service.ts";
import { openDatabase } from "../../src/db/database.ts";
import { serveRaw } from "../../src/http/raw_server.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ATTACKERS = Number(process.env.BENCH_ATTACKERS ?? 4);

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function probe(url: string, until: number): Promise<number[]> {
  const latencies: number[] = [];
  while (performance.now() < until) {
    const started = performance.now();
    const r = await fetch(url);
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`/health answered ${r.status}`);
    latencies.push(performance.now() - started);
    await Bun.sleep(5);
  }
  return latencies.sort((a, b) => a - b);
}

/** Declares a 1 GiB multipart upload on a raw socket, sends a few bytes and returns the status the server answers with. */
function oversizeUpload(port: number, authorization: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(
        `POST /api/v0/organizations/bench/environments/x/packages/p HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}\r\n` +
          `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${2 ** 30}\r\n\r\n--x\r\n`,
      );
    });
    socket.once("data", (chunk) => {
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(chunk.toString("latin1"))?.[1] ?? 0));
      socket.destroy();
    });
    socket.once("error", () => resolve(0));
    socket.setTimeout(5000, () => {
      resolve(0);
      socket.destroy();
    });
  });
}

const dataDir = await mkdtemp(join(tmpdir(), "mp-bench-edge-"));
const config = readConfig({ DATA_DIR: dataDir, BOOTSTRAP_ADMIN_PASSWORD: "bench-password", LOG_REQUESTS: "false", RATE_LIMIT_PER_MINUTE: "0", JWT_SECRET: "b".repeat(40) });
const db = await openDatabase({ dataDir: join(dataDir, "pg") });
const service = await startService(config, { db, log: () => {} });
const server = await serveRaw({ port: 0, hostname: "127.0.0.1", fetch: (r) => service.handle(r) });
const origin = `http://127.0.0.1:${server.port}`;
try {
  const login = await fetch(`${origin}/api/v0/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: "admin", password: "bench-password" }) });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
  await fetch(`${origin}/api/v0/organizations`, { method: "POST", headers, body: JSON.stringify({ name: "bench" }) });

  const quiet = await probe(`${origin}/health`, performance.now() + 2000);
  const deep = `{"description":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
  const counts = { deep: 0, big: 0, upload: 0, other: 0 };
  const until = performance.now() + SECONDS * 1000;
  const attack = Array.from({ length: ATTACKERS }, async (_, i) => {
    while (performance.now() < until) {
      let status: number;
      if (i % 3 === 0) {
        status = (await fetch(`${origin}/api/v0/organizations/bench`, { method: "PATCH", headers, body: deep })).status;
        if (status === 400) counts.deep++;
      } else if (i % 3 === 1) {
        const chunk = new Uint8Array(256 * 1024).fill(0x20);
        let sent = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(c) {
            if (sent++ < 16) c.enqueue(chunk);
            else c.close();
          },
        });
        status = (await fetch(`${origin}/api/v0/organizations/bench`, { method: "PATCH", headers, body, duplex: "half" } as RequestInit)).status;
        if (status === 413) counts.big++;
      } else {
        status = await oversizeUpload(server.port, headers.authorization);
        if (status === 413) counts.upload++;
      }
      if (![400, 413].includes(status)) counts.other++;
    }
  });
  const [loaded] = await Promise.all([probe(`${origin}/health`, until), ...attack]);
  console.log(`/health quiet:        n=${quiet.length} p50=${pct(quiet, 50).toFixed(1)} ms p99=${pct(quiet, 99).toFixed(1)} ms`);
  console.log(`/health under attack: n=${loaded.length} p50=${pct(loaded, 50).toFixed(1)} ms p99=${pct(loaded, 99).toFixed(1)} ms (goal p99 < 50 ms)`);
  console.log(`refused: ${counts.deep} deep JSON (400), ${counts.big} streamed bodies over MAX_BODY_BYTES (413), ${counts.upload} uploads over MAX_UPLOAD_BYTES (413), ${counts.other} other answers`);
} finally {
  await server.stop(0);
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
}
