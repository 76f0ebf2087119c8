/**
 * Ranking core of `get_context`: scores every entity in scope against every
 * phrase of a question by blending lexical matching (names, docs, synonyms,
 * source), indexed-value matching and semantic similarity (cosine provided by
 * the caller: in memory, or from pgvector as `1 - distance`).
 *
 * Scores are in 0..1. An exact name match scores 1 and nothing else does, so
 * exact field names always win.
 *
 * @module
 */
import type { EntityRecord } from "./entity_text.ts";
import type { Lexicon } from "./lexicon.ts";
import { expandAbbreviations, splitName, stem, STOP_WORDS, words } from "./text_terms.ts";

/** A phrase to rank entities for, with its semantic neighbours. */
export interface RankPhrase {
  phrase: string;
  /** What the phrase stands for in the question. */
  description: string;
  /**
   * Cosine similarity (-1..1) of the phrase's embedding to entity embeddings,
   * by entity id; entities absent get no semantic score. With pgvector's
   * cosine distance `<=>`, pass `1 - distance`.
   */
  similarities?: ReadonlyMap<string, number>;
}

/** One entity matched to a phrase. */
export interface EntityMatch {
  entity: EntityRecord;
  /** Blended score, 0..1. */
  score: number;
  /** Why it matched, e.g. `exact name match` or `semantic similarity 0.81 to 'average delay...'`. */
  matchReason: string;
  /** Component scores (0..1), for diagnostics. */
  lexical: number;
  semantic: number;
  value: number;
  /** The indexed value found in the phrase, when `value > 0`. */
  matchedValue?: string;
}

/** A phrase with its matches, best first. */
export interface RankedPhrase {
  phrase: string;
  description: string;
  matches: EntityMatch[];
}

/** Options of {@link rankEntities}. */
export interface RankOptions {
  /** Matches kept per phrase; default 10. */
  limit?: number;
  /** Matches scoring below this are dropped; default 0.2. */
  minScore?: number;
  /** Cosine at or below which semantic similarity counts as 0; default 0.4 (static word vectors). */
  semanticFloor?: number;
  /** Cosine at or above which semantic similarity counts as 1; default 0.9. */
  semanticCeiling?: number;
  /** Weight of the semantic score in the blend (0..1); default 0.85. */
  semanticWeight?: number;
  /** Lexicon for expanding the phrase's words with synonyms (see `loadLexicon`); none by default. */
  lexicon?: Lexicon | null;
  /** Credit (0..1) of a phrase word that is a lexicon synonym of a name word (a name word itself earns 1); default 0.8. */
  synonymCredit?: number;
}

interface PhraseTerms {
  text: string;
  /** Phrase words, lowercase, joined by one space. */
  normalized: string;
  /** Stemmed content words, abbreviations expanded. */
  stems: string[];
  /** Stemmed pairs of consecutive words (`"call off"`), with the stems they cover. */
  pairs: Array<[string, string[]]>;
  /** Lexicon words related to each stem (stemmed; pairs joined by a space), with their credit factor (0..1). */
  related: Map<string, Map<string, number>>;
}

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
}

/** Credit factor of a derivational base of a phrase word (squared for the base's own related words). */
const BASE_FACTOR = 0.75;

const entityTermsCache = new WeakMap<EntityRecord, EntityTerms>();

/**
 * Ranks `entities` for each phrase. Every entity in scope is matched
 * lexically (so an exact name wins even when it is not a semantic
 * neighbour); semantic scores come from `phrase.similarities`.
 *
 * @example
 * const ranked = rankEntities([{ phrase: "flight_count", description: "" }], entities);
 * ranked[0].matches[0].matchReason // "exact name match"
 */
export function rankEntities(
  phrases: readonly RankPhrase[],
  entities: readonly EntityRecord[],
  options: RankOptions = {},
): RankedPhrase[] {
  const limit = options.limit ?? 10;
  const minScore = options.minScore ?? 0.2;
  const idf = inverseDocumentFrequency(entities);
  return phrases.map((phrase) => {
    const terms = phraseTerms(phrase.phrase, options.lexicon);
    const matches: EntityMatch[] = [];
    for (const entity of entities) {
      const match = scoreEntity(terms, phrase.similarities?.get(entity.id), entity, idf, options);
      if (match.score >= minScore) matches.push(match);
    }
    matches.sort((a, b) => b.score - a.score || kindOrder(a.entity) - kindOrder(b.entity));
    return { phrase: phrase.phrase, description: phrase.description, matches: matches.slice(0, limit) };
  });
}

/**
 * One ranking for a whole question (used by benchmarks and `next_steps`):
 * phrases take turns, so each phrase's best entity comes before any phrase's
 * second best; within a turn, higher scores first. An entity appears once,
 * at its first place.
 */
export function mergeRankings(ranked: readonly RankedPhrase[]): EntityMatch[] {
  const out: EntityMatch[] = [];
  const seen = new Set<string>();
  const depth = Math.max(0, ...ranked.map((r) => r.matches.length));
  for (let turn = 0; turn < depth; turn++) {
    const round = ranked.map((r) => r.matches[turn]).filter((m): m is EntityMatch => m !== undefined)
      .sort((a, b) => b.score - a.score || kindOrder(a.entity) - kindOrder(b.entity));
    for (const match of round) {
      if (seen.has(match.entity.id)) continue;
      seen.add(match.entity.id);
      out.push(match);
    }
  }
  return out;
}

function kindOrder(entity: EntityRecord): number {
  return ["measure", "dimension", "view", "query", "source"].indexOf(entity.kind);
}

function phraseTerms(text: string, lexicon: Lexicon | null | undefined): PhraseTerms {
  const raw = words(text);
  const content = expandAbbreviations(raw.filter((w) => !STOP_WORDS.has(w)))
    .filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\d/.test(w)));
  const stems = [...new Set(content.map(stem))];
  const pairs: Array<[string, string[]]> = [];
  for (let i = 0; i + 1 < raw.length; i++) {
    const covered = [raw[i]!, raw[i + 1]!].filter((w) => !STOP_WORDS.has(w)).map(stem);
    if (covered.length > 0) pairs.push([`${stem(raw[i]!)} ${stem(raw[i + 1]!)}`, covered]);
  }
  const related = new Map<string, Map<string, number>>();
  if (lexicon) {
    const lookups = [...content.map((w) => [w, stem(w)] as const)];
    for (let i = 0; i + 1 < raw.length; i++) {
      if (!STOP_WORDS.has(raw[i]!)) lookups.push([`${raw[i]} ${raw[i + 1]}`, `${stem(raw[i]!)} ${stem(raw[i + 1]!)}`]);
    }
    for (const [word, key] of lookups) {
      if (/\d/.test(word)) continue;
      const set = new Map<string, number>();
      const put = (rel: string, factor: number) => {
        const parts = rel.split(/[\s-]+/).filter((w) => w !== "");
        if (parts.length > 2 || (parts.length === 1 && STOP_WORDS.has(rel))) return;
        const s = parts.map(stem).join(" ");
        if ((set.get(s) ?? 0) < factor) set.set(s, factor);
      };
      for (const rel of lexicon.related(word)) put(rel, 1);
      // Derivational bases one hop down (`profitability` -> `profit`), and their related words two hops down, with decay.
      for (const base of word.includes(" ") ? [] : lexicon.derivationBases(word)) {
        put(base, BASE_FACTOR);
        for (const rel of lexicon.related(base)) put(rel, BASE_FACTOR * BASE_FACTOR);
      }
      set.delete(key);
      if (set.size > 0) related.set(key, set);
    }
  }
  return { text, normalized: raw.join(" "), stems, pairs, related };
}

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

function inverseDocumentFrequency(entities: readonly EntityRecord[]): (term: string) => number {
  const df = new Map<string, number>();
  for (const entity of entities) {
    const t = entity.lexicalTerms;
    for (const term of new Set([...t.name, ...t.doc, ...t.related])) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const n = entities.length;
  return (term) => Math.log(1 + (n + 1) / (1 + (df.get(term) ?? 0)));
}

function scoreEntity(
  phrase: PhraseTerms,
  cosine: number | undefined,
  entity: EntityRecord,
  idf: (term: string) => number,
  options: RankOptions,
): EntityMatch {
  const terms = termsOf(entity);
  const synonymCredit = options.synonymCredit ?? 0.8;
  const reasons: Array<[number, string]> = [];

  // Lexical.
  let lexical = 0;
  const written = entity.name.toLowerCase();
  if (phrase.normalized === terms.normalizedName || phrase.text.trim().toLowerCase() === written) {
    lexical = 1;
    reasons.push([1, "exact name match"]);
  } else if (containsIdentifier(phrase.text, entity.name)) {
    lexical = 0.98;
    reasons.push([lexical, `name '${entity.name}' written in the phrase`]);
  } else if (phrase.normalized === terms.normalizedExpanded && terms.nameWords.length > 0) {
    lexical = 0.97;
    reasons.push([lexical, "name match (abbreviations expanded)"]);
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
    const touched = new Set([...phrase.stems, ...nameHits, ...relatedHits.flatMap((h) => h.split("~")[1]?.split(" ") ?? [])]);
    const covered = terms.nameWords.filter((ws) => [...ws].some((w) => touched.has(w))).length;
    const nameCoverage = terms.nameWords.length > 0 ? covered / terms.nameWords.length : 0;
    const queryCoverage = total > 0 ? got / total : 0;
    lexical = 0.9 * queryCoverage * (0.65 + 0.35 * nameCoverage);
    if (nameHits.length > 0) reasons.push([lexical, `name match on ${quoteList(nameHits)}`]);
    if (docHits.length > 0) reasons.push([lexical * 0.9, `doc match on ${quoteList(docHits)}`]);
    if (relatedHits.length > 0) reasons.push([lexical * 0.8, `synonym match: ${quoteList([...new Set(relatedHits)])}`]);
    if (contextHits.length > 0) reasons.push([lexical * 0.5, `source match on ${quoteList(contextHits)}`]);
  }

  // Indexed values.
  let value = 0;
  let matchedValue: string | undefined;
  for (const v of entity.values ?? []) {
    const score = valueMatch(phrase, v);
    if (score > value) {
      value = score;
      matchedValue = v;
      if (reasons.at(-1)?.[1].startsWith("indexed value")) reasons.pop();
      reasons.push([score, `indexed value '${v}' of dimension ${entity.name}`]);
    }
  }

  // Semantic.
  let semantic = 0;
  if (cosine !== undefined && Number.isFinite(cosine)) {
    const floor = options.semanticFloor ?? 0.4;
    const ceiling = options.semanticCeiling ?? 0.9;
    semantic = Math.min(1, Math.max(0, (cosine - floor) / (ceiling - floor)));
    if (semantic > 0) {
      reasons.push([semantic * 0.85, `semantic similarity ${cosine.toFixed(2)} to '${clip(entity.text, 80)}'`]);
    }
  }

  const weighted = semantic * (options.semanticWeight ?? 0.85);
  let score = lexical >= 1 ? 1 : 1 - (1 - lexical) * (1 - value) * (1 - weighted);
  score = lexical >= 1 ? 1 : Math.min(0.99, score);
  reasons.sort((a, b) => b[0] - a[0]);
  return {
    entity,
    score: Math.round(score * 1000) / 1000,
    matchReason: reasons.length > 0 ? reasons.map((r) => r[1]).join("; ") : "no direct match",
    lexical,
    semantic,
    value,
    ...(matchedValue !== undefined ? { matchedValue } : {}),
  };
}

/** True when the phrase contains the name as written, as a whole identifier (`delivery_delay_days`, `carriers.code`). */
function containsIdentifier(text: string, name: string): boolean {
  if (!/[_.]|[a-z][A-Z]/.test(name)) return false;
  const at = text.toLowerCase().indexOf(name.toLowerCase());
  if (at < 0) return false;
  const before = text[at - 1];
  const after = text[at + name.length];
  return !(before && /[\w.]/.test(before)) && !(after && /\w/.test(after));
}

function valueMatch(phrase: PhraseTerms, value: string): number {
  const v = value.trim();
  if (v.length < 2) return 0;
  if (v.length <= 3) {
    // Short codes (`TX`, `JFK`, `AA`) must be written as such, as a word.
    const re = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(v)}($|[^\\p{L}\\p{N}])`, "u");
    if (!re.test(phrase.text)) return 0;
    return phrase.text.trim() === v ? 0.95 : 0.9;
  }
  const normalized = words(v).join(" ");
  if (normalized === "") return 0;
  if (phrase.normalized === normalized) return 0.95;
  return ` ${phrase.normalized} `.includes(` ${normalized} `) ? 0.9 : 0;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function quoteList(items: string[]): string {
  return items.map((s) => `'${s}'`).join(", ");
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
