/**
 * Scoring of one entity against one phrase: lexical matching (names, docs,
 * synonyms, source), indexed-value matching and the semantic similarity
 * given by the caller, blended into one 0..1 score with its reasons.
 *
 * @module
 */
import type { EntityRecord } from "../index/entity_text.ts";
import type { PhraseTerms } from "./phrase_terms.ts";
import type { EntityMatch, RankOptions } from "./types.ts";
import { containsIdentifier, containsWord, expandAbbreviations, splitName, stem, STOP_WORDS, words } from "../text/text_terms.ts";

interface EntityTerms {
  name: Set<string>;
  doc: Set<string>;
  related: Set<string>;
  /** Last words of two-word related lemmas (`gross profit` -> `profit`): a kind of what the lemma names. */
  relatedHeads: Set<string>;
  context: Set<string>;
  /** One set of stems per name word: the word and its expansion. */
  nameWords: Set<string>[];
  /** Stemmed pairs of consecutive name words, stop words kept (`"on time"`). */
  namePairs: Set<string>;
  /** Longer name and doc stems, for prefix matching (`cancel` / `cancellat`). */
  long: string[];
  normalizedName: string;
  normalizedExpanded: string;
  /** The name, lowercase. */
  written: string;
  /** True when the name is an identifier one could write in a phrase (`a_b`, `a.b`, `aB`). */
  identifier: boolean;
  /** Distinct name, doc and related terms (the entity's vocabulary, for IDF). */
  vocabulary: string[];
  /** Indexed values, trimmed, with their words joined by one space (`""` for short codes). */
  values: Array<[value: string, normalized: string]>;
}

const entityTermsCache = new WeakMap<EntityRecord, EntityTerms>();

function termsOf(entity: EntityRecord): EntityTerms {
  let terms = entityTermsCache.get(entity);
  if (terms) return terms;
  const nameSplit = splitName(entity.name);
  const last = splitName(entity.name.split(".").at(-1) ?? entity.name);
  terms = {
    name: new Set(entity.lexicalTerms.name),
    doc: new Set(entity.lexicalTerms.doc),
    related: new Set(entity.lexicalTerms.related),
    relatedHeads: new Set(entity.lexicalTerms.related.filter((r) => r.includes(" ")).map((r) => r.split(" ")[1]!)),
    context: new Set(entity.lexicalTerms.context),
    nameWords: last.filter((w) => !STOP_WORDS.has(w))
      .map((w) => new Set([stem(w), ...expandAbbreviations([w]).map(stem)])),
    namePairs: new Set(pairsOf(expandAbbreviations(nameSplit))),
    long: [...new Set([...entity.lexicalTerms.name, ...entity.lexicalTerms.doc])].filter((t) => t.length >= 6),
    normalizedName: nameSplit.join(" "),
    normalizedExpanded: expandAbbreviations(last).join(" "),
    written: entity.name.toLowerCase(),
    identifier: /[_.]|[a-z][A-Z]/.test(entity.name),
    vocabulary: [...new Set([...entity.lexicalTerms.name, ...entity.lexicalTerms.doc, ...entity.lexicalTerms.related])],
    values: (entity.values ?? []).map((v) => v.trim()).filter((v) => v.length >= 2)
      .map((v) => [v, v.length <= 3 ? "" : words(v).join(" ")] as [string, string]),
  };
  entityTermsCache.set(entity, terms);
  return terms;
}

function pairsOf(list: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < list.length; i++) out.push(`${stem(list[i]!)} ${stem(list[i + 1]!)}`);
  return out;
}

/** Same word family by prefix: the shorter stem has 6+ letters and the longer adds at most 4. */
function prefixMatch(q: string, terms: string[]): string | undefined {
  if (q.length < 6) return undefined;
  return terms.find((t) => t.length - q.length <= 4 && q.length - t.length <= 4 &&
    (t.length >= q.length ? t.startsWith(q) : q.startsWith(t)));
}

/** What ranking needs of a whole scope, computed once per entity array. */
export interface ScopeTerms {
  /** IDF of a stemmed term over the entities' name, doc and related terms, `ln(1 + (n + 1) / (1 + df))`: a word many entities share weighs less. */
  idf: (term: string) => number;
  /**
   * Every stem or stem pair that a phrase's related word can meet in some
   * entity (names, name pairs, docs, heads of related lemmas): related words
   * outside it are dropped before scoring.
   */
  matchable: Set<string>;
}

/**
 * The scope's {@link ScopeTerms}, memoized per entity array.
 *
 * @example
 * const { idf, matchable } = scopeTerms(entities);
 */
export function scopeTerms(entities: readonly EntityRecord[]): ScopeTerms {
  const known = scopeCache.get(entities);
  if (known) return known;
  const df = new Map<string, number>();
  const matchable = new Set<string>();
  for (const entity of entities) {
    const terms = termsOf(entity);
    for (const term of terms.vocabulary) df.set(term, (df.get(term) ?? 0) + 1);
    for (const set of [terms.name, terms.namePairs, terms.doc, terms.relatedHeads]) for (const t of set) matchable.add(t);
  }
  const n = entities.length;
  const idf = (term: string) => Math.log(1 + (n + 1) / (1 + (df.get(term) ?? 0)));
  const out = { idf, matchable };
  scopeCache.set(entities, out);
  return out;
}

const scopeCache = new WeakMap<readonly EntityRecord[], ScopeTerms>();

/** Options of {@link scoreEntity}. */
export interface ScoreOptions extends RankOptions {
  /** Cosine similarity of the phrase to the entity, when it is a semantic neighbour. */
  cosine?: number;
  /** Weight of each phrase stem (see {@link ScopeTerms.idf}). */
  idf: (term: string) => number;
}

/**
 * Scores one entity for one phrase (0..1; an exact name match is 1 and
 * nothing else is), with the reasons of the match, best first. Reasons are
 * written only for a score at or above `minScore` (default 0.2): below it,
 * `matchReason` is `"below threshold"` (ranking drops such matches).
 *
 * @example
 * scoreEntity(phraseTerms("flight_count"), entity, { idf: () => 1 }).matchReason // "exact name match"
 */
export function scoreEntity(phrase: PhraseTerms, entity: EntityRecord, options: ScoreOptions): EntityMatch {
  const { cosine, idf } = options;
  const terms = termsOf(entity);
  const synonymCredit = options.synonymCredit ?? 0.8;
  // Reasons are written at the end, and only for a score that is kept: most entities score near 0.
  const explain: Array<() => [number, string]> = [];

  // Lexical.
  let lexical = 0;
  if (phrase.normalized === terms.normalizedName || phrase.lower === terms.written) {
    lexical = 1;
    explain.push(() => [1, "exact name match"]);
  } else if (terms.identifier && containsIdentifier(phrase.lower, terms.written)) {
    lexical = 0.98;
    explain.push(() => [0.98, `name '${entity.name}' written in the phrase`]);
  } else if (phrase.normalized === terms.normalizedExpanded && terms.nameWords.length > 0) {
    lexical = 0.97;
    explain.push(() => [0.97, "name match (abbreviations expanded)"]);
  } else if (phrase.stems.length > 0) {
    let total = 0;
    let got = 0;
    const nameHits: string[] = [];
    const docHits: string[] = [];
    const relatedHits: string[] = [];
    const contextHits: string[] = [];
    // Best credit per query stem: name 1, doc 0.7, lexicon synonym of a name word, source 0.3.
    const credit = new Map<string, number>();
    const give = (q: string, value: number, hits: string[], label: string) => {
      if ((credit.get(q) ?? 0) >= value) return;
      credit.set(q, value);
      hits.push(label);
    };
    for (const q of phrase.stems) {
      if (terms.name.has(q)) give(q, 1, nameHits, q);
      else if (terms.doc.has(q)) give(q, 0.7, docHits, q);
      else {
        const family = prefixMatch(q, terms.long);
        if (family !== undefined) give(q, terms.name.has(family) ? 0.9 : 0.6, terms.name.has(family) ? nameHits : docHits, family);
      }
      if (terms.related.has(q)) give(q, synonymCredit, relatedHits, q);
      for (const [rel, factor] of phrase.related.get(q) ?? []) {
        if (terms.name.has(rel) || terms.namePairs.has(rel)) give(q, factor * synonymCredit, relatedHits, `${q}~${rel}`);
        else if (terms.doc.has(rel)) give(q, factor * 0.5 * synonymCredit, relatedHits, `${q}~${rel}`);
        else if (terms.relatedHeads.has(rel)) give(q, factor * 0.5 * synonymCredit, relatedHits, `${q}~${rel}`);
      }
      if (terms.context.has(q)) give(q, 0.3, contextHits, q);
    }
    for (const [pair, covered] of phrase.pairs) {
      if (terms.related.has(pair)) for (const q of covered) give(q, synonymCredit, relatedHits, pair);
      for (const [rel, factor] of phrase.related.get(pair) ?? []) {
        if (terms.name.has(rel) || terms.namePairs.has(rel)) for (const q of covered) give(q, factor * synonymCredit, relatedHits, `${pair}~${rel}`);
      }
    }
    for (const q of phrase.stems) {
      const w = idf(q);
      total += w;
      got += w * (credit.get(q) ?? 0);
    }
    const queryCoverage = total > 0 ? got / total : 0;
    if (queryCoverage > 0) {
      // Name words touched by the phrase: its stems, name hits, and the lexicon words it met.
      const touched = (w: string) => phrase.stemSet.has(w) || nameHits.includes(w) ||
        relatedHits.some((h) => h.split("~")[1]?.split(" ").includes(w));
      let covered = 0;
      for (const ws of terms.nameWords) {
        for (const w of ws) {
          if (touched(w)) {
            covered++;
            break;
          }
        }
      }
      const nameCoverage = terms.nameWords.length > 0 ? covered / terms.nameWords.length : 0;
      lexical = 0.9 * queryCoverage * (0.65 + 0.35 * nameCoverage);
    }
    const l = lexical;
    if (nameHits.length > 0) explain.push(() => [l, `name match on ${quoteList(nameHits)}`]);
    if (docHits.length > 0) explain.push(() => [l * 0.9, `doc match on ${quoteList(docHits)}`]);
    if (relatedHits.length > 0) explain.push(() => [l * 0.8, `synonym match: ${quoteList([...new Set(relatedHits)])}`]);
    if (contextHits.length > 0) explain.push(() => [l * 0.5, `source match on ${quoteList(contextHits)}`]);
  }

  // Indexed values.
  let value = 0;
  let matchedValue: string | undefined;
  for (const [v, normalized] of terms.values) {
    const score = valueMatch(phrase, v, normalized);
    if (score > value) {
      value = score;
      matchedValue = v;
    }
  }
  if (matchedValue !== undefined) {
    const [v, score] = [matchedValue, value];
    explain.push(() => [score, `indexed value '${v}' of dimension ${entity.name}`]);
  }

  // Semantic.
  let semantic = 0;
  if (cosine !== undefined && Number.isFinite(cosine)) {
    const floor = options.semanticFloor ?? 0.4;
    const ceiling = options.semanticCeiling ?? 0.9;
    semantic = Math.min(1, Math.max(0, (cosine - floor) / (ceiling - floor)));
    if (semantic > 0) {
      const s = semantic;
      explain.push(() => [s * 0.85, `semantic similarity ${cosine.toFixed(2)} to '${clip(entity.text, 80)}'`]);
    }
  }

  const weighted = semantic * (options.semanticWeight ?? 0.85);
  let score = lexical >= 1 ? 1 : 1 - (1 - lexical) * (1 - value) * (1 - weighted);
  score = lexical >= 1 ? 1 : Math.min(0.99, score);
  const rounded = Math.round(score * 1000) / 1000;
  let matchReason = "below threshold";
  if (rounded >= (options.minScore ?? 0.2)) {
    const reasons = explain.map((f) => f()).sort((a, b) => b[0] - a[0]);
    matchReason = reasons.length > 0 ? reasons.map((r) => r[1]).join("; ") : "no direct match";
  }
  return {
    entity,
    score: rounded,
    matchReason,
    lexical,
    semantic,
    value,
    ...(matchedValue !== undefined ? { matchedValue } : {}),
  };
}


/** Score of an indexed value (trimmed, 2+ characters) found in the phrase; `normalized` is its words joined by one space. */
function valueMatch(phrase: PhraseTerms, v: string, normalized: string): number {
  if (v.length <= 3) {
    // Short codes (`TX`, `JFK`, `AA`) must be written as such, as a word.
    if (!containsWord(phrase.text, v)) return 0;
    return phrase.text.trim() === v ? 0.95 : 0.9;
  }
  if (normalized === "") return 0;
  if (phrase.normalized === normalized) return 0.95;
  return ` ${phrase.normalized} `.includes(` ${normalized} `) ? 0.9 : 0;
}


function quoteList(items: string[]): string {
  return items.map((s) => `'${s}'`).join(", ");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
