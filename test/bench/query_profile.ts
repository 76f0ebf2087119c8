/**
 * Profile of the query path: where the platform's time per query goes.
 * Times each stage the query runner goes through, called one by one on the
 * same warm state (the 10-row view `orders -> by_region` of the shop package,
 * admin caller, embedded database or `BENCH_DATABASE_URL`), median of
 * `BENCH_RUNS` (50): the request's authentication lookup (uncached, and the
 * check of `auth_changes` that a cached one costs), the target lookup
 * (`findQueryTarget`), the compiled-model cache hit, the materialization
 * lookup, Malloy's compile of the query (`loadQuery` + `getPreparedQuery`),
 * the access rules walk, SQL generation (`preparedResult`), the SQL guard
 * (DuckDB parser), a DuckDB session (open vs. reused), running the SQL,
 * result shaping (`Result.toObject` + `jsonSafe`), JSON serialization, and
 * the query log's group commit; then the whole runner and a REST request.
 * Run: `bun test/bench/query_profile.ts`.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { type QueryRecord, Result } from "@malloydata/malloy";
import { readConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { checkDuckDBSql, jsonSafe, engineLimits } from "../../src/engine/mod.ts";
import { openSession } from "../../src/engine/duckdb/session.ts";
import { userById } from "../../src/credentials/authenticate.ts";
import { authGeneration } from "../../src/http/auth_cache.ts";
import type { Principal } from "../../src/access/principal.ts";
import { servedMaterializations } from "../../src/materializations/store.ts";
import { queryLogWriter } from "../../src/query_log/writer.ts";
import { compiledModelFor } from "../../src/archives/compiled_models.ts";
import { createQueryRunner } from "../../src/query/service.ts";
import { findQueryTarget } from "../../src/query/store.ts";
import { queryModelDef, rulesOfQuery } from "../../src/rls/enforce.ts";
import { startService } from "../../src/service.ts";
import { bytes, zipFiles } from "../fixtures/engine_package.ts";
import { shopFiles } from "../query/fixtures.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const PASSWORD = "bench-password";

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function span(name: string, f: () => unknown): Promise<number> {
  for (let i = 0; i < 5; i++) await f();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await f();
    times.push(performance.now() - t0);
  }
  const m = median(times);
  console.log(`  ${name.padEnd(58)} ${m.toFixed(3).padStart(8)} ms`);
  return m;
}

const dataDir = await mkdtemp(join(tmpdir(), "query-profile-"));
const serverUrl = process.env.BENCH_DATABASE_URL;
const scratch = serverUrl ? `bench_profile_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}` : undefined;
let url: string | undefined;
if (serverUrl && scratch) {
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${scratch}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${scratch}`;
  url = u.toString();
}
const config = readConfig({ DATA_DIR: dataDir, BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, LOG_REQUESTS: "false", RATE_LIMIT_PER_MINUTE: "0", JWT_SECRET: "p".repeat(40) });
const db = await openDatabase({ url, dataDir: join(dataDir, "pg") });
const service = await startService(config, { db, log: () => {} });
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => service.handle(r) });
const base = `http://127.0.0.1:${server.port}/api/v0`;
try {
  const login = await fetch(`${base}/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: "admin", password: PASSWORD }) });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
  await fetch(`${base}/organizations`, { method: "POST", headers, body: JSON.stringify({ name: "bench" }) });
  await fetch(`${base}/organizations/bench/environments`, { method: "POST", headers, body: JSON.stringify({ name: "prod" }) });
  const files = await shopFiles();
  files.set("publisher.json", bytes('{"name": "shop"}'));
  const zip = zipFiles(files);
  const form = new FormData();
  form.set("version", JSON.stringify({ id: "1.0.0" }));
  form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>]), "shop.zip");
  form.set("md5Hash", new Bun.CryptoHasher("md5").update(zip).digest("hex"));
  const published = await fetch(`${base}/organizations/bench/environments/prod/packages/shop`, { method: "POST", headers: { authorization: headers.authorization }, body: form });
  if (published.status !== 201) throw new Error(`publish: ${published.status} ${await published.text()}`);

  const ctx = service.ctx;
  const [a] = await db.sql`SELECT id FROM users WHERE user_name = 'admin'`;
  const principal: Principal = { kind: "user", userId: a!.id as string, userName: "admin", systemAdmin: true };
  const names = { org: "bench", env: "prod", pkg: "shop" };
  const target = (await findQueryTarget(ctx.sql, principal, names))!;
  const version = target.version!;
  const modelTarget = { versionUuid: version.uuid, versionId: version.id, blobSha256: version.blobSha256, envId: target.envId, packageName: "shop", modelPath: "models/shop.malloy" };
  const compiled = await compiledModelFor(ctx, modelTarget);
  const models = () => compiled.pkg.runtime._loadModelFromModelDef(queryModelDef(compiled));
  const prepared = await models().loadQuery("run: `orders` -> `by_region`").getPreparedQuery();
  const result = prepared.preparedResult;
  const duck = await compiled.pkg.runtime.connections.lookupConnection("duckdb") as unknown as { packageDir: string; readDirectories: string[]; runSQLStream: (sql: string, o: object) => AsyncIterable<unknown> };
  const rows: QueryRecord[] = [];
  for await (const row of duck.runSQLStream(result.sql, { rowLimit: 1001 })) rows.push(row as QueryRecord);
  const runner = createQueryRunner(ctx);
  const args = { organization: "bench", environment_name: "prod", package_name: "shop", model_uri: "models/shop.malloy", query_name: "by_region", source_name: "orders" };
  const answer = await runner.run(principal, args);
  const entry = {
    orgId: target.orgId, at: new Date(), principal: "user:admin", via: "rest" as const, environmentName: "prod", packageName: "shop",
    versionId: "1.0.0", modelPath: "models/shop.malloy", queryName: "by_region", sourceName: "orders", boundAttributes: [], rows: 3, ms: 1, status: "ok" as const,
  };
  const queryUrl = `${base}/organizations/bench/environments/prod/packages/shop/models/models/shop.malloy/query`;

  console.log(`query path profile (${url ? "server" : "embedded"} database), median of ${RUNS}, load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);
  console.log("stages of one query (10-row view):");
  const stages: [string, () => unknown][] = [
    ["authentication uncached: user and token version (userById)", () => userById(ctx.sql, principal.kind === "user" ? principal.userId : "")],
    ["authentication cached: auth_changes check (one per batch)", () => authGeneration(ctx.sql, performance.now())],
    ["target, rank and version (findQueryTarget)", () => findQueryTarget(ctx.sql, principal, names)],
    ["compiled model (cache hit)", () => compiledModelFor(ctx, modelTarget)],
    ["materializations of the version (servedMaterializations)", () => servedMaterializations(ctx.sql, version.uuid, "models/shop.malloy")],
    ["Malloy compile of the query (loadQuery + getPreparedQuery)", () => models().loadQuery("run: `orders` -> `by_region`").getPreparedQuery()],
    ["access rules walk (rulesOfQuery)", () => rulesOfQuery(compiled, prepared)],
    ["SQL generation (preparedResult)", () => { const p = Object.create(Object.getPrototypeOf(prepared)); Object.assign(p, prepared); return p.preparedResult.sql; }],
    ["SQL guard (checkDuckDBSql: DuckDB parser + walk)", () => checkDuckDBSql(result.sql, { packageDir: duck.packageDir, readDirectories: duck.readDirectories })],
    ["DuckDB session opened (no idle one)", async () => (await openSession(duck.packageDir, engineLimits(), [])).close()],
    ["SQL run on the package connection (guard + idle session)", async () => { for await (const _ of duck.runSQLStream(result.sql, { rowLimit: 1001 })) void _; }],
    ["result shaping (Result.toObject + jsonSafe)", () => new Result({ ...result._rawQuery, result: rows, totalRows: rows.length }, result._modelDef).data.toObject().map((row) => jsonSafe(row))],
    ["JSON.stringify of the answer", () => JSON.stringify(answer)],
    ["query log entry committed (record)", () => queryLogWriter(ctx).record({ ...entry, at: new Date() })],
  ];
  let sum = 0;
  // a request pays one of the two authentication stages: the cached one is summed
  for (const [name, f] of stages) if (!name.startsWith("DuckDB session") && !name.includes("uncached")) sum += await span(name, f); else await span(name, f);
  console.log(`  ${"sum of the stages above (session open, uncached auth excluded)".padEnd(58)} ${sum.toFixed(3).padStart(8)} ms`);
  console.log("whole paths:");
  await span("query runner (runner.run)", () => runner.run(principal, args));
  await span("REST request", async () => (await fetch(queryUrl, { method: "POST", headers, body: JSON.stringify({ queryName: "by_region", sourceName: "orders" }) })).json());
} finally {
  server.stop(true);
  await service.close();
  await rm(dataDir, { recursive: true, force: true });
  if (serverUrl && scratch) {
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await admin.end();
  }
}
process.exit(0);
