/**
 * Benchmark: what a materialization buys, and what it costs.
 *
 * - A heavy aggregate query of a `#@ persist` source (a group-by over
 *   5,000,000 generated rows, reduced to 20,000) through the query service,
 *   before its first run (the definition is computed each time) and after it
 *   (the query reads the Parquet file); median of `BENCH_RUNS` (10) warm runs.
 * - The run time of a 1,000,000-row materialization (a scoped run of one
 *   source: write Parquet, hash, store in the platform database, switch),
 *   wall clock of the run and of its table unit.
 * Run: `bun test/bench/materialize.ts` (also part of `bun run bench`); with
 * `BENCH_DATABASE_URL` (a server's admin URL) it runs on a new database there,
 * dropped at the end.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { readConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { startService } from "../../src/service.ts";
import { bytes, zipFiles } from "../fixtures/engine_package.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const PASSWORD = "bench-password";

const MODEL = `source: events is duckdb.sql("""
  SELECT i AS id, i % 20000 AS customer, (i % 997) / 7.0 AS amount, ['a', 'b', 'c', 'd'][i % 4 + 1] AS kind
  FROM range(5000000) t(i)
""")

#@ persist
source: customer_totals is events -> {
  group_by: customer
  aggregate: total is amount.sum(), n is count(), kinds is count(kind)
}

#@ persist
source: million is duckdb.sql("""
  SELECT i AS id, md5(i::VARCHAR) AS label, (i % 1000) / 10.0 AS amount, DATE '2024-01-01' + (i % 365)::INTEGER AS day
  FROM range(1000000) t(i)
""")
`;

const QUERY = "run: customer_totals -> { group_by: kinds; aggregate: customers is count(), total_sum is total.sum(), rows is n.sum() }";

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "materialize-bench-"));
  const config = readConfig({
    DATA_DIR: dataDir, BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, LOG_REQUESTS: "false", RATE_LIMIT_PER_MINUTE: "0",
    JWT_SECRET: "m".repeat(40), INDEX_ON_PUBLISH: "false", RUN_POLL_MS: "50",
  });
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const scratch = serverUrl ? `bench_mat_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}` : undefined;
  let url: string | undefined;
  if (serverUrl && scratch) {
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${scratch}`);
    await admin.end();
    const u = new URL(serverUrl);
    u.pathname = `/${scratch}`;
    url = u.toString();
  }
  const db = await openDatabase({ url, dataDir: join(dataDir, "pg") });
  const service = await startService(config, { db, log: () => {} });
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers["content-type"] = "application/json";
    }
    const r = await service.handle(new Request(`http://localhost/api/v0${path}`, { method, headers, body: payload }));
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  try {
    const { body: { accessToken: token } } = await call("POST", "/auth/token", { userName: "admin", password: PASSWORD });
    await call("POST", "/organizations", { name: "bench" }, token);
    await call("POST", "/organizations/bench/environments", { name: "prod" }, token);
    const zip = zipFiles(new Map([["publisher.json", bytes('{"name": "events"}')], ["models/events.malloy", bytes(MODEL)]]));
    const form = new FormData();
    form.set("version", JSON.stringify({ id: "1.0.0" }));
    form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>]), "events.zip");
    form.set("md5Hash", new Bun.CryptoHasher("md5").update(zip).digest("hex"));
    const P = "/organizations/bench/environments/prod/packages/events";
    const published = await call("POST", P, form, token);
    if (published.status !== 201) throw new Error(`publish: ${published.status} ${JSON.stringify(published.body)}`);

    const query = async () => {
      const r = await call("POST", `${P}/models/models/events.malloy/query`, { query: QUERY }, token);
      if (r.status !== 200) throw new Error(`query: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as { data: unknown[]; metadata: { materialization?: unknown } };
    };
    const timed = async (label: string) => {
      const first = await query(); // warm-up (compile, extract)
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await query();
        times.push(performance.now() - t);
      }
      console.log(`  ${label.padEnd(28)} median ${median(times).toFixed(1)} ms  (min ${Math.min(...times).toFixed(1)}, max ${Math.max(...times).toFixed(1)}; materialization ${first.metadata.materialization ? "yes" : "no"})`);
      return { ms: median(times), data: first.data };
    };
    const runOf = async (body: unknown) => {
      const t = performance.now();
      const created = await call("POST", `${P}/versions/1.0.0/runs`, body, token);
      if (created.status !== 201) throw new Error(`run: ${created.status} ${JSON.stringify(created.body)}`);
      while (true) {
        const r = await call("GET", `${P}/runs/${created.body.id}`, undefined, token);
        if (!["queued", "running"].includes(r.body.state)) {
          if (r.body.state !== "succeeded") throw new Error(`run ${r.body.state}: ${r.body.error}`);
          return { ms: performance.now() - t, run: r.body };
        }
        await Bun.sleep(20);
      }
    };
    const unitMs = (unit: { startedAt: string; finishedAt: string }) => Date.parse(unit.finishedAt) - Date.parse(unit.startedAt);

    console.log(`materialize bench (${url ? "server" : "embedded"} database), median of ${RUNS} warm runs`);
    console.log(`heavy aggregate of a #@ persist source (5,000,000 rows grouped to 20,000):`);
    const before = await timed("before its run (definition)");
    const built = await runOf({ sources: ["customer_totals"] });
    console.log(`  run building it: ${built.ms.toFixed(0)} ms (unit ${unitMs(built.run.units[0])} ms, ${built.run.units[0].rowCount} rows)`);
    const after = await timed("after its run (Parquet)");
    if (JSON.stringify(before.data) !== JSON.stringify(after.data)) throw new Error("the materialized answer differs from the definition's");
    console.log(`  speed-up: ${(before.ms / after.ms).toFixed(1)}x, same answer`);

    console.log("1,000,000-row materialization (scoped run of one source):");
    for (let i = 0; i < 2; i++) {
      const r = await runOf({ sources: ["million"] });
      const unit = r.run.units[0];
      console.log(`  run ${i + 1}: ${r.ms.toFixed(0)} ms wall, table unit ${unitMs(unit)} ms, ${unit.rowCount} rows`);
    }
    const [file] = await db.sql`SELECT f.size, f.chunks FROM materializations m JOIN materialization_files f ON f.sha256 = m.sha256 WHERE m.source_name = 'million'`;
    console.log(`  stored file: ${(Number(file!.size) / 1e6).toFixed(1)} MB in ${file!.chunks} chunks`);
  } finally {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
    if (serverUrl && scratch) {
      const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
      await admin.end();
    }
  }
}

await main();
