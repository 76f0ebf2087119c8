/**
 * Benchmark: a warm query through the service against the same compiled
 * query run directly with the engine in-process (no HTTP, no database).
 *
 * Contenders (each runs the same Malloy on the same extracted package and the
 * same DuckDB connection):
 * - `direct`: `runQuery` on a model compiled once with `compilePackage`;
 * - `runner`: `createQueryRunner(ctx).run(principal, args)` (access check,
 *   version resolution, compiled-model cache, row limit, timeout);
 * - `rest`: `POST .../models/{modelPath}/query` over HTTP on loopback
 *   (`Bun.serve` of `service.handle`, bearer token);
 * - `mcp`: `execute_query` through the SDK `Client` and
 *   `StreamableHTTPClientTransport` on loopback (`/mcp/{org}`), with an API
 *   key of a group that is viewer on the environment (all made through the API).
 *
 * Workloads: a view over 10 CSV rows (pure overhead) and an aggregate over a
 * 1,000,000-row Parquet file. Median of `BENCH_RUNS` (30) warm runs each,
 * contenders interleaved per round; ratios against `direct`.
 * Run: `bun test/bench/query.ts`; with `BENCH_DATABASE_URL` (a server's
 * admin URL) it runs on a new database there, dropped at the end.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { compilePackage, extractArchive, readArchive, runQuery, type RunQueryOptions } from "../../src/engine/mod.ts";
import type { Principal } from "../../src/http/principal.ts";
import { createQueryRunner, type QueryArgs } from "../../src/query/service.ts";
import { startService } from "../../src/service.ts";
import { bytes, zipFiles } from "../fixtures/engine_package.ts";
import { parquetOf, SHOP_MODEL, shopFiles } from "../query/fixtures.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 5;
const PASSWORD = "bench-password";

/** One way of running a workload's query; returns the number of rows it got. */
interface Contender {
  name: string;
  run(workload: Workload): Promise<number>;
}

/** A query in both spellings: engine options and REST/MCP arguments. */
interface Workload {
  name: string;
  engine: RunQueryOptions;
  rest: Record<string, string>;
  args: Pick<QueryArgs, "query" | "query_name" | "source_name">;
}

const BIG_MODEL = `${SHOP_MODEL}
source: big is duckdb.table('data/big.parquet') extend {
  measure: c is count()
  measure: s is amount.sum()
  view: by_status is { group_by: status; aggregate: c, s; order_by: status }
}
`;

const WORKLOADS: Workload[] = [
  {
    name: "view, 10 CSV rows",
    engine: { queryName: "by_region", sourceName: "orders" },
    rest: { queryName: "by_region", sourceName: "orders" },
    args: { query_name: "by_region", source_name: "orders" },
  },
  {
    name: "view, 1M Parquet rows",
    engine: { queryName: "by_status", sourceName: "big" },
    rest: { queryName: "by_status", sourceName: "big" },
    args: { query_name: "by_status", source_name: "big" },
  },
];

/** A group `agents` with an API key, viewer on `bench/prod`, and an SDK client on `/mcp/bench` using that key. */
async function mcpClient(base: string, headers: Record<string, string>): Promise<{ client: Client; secret: string }> {
  const org = `${base}/organizations/bench`;
  const steps: [string, unknown?][] = [
    [`${org}/groups`, { name: "agents" }],
    [`${org}/environments/prod/permissions`, { userGroupId: "group:agents", permission: "viewer" }],
  ];
  for (const [url, body] of steps) {
    const r = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    if (r.status !== 201) throw new Error(`POST ${url}: ${r.status} ${await r.text()}`);
  }
  const made = await fetch(`${org}/groups/agents/tokens?name=bench`, { method: "POST", headers: { authorization: headers.authorization! } });
  if (made.status !== 201) throw new Error(`token: ${made.status} ${await made.text()}`);
  const { secret } = (await made.json()) as { secret: string };
  const client = new Client({ name: "query-bench", version: "1.0.0" });
  const mcpUrl = new URL("/mcp/bench", base);
  await client.connect(new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers: { authorization: `ApiKey ${secret}` } } }));
  return { client, secret };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "query-bench-"));
  const config = readConfig({ DATA_DIR: dataDir, BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, LOG_REQUESTS: "false", RATE_LIMIT_PER_MINUTE: "0", JWT_SECRET: "q".repeat(40) });
  const serverUrl = process.env.BENCH_DATABASE_URL;
  const scratch = serverUrl ? `bench_query_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}` : undefined;
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
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => service.handle(r) });
  const base = `http://127.0.0.1:${server.port}/api/v0`;
  try {
    // publish the package through the API
    const login = await fetch(`${base}/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: "admin", password: PASSWORD }) });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
    await fetch(`${base}/organizations`, { method: "POST", headers, body: JSON.stringify({ name: "bench" }) });
    await fetch(`${base}/organizations/bench/environments`, { method: "POST", headers, body: JSON.stringify({ name: "prod" }) });
    const files = await shopFiles({ model: BIG_MODEL });
    files.set("data/big.parquet", await parquetOf(
      "SELECT i AS id, (i % 1000) / 10.0 AS amount, ['shipped', 'pending', 'cancelled'][i % 3 + 1] AS status FROM range(1000000) t(i)",
    ));
    files.set("publisher.json", bytes('{"name": "shop"}'));
    const zip = zipFiles(files);
    const form = new FormData();
    form.set("version", JSON.stringify({ id: "1.0.0" }));
    form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>]), "shop.zip");
    form.set("md5Hash", new Bun.CryptoHasher("md5").update(zip).digest("hex"));
    const published = await fetch(`${base}/organizations/bench/environments/prod/packages/shop`, { method: "POST", headers: { authorization: headers.authorization }, body: form });
    if (published.status !== 201) throw new Error(`publish: ${published.status} ${await published.text()}`);

    // direct: the same archive, extracted to the same folder (same DuckDB connection), compiled once
    const packageDir = await extractArchive(zip, { cacheDir: join(dataDir, "packages") });
    const compiled = (await compilePackage(readArchive(zip), packageDir)).models.get("models/shop.malloy")!;
    const [admin] = await db.sql`SELECT id FROM users WHERE user_name = 'admin'`;
    const principal: Principal = { kind: "user", userId: admin!.id as string, userName: "admin", systemAdmin: true };
    const runner = createQueryRunner(service.ctx);
    const target = { organization: "bench", environment_name: "prod", package_name: "shop", model_uri: "models/shop.malloy" };
    const queryUrl = `${base}/organizations/bench/environments/prod/packages/shop/models/models/shop.malloy/query`;
    const { client: mcp, secret } = await mcpClient(base, headers);
    const rpcHeaders = { authorization: `ApiKey ${secret}`, "content-type": "application/json", accept: "application/json, text/event-stream" };
    let rpcId = 0;

    const contenders: Contender[] = [
      { name: "direct", run: async (w) => (await runQuery(compiled, w.engine)).data.length },
      { name: "runner", run: async (w) => (await runner.run(principal, { ...target, ...w.args })).data.length },
      {
        name: "rest",
        run: async (w) => {
          const r = await fetch(queryUrl, { method: "POST", headers, body: JSON.stringify(w.rest) });
          const body = (await r.json()) as { data: unknown[] };
          if (r.status !== 200) throw new Error(`rest: ${r.status} ${JSON.stringify(body)}`);
          return body.data.length;
        },
      },
      {
        name: "mcp",
        run: async (w) => {
          const { package_name, environment_name, model_uri } = target;
          const result = await mcp.callTool({ name: "execute_query", arguments: { environment_name, package_name, model_uri, ...w.args } });
          if (result.isError) throw new Error(`mcp: ${JSON.stringify(result.content)}`);
          return (result.structuredContent as { data: unknown[] }).data.length;
        },
      },
      {
        // the same tool call as one plain JSON-RPC POST: the server's share of the MCP path,
        // without the SDK client's own message validation
        name: "mcp-rpc",
        run: async (w) => {
          const { package_name, environment_name, model_uri } = target;
          const r = await fetch(`${base.replace(/\/api\/v0$/, "")}/mcp/bench`, {
            method: "POST",
            headers: rpcHeaders,
            body: JSON.stringify({
              jsonrpc: "2.0",
              id: ++rpcId,
              method: "tools/call",
              params: { name: "execute_query", arguments: { environment_name, package_name, model_uri, ...w.args } },
            }),
          });
          const body = (await r.json()) as { result?: { isError?: boolean; structuredContent?: { data: unknown[] } } };
          if (r.status !== 200 || body.result?.isError) throw new Error(`mcp-rpc: ${r.status} ${JSON.stringify(body)}`);
          return body.result!.structuredContent!.data.length;
        },
      },
    ];

    console.log(`query bench (${url ? "server" : "embedded"} database), median of ${RUNS} warm runs, contenders interleaved`);
    for (const workload of WORKLOADS) {
      const times = new Map(contenders.map((c) => [c.name, [] as number[]]));
      const rows = new Map<string, number>();
      for (let round = 0; round < WARMUP + RUNS; round++) {
        for (const contender of contenders) {
          const t0 = performance.now();
          rows.set(contender.name, await contender.run(workload));
          if (round >= WARMUP) times.get(contender.name)!.push(performance.now() - t0);
        }
      }
      if (new Set(rows.values()).size !== 1) throw new Error(`contenders disagree on rows: ${JSON.stringify([...rows])}`);
      const direct = median(times.get("direct")!);
      console.log(`\n${workload.name} (${rows.get("direct")} result rows)`);
      for (const contender of contenders) {
        const m = median(times.get(contender.name)!);
        console.log(`  ${contender.name.padEnd(8)} ${m.toFixed(2).padStart(8)} ms   ${(m / direct).toFixed(2)}x direct   (+${(m - direct).toFixed(2)} ms)`);
      }
    }
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
}

await main();
process.exit(0);
