/**
 * `bun run eval`: recall@1, recall@5 and MRR of `get_context`'s ranking on
 * the development set (six public schemas, test/eval/packages.ts; questions
 * written before any score, test/eval/questions.ts), for the tuning and the
 * test half, in package and environment scope, beside two baselines
 * computed in the same run with the same embedding model: averaged word
 * vectors (mean of the words of the entity text, cosine) and BM25 over the
 * same text. Also per category on each half, the answer sizes, and for
 * each scope and half the share of answers whose first `next_steps` query
 * compiles and runs (on test/eval/schema.ts's Malloy model of the package)
 * and the share whose first query uses a target field.
 *
 * The held-out sets (never tuned on) are printed apart, with the same
 * figures: `heldout` (three more schemas, test/eval/heldout_*.ts; its
 * environment scope holds the nine packages of the development set and
 * itself), `heldout2` (two more, test/eval/heldout2_*.ts; environment
 * scope: the eleven packages of the sets before it), `heldout3` (three
 * more, test/eval/heldout3_*.ts, written before any score was run on it;
 * environment scope: the fourteen packages of the sets before it) and
 * `heldout4` (three more, test/eval/heldout4_*.ts, written before any score
 * was run on it; environment scope: the seventeen packages of the sets
 * before it and itself), `heldout5` (three more, test/eval/heldout5_*.ts,
 * written before any score was run on it; environment scope: the twenty
 * packages of the sets before it and itself), `heldout6` (three more,
 * test/eval/heldout6_*.ts, written before any score was run on it;
 * environment scope: the twenty-three packages of the sets before it and
 * itself), `heldout7` (three more, test/eval/heldout7_*.ts, written
 * before any score was run on it; environment scope: the twenty-six
 * packages of the sets before it and itself), `heldout8` (four more,
 * test/eval/heldout8_*.ts, written without reading the retrieval code or
 * its output and committed before any score was run on it; environment
 * scope: the thirty packages of the sets before it and itself) and
 * `heldout9` (four more, test/eval/heldout9_*.ts, transcribed from models
 * Malloy's authors wrote in malloydata/malloy-samples, written blind like
 * heldout8 and committed before any score was run on it; environment
 * scope: the thirty-four packages of the sets before it and itself) and
 * `heldout10` (four more, test/eval/heldout10_*.ts, transcribed from Malloy
 * models published outside malloy-samples, written blind like heldout9 and
 * committed before any score was run on it; environment scope: all
 * thirty-eight packages). `--tuning` scores the tuning half only;
 * `--sets tuning,heldout10` the sets named (for
 * tuning, the sets tuned on are never read more than once before and once
 * after). `--check` checks that every set's targets are entities of their
 * package, prints the questions and packages per set and exits before any
 * ranking (no score is computed).
 *
 * `--oracle-pick` scores the answers as if a language model picked the
 * targets among the 15 best-ranked fields every time (LLM_PICK's upper
 * bound; not a score of get_context).
 *
 * `--quick` scores `get_context` alone (no baselines, answer sizes or
 * next_steps: seconds instead of minutes, for sweeps). `--verbose` lists
 * the misses of every set scored but the test half (reading a set's misses
 * makes it a set tuned on: say so when you report it). `--explain
 * <package>:<question>` prints the top 15 of `get_context`'s ranking for one
 * question in package scope, with scores and match reasons.
 *
 * `--steps [a,b]` lists the first next steps that do not answer, with the
 * judge's reasons, for the sets named (default: the tuning half; reading a
 * set's misses makes it a set tuned on); `--answers` skips the ranking
 * tables (answers only); `--scope package|environment` scores one scope;
 * with `EVAL_TOP=1` each listed step also shows the six best matches.
 *
 * Run: `bun run eval [--tuning | --sets a,b] [--quick] [--verbose] [--ablate] [--explain pkg:question] [--check] [--steps a,b] [--answers] [--scope s]`.
 * @module
 */
import { getEmbedder } from "../../src/retrieval/embedding/embedder.ts";
import { embedEntities } from "../../src/retrieval/index/entity_vectors.ts";
import { entitiesFromMetadata, type EntityRecord } from "../../src/retrieval/index/entity_text.ts";
import { loadLexicon } from "../../src/retrieval/text/lexicon.ts";
import { buildContextResult } from "../../src/retrieval/answer/context_result.ts";
import { rankQuestionEntities, type QuestionRankOptions } from "../../src/retrieval/ranking/question_rank.ts";
import { pickedFirst } from "../../src/retrieval/ranking/llm_pick.ts";
import { prepareScope, type ScopeIndex } from "../../src/retrieval/ranking/scope_index.ts";
import { phraseEmbeddingText } from "../../src/retrieval/answer/answer_types.ts";
import { splitPhrases } from "../../src/retrieval/text/phrases.ts";
import { mergeRankings, rankEntities } from "../../src/retrieval/ranking/rank.ts";
import type { RankPhrase } from "../../src/retrieval/ranking/types.ts";
import { contentStems, splitName } from "../../src/retrieval/text/text_terms.ts";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CompiledModel, compileModel, createPackageRuntime, runQuery } from "../../src/engine/mod.ts";
import { judgeFirstStep, shapeOf } from "./judge_shape.ts";
import { EVAL_PACKAGES } from "./packages.ts";
import { EVAL_QUESTIONS, half, type EvalQuestion } from "./questions.ts";
import { HELDOUT_PACKAGES } from "./heldout_packages.ts";
import { HELDOUT_QUESTIONS } from "./heldout_questions.ts";
import { HELDOUT2_PACKAGES } from "./heldout2_packages.ts";
import { HELDOUT2_QUESTIONS } from "./heldout2_questions.ts";
import { HELDOUT3_PACKAGES } from "./heldout3_packages.ts";
import { HELDOUT3_QUESTIONS } from "./heldout3_questions.ts";
import { HELDOUT4_PACKAGES } from "./heldout4_packages.ts";
import { HELDOUT4_QUESTIONS } from "./heldout4_questions.ts";
import { HELDOUT5_PACKAGES } from "./heldout5_packages.ts";
import { HELDOUT5_QUESTIONS } from "./heldout5_questions.ts";
import { HELDOUT6_PACKAGES } from "./heldout6_packages.ts";
import { HELDOUT6_QUESTIONS } from "./heldout6_questions.ts";
import { HELDOUT7_PACKAGES } from "./heldout7_packages.ts";
import { HELDOUT7_QUESTIONS } from "./heldout7_questions.ts";
import { HELDOUT8_PACKAGES } from "./heldout8_packages.ts";
import { HELDOUT8_QUESTIONS } from "./heldout8_questions.ts";
import { HELDOUT9_PACKAGES } from "./heldout9_packages.ts";
import { HELDOUT9_QUESTIONS } from "./heldout9_questions.ts";
import { HELDOUT10_PACKAGES } from "./heldout10_packages.ts";
import { HELDOUT10_QUESTIONS } from "./heldout10_questions.ts";

const argv = process.argv.slice(2);
const args = new Set(argv);
const embedder = await getEmbedder();
if (!embedder) throw new Error("the embedding model did not load; the eval needs it (see src/retrieval/embedding/embedder.ts)");
const lexicon = loadLexicon();

// Entities of every package, ids prefixed by the package (as the database's ids are unique).
const byPackage = new Map<string, EntityRecord[]>();
const canonicalOf = new Map<string, string>();
const pkgOf = new Map<string, string>();
const PACKAGES = [...EVAL_PACKAGES, ...HELDOUT_PACKAGES, ...HELDOUT2_PACKAGES, ...HELDOUT3_PACKAGES, ...HELDOUT4_PACKAGES, ...HELDOUT5_PACKAGES, ...HELDOUT6_PACKAGES,
  ...HELDOUT7_PACKAGES, ...HELDOUT8_PACKAGES, ...HELDOUT9_PACKAGES, ...HELDOUT10_PACKAGES];
for (const pkg of PACKAGES) {
  const list: EntityRecord[] = [];
  for (const m of pkg.models) {
    for (const e of entitiesFromMetadata(m, {}, { values: pkg.values, lexicon })) {
      const entity: EntityRecord = { ...e, id: `${pkg.name}/${e.id}`, origin: { environmentName: "dev", packageName: pkg.name, versionId: "1" } };
      list.push(entity);
      const key = e.kind === "source" ? e.name : `${e.sourceName}.${e.name}`;
      canonicalOf.set(entity.id, pkg.canonical.get(key) ?? key);
      pkgOf.set(entity.id, pkg.name);
    }
  }
  byPackage.set(pkg.name, list);
}
const all = EVAL_PACKAGES.flatMap((p) => byPackage.get(p.name)!);
/** The held-out set's environment scope: the development set's packages and its own. */
const allWithHeldout = [...EVAL_PACKAGES, ...HELDOUT_PACKAGES].flatMap((p) => byPackage.get(p.name)!);
/** The second held-out set's environment scope: the packages of the development set and the first two held-out sets. */
const withHeldout2 = [...EVAL_PACKAGES, ...HELDOUT_PACKAGES, ...HELDOUT2_PACKAGES].flatMap((p) => byPackage.get(p.name)!);
/** The third held-out set's environment scope: the packages of the development set and the first three held-out sets. */
const withHeldout3 = [...EVAL_PACKAGES, ...HELDOUT_PACKAGES, ...HELDOUT2_PACKAGES, ...HELDOUT3_PACKAGES].flatMap((p) => byPackage.get(p.name)!);
/** The fourth held-out set's environment scope: the packages of the development set and the first four held-out sets. */
const withHeldout4 = [...EVAL_PACKAGES, ...HELDOUT_PACKAGES, ...HELDOUT2_PACKAGES, ...HELDOUT3_PACKAGES, ...HELDOUT4_PACKAGES].flatMap((p) => byPackage.get(p.name)!);
/** The fifth held-out set's environment scope: the packages of the development set and the first five held-out sets. */
const withHeldout5 = [...EVAL_PACKAGES, ...HELDOUT_PACKAGES, ...HELDOUT2_PACKAGES, ...HELDOUT3_PACKAGES, ...HELDOUT4_PACKAGES, ...HELDOUT5_PACKAGES]
  .flatMap((p) => byPackage.get(p.name)!);
/** The sixth held-out set's environment scope: the packages of the development set and the first six held-out sets. */
const withHeldout6 = [...EVAL_PACKAGES, ...HELDOUT_PACKAGES, ...HELDOUT2_PACKAGES, ...HELDOUT3_PACKAGES, ...HELDOUT4_PACKAGES, ...HELDOUT5_PACKAGES,
  ...HELDOUT6_PACKAGES].flatMap((p) => byPackage.get(p.name)!);
/** The seventh held-out set's environment scope: the packages of the development set and the first seven held-out sets. */
const withHeldout7 = [...EVAL_PACKAGES, ...HELDOUT_PACKAGES, ...HELDOUT2_PACKAGES, ...HELDOUT3_PACKAGES, ...HELDOUT4_PACKAGES, ...HELDOUT5_PACKAGES,
  ...HELDOUT6_PACKAGES, ...HELDOUT7_PACKAGES].flatMap((p) => byPackage.get(p.name)!);
/** The eighth held-out set's environment scope: the packages of the development set and the first eight held-out sets. */
const withHeldout8 = [...EVAL_PACKAGES, ...HELDOUT_PACKAGES, ...HELDOUT2_PACKAGES, ...HELDOUT3_PACKAGES, ...HELDOUT4_PACKAGES, ...HELDOUT5_PACKAGES,
  ...HELDOUT6_PACKAGES, ...HELDOUT7_PACKAGES, ...HELDOUT8_PACKAGES].flatMap((p) => byPackage.get(p.name)!);
/** The ninth held-out set's environment scope: the packages of the development set and the first nine held-out sets. */
const withHeldout9 = [...EVAL_PACKAGES, ...HELDOUT_PACKAGES, ...HELDOUT2_PACKAGES, ...HELDOUT3_PACKAGES, ...HELDOUT4_PACKAGES, ...HELDOUT5_PACKAGES,
  ...HELDOUT6_PACKAGES, ...HELDOUT7_PACKAGES, ...HELDOUT8_PACKAGES, ...HELDOUT9_PACKAGES].flatMap((p) => byPackage.get(p.name)!);
/** The tenth held-out set's environment scope: every package. */
const everything = [...byPackage.values()].flat();
const ENVIRONMENTS: Record<string, EntityRecord[]> = {
  heldout: allWithHeldout, heldout2: withHeldout2, heldout3: withHeldout3, heldout4: withHeldout4, heldout5: withHeldout5, heldout6: withHeldout6,
  heldout7: withHeldout7, heldout8: withHeldout8, heldout9: withHeldout9, heldout10: everything,
};
const environmentOf = (label: string) => ENVIRONMENTS[label] ?? all;
const vectors = new Map<string, Float32Array>();
(await embedEntities(embedder, everything)).forEach((v, i) => v && vectors.set(everything[i]!.id, v));
const plain = new Map<string, Float32Array>();
(await embedder.embed(everything.map((e) => e.text))).forEach((v, i) => v && plain.set(everything[i]!.id, v));

// `--explain <package>:<question>`: the top 15 of get_context's ranking with scores and match reasons, then exit.
const explain = args.has("--explain") ? argv[argv.indexOf("--explain") + 1] : undefined;
if (explain) {
  const [pkgName, ...rest] = explain.split(":");
  const entities = byPackage.get(pkgName!);
  if (!entities) throw new Error(`--explain: unknown package '${pkgName}' (packages: ${[...byPackage.keys()].join(", ")})`);
  const scope = await prepareScope(entities, embedder, (e) => vectors.get(e.id));
  const ranked = await rankQuestionEntities(rest.join(":"), scope, embedder, { limit: 15 });
  for (const [i, m] of ranked.entries()) {
    console.log(`${String(i + 1).padStart(2)}. ${canonicalOf.get(m.entity.id)}  score ${m.score.toFixed(3)}  semantic ${m.semantic.toFixed(3)}  lexical ${m.lexical.toFixed(3)}  ${m.matchReason}${m.alsoIn ? `  (also ${m.alsoIn.join(", ")})` : ""}`);
  }
  process.exit(0);
}

// Check the targets exist.
for (const q of [...EVAL_QUESTIONS, ...HELDOUT_QUESTIONS, ...HELDOUT2_QUESTIONS, ...HELDOUT3_QUESTIONS, ...HELDOUT4_QUESTIONS, ...HELDOUT5_QUESTIONS, ...HELDOUT6_QUESTIONS,
  ...HELDOUT7_QUESTIONS, ...HELDOUT8_QUESTIONS, ...HELDOUT9_QUESTIONS, ...HELDOUT10_QUESTIONS]) {
  for (const t of q.targets) {
    const key = t.split("=")[0]!;
    if (!byPackage.get(q.pkg)!.some((e) => canonicalOf.get(e.id) === key)) throw new Error(`target '${t}' of '${q.question}' is not an entity of ${q.pkg}`);
  }
}
// `--check`: the targets are entities of their package (checked above); one line per set's questions and packages, then exit before any ranking.
if (args.has("--check")) {
  const sets: Record<string, EvalQuestion[]> = { development: EVAL_QUESTIONS, heldout: HELDOUT_QUESTIONS, heldout2: HELDOUT2_QUESTIONS,
    heldout3: HELDOUT3_QUESTIONS, heldout4: HELDOUT4_QUESTIONS, heldout5: HELDOUT5_QUESTIONS, heldout6: HELDOUT6_QUESTIONS,
    heldout7: HELDOUT7_QUESTIONS, heldout8: HELDOUT8_QUESTIONS, heldout9: HELDOUT9_QUESTIONS, heldout10: HELDOUT10_QUESTIONS };
  console.log(`targets checked: ${Object.entries(sets).map(([name, qs]) => `${name} ${qs.length} questions / ${new Set(qs.map((q) => q.pkg)).size} packages`).join(", ")}`);
  process.exit(0);
}

type Ranker = (question: string, entities: EntityRecord[], scope: "package" | "environment") => Promise<EntityRecord[]>;

const dot = (a: Float32Array, b: Float32Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

/** Averaged word vectors: cosine of the question's mean vector to the entity text's mean vector. */
const averaged: Ranker = async (question, entities) => {
  const [q] = await embedder.embed([question]);
  if (!q) return [];
  return entities.map((e) => [e, plain.has(e.id) ? dot(q, plain.get(e.id)!) : -2] as const)
    .sort((a, b) => b[1] - a[1]).map(([e]) => e);
};

/** BM25 (k1 1.2, b 0.75) over the entity text's stemmed words. */
const bm25Stats = new WeakMap<EntityRecord[], { docs: Map<string, string[]>; df: Map<string, number>; avg: number }>();
const bm25: Ranker = async (question, entities) => {
  let stats = bm25Stats.get(entities);
  if (!stats) {
    const docs = new Map(entities.map((e) => [e.id, contentStems(`${splitName(e.name).join(" ")} ${e.text}`, { expand: true })] as const));
    const df = new Map<string, number>();
    for (const d of docs.values()) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
    const avg = [...docs.values()].reduce((s, d) => s + d.length, 0) / Math.max(1, docs.size);
    stats = { docs, df, avg };
    bm25Stats.set(entities, stats);
  }
  const terms = contentStems(question, { expand: true });
  const n = entities.length;
  return entities.map((e) => {
    const d = stats.docs.get(e.id)!;
    let s = 0;
    for (const t of terms) {
      const f = d.filter((x) => x === t).length;
      if (f === 0) continue;
      const df = stats.df.get(t) ?? 0;
      s += Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (f * 2.2) / (f + 1.2 * (0.25 + 0.75 * d.length / stats.avg));
    }
    return [e, s] as const;
  }).sort((a, b) => b[1] - a[1]).map(([e]) => e);
};

const scopes = new WeakMap<EntityRecord[], ScopeIndex>();
function rankerWith(options: QuestionRankOptions): Ranker {
  return async (question, entities) => {
    let scope = scopes.get(entities);
    if (!scope) scopes.set(entities, scope = await prepareScope(entities, embedder!, (e) => vectors.get(e.id)));
    return (await rankQuestionEntities(question, scope, embedder!, options)).map((m) => m.entity);
  };
}

interface Score { n: number; r1: number; r5: number; mrr: number }
const empty = (): Score => ({ n: 0, r1: 0, r5: 0, mrr: 0 });

function rankOf(q: EvalQuestion, list: EntityRecord[]): number {
  const wanted = new Set(q.targets.map((t) => `${q.pkg}|${t.split("=")[0]}`));
  return list.findIndex((e) => wanted.has(`${pkgOf.get(e.id)}|${canonicalOf.get(e.id)}`));
}

async function evaluate(ranker: Ranker, scope: "package" | "environment", questions: EvalQuestion[], misses?: string[], environment = all): Promise<Map<string, Score>> {
  const out = new Map<string, Score>();
  const add = (key: string, rank: number) => {
    const s = out.get(key) ?? empty();
    s.n++;
    if (rank === 0) s.r1++;
    if (rank >= 0 && rank < 5) s.r5++;
    if (rank >= 0) s.mrr += 1 / (rank + 1);
    out.set(key, s);
  };
  for (const q of questions) {
    const entities = scope === "package" ? byPackage.get(q.pkg)! : environment;
    const list = await ranker(q.question, entities, scope);
    const rank = rankOf(q, list);
    add("all", rank);
    add(q.category, rank);
    if (misses && (rank < 0 || rank >= 5)) {
      misses.push(`[${q.category}] ${q.question} -> ${q.targets.join(" | ")} (rank ${rank < 0 ? "-" : rank + 1}); top: ${list.slice(0, 5).map((e) => `${canonicalOf.get(e.id)}${e.kind === "source" ? "" : ` (${e.sourceName}.${e.name})`}`).join(", ")}`);
    }
  }
  return out;
}

const pct = (a: number, n: number) => `${((100 * a) / Math.max(1, n)).toFixed(1)}%`;
const fmt = (s: Score) => `R@1 ${pct(s.r1, s.n).padStart(6)}  R@5 ${pct(s.r5, s.n).padStart(6)}  MRR ${(s.mrr / Math.max(1, s.n)).toFixed(3)}`;

const SETS: Record<string, EvalQuestion[]> = {
  tuning: EVAL_QUESTIONS.filter((q) => half(q) === "tuning"),
  test: EVAL_QUESTIONS.filter((q) => half(q) === "test"),
  heldout: HELDOUT_QUESTIONS,
  heldout2: HELDOUT2_QUESTIONS,
  heldout3: HELDOUT3_QUESTIONS,
  heldout4: HELDOUT4_QUESTIONS,
  heldout5: HELDOUT5_QUESTIONS,
  heldout6: HELDOUT6_QUESTIONS,
  heldout7: HELDOUT7_QUESTIONS,
  heldout8: HELDOUT8_QUESTIONS,
  heldout9: HELDOUT9_QUESTIONS,
  heldout10: HELDOUT10_QUESTIONS,
};
const setsArg = argv[argv.indexOf("--sets") + 1];
const chosen = args.has("--sets") && setsArg ? setsArg.split(",") : args.has("--tuning") || process.env.EVAL_SWEEP ? ["tuning"] : Object.keys(SETS);
for (const name of chosen) if (!SETS[name]) throw new Error(`unknown set '${name}' (sets: ${Object.keys(SETS).join(", ")})`);
const halves: Record<string, EvalQuestion[]> = Object.fromEntries(chosen.map((name) => [name, SETS[name]!]));
console.log(`development set: ${EVAL_QUESTIONS.length} questions over ${EVAL_PACKAGES.length} packages (${all.length} entities); tuning ${SETS.tuning!.length}, test ${SETS.test!.length}`);
console.log(`held-out set: ${HELDOUT_QUESTIONS.length} questions over ${HELDOUT_PACKAGES.length} more packages (environment scope: the ${allWithHeldout.length} entities of the nine)`);
console.log(`second held-out set: ${HELDOUT2_QUESTIONS.length} questions over ${HELDOUT2_PACKAGES.length} more packages (environment scope: the ${withHeldout2.length} entities of the eleven)`);
console.log(`third held-out set: ${HELDOUT3_QUESTIONS.length} questions over ${HELDOUT3_PACKAGES.length} more packages (environment scope: the ${withHeldout3.length} entities of the fourteen)`);
console.log(`fourth held-out set: ${HELDOUT4_QUESTIONS.length} questions over ${HELDOUT4_PACKAGES.length} more packages (environment scope: the ${withHeldout4.length} entities of the seventeen)`);
console.log(`fifth held-out set: ${HELDOUT5_QUESTIONS.length} questions over ${HELDOUT5_PACKAGES.length} more packages (environment scope: the ${withHeldout5.length} entities of the twenty)`);
console.log(`sixth held-out set: ${HELDOUT6_QUESTIONS.length} questions over ${HELDOUT6_PACKAGES.length} more packages (environment scope: the ${withHeldout6.length} entities of the twenty-three)`);
console.log(`seventh held-out set: ${HELDOUT7_QUESTIONS.length} questions over ${HELDOUT7_PACKAGES.length} more packages (environment scope: the ${withHeldout7.length} entities of the twenty-six)`);
console.log(`eighth held-out set: ${HELDOUT8_QUESTIONS.length} questions over ${HELDOUT8_PACKAGES.length} more packages (environment scope: the ${withHeldout8.length} entities of the thirty)`);
console.log(`ninth held-out set: ${HELDOUT9_QUESTIONS.length} questions over ${HELDOUT9_PACKAGES.length} more packages (environment scope: the ${withHeldout9.length} entities of the thirty-four)`);
console.log(`tenth held-out set: ${HELDOUT10_QUESTIONS.length} questions over ${HELDOUT10_PACKAGES.length} more packages (environment scope: all ${everything.length} entities)`);
console.log(`scored: ${chosen.join(", ")}`);

/** The ranking before issue 16 (phrases, 30 nearest neighbours per phrase, lexical blend, merged turns). */
const before: Ranker = async (question, entities) => {
  const { phrases } = await splitPhrases(question, { baseUrl: "" });
  const vs = await embedder.embed(phrases.map((p) => phraseEmbeddingText(p.phrase)));
  const ranked: RankPhrase[] = phrases.map((p, i) => {
    const v = vs[i];
    const sims = new Map<string, number>();
    if (v) {
      entities.map((e) => [e.id, vectors.has(e.id) ? dot(v, vectors.get(e.id)!) : -2] as const)
        .sort((a, b) => b[1] - a[1]).slice(0, 30).forEach(([id, s]) => sims.set(id, s));
    }
    return { ...p, similarities: sims };
  });
  return mergeRankings(rankEntities(ranked, entities, { lexicon })).map((m) => m.entity);
};

const methods: Array<[string, Ranker]> = [
  ["get_context", rankerWith({})],
  ["before (main dbe4742)", before],
  ["averaged vectors", averaged],
  ["BM25", bm25],
];
if (process.env.EVAL_SWEEP) {
  // EVAL_SWEEP='{"synonymThreshold":[0.6,0.8]}' or '{"weights.lexical":[0.4,0.8]}': one variant per value (tuning half only, or the sets of --sets).
  for (const [key, list] of Object.entries(JSON.parse(process.env.EVAL_SWEEP) as Record<string, number[]>)) {
    for (const value of list) {
      // EVAL_BASE='{"softFloor":0.5}': weights every variant starts from (to sweep one weight beside another).
      const base = JSON.parse(process.env.EVAL_BASE ?? "{}") as Record<string, number>;
      const options: QuestionRankOptions = key.startsWith("weights.") ? { weights: { ...base, [key.slice(8)]: value } } : { [key]: value, weights: base };
      methods.push([`${key}=${value}`, rankerWith(options)]);
    }
  }
}
if (args.has("--ablate")) {
  for (const off of ["idf", "calibration", "collapse", "kinds", "synonyms", "values", "lexical"] as const) {
    methods.push([`without ${off}`, rankerWith({ disable: [off] })]);
  }
}
if (args.has("--quick")) methods.splice(1, 3);
const categories = ["syn", "noword", "value", "trap", "join", "kind"];
for (const scope of args.has("--answers") ? [] : (["package", "environment"] as const)) {
  for (const [name, ranker] of methods) {
    for (const [label, set] of Object.entries(halves)) {
      const misses: string[] = [];
      const scores = await evaluate(ranker, scope, set, args.has("--verbose") && name === "get_context" && label !== "test" ? misses : undefined,
        environmentOf(label));
      const cats = categories.map((c) => `${c} ${pct(scores.get(c)?.r5 ?? 0, scores.get(c)?.n ?? 0)}`).join(", ");
      const noword = scores.get("noword") ?? empty();
      console.log(`${scope.padEnd(11)} ${label.padEnd(8)} ${name.padEnd(22)} ${fmt(scores.get("all")!)}   noword ${noword.r5}/${noword.n}   R@5 by category: ${cats}`);
      if (misses.length > 0) console.log(`  misses (${scope}, ${label}):\n    ${misses.join("\n    ")}`);
    }
  }
}

// Answer sizes and next_steps: the get_context answer for every question, environment scope. The first
// next_step's query runs on a Malloy model of the step's package (test/eval/schema.ts, a few rows of DuckDB data).
const compiled = new Map<string, Promise<CompiledModel>>();
const modelOf = (pkgName: string) => {
  let known = compiled.get(pkgName);
  if (!known) {
    const pkg = PACKAGES.find((p) => p.name === pkgName)!;
    const path = pkg.models[0]!.modelPath;
    const runtime = createPackageRuntime(new Map([[path, new TextEncoder().encode(pkg.malloy)]]), mkdtempSync(join(tmpdir(), "eval-model-")));
    compiled.set(pkgName, known = compileModel(runtime, path));
  }
  return known;
};
if (args.has("--quick")) process.exit(0);
const stepFailures: string[] = [];
/** Canonical target of a field or source named in an answer, by `package|source|name`. */
const canonicalByName = new Map<string, string>();
for (const [pkgName, list] of byPackage) for (const e of list) canonicalByName.set(`${pkgName}|${e.sourceName}|${e.kind === "source" ? "" : e.name}`, canonicalOf.get(e.id)!);
/** `--steps a,b`: the sets whose first queries that do not answer are listed (default: the tuning half). */
const stepsArg = argv[argv.indexOf("--steps") + 1];
const stepSets = new Set(args.has("--steps") ? (stepsArg && !stepsArg.startsWith("--") ? stepsArg.split(",") : ["tuning"]) : []);
const answerScopes = args.has("--scope") ? [argv[argv.indexOf("--scope") + 1] as "package" | "environment"] : (["package", "environment"] as const);
for (const scopeName of answerScopes) {
  const tallies = Object.fromEntries(Object.keys(halves).map((label) => [label, { n: 0, runs: 0, target: 0, found: 0, shaped: 0, answers: 0, sizes: [] as number[] }]));
  for (const [label, set] of Object.entries(halves)) for (const q of set) {
    const entities = scopeName === "package" ? byPackage.get(q.pkg)! : environmentOf(label);
    let scope = scopes.get(entities);
    if (!scope) scopes.set(entities, scope = await prepareScope(entities, embedder, (e) => vectors.get(e.id)));
    const ranked = oraclePick(q, await rankQuestionEntities(q.question, scope, embedder, {}));
    const result = buildContextResult([{ phrase: q.question, description: "the question", matches: ranked }], { question: q.question, scope: entities });
    const tally = tallies[label]!;
    tally.sizes.push(JSON.stringify(result).length);
    tally.n++;
    if (foundInAnswer(q, result)) tally.found++;
    const { pkg, query } = firstStepQuery(result.next_steps[0] ?? "");
    // "The first next step answers the question", by the judges' expected shape (test/eval/judge_shape.ts), where one was written.
    const shape = shapeOf(q.pkg, q.question);
    if (shape !== undefined) {
      tally.shaped++;
      const verdict = pkg === q.pkg && query ? await judgeFirstStep(PACKAGES.find((p) => p.name === q.pkg)!, q.question, query) : undefined;
      if (verdict?.answers) tally.answers++;
      if (stepSets.has(label) && !verdict?.answers) {
        console.log(`  [${scopeName} ${label}] ${q.pkg} | ${q.question}  (expected ${shape})\n      ${(query ?? "").replace(/\n\s*/g, " ")}\n      ${verdict ? verdict.reasons.join(" / ") : `step in package ${pkg}`}`);
        if (process.env.EVAL_TOP) console.log(`      top: ${ranked.slice(0, 6).map((m) => `${m.entity.kind[0]}:${m.entity.sourceName}.${m.entity.name}${m.entity.kind === "dimension" ? `/${m.entity.dataType}` : ""} ${m.score.toFixed(2)}/${m.lexical.toFixed(2)}`).join(", ")}`);
      }
    }
    if (!pkg || !query) continue;
    try {
      await runQuery(await modelOf(pkg), { query, rowLimit: 10 });
      tally.runs++;
    } catch (error) {
      stepFailures.push(`${q.question}: ${(error as Error).message.split("\n").slice(0, 2).join(" ")}\n      ${query.replace(/\n\s*/g, " ")}`);
      continue;
    }
    if (pkg === q.pkg && q.targets.some((t) => usesTarget(query, t.split("=")[0]!))) tally.target++;
  }
  for (const [label, t] of Object.entries(tallies)) {
    t.sizes.sort((a, b) => a - b);
    const size = `median ${t.sizes[Math.floor(t.sizes.length / 2)]} chars, p95 ${t.sizes[Math.floor(t.sizes.length * 0.95)]}`;
    console.log(`answer     ${scopeName.padEnd(11)} ${label.padEnd(8)} (${t.n} answers): target found in the answer ${pct(t.found, t.n)}; size ${size}; first query runs ${pct(t.runs, t.n)}, uses a target ${pct(t.target, t.n)}, answers the question ${t.shaped > 0 ? `${pct(t.answers, t.shaped)} (${t.answers}/${t.shaped} with a shape)` : "- (no shapes)"}`);
  }
}
if (args.has("--verbose") && stepFailures.length > 0) console.log(`  first queries that fail:\n    ${stepFailures.join("\n    ")}`);

/**
 * With `--oracle-pick`: the ranking as a language model that always picks right would leave it (LLM_PICK,
 * ranking/llm_pick.ts `pickedFirst`): the targets among the 15 best-ranked fields move to the top. An
 * upper bound of the pick step for a deployment with a model, never a score of get_context.
 */
function oraclePick(q: EvalQuestion, ranked: Awaited<ReturnType<typeof rankQuestionEntities>>): Awaited<ReturnType<typeof rankQuestionEntities>> {
  if (!args.has("--oracle-pick")) return ranked;
  const wanted = new Set(q.targets.map((t) => t.split("=")[0]!));
  const candidates = ranked.filter((m) => m.entity.kind !== "source").slice(0, 15);
  const picked = candidates.filter((m) => wanted.has(canonicalByName.get(`${m.entity.origin?.packageName ?? q.pkg}|${m.entity.sourceName}|${m.entity.name}`) ?? ""));
  return picked.length > 0 ? pickedFirst(ranked, picked) as typeof ranked : ranked;
}

/**
 * True when a target of the question is named anywhere in the answer: a matched entity, a returned source's
 * field list (a join's fields by their path), or a close source's name, matched fields or field names.
 */
function foundInAnswer(q: EvalQuestion, result: ReturnType<typeof buildContextResult>): boolean {
  const wanted = new Set(q.targets.map((t) => t.split("=")[0]!));
  const named = (pkgName: string | undefined, source: string, name: string) => wanted.has(canonicalByName.get(`${pkgName}|${source}|${name}`) ?? "");
  for (const s of result.sources) {
    if (s.package_name !== q.pkg) continue;
    if (named(s.package_name, s.source_name, "")) return true;
    if (s.phrases.some((p) => p.entities.some((e) => named(s.package_name, s.source_name, e.name)))) return true;
    const walk = (fields: NonNullable<typeof s.fields>, prefix: string): boolean =>
      fields.some((f) => named(s.package_name, s.source_name, prefix + f.name) || (f.fields !== undefined && walk(f.fields, `${prefix}${f.name}.`)));
    if (s.fields && walk(s.fields, "")) return true;
  }
  return (result.close_sources ?? []).some((c) => c.package_name === q.pkg &&
    (named(c.package_name, c.source_name, "") || [...c.matched, ...(c.fields ?? [])].some((m) => named(c.package_name, c.source_name, m))));
}

/** The package and the Malloy query of a first next_step (a source's query, or the first named query). */
function firstStepQuery(step: string): { pkg?: string; query?: string } {
  const pkg = /package_name '([^']+)'/.exec(step)?.[1];
  const at = step.indexOf("run: ");
  if (at < 0) return { pkg };
  const named = /query 'run: ([^']+)'/.exec(step);
  return { pkg, query: named ? `run: ${named[1]}` : step.slice(at) };
}

/**
 * True when the query uses the target: a source target is the query's source; a field target
 * (`source.field`) is named in the query of its own source, or through a join path (`join.field`).
 */
function usesTarget(query: string, target: string): boolean {
  const dot = target.indexOf(".");
  const source = /^run: `?([^`\s]+)`? ->/.exec(query)?.[1];
  if (dot < 0) return source === target;
  const name = target.slice(dot + 1).replace(/[^\w]/g, "\\$&");
  const body = query.slice(query.indexOf("->"));
  if (source === target.slice(0, dot) && new RegExp(`(^|[^\\w.])\`?${name}\`?($|[^\\w])`).test(body)) return true;
  return new RegExp(`\\.\`?${name}\`?($|[^\\w])`).test(body);
}
