/**
 * What ranking needs of a scope, computed once per entity array: each
 * entity's words, word statistics (document frequency), the word vectors of
 * the scope's vocabulary, postings by stem and by indexed value, and the
 * collapse keys of join and extend copies (collapse.ts).
 *
 * @module
 */
import type { Embedder } from "../embedding/embedder.ts";
import type { EntityRecord } from "../index/entity_text.ts";
import { placeAliases } from "../text/places.ts";
import { stem, STOP_WORDS, words } from "../text/text_terms.ts";
import { scopeCollapseKeys } from "./collapse.ts";

/** Words of one entity, as ranking matches them. */
interface EntityWords {
  /** Stems of name words (abbreviations expanded, compounds split) and their lexicon synonyms. */
  name: Set<string>;
  doc: Set<string>;
  related: Set<string>;
  /** Stems of the source's name and doc (fields), or the model doc (sources). */
  context: Set<string>;
  /** Distinct plain words of name and doc (for word vectors). */
  plain: string[];
  /** Name word stems, for name coverage. */
  nameList: string[];
  /** The name, lowercase, and whether it is an identifier one could write (`a_b`, `a.b`, `aB`). */
  written: string;
  identifier: boolean;
  values: Array<[value: string, normalized: string]>;
}

/** What ranking needs of a scope, computed once per entity array. */
export interface ScopeIndex {
  entities: readonly EntityRecord[];
  /** Entity vectors, by position (`null`: none). */
  vectors: (Float32Array | null)[];
  words: EntityWords[];
  /** Entities having each stem (name or doc). */
  df: Map<string, number>;
  /** Scope words with a vector, and their stems. */
  vocab: Array<{ word: string; stem: string; vector: Float32Array }>;
  /** Entities (positions) by stem of their name, doc, synonyms and context: only these are matched word by word. */
  postings: Map<string, number[]>;
  /** Entities by the first stemmed word of an indexed value, or by a short code as written. */
  valuePostings: Map<string, number[]>;
  /** Collapse key of each entity: the field it shows (`model#source.field`), shared by join and extend copies. */
  canonical: ReadonlyMap<EntityRecord, string>;
  /**
   * Entities (positions) by name, with the name lowercase and whether it is an identifier one could
   * write: a name written in the question is looked for once per distinct name, not once per entity.
   */
  names: Array<{ written: string; identifier: boolean; at: number[] }>;
}

const wordsCache = new WeakMap<EntityRecord, EntityWords>();
/** Word vectors by model, then word (two models' vectors never mix, e.g. in-process and an embeddings server). */
const wordVectorCaches = new Map<string, Map<string, Float32Array | null>>();

function entityWords(e: EntityRecord): EntityWords {
  let w = wordsCache.get(e);
  if (w) return w;
  const plain = [...new Set(words(`${e.text} ${e.description ?? ""}`).filter((x) => !STOP_WORDS.has(x) && x.length > 1 && !/^\d+$/.test(x)))];
  w = {
    name: new Set(e.lexicalTerms.name),
    doc: new Set(e.lexicalTerms.doc),
    related: new Set(e.lexicalTerms.related),
    context: new Set(e.lexicalTerms.context),
    plain,
    nameList: e.lexicalTerms.name,
    written: e.name.toLowerCase(),
    identifier: /[_.]|[a-z][A-Z]/.test(e.name),
    values: entityValues(e),
  };
  wordsCache.set(e, w);
  return w;
}

/**
 * An entity's indexed values as ranking matches them: `[value, stemmed words]`, a short code with no words
 * (matched as written), and the place names that codes or country names stand for (places.ts: 'TX' as "texa").
 */
function entityValues(e: EntityRecord): Array<[value: string, normalized: string]> {
  const values = (e.values ?? []).map((v) => v.trim()).filter((v) => v.length >= 2);
  const out = values.map((v) => [v, v.length <= 3 ? "" : stemmed(v)] as [string, string]);
  for (const [v, name] of placeAliases(values, e.name)) out.push([v, stemmed(name)]);
  return out;
}

/** Word vectors of `list`, embedding only words never seen by this process. */
export async function wordVectors(embedder: Embedder, list: readonly string[]): Promise<Map<string, Float32Array>> {
  let wordVectorCache = wordVectorCaches.get(embedder.model);
  if (!wordVectorCache) wordVectorCaches.set(embedder.model, wordVectorCache = new Map());
  const missing = [...new Set(list.filter((w) => !wordVectorCache.has(w)))];
  for (let i = 0; i < missing.length; i += 512) {
    const batch = missing.slice(i, i + 512);
    const out = await embedder.embed(batch);
    batch.forEach((w, j) => wordVectorCache.set(w, out[j] ?? null));
  }
  const map = new Map<string, Float32Array>();
  for (const w of list) {
    const v = wordVectorCache.get(w);
    if (v) map.set(w, v);
  }
  return map;
}

/** Prepared scopes by entity array, then embedding model (`""`: none). */
const scopeCache = new WeakMap<readonly EntityRecord[], Map<string, Promise<ScopeIndex>>>();

/**
 * Prepares a scope for ranking (word statistics, word vectors, collapse
 * keys); memoized per entity array, so pass the same array again to reuse it.
 *
 * @example
 * const scope = await prepareScope(entities, embedder, (e) => vectors.get(e.id));
 */
export function prepareScope(
  entities: readonly EntityRecord[],
  embedder: Embedder | null,
  vectorOf: (e: EntityRecord) => Float32Array | null | undefined,
): Promise<ScopeIndex> {
  let byModel = scopeCache.get(entities);
  if (!byModel) scopeCache.set(entities, byModel = new Map());
  const model = embedder?.model ?? "";
  const known = byModel.get(model);
  if (known) return known;
  const promise = (async () => {
    const list = entities.map(entityWords);
    const df = new Map<string, number>();
    const plain = new Set<string>();
    for (const w of list) {
      for (const s of new Set([...w.name, ...w.doc])) df.set(s, (df.get(s) ?? 0) + 1);
      for (const p of w.plain) plain.add(p);
    }
    const vectors = embedder ? await wordVectors(embedder, [...plain]) : new Map<string, Float32Array>();
    const postings = new Map<string, number[]>();
    const valuePostings = new Map<string, number[]>();
    const byName = new Map<string, { written: string; identifier: boolean; at: number[] }>();
    list.forEach((w, i) => {
      const name = entities[i]!.name;
      const known = byName.get(name);
      if (known) known.at.push(i);
      else byName.set(name, { written: w.written, identifier: w.identifier, at: [i] });
    });
    const post = (map: Map<string, number[]>, key: string, i: number) => {
      const entries = map.get(key);
      if (!entries) map.set(key, [i]);
      else if (entries.at(-1) !== i) entries.push(i);
    };
    list.forEach((w, i) => {
      for (const set of [w.name, w.doc, w.related, w.context]) for (const t of set) post(postings, t, i);
      for (const [v, normalized] of w.values) post(valuePostings, normalized === "" ? v : normalized.split(" ")[0]!, i);
    });
    return {
      postings,
      valuePostings,
      entities,
      vectors: entities.map((e) => vectorOf(e) ?? null),
      words: list,
      df,
      vocab: [...vectors].map(([word, vector]) => ({ word, stem: stem(word), vector })),
      canonical: scopeCollapseKeys(entities),
      names: [...byName.values()],
    };
  })();
  byModel.set(model, promise);
  promise.catch(() => byModel.delete(model));
  return promise;
}

/** Every word of a text stemmed (stop words kept), joined by one space: `Sales Representatives` -> `sale representative`. */
export function stemmed(text: string): string {
  return words(text).map(stem).join(" ");
}
