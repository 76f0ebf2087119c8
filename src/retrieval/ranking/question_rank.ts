/**
 * Ranking of `get_context`: one list of entities for a whole question.
 *
 * It starts from the plain averaged-word-vector score (cosine of the
 * question's mean word vector to the entity's vector) and adds only signals
 * that raised recall on the development set's tuning half and held on its
 * test half (`bun run eval`, test/eval/):
 * - rarity (IDF) weighting of the question's words, in the question vector
 *   and in word matching, so one generic word (`name`, `count`) cannot win;
 * - word matching on name and doc words, where a question word also meets
 *   its nearest neighbours among the scope's words (cosine of the word
 *   vectors at or above a threshold) and the lexicon's synonyms;
 * - values: a dimension whose indexed value is written in the question;
 * - kind cues: `how many`/`total`/`average` lean to measures, `by`/`per` to
 *   dimensions and views, `list`/`which` to dimensions and sources, `when`
 *   to date and timestamp dimensions, a one-word question to sources;
 * - one result per field: a field seen again through a join or an extended
 *   source collapses into its first place, which lists where else it appears;
 * - models before notebooks.
 *
 * @module
 */
import type { Embedder } from "../embedding/embedder.ts";
import { type ScopeIndex, stemmed, wordVectors } from "./scope_index.ts";
import { type EntityMatch, kindOrder } from "./types.ts";
import { containsIdentifier, containsWord, expandAbbreviations, stem, STOP_WORDS, words } from "../text/text_terms.ts";

/** Signals that {@link QuestionRankOptions.disable} can turn off (for the eval's ablation). */
type Signal = "idf" | "calibration" | "collapse" | "kinds" | "synonyms" | "values" | "lexical";

/** Options of {@link rankQuestionEntities}. */
export interface QuestionRankOptions {
  /** Results kept; default 20. */
  limit?: number;
  /** Cosine of two word vectors at or above which a scope word counts as a synonym; default {@link SYNONYM_THRESHOLD}. */
  synonymThreshold?: number;
  /** Signals turned off. */
  disable?: readonly Signal[];
  /** Weights of the blend (for tuning); default the tuned ones. */
  weights?: Partial<typeof WEIGHTS>;
}

/**
 * Word-vector cosine from which a scope word stands in for a question word.
 * Chosen on the eval's tuning half (0.75 beat 0.55-0.7 in both scopes) and
 * confirmed on the test half: package R@5 86.8% -> 87.4%, environment
 * 76.0% -> 76.6% (one question each, so within noise).
 */
const SYNONYM_THRESHOLD = 0.75;

/** A ranked entity with where else it appears (join or extend copies collapsed into it). */
export interface QuestionMatch extends EntityMatch {
  /** Other places of the same field: `source.path`. */
  alsoIn?: string[];
  /** The entity's name is written in the question. */
  exact?: boolean;
}

/** Kind cues of a question: which entity kinds it asks for. */
export function kindCues(question: string): { measure: boolean; grouping: boolean; listing: boolean; time: boolean } {
  const q = ` ${question.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ")} `;
  return {
    measure: /\b(how many|how much|number of|count|total|sum|average|avg|mean|median|rate|ratio|share|percent|percentage)\b/.test(q),
    grouping: /\b(by|per|for each|each|breakdown|broken down|split by|across)\b/.test(q),
    listing: /^\s*(list|which|what are the|show the|name the)\b/.test(q) || /\b(which|list)\b/.test(q),
    time: /^\s*when\b/.test(q) || /\b(what|which) (date|day|time|year)\b/.test(q),
  };
}

interface QuestionTerms {
  /** `word`: the question's word of the stem; `said`: a word of the scope for each neighbour stem (match reasons show words, not stems). */
  stems: Array<{ stem: string; word: string; weight: number; neighbours: Map<string, number>; said: Map<string, string> }>;
  vector: Float32Array | null;
  text: string;
  normalized: string;
}

/** Tuned weights (tuning half of the eval). */
const WEIGHTS = { bare: 0.2, bareWords: 1, time: 0.1, semantic: 0.55, lexical: 0.6, value: 0.8, kind: 0.15, notebook: 0.85, nameCoverage: 0.3, doc: 0.7, related: 0.7, floor: 0.3, neighbour: 0.3, context: 0.5, sourcePenalty: 0.2 };

/**
 * Ranks a scope's entities for a question, best first, each field once.
 *
 * @example
 * const scope = await prepareScope(entities, embedder, (e) => vectors.get(e.id));
 * const ranked = await rankQuestionEntities("late deliveries by carrier", scope, embedder);
 */
export async function rankQuestionEntities(
  question: string,
  scope: ScopeIndex,
  embedder: Embedder | null,
  options: QuestionRankOptions = {},
): Promise<QuestionMatch[]> {
  const off = new Set(options.disable ?? []);
  const W = { ...WEIGHTS, ...options.weights };
  const n = scope.entities.length;
  const idf = (s: string) => (off.has("idf") ? 1 : Math.log(1 + (n + 1) / (1 + (scope.df.get(s) ?? 0))));
  const raw = words(question).filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\d/.test(w)));
  const content = [...new Set(expandAbbreviations(raw).filter((w) => !STOP_WORDS.has(w)))];
  const wv = embedder ? await wordVectors(embedder, content) : new Map<string, Float32Array>();
  const threshold = options.synonymThreshold ?? SYNONYM_THRESHOLD;
  const terms: QuestionTerms = { stems: [], vector: null, text: question, normalized: stemmed(question) };
  const byStem = new Map<string, QuestionTerms["stems"][number]>();
  let vector: Float32Array | null = null;
  for (const w of content) {
    const s = stem(w);
    const weight = idf(s);
    let entry = byStem.get(s);
    if (!entry) {
      entry = { stem: s, word: w, weight, neighbours: new Map(), said: new Map() };
      byStem.set(s, entry);
      terms.stems.push(entry);
    }
    const v = wv.get(w);
    if (!v) continue;
    vector ??= new Float32Array(v.length);
    for (let i = 0; i < v.length; i++) vector[i]! += weight * v[i]!;
    if (off.has("synonyms")) continue;
    for (const u of scope.vocab) {
      if (u.stem === s) continue;
      let d = 0;
      for (let i = 0; i < v.length; i++) d += v[i]! * u.vector[i]!;
      if (d >= threshold && d > (entry.neighbours.get(u.stem) ?? 0)) entry.neighbours.set(u.stem, d), entry.said.set(u.stem, u.word);
    }
  }
  if (vector) {
    let norm = 0;
    for (const x of vector) norm += x * x;
    norm = Math.sqrt(norm);
    if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  }
  terms.vector = vector;
  const lowerQuestion = question.trim().toLowerCase();
  const totalWeight = terms.stems.reduce((s, t) => s + t.weight, 0);
  const cues = off.has("kinds") ? { measure: false, grouping: false, listing: false, time: false } : kindCues(question);

  // A question of a word or two and no other cue names a kind of thing: a source.
  const bare = !off.has("kinds") && raw.length <= W.bareWords && !cues.measure && !cues.grouping && !cues.time && !cues.listing;
  const padded = ` ${terms.normalized} `;
  // Entities that can match a word or a value of the question (the others score on meaning alone).
  const valuable = new Uint8Array(n);
  // Which of the question's stems can credit entity i (0: none, it scores on meaning alone): bit k for stem k when
  // the stem or one of its neighbours is among its words (postings hold name, doc, related and context words, all
  // that credits); the lexical loop skips the others, whose credit is 0. A stem past the 32nd sets every bit.
  const stemBits = new Uint32Array(n);
  terms.stems.forEach((t, k) => {
    const bit = k < 32 ? 1 << k : -1;
    for (const i of scope.postings.get(t.stem) ?? []) stemBits[i] = stemBits[i]! | bit;
    for (const u of t.neighbours.keys()) for (const i of scope.postings.get(u) ?? []) stemBits[i] = stemBits[i]! | bit;
  });
  const stems = terms.stems;
  for (const token of new Set([...terms.normalized.split(" "), ...question.split(/[^\p{L}\p{N}]+/u)])) {
    for (const i of scope.valuePostings.get(token) ?? []) valuable[i] = 1;
  }
  // Entities whose name is written in the question (`fresh_delay`, `carriers.code`, or the whole question): once per distinct name.
  const exactAt = new Uint8Array(n);
  for (const { written, identifier, at } of scope.names) {
    if (lowerQuestion === written || (identifier && containsIdentifier(lowerQuestion, written))) for (const i of at) exactAt[i] = 1;
  }
  // The calibration floor keeps loose cosines from outscoring real matches; when nothing clears it (a
  // question in words the scope's texts never use), the nearest entities are still answered, with their
  // low raw scores, rather than an empty answer (below).
  let floor = W.floor;
  const cosines = questionCosines(vector, scope.vectors);
  const [offCalibration, offLexical, offValues] = [off.has("calibration"), off.has("lexical"), off.has("values")];
  /** Scores entity `i`; with `detail`, also fills what the answer shows (no allocation otherwise). */
  const scoreAt = (i: number, detail?: Detail): number => {
    const e = scope.entities[i]!;
    const ew = scope.words[i]!;
    // Semantic: cosine of the (IDF-weighted) question vector to the entity vector.
    const cosine = cosines[i]!;
    const semantic = offCalibration ? cosine : Math.max(0, (cosine - floor) / (1 - floor));
    // Lexical: IDF-weighted share of question words met in the name, doc, synonyms or neighbours.
    let got = 0;
    let touchedName = 0;
    const bits = stemBits[i]!;
    if (!offLexical && totalWeight > 0 && bits !== 0) {
      for (let k = 0; k < stems.length; k++) {
        if (k < 32 && ((bits >>> k) & 1) === 0) continue;
        const t = stems[k]!;
        let credit = 0;
        let via = "";
        let nameWord = "";
        if (ew.name.has(t.stem)) credit = 1, via = t.word, nameWord = t.stem;
        else if (ew.doc.has(t.stem)) credit = W.doc, via = t.word;
        else if (ew.related.has(t.stem)) credit = W.related, via = t.word;
        if (credit < 1 && t.neighbours.size > 0) {
          for (const [u, d] of t.neighbours) {
            const c = W.neighbour * (ew.name.has(u) ? d : ew.doc.has(u) ? d * W.doc : 0);
            if (c > credit) credit = c, via = detail ? `${t.word}~${t.said.get(u) ?? u}` : u, nameWord = ew.name.has(u) ? u : "";
          }
        }
        if (credit < W.context && ew.context.has(t.stem)) credit = W.context, via = detail ? `${t.word} (source)` : t.word, nameWord = "";
        if (credit > 0) {
          got += t.weight * credit;
          if (nameWord !== "") touchedName++;
          if (detail) detail.hits.push(via);
        }
      }
    }
    let lexical = totalWeight > 0 ? got / totalWeight : 0;
    if (lexical > 0 && ew.nameList.length > 0 && !offCalibration) {
      const covered = Math.min(1, touchedName / ew.nameList.length);
      lexical *= 1 - W.nameCoverage + W.nameCoverage * covered;
    }
    // Values written in the question.
    let value = 0;
    let matchedValue: string | undefined;
    if (!offValues && valuable[i]) {
      for (const [v, normalized] of ew.values) {
        const s = valueMatch(terms.text, padded, v, normalized);
        if (s > value) value = s, matchedValue = v;
      }
    }
    // A name written in the question (`fresh_delay`, `carriers.code`, or the whole question) wins.
    const exact = exactAt[i]!;
    let score = W.semantic * semantic + W.lexical * lexical + W.value * value + exact;
    if (cues.measure && e.kind === "measure") score += W.kind;
    if (cues.measure && e.kind === "source") score -= W.sourcePenalty;
    if (cues.grouping && (e.kind === "dimension" || e.kind === "view")) score += W.kind / 2;
    if (cues.listing && (e.kind === "dimension" || e.kind === "source")) score += W.kind / 2;
    if (bare && e.kind === "source") score += W.bare;
    if (cues.time && e.kind === "dimension" && (e.dataType === "date" || e.dataType === "timestamp")) score += W.time;
    if (e.modelPath.endsWith(".malloynb")) score *= W.notebook;
    if (detail) Object.assign(detail, { lexical, semantic: cosine, value, exact: exact > 0, matchedValue });
    return score;
  };

  // Scores of all entities without allocating; details only for the best (and their join/extend copies).
  const scores = new Float64Array(n);
  for (let i = 0; i < n; i++) scores[i] = scoreAt(i);
  if (vector && floor > 0 && !scores.some((x) => x > 0)) {
    floor = 0;
    for (let i = 0; i < n; i++) scores[i] = scoreAt(i);
  }
  const limit = options.limit ?? 20;
  const keep = Math.min(n, limit * 4 + 40);
  const cut = keep < n ? nthSmallest(Float64Array.from(scores), n - keep) : -Infinity;
  const top: number[] = [];
  for (let i = 0; i < n; i++) if (scores[i]! > 0 && scores[i]! >= cut) top.push(i);
  top.sort((a, b) => scores[b]! - scores[a]! || kindOrder(scope.entities[a]!) - kindOrder(scope.entities[b]!));
  const scored: Array<QuestionMatch & { at: number; hits: string[] }> = top.map((i) => {
    const detail: Detail = { hits: [], lexical: 0, semantic: 0, value: 0, exact: false };
    scoreAt(i, detail);
    const { hits, matchedValue, exact, ...rest } = detail;
    return {
      entity: scope.entities[i]!, score: scores[i]!, matchReason: "", ...rest, at: i, hits,
      ...(exact ? { exact } : {}), ...(matchedValue !== undefined ? { matchedValue } : {}),
    };
  });
  const out: QuestionMatch[] = [];
  const firstOf = new Map<string, QuestionMatch>();
  const best = scored[0]?.score ?? 1;
  for (const scoredMatch of scored) {
    const { at, hits, ...m } = scoredMatch;
    const key = off.has("collapse") ? m.entity.id : scope.canonical.get(scope.entities[at]!)!;
    const first = firstOf.get(key);
    if (first) {
      const own = !m.entity.name.includes(".") && first.entity.name.includes(".");
      (first.alsoIn ??= []).push(own ? `${first.entity.sourceName}.${first.entity.name}` : `${m.entity.sourceName}.${m.entity.name}`);
      if (own) first.entity = m.entity;
      continue;
    }
    if (out.length >= limit) continue;
    m.matchReason = reason(m, hits);
    m.score = Math.round(Math.min(1, m.score / Math.max(best, 1)) * 1000) / 1000;
    firstOf.set(key, m);
    out.push(m);
  }
  return out;
}

/**
 * Cosine of the question vector to each entity vector (0 without either), in one tight loop over the
 * scope: the products summed in order, four per step (the same sums as one per step).
 */
function questionCosines(vector: Float32Array | null, vectors: ReadonlyArray<Float32Array | null>): Float64Array {
  const out = new Float64Array(vectors.length);
  if (!vector) return out;
  const dims = vector.length;
  const q = Float64Array.from(vector);
  const whole = dims - (dims % 4);
  for (let i = 0; i < vectors.length; i++) {
    const ev = vectors[i];
    if (!ev) continue;
    let cosine = 0;
    let j = 0;
    if (ev.length >= dims) {
      for (; j < whole; j += 4) {
        cosine += q[j]! * ev[j]!;
        cosine += q[j + 1]! * ev[j + 1]!;
        cosine += q[j + 2]! * ev[j + 2]!;
        cosine += q[j + 3]! * ev[j + 3]!;
      }
    }
    for (; j < dims; j++) cosine += q[j]! * ev[j]!;
    out[i] = cosine;
  }
  return out;
}

function reason(m: QuestionMatch, hits: string[]): string {
  if (m.exact) return "exact name match";
  const parts: string[] = [];
  if (m.matchedValue !== undefined) parts.push(`indexed value '${m.matchedValue}' of dimension ${m.entity.name}`);
  const direct = hits.filter((h) => !h.includes("~") && !h.endsWith("(source)"));
  const near = hits.filter((h) => h.includes("~"));
  const context = hits.filter((h) => h.endsWith("(source)")).map((h) => h.slice(0, -9));
  if (direct.length > 0) parts.push(`word match on ${quoteList(direct)}`);
  if (near.length > 0) parts.push(`synonym match: ${quoteList(near)}`);
  if (context.length > 0) parts.push(`source match on ${quoteList(context)}`);
  if (m.semantic > 0.3) parts.push(`semantic similarity ${m.semantic.toFixed(2)}`);
  else if (parts.length === 0 && m.semantic > 0) parts.push(`nearest in meaning, weak (semantic similarity ${m.semantic.toFixed(2)})`);
  return parts.join("; ") || "related";
}

function quoteList(items: string[]): string {
  return items.map((s) => `'${s}'`).join(", ");
}


/**
 * Score of an indexed value written in the question: short codes as a word, case kept; others (and the place
 * names a code stands for) by stemmed words.
 * A value written after an indefinite word ("salary of a player", "price of each item") names any member,
 * not the rows holding that value: no match.
 */
function valueMatch(text: string, padded: string, v: string, normalized: string): number {
  if (normalized === "") return v.length <= 3 && containsWord(text, v) ? 0.9 : 0;
  const at = padded.indexOf(normalized);
  if (!(at > 0 && padded[at - 1] === " " && padded[at + normalized.length] === " ")) return 0;
  return INDEFINITE.has(padded.slice(padded.lastIndexOf(" ", at - 2) + 1, at - 1)) ? 0 : 1;
}

/** Words before a value that make it any member of its kind rather than that value. */
const INDEFINITE: ReadonlySet<string> = new Set(["a", "an", "each", "every", "per", "any"]);

/**
 * The `k`th smallest of `xs` (0-based), what `xs.sort()[k]` is, in linear time on average
 * (Hoare's selection); reorders `xs`.
 */
function nthSmallest(xs: Float64Array, k: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  while (lo < hi) {
    const pivot = xs[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (xs[i]! < pivot) i++;
      while (xs[j]! > pivot) j--;
      if (i <= j) {
        const t = xs[i]!;
        xs[i] = xs[j]!;
        xs[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return xs[k]!;
  }
  return xs[k]!;
}

interface Detail {
  hits: string[];
  lexical: number;
  semantic: number;
  value: number;
  exact: boolean;
  matchedValue?: string;
}
