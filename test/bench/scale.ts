/**
 * Scale benchmark: what packages cost while they sit there, and how long
 * their runs take. Starts `bun src/main.ts` (embedded database, fresh
 * `DATA_DIR`), publishes `BENCH_PACKAGES` (50) synthetic packages of 26
 * sources x 25 dimensions x 10 measures over a 200-row CSV and one model of
 * `BENCH_LARGE_SOURCES` (300) sources, waits for their runs, and prints:
 * start time to `/health` (first start and warm restart), resident memory
 * idle after start, after all runs and after `BENCH_IDLE_S` (60) s idle, run
 * time per package (published back to back, so runs share the host) and of
 * the large model, `get_context` p50/p95 in environment scope (MCP, API key),
 * query latency on a package idle since its run (cold) and on one in use, and
 * last the run time of a package published alone (nothing else running).
 *
 * Run: `bun test/bench/scale.ts` (or `bun run bench scale`); smaller:
 * `BENCH_PACKAGES=5 BENCH_LARGE_SOURCES=0 BENCH_IDLE_S=20 bun test/bench/scale.ts`.
 * Extra service settings pass through the environment (e.g. `MEMORY_BUDGET`);
 * `BENCH_VERBOSE=1` prints each run as it ends.
 * @module
 */
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type MainProcess, startMain } from "../helpers/process.ts";
import { packageZip } from "./lib_synthetic_package.ts";

const PACKAGES = Number(process.env.BENCH_PACKAGES ?? 50);
const LARGE_SOURCES = Number(process.env.BENCH_LARGE_SOURCES ?? 300);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 60);
const CONTEXT_QUERIES = Number(process.env.BENCH_CONTEXT_QUERIES ?? 60);
const PASSWORD = "bench-password";

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

function rssNow(): number {
  const status = readFileSync(`/proc/${main.proc.pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

/** How long a start may take before the bench gives up (a loaded host's first start initializes the database). */
const START_LIMIT_MS = 300_000;

async function waitHealthy(main: MainProcess, started: number): Promise<number> {
  while (performance.now() - started < START_LIMIT_MS) {
    const ok = await fetch(`${main.base}/health`).then((r) => r.status === 200, () => false);
    if (ok) return performance.now() - started;
    if (main.proc.exitCode !== null) throw new Error(`the service exited: ${main.printed().slice(-2000)}`);
    await Bun.sleep(20);
  }
  throw new Error(`no /health within ${START_LIMIT_MS / 1000} s`);
}

async function waitReady(main: MainProcess, started: number): Promise<number> {
  while (performance.now() - started < START_LIMIT_MS) {
    if (await fetch(`${main.base}/health/ready`).then((r) => r.status === 200, () => false)) return performance.now() - started;
    await Bun.sleep(20);
  }
  throw new Error(`not ready within ${START_LIMIT_MS / 1000} s`);
}

const dataDir = await mkdtemp(join(tmpdir(), "bench-scale-"));
// A loaded host compiles slowly: the bench measures memory and run time, not the compile limit.
const env = { DATA_DIR: dataDir, BOOTSTRAP_ADMIN_PASSWORD: PASSWORD, RATE_LIMIT_PER_MINUTE: "0", COMPILE_TIMEOUT_MS: process.env.COMPILE_TIMEOUT_MS ?? "300000" };
let main = startMain(env);
let started = performance.now();
const firstStart = await waitHealthy(main, started);
await main.stop();
main = startMain(env);
started = performance.now();
const warmStart = await waitHealthy(main, started);
const warmReady = await waitReady(main, started);
await Bun.sleep(5_000);
const pid = main.proc.pid;
const rssStart = await rssMiB(pid);
console.log(`start to /health: first start ${first(firstStart)}, warm ${first(warmStart)} (ready ${first(warmReady)})`);
console.log(`RSS idle after start: ${rssStart} MiB`);

function first(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

const base = `${main.base}/api/v0`;
const login = await fetch(`${base}/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: "admin", password: PASSWORD }) });
const { accessToken } = (await login.json()) as { accessToken: string };
const auth = { authorization: `Bearer ${accessToken}` };
const json = { ...auth, "content-type": "application/json" };
async function post(path: string, body: unknown): Promise<unknown> {
  const r = await fetch(`${base}${path}`, { method: "POST", headers: json, body: JSON.stringify(body) });
  if (r.status >= 300) throw new Error(`POST ${path}: ${r.status} ${await r.text()}`);
  return await r.json();
}
await post("/organizations", { name: "bench" });
await post("/organizations/bench/environments", { name: "prod" });
const E = "/organizations/bench/environments/prod";

async function publish(name: string, zip: Uint8Array): Promise<string> {
  const form = new FormData();
  form.set("package", JSON.stringify({ description: `bench ${name}` }));
  form.set("version", JSON.stringify({ id: "1.0.0" }));
  form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>]), `${name}.zip`);
  form.set("md5Hash", new Bun.CryptoHasher("md5").update(zip).digest("hex"));
  const r = await fetch(`${base}${E}/packages/${name}`, { method: "POST", headers: auth, body: form });
  if (r.status !== 201) throw new Error(`publish ${name}: ${r.status} ${await r.text()}`);
  const body = (await r.json()) as { runId?: string };
  if (!body.runId) throw new Error(`publish ${name} queued no run`);
  return body.runId;
}

interface RunView { state: string; startedAt: string | null; finishedAt: string | null; error: string | null }
async function waitRun(name: string, runId: string): Promise<RunView> {
  for (;;) {
    const r = await fetch(`${base}${E}/packages/${name}/runs/${runId}`, { headers: auth });
    const run = (await r.json()) as RunView;
    if (["succeeded", "failed", "cancelled"].includes(run.state)) return run;
    await Bun.sleep(200);
  }
}
const seconds = (run: RunView) => (Date.parse(run.finishedAt!) - Date.parse(run.startedAt!)) / 1000;

// The large model first, then the packages while it runs: their runs must not wait for it.
const zip = packageZip(26, "p");
const allRuns: Promise<void>[] = [];
const runTimes: number[] = [];
let largeTime: number | undefined;
const publishStart = performance.now();
if (LARGE_SOURCES > 0) {
  const id = await publish("large", packageZip(LARGE_SOURCES, "large"));
  allRuns.push(waitRun("large", id).then((run) => {
    largeTime = seconds(run);
    if (process.env.BENCH_VERBOSE) console.log(`  large: RSS ${rssNow()} MiB`);
    console.log(`large model (${LARGE_SOURCES} sources): run ${run.state} in ${largeTime.toFixed(1)} s${run.error ? `: ${run.error}` : ""}`);
  }));
}
let finishedBeforeLarge = 0;
for (let i = 0; i < PACKAGES; i++) {
  const name = `p${i}`;
  const id = await publish(name, zip);
  allRuns.push(waitRun(name, id).then((run) => {
    runTimes.push(seconds(run));
    if (largeTime === undefined) finishedBeforeLarge++;
    if (process.env.BENCH_VERBOSE) console.log(`  ${name}: ${run.state} in ${seconds(run).toFixed(1)} s (${runTimes.length} done, RSS ${rssNow()} MiB)`);
    if (run.state !== "succeeded") console.log(`  ${name}: ${run.state} ${run.error ?? ""}`);
  }));
}
await Promise.all(allRuns);
const publishAll = (performance.now() - publishStart) / 1000;
const rssRuns = await rssMiB(pid);
console.log(`${PACKAGES} packages (26 sources x 25 dimensions x 10 measures, 200 rows): run time p50 ${pct(runTimes, 50).toFixed(1)} s, p95 ${pct(runTimes, 95).toFixed(1)} s, max ${pct(runTimes, 100).toFixed(1)} s;${LARGE_SOURCES > 0 ? ` ${finishedBeforeLarge} finished while the large model ran;` : ""} all published and run in ${publishAll.toFixed(0)} s`);
console.log(`RSS after all runs: ${rssRuns} MiB`);

// get_context in environment scope through MCP with an API key
await post("/organizations/bench/groups", { name: "agents" });
await post(`${E}/permissions`, { userGroupId: "group:agents", permission: "viewer" });
const made = await fetch(`${base}/organizations/bench/groups/agents/tokens?name=bench`, { method: "POST", headers: auth });
const { secret } = (await made.json()) as { secret: string };
const client = new Client({ name: "scale-bench", version: "1.0.0" });
await client.connect(new StreamableHTTPClientTransport(new URL("/mcp/bench", main.base), { requestInit: { headers: { authorization: `ApiKey ${secret}` } } }));
const QUESTIONS = ["total of returned orders by region", "how many shipments per channel", "customers by status", "invoice amount per month", "open tickets in the north"];

async function idleWait(): Promise<number> {
  await Bun.sleep(IDLE_S * 1000);
  return await rssMiB(pid);
}
// a package nobody queried since its run: measured after the idle wait
const rssIdle = await idleWait();
console.log(`RSS after ${IDLE_S} s idle: ${rssIdle} MiB (${PACKAGES + (LARGE_SOURCES > 0 ? 1 : 0)} package versions)`);

async function query(name: string): Promise<number> {
  const t = performance.now();
  const r = await fetch(`${base}${E}/packages/${name}/models/models/model.malloy/query`, {
    method: "POST", headers: json, body: JSON.stringify({ queryName: "by_label", sourceName: "t3" }),
  });
  if (r.status !== 200) throw new Error(`query ${name}: ${r.status} ${await r.text()}`);
  await r.arrayBuffer();
  return performance.now() - t;
}
const cold: number[] = [];
for (let i = 0; i < Math.min(5, PACKAGES); i++) cold.push(await query(`p${PACKAGES - 1 - i}`));
const warm: number[] = [];
for (let i = 0; i < 30; i++) warm.push(await query(`p${PACKAGES - 1}`));
console.log(`query of an idle package (first query, ${cold.length} packages): p50 ${pct(cold, 50).toFixed(0)} ms, max ${pct(cold, 100).toFixed(0)} ms; in use: p50 ${pct(warm, 50).toFixed(1)} ms, p95 ${pct(warm, 95).toFixed(1)} ms`);

const context: number[] = [];
for (let i = 0; i < CONTEXT_QUERIES + 5; i++) {
  const t = performance.now();
  const result = await client.callTool({ name: "get_context", arguments: { natural_language_query: QUESTIONS[i % QUESTIONS.length], environment_name: "prod" } });
  if (result.isError) throw new Error(`get_context: ${JSON.stringify(result.content)}`);
  if (i >= 5) context.push(performance.now() - t);
}
console.log(`get_context (environment scope, ${PACKAGES} packages${LARGE_SOURCES ? " + large model" : ""}): p50 ${pct(context, 50).toFixed(1)} ms, p95 ${pct(context, 95).toFixed(1)} ms`);
console.log(`RSS after the get_context calls: ${await rssMiB(pid)} MiB`);
await Bun.sleep(20_000);
console.log(`RSS 20 s later: ${await rssMiB(pid)} MiB`);

// The issue's own measure of a run: one package published while nothing else runs, waited for (three times).
const solo: number[] = [];
for (let i = 0; i < 3; i++) solo.push(seconds(await waitRun(`solo${i}`, await publish(`solo${i}`, zip))));
console.log(`one package published alone and waited for (3 packages): run time p50 ${pct(solo, 50).toFixed(1)} s, max ${pct(solo, 100).toFixed(1)} s`);

await client.close();
await main.stop();
await rm(dataDir, { recursive: true, force: true });
process.exit(0);
