
import type { Principal } from "../../src/access/principal.ts";
import { createContextSearcher } from "../../src/retrieval/search.ts";
import { scopedEntities, scopedVersions } from "../../src/retrieval/index/scoped_entities.ts";
import { prepareScope } from "../../src/retrieval/ranking/scope_index.ts";
import { rankQuestionEntities } from "../../src/retrieval/ranking/question_rank.ts";
import { buildContextResult } from "../../src/retrieval/answer/context_result.ts";
import { scopeIndexState } from "../../src/retrieval/index/index_state.ts";
import { getEmbedder } from "../../src/retrieval/embedding/embedder.ts";
import type { StoredEntity } from "../../src/retrieval/index/entity_cache.ts";
import { storeIndexedVersion, syntheticModel } from "./lib_stored_versions.ts";
import { startTestService } from "../helpers/service.ts";

const PACKAGES = Number(process.env.BENCH_PACKAGES ?? 48);

const s = await startTestService({ INDEX_ON_PUBLISH: "false" });
const sql = s.service.db.sql;
await s.call("POST", "/api/v0/organizations", { token: await s.adminToken(), body: { name: "bench" } });
await s.call("POST", "/api/v0/organizations/bench/environments", { token: await s.adminToken(), body: { name: "prod" } });
await s.createUser("analyst");
const [analyst] = await sql`SELECT id FROM users WHERE user_name = 'analyst'`;
const [env] = await sql`SELECT id FROM environments WHERE name = 'prod'`;
const envId = env!.id as string;
await sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role) VALUES ('environment', ${envId}, 'user', ${analyst!.id as string}, 'viewer')`;
const principal: Principal = { kind: "user", userId: analyst!.id as string, userName: "analyst", systemAdmin: false };

const QUESTIONS = ["total of returned orders by region", "how many shipments per channel", "customers by status", "invoice amount per month", "open tickets in the north",
  "average order amount by region", "employee count by city", "subscription churn", "flights by airport code", "product category margin"];

const t0 = performance.now();
for (let p = 0; p < PACKAGES; p++) {
  const { model, values } = syntheticModel(p);
  await storeIndexedVersion(s.service.ctx, { envId, name: `pkg${p}`, models: [model], values });
}
const [count] = await sql`SELECT count(*)::int AS n FROM model_entities`;
console.log(`stored ${PACKAGES} packages, ${count!.n} entities in ${((performance.now() - t0) / 1000).toFixed(0)} s; load average ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);

const embedder = await getEmbedder();
const stages: Record<string, number[]> = {};
const cpuOf: Record<string, number[]> = {};
/** Wall time of a stage, and the process's CPU time during it (less sensitive to other processes' load). */
const time = async <T>(name: string, f: () => Promise<T> | T): Promise<T> => {
  const t = performance.now();
  const c = process.cpuUsage();
  const out = await f();
  const used = process.cpuUsage(c);
  (stages[name] ??= []).push(performance.now() - t);
  (cpuOf[name] ??= []).push((used.user + used.system) / 1000);
  return out;
};
const scope = { environment_name: "prod" };
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
for (let round = 0; round <= ROUNDS; round++) {
  for (const q of QUESTIONS) {
    const versions = await time("scopedVersions (SQL + access)", () => scopedVersions(sql, principal, { organization: "bench", scope }));
    const entities = await time("scopedEntities (records)", () => scopedEntities(sql, versions, scope));
    const prepared = await time("prepareScope", () => prepareScope(entities, embedder, (e) => ((e as StoredEntity).vectorModel === embedder?.model ? (e as StoredEntity).vector : null)));
    const ranked = await time("rankQuestionEntities", () => rankQuestionEntities(q, prepared, embedder, { limit: 20 }));
    await time("buildContextResult", () => buildContextResult([{ phrase: q, description: "the question", matches: ranked }], { sourceDescriptions: {}, question: q, scope: entities }));
    await time("scopeIndexState", () => scopeIndexState(sql, versions));
  }
  if (round === 0) for (const k of Object.keys(stages)) [stages[k], cpuOf[k]] = [[], []]; // the first round is cold
}
const searcher = createContextSearcher(s.service.ctx);
for (let round = 0; round < ROUNDS; round++) {
  for (const q of QUESTIONS) await time("whole search", () => searcher.search(principal, { organization: "bench", natural_language_query: q, environment_name: "prod" }));
}
// BENCH_DUMP=file: every answer (without entity ids, which differ per run), to compare two builds' answers.
if (process.env.BENCH_DUMP) {
  const answers = [];
  for (const q of QUESTIONS) answers.push(await searcher.search(principal, { organization: "bench", natural_language_query: q, environment_name: "prod" }));
  await Bun.write(process.env.BENCH_DUMP, JSON.stringify(answers, null, 1));
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
for (const [name, xs] of Object.entries(stages)) {
  const cpu = cpuOf[name]!;
  console.log(`${name.padEnd(32)} p50 ${pct(xs, 0.5).toFixed(1).padStart(7)} ms  p95 ${pct(xs, 0.95).toFixed(1).padStart(7)} ms  mean ${(xs.reduce((a, b) => a + b, 0) / xs.length).toFixed(1).padStart(7)} ms` +
    `  CPU p50 ${pct(cpu, 0.5).toFixed(1).padStart(7)} ms  p95 ${pct(cpu, 0.95).toFixed(1).padStart(7)} ms`);
}
console.log(`load average ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
await s.close();
