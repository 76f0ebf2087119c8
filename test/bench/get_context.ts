/**
 * get_context benchmark through the real database search (pgvector +
 * lexical blend, permissions and scope in SQL): latency on a package of
 * 1,000 entities, and recall@5 of the labelled questions.
 *
 * The bench packages are metadata (retrieval_packages.ts), not Malloy files,
 * so each is stored as a publish would store it (package, version, model
 * metadata, entity rows) and indexed by `indexVersion` with its indexed values
 * given; the search path is the one the MCP tool and REST use.
 *
 * Run: `bun test/bench/get_context.ts` (TEST_DATABASE_URL for a server database).
 * @module
 */
import type { ModelMetadata } from "../../src/engine/compile/metadata.ts";
import type { Principal } from "../../src/access/principal.ts";
import { mergeRankings } from "../../src/retrieval/ranking/rank.ts";
import { createContextSearcher, rankQuestion } from "../../src/retrieval/search.ts";
import type { StoredEntity } from "../../src/retrieval/index/scoped_entities.ts";
import { contentStems, expandAbbreviations, splitName, stem } from "../../src/retrieval/text/text_terms.ts";
import { splitPhrasesLocally } from "../../src/retrieval/text/phrases.ts";
import { storeIndexedVersion } from "./lib_stored_versions.ts";
import { startTestService } from "../helpers/service.ts";
import { BENCH_PACKAGES, dim, msr, source, view } from "./retrieval_packages.ts";
import { HELD_OUT_QUESTIONS, QUESTIONS, type BenchQuestion } from "./retrieval_questions.ts";

const s = await startTestService({ INDEX_ON_PUBLISH: "false" });
const sql = s.service.db.sql;
const ctx = s.service.ctx;

await s.call("POST", "/api/v0/organizations", { token: await s.adminToken(), body: { name: "bench" } });
await s.call("POST", "/api/v0/organizations/bench/environments", { token: await s.adminToken(), body: { name: "prod" } });
const [env] = await sql`SELECT id FROM environments WHERE name = 'prod'`;
const envId = env!.id as string;
await s.createUser("analyst");
const [analyst] = await sql`SELECT id FROM users WHERE user_name = 'analyst'`;
await sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role) VALUES ('environment', ${envId}, 'user', ${analyst!.id as string}, 'viewer')`;
const principal: Principal = { kind: "user", userId: analyst!.id as string, userName: "analyst", systemAdmin: false };

/** Stores and indexes a package version (lib_stored_versions.ts), saying how long the indexing took. */
async function store(name: string, models: ModelMetadata[], values: Record<string, string[]>): Promise<void> {
  const t0 = performance.now();
  const report = await storeIndexedVersion(ctx, { envId, name, models, values });
  console.log(`indexed ${name}: ${report.entities} entities, ${report.embedded} embedded in ${(performance.now() - t0).toFixed(0)} ms`);
}

function syntheticPackage(size: number): ModelMetadata {
  const subjects = ["order", "shipment", "customer", "product", "flight", "airport", "employee", "invoice", "payment", "ticket", "session", "campaign", "store", "supplier", "contract", "claim", "visit", "account", "device", "subscription"];
  const attributes = ["id", "dt", "status", "type", "amt", "qty", "region", "country", "city", "category", "channel", "owner", "cost", "price", "score", "duration_mins", "created_at", "updated_at", "name", "code", "segment", "tier", "source", "weight_kg", "discount_pct"];
  const measures = ["count", "total_amt", "avg_amt", "avg_duration", "pct_late", "revenue", "margin", "max_score", "distinct_owners", "cancel_rate"];
  const sources = [];
  let n = 0;
  for (let i = 0; n < size; i++) {
    const subject = subjects[i % subjects.length]!;
    const fields = [
      ...attributes.map((a) => dim(`${subject}_${a}`, a.endsWith("dt") || a.endsWith("_at") ? "date" : "string", `The ${a.replace(/_/g, " ")} of the ${subject}`, a === "status")),
      ...measures.map((m) => msr(`${subject}_${m}`, `${m.replace(/_/g, " ")} over ${subject}s`)),
      view(`${subject}_overview`, `Summary of ${subject}s`),
      view(`${subject}_by_month`),
    ];
    sources.push(source(`${subject}_${Math.floor(i / subjects.length) + 1}`, `Synthetic ${subject} data`, fields));
    n += fields.length + 1;
  }
  return { modelPath: "synthetic.malloy", sources, queries: [] };
}

function targetKey(e: StoredEntity): string {
  if (e.kind === "query") return `query:${e.name}`;
  if (e.kind === "source") return e.name;
  return `${e.sourceName}.${e.name}`;
}

function sharesNoWord(q: BenchQuestion, entities: StoredEntity[]): boolean {
  const asked = contentStems(q.question, { expand: true });
  return q.targets.every((t) => {
    const e = entities.find((x) => targetKey(x) === t);
    if (!e) throw new Error(`target ${t} of '${q.question}' is not an entity of ${q.pkg}`);
    const words = splitName(e.name);
    const stems = new Set([...[...words, ...expandAbbreviations(words)].map(stem), ...contentStems(e.description ?? "", { expand: true }), ...contentStems(e.sourceName, { expand: true })]);
    return asked.every((w) => !stems.has(w));
  });
}

for (const pkg of BENCH_PACKAGES) await store(pkg.name, pkg.models, pkg.values);
await store("synthetic", [syntheticPackage(1000)], {});

// Recall@5 through the database search, on the labelled and the held-out questions.
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}% (${a}/${b})`;
for (const [label, set] of [["labelled", QUESTIONS], ["held-out", HELD_OUT_QUESTIONS]] as const) {
  let hit5 = 0, hit1 = 0, noWord = 0, noWordHit5 = 0;
  const misses: string[] = [];
  for (const q of set) {
    const found = await rankQuestion(sql, principal, { organization: "bench", question: q.question, scope: { environment_name: "prod", package_name: q.pkg } });
    const merged = mergeRankings(found.ranked).filter((m) => m.entity.kind !== "source");
    const keys = merged.map((m) => targetKey(m.entity as StoredEntity));
    const rank = keys.findIndex((k) => q.targets.includes(k));
    const disjoint = sharesNoWord(q, found.entities);
    if (disjoint) noWord++;
    if (rank === 0) hit1++;
    if (rank >= 0 && rank < 5) {
      hit5++;
      if (disjoint) noWordHit5++;
    } else {
      misses.push(`${disjoint ? "[no shared word] " : ""}${q.question} -> want ${q.targets.join(" | ")} (rank ${rank < 0 ? "-" : rank + 1}); top 5: ${keys.slice(0, 5).join(", ")}`);
    }
  }
  console.log(`${label}: database: ${s.service.db.kind}; questions: ${set.length}, sharing no word with their target: ${noWord}`);
  console.log(`${label}: recall@1 ${pct(hit1, set.length)}; recall@5 overall ${pct(hit5, set.length)}; no-shared-word recall@5 ${pct(noWordHit5, noWord)}`);
  console.log(`${label} misses:\n  ${misses.join("\n  ") || "(none)"}`);
}

// Latency: the whole get_context search on the 1,000-entity package, warm.
const searcher = createContextSearcher(ctx);
const ask = (question: string) => searcher.search(principal, { organization: "bench", natural_language_query: question, environment_name: "prod", package_name: "synthetic" });
for (const q of QUESTIONS.slice(0, 5)) await ask(q.question);
const times: number[] = [];
for (let round = 0; round < 3; round++) {
  for (const q of QUESTIONS) {
    const t0 = performance.now();
    await ask(q.question);
    times.push(performance.now() - t0);
  }
}
times.sort((a, b) => a - b);
const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
const [count] = await sql`SELECT count(*)::int AS n FROM model_entities me JOIN packages p ON p.id = me.package_id WHERE p.name = 'synthetic'`;
console.log(`get_context latency (warm, ${times.length} searches, ${count!.n} entities): median ${at(0.5)} ms, p95 ${at(0.95)} ms`);

// The LLM_BASE_URL path on the same package: a loopback chat server answering at once with the local
// splitter's phrases (what a model typically returns), so the figure is the cost of ranking each phrase.
const llm = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(request) {
    const body = await request.json() as { messages: { content: string }[] };
    const question = body.messages.at(-1)!.content;
    const phrases = splitPhrasesLocally(question).filter((p) => p.description !== "the whole question");
    return Response.json({ choices: [{ message: { role: "assistant", content: JSON.stringify({ phrases }) } }] });
  },
});
const llmSearcher = createContextSearcher({ ...ctx, config: { ...ctx.config, llmBaseUrl: `http://127.0.0.1:${llm.port}/v1`, llmTimeoutMs: 5000 } });
const askBoth = async (question: string) => {
  const args = { organization: "bench", natural_language_query: question, environment_name: "prod", package_name: "synthetic" };
  const t0 = performance.now();
  const local = await searcher.search(principal, args);
  const t1 = performance.now();
  const viaLlm = await llmSearcher.search(principal, args);
  const t2 = performance.now();
  if (viaLlm.retrieval !== "llm") throw new Error(`the loopback model was not used for '${question}'`);
  return { local: t1 - t0, llm: t2 - t1, localChars: JSON.stringify(local).length, llmChars: JSON.stringify(viaLlm).length };
};
for (const q of QUESTIONS.slice(0, 5)) await askBoth(q.question);
const both = [];
for (const q of QUESTIONS) both.push(await askBoth(q.question));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`get_context local vs LLM phrases (loopback model answering at once, ${both.length} questions): median ${median(both.map((b) => b.local)).toFixed(1)} ms vs ${median(both.map((b) => b.llm)).toFixed(1)} ms; median answer ${median(both.map((b) => b.localChars))} vs ${median(both.map((b) => b.llmChars))} characters`);
llm.stop(true);
await s.close();
