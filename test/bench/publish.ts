/**
 * Publish benchmark: time from upload to stored and compiled for a package of
 * about 1 MB and 20 MB (generated CSV), median of a few runs each. Embedded
 * PGlite by default; the server of DATABASE_URL when set (a scratch database
 * is created there and dropped).
 *
 * Run: `bun test/bench/publish.ts`
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { zipSync } from "fflate";
import { readConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { startService } from "../../src/service.ts";
import { closeAllPackageDuckDB } from "../../src/engine/mod.ts";

const RUNS = 5;
const enc = new TextEncoder();
const MODEL = `source: events is duckdb.table('data/events.csv') extend {
  #(doc) Kind of event
  #(index)
  dimension: kind_name is kind
  measure: event_count is count()
  measure: total_amount is amount.sum()
  view: by_kind is { group_by: kind; aggregate: event_count, total_amount }
}
query: summary is events -> by_kind
`;

function csv(bytes: number): Uint8Array {
  const kinds = ["click", "view", "purchase", "signup", "refund"];
  const lines = ["id,kind,amount,at"];
  let size = lines[0]!.length + 1;
  for (let i = 0; size < bytes; i++) {
    const line = `${i},${kinds[i % 5]},${((i * 7919) % 10000) / 100},2024-01-${String((i % 28) + 1).padStart(2, "0")}`;
    lines.push(line);
    size += line.length + 1;
  }
  return enc.encode(lines.join("\n") + "\n");
}

function packageZip(bytes: number, salt: number): Uint8Array {
  return zipSync({
    "publisher.json": enc.encode(JSON.stringify({ name: "bench", salt })),
    "models/events.malloy": enc.encode(MODEL),
    "data/events.csv": csv(bytes),
  }, { level: 6 });
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const dataDir = await mkdtemp(join(tmpdir(), "bench-publish-"));
let scratch: string | undefined;
let url = process.env.DATABASE_URL;
if (url) {
  scratch = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${scratch}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${scratch}`;
  url = u.toString();
}
const db = await openDatabase(url ? { url } : {});
const config = readConfig({ BOOTSTRAP_ADMIN_PASSWORD: "bench-password", LOG_REQUESTS: "false", RATE_LIMIT_PER_MINUTE: "0", DATA_DIR: dataDir });
const service = await startService(config, { db, log: () => {} });
const call = (method: string, path: string, init: { token?: string; body?: BodyInit; json?: unknown } = {}) =>
  service.handle(new Request(`http://localhost/api/v0${path}`, {
    method,
    headers: {
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
      ...(init.json !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  }));
const token = ((await (await call("POST", "/auth/token", { json: { userName: "admin", password: "bench-password" } })).json()) as { accessToken: string }).accessToken;
await call("POST", "/organizations", { token, json: { name: "bench" } });
await call("POST", "/organizations/bench/environments", { token, json: { name: "env" } });

console.log(`publish benchmark (${db.kind} database, ${RUNS} runs each, median)`);
for (const target of [1, 20]) {
  const times: number[] = [];
  let zipSize = 0;
  for (let run = 0; run < RUNS; run++) {
    const zip = packageZip(target * 1024 * 1024, run);
    zipSize = zip.length;
    const form = new FormData();
    form.set("package", JSON.stringify({ description: "bench" }));
    form.set("version", JSON.stringify({ id: `${target}.0.${run}` }));
    form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>]), "bench.zip");
    form.set("md5Hash", new Bun.CryptoHasher("md5").update(zip).digest("hex"));
    const start = performance.now();
    const r = await call("POST", `/organizations/bench/environments/env/packages/p${target}`, { token, body: form });
    const ms = performance.now() - start;
    if (r.status !== 201) throw new Error(`publish failed: ${r.status} ${await r.text()}`);
    await r.arrayBuffer();
    times.push(ms);
  }
  console.log(
    `  ${String(target).padStart(2)} MB CSV (zip ${(zipSize / 1024 / 1024).toFixed(2)} MB): median ${median(times).toFixed(0)} ms` +
      `  [${times.map((t) => t.toFixed(0)).join(", ")}]`,
  );
}

await closeAllPackageDuckDB();
await service.close();
if (scratch && process.env.DATABASE_URL) {
  const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
  await admin.end();
}
await rm(dataDir, { recursive: true, force: true }).catch(() => {});
process.exit(0);
