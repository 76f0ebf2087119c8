/**
 * Scoring of one entity against one phrase: lexical matching (names, docs,
 * synonyms, source), indexed-value matching and the semantic similarity
 * given by the caller, blended into one 0..1 score with its reasons.
 *
 * @module
 */
import type { EntityRecord } from "./entity_text.ts";
import type { PhraseTerms } from "./phrase_terms.ts";
import type { EntityMatch, RankOptions } from "./rank.ts";
import { expandAbbreviations, splitName, stem, STOP_WORDS, words } from "./text_terms.ts";

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

/**
 * IDF of stemmed terms over the entities' name, doc and related terms,
 * `ln(1 + (n + 1) / (1 + df))`: a word that many entities share (`company`
 * in an HR package) weighs less in a phrase's lexical coverage.
 *
 * @example
 * const idf = inverseDocumentFrequency(entities);
 * idf("delay") < idf("unknownword") // true when some entity has `delay`
 */
export function inverseDocumentFrequency(entities: readonly EntityRecord[]): (term: string) => number {
  const df = new Map<string, number>();
  for (const entity of entities) {
    const t = entity.lexicalTerms;
    for (const term of new Set([...t.name, ...t.doc, ...t.related])) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const n = entities.length;
  return (term) => Math.log(1 + (n + 1) / (1 + (df.get(term) ?? 0)));
}

/** Options of {@link scoreEntity}. */
export interface ScoreOptions extends RankOptions {
  /** Cosine similarity of the phrase to the entity, when it is a semantic neighbour. */
  cosine?: number;
  /** Weight of each phrase stem (see {@link inverseDocumentFrequency}). */
  idf: (term: string) => number;
}

/**
 * Scores one entity for one phrase (0..1; an exact name match is 1 and
 * nothing else is), with the reasons of the match, best first.
 *
 * @example
 * scoreEntity(phraseTerms("flight_count"), entity, { idf: () => 1 }).matchReason // "exact name match"
 */
export function scoreEntity(phrase: PhraseTerms, entity: EntityRecord, options: ScoreOptions): EntityMatch {
  const { cosine, idf } = options;
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

