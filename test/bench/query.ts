/**
 * Benchmark: the query path against the in-process floor, in one run.
 *
 * The floor is `@malloydata/malloy` + `@malloydata/db-duckdb` in-process on
 * the same extracted package files: a `Runtime` with a plain
 * `DuckDBConnection` (working directory the package folder), the model
 * loaded once and the same query compiled and run each time
 * (`model.loadQuery(text).run()`, rows turned into objects).
 *
 * 1. Latency, contenders interleaved per round (`BENCH_RUNS`, 30, after 5
 *    warm-up rounds): `floor`, `runner` (`createQueryRunner(ctx).run`, no
 *    HTTP), `rest` (`POST .../models/{modelPath}/query` on loopback, bearer
 *    token) and `mcp` (`execute_query` through the SDK client with an API
 *    key); workloads: the view `by_region` over 10 CSV rows and a
 *    1,000-row result (`select` over a Parquet file). Median per contender
 *    and its ratio to the floor (goals: REST <= 1.2x, MCP <= 1.3x).
 * 2. Throughput under load: `BENCH_CLIENTS` (64) concurrent clients for
 *    `BENCH_SECONDS` (10) each, sending the 10-row view, first to the floor
 *    (the same queries on `QUERY_CONCURRENCY` DuckDB connections, one
 *    runtime each, every client taking a free one), then over REST to the
 *    service (same concurrency bound), taking turns in `BENCH_PHASES` (4)
 *    phases each so that a change of the machine's load weighs on both:
 *    queries/s, p50 and p99, and the service's share of the floor's
 *    throughput (goal >= 80%).
 *
 * Run: `bun test/bench/query.ts` (embedded database); with
 * `BENCH_DATABASE_URL` (a server's admin URL) it runs on a new database
 * there, dropped at the end.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { Runtime } from "@malloydata/malloy";
import { DuckDBConnection } from "@malloydata/db-duckdb";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { readConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { extractArchive } from "../../src/engine/mod.ts";
import type { Principal } from "../../src/access/principal.ts";
import { createQueryRunner, type QueryArgs } from "../../src/query/service.ts";
import { startService } from "../../src/service.ts";
import { bytes, zipFiles } from "../fixtures/engine_package.ts";
import { parquetOf, SHOP_MODEL, shopFiles } from "../query/fixtures.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = 5;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 64);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Turns the floor and the service take under load (each runs `SECONDS` in all). */
const PHASES = Math.max(1, Number(process.env.BENCH_PHASES ?? 4));
const PASSWORD = "bench-password";

/** One way of running a workload's query; returns the number of rows it got. */
interface Contender {
  name: string;
  run(workload: Workload): Promise<number>;
}

/** A query: Malloy text for the floor, arguments for REST (camelCase) and the runner/MCP (snake_case). */
interface Workload {
  name: string;
  text: string;
  rest: Record<string, string>;
  args: Pick<QueryArgs, "query" | "query_name" | "source_name">;
}

const BIG_MODEL = `${SHOP_MODEL}
source: big is duckdb.table('data/big.parquet') extend {
  measure: c is count()
}
`;

const THOUSAND = "run: big -> { select: id, amount, status; where: id < 1000; order_by: id }";
const WORKLOADS: Workload[] = [
  {
    name: "10-row view",
    text: "run: orders -> by_region",
    rest: { queryName: "by_region", sourceName: "orders" },
    args: { query_name: "by_region", source_name: "orders" },
  },
  {
    name: "1,000-row result",
    text: THOUSAND,
    rest: { query: THOUSAND },
    args: { query: THOUSAND },
  },
];

/** A group `agents` with an API key, viewer on `bench/prod`, and an SDK client on `/mcp/bench` using that key. */
async function mcpClient(base: string, headers: Record<string, string>): Promise<Client> {
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
  return client;
}

/** The floor: plain Malloy and DuckDB in-process on the package folder, the model loaded once. */
async function floorRuntime(packageDir: string) {
  const connection = new DuckDBConnection({ name: "duckdb", workingDirectory: packageDir });
  const runtime = new Runtime({
    urlReader: { readURL: async (url: URL) => await readFile(decodeURI(url.pathname), "utf8") },
    connections: { lookupConnection: async () => connection },
  });
  const model = runtime.loadModel(new URL(`file://${packageDir}/models/shop.malloy`));
  await model.getModel();
  return {
    async run(text: string): Promise<number> {
      const result = await model.loadQuery(text).run({ rowLimit: 1000 });
      return result.data.toObject().length;
    },
    close: () => connection.close(),
  };
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Latencies (ms) and seconds of one or more load phases of a contender. */
interface LoadPhases {
  latencies: number[];
  seconds: number;
}

/** `clients` loops calling `once` for `seconds`, added to `into`. */
async function load(clients: number, seconds: number, once: () => Promise<unknown>, into: LoadPhases): Promise<void> {
  const end = performance.now() + seconds * 1000;
  const start = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      await once();
      into.latencies.push(performance.now() - t0);
    }
  }));
  into.seconds += (performance.now() - start) / 1000;
}

/** Queries/s, p50 and p99 in ms of a contender's phases. */
function summary(phases: LoadPhases) {
  const { latencies, seconds } = phases;
  return { qps: latencies.length / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99), n: latencies.length };
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), "query-bench-"));
  const config = readConfig({ DATA_DIR: dataDir, BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, LOG_REQUESTS: "false", RATE_LIMIT_PER_MINUTE: "0", JWT_SECRET: "q".repeat(40), ...Object.fromEntries(["QUERY_CONCURRENCY", "QUERY_CONCURRENCY_PER_ORGANIZATION"].filter((k) => process.env[k]).map((k) => [k, process.env[k]!])) });
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
  const floors: Awaited<ReturnType<typeof floorRuntime>>[] = [];
  try {
    // publish the package through the API
    const login = await fetch(`${base}/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: "admin", password: PASSWORD }) });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const headers = { authorization: `Bearer ${accessToken}`, "content-type": "application/json" };
    await fetch(`${base}/organizations`, { method: "POST", headers, body: JSON.stringify({ name: "bench" }) });
    await fetch(`${base}/organizations/bench/environments`, { method: "POST", headers, body: JSON.stringify({ name: "prod" }) });
    const files = await shopFiles({ model: BIG_MODEL });
    files.set("data/big.parquet", await parquetOf(
      "SELECT i AS id, (i % 1000) / 10.0 AS amount, ['shipped', 'pending', 'cancelled'][i % 3 + 1] AS status FROM range(100000) t(i)",
    ));
    files.set("publisher.json", bytes('{"name": "shop"}'));
    const zip = zipFiles(files);
    const form = new FormData();
    form.set("version", JSON.stringify({ id: "1.0.0" }));
    form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>]), "shop.zip");
    form.set("md5Hash", new Bun.CryptoHasher("md5").update(zip).digest("hex"));
    const published = await fetch(`${base}/organizations/bench/environments/prod/packages/shop`, { method: "POST", headers: { authorization: headers.authorization }, body: form });
    if (published.status !== 201) throw new Error(`publish: ${published.status} ${await published.text()}`);

    // the floor reads the same files: the archive extracted the same way, to its own folder
    const packageDir = await extractArchive(zip, { cacheDir: join(dataDir, "floor") });
    for (let i = 0; i < config.queryConcurrency; i++) floors.push(await floorRuntime(packageDir));
    const floor = floors[0]!;
    const [admin] = await db.sql`SELECT id FROM users WHERE user_name = 'admin'`;
    const principal: Principal = { kind: "user", userId: admin!.id as string, userName: "admin", systemAdmin: true };
    const runner = createQueryRunner(service.ctx);
    const target = { organization: "bench", environment_name: "prod", package_name: "shop", model_uri: "models/shop.malloy" };
    const queryUrl = `${base}/organizations/bench/environments/prod/packages/shop/models/models/shop.malloy/query`;
    const mcp = await mcpClient(base, headers);
    const rest = async (w: Workload): Promise<number> => {
      const r = await fetch(queryUrl, { method: "POST", headers, body: JSON.stringify(w.rest) });
      const body = (await r.json()) as { data: unknown[] };
      if (r.status !== 200) throw new Error(`rest: ${r.status} ${JSON.stringify(body)}`);
      return body.data.length;
    };

    const contenders: Contender[] = [
      { name: "floor", run: async (w) => await floor.run(w.text) },
      { name: "runner", run: async (w) => (await runner.run(principal, { ...target, ...w.args })).data.length },
      { name: "rest", run: rest },
      {
        name: "mcp",
        run: async (w) => {
          const { package_name, environment_name, model_uri } = target;
          const result = await mcp.callTool({ name: "execute_query", arguments: { environment_name, package_name, model_uri, ...w.args } });
          if (result.isError) throw new Error(`mcp: ${JSON.stringify(result.content)}`);
          return (result.structuredContent as { data: unknown[] }).data.length;
        },
      },
    ];
    const goals: Record<string, number> = { rest: 1.2, mcp: 1.3 };

    console.log(`query bench (${url ? "server" : "embedded"} database), QUERY_CONCURRENCY ${config.queryConcurrency}, load average ${(await loadAverage())}`);
    console.log(`latency: median of ${RUNS} warm runs, contenders interleaved per round`);
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
      const base = median(times.get("floor")!);
      console.log(`\n${workload.name} (${rows.get("floor")} result rows)`);
      for (const contender of contenders) {
        const m = median(times.get(contender.name)!);
        const ratio = m / base;
        const goal = goals[contender.name];
        const verdict = goal === undefined ? "" : `   goal <= ${goal}x: ${ratio <= goal ? "met" : "NOT met"}`;
        console.log(`  ${contender.name.padEnd(7)} ${m.toFixed(2).padStart(8)} ms   ${ratio.toFixed(2)}x floor   (+${(m - base).toFixed(2)} ms)${verdict}`);
      }
    }

    const view = WORKLOADS[0]!;
    console.log(`\nthroughput: ${CLIENTS} concurrent clients for ${SECONDS} s each in ${PHASES} alternating phases, ${view.name}`);
    const free = [...floors];
    const waiting: ((f: (typeof floors)[number]) => void)[] = [];
    const take = async () => free.pop() ?? await new Promise<(typeof floors)[number]>((r) => waiting.push(r));
    const give = (f: (typeof floors)[number]) => { const w = waiting.shift(); if (w) w(f); else free.push(f); };
    // the floor and the service take turns (PHASES phases each), so a change of the machine's load
    // during the run weighs on both alike
    const floorPhases: LoadPhases = { latencies: [], seconds: 0 };
    const restPhases: LoadPhases = { latencies: [], seconds: 0 };
    for (let phase = 0; phase < PHASES; phase++) {
      await load(CLIENTS, SECONDS / PHASES, async () => {
        const f = await take();
        try { await f.run(view.text); } finally { give(f); }
      }, floorPhases);
      await load(CLIENTS, SECONDS / PHASES, () => rest(view), restPhases);
    }
    const floorLoad = summary(floorPhases);
    const restLoad = summary(restPhases);
    const show = (name: string, r: typeof floorLoad) => console.log(`  ${name.padEnd(44)} ${r.qps.toFixed(1).padStart(7)} queries/s   p50 ${r.p50.toFixed(1)} ms   p99 ${r.p99.toFixed(1)} ms   (${r.n} queries)`);
    show(`floor (${floors.length} DuckDB connections)`, floorLoad);
    show(`rest (QUERY_CONCURRENCY ${config.queryConcurrency}, ${config.queryConcurrencyPerOrganization} per organization)`, restLoad);
    const share = restLoad.qps / floorLoad.qps;
    console.log(`  rest / floor throughput: ${(share * 100).toFixed(0)}%   goal >= 80%: ${share >= 0.8 ? "met" : "NOT met"}   load average after: ${await loadAverage()}`);
    await mcp.close();
  } finally {
    await Promise.all(floors.map((f) => f.close()));
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

async function loadAverage(): Promise<string> {
  const { loadavg } = await import("node:os");
  return loadavg().map((x) => x.toFixed(2)).join(" ");
}

await main();
process.exit(0);
