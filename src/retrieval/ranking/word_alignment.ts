/**
 * Word-alignment similarity for static word vectors: each content word of a
 * phrase is matched to its closest word of an entity's text, and the best
 * matches are averaged. Mean pooling blurs a long doc text into one point;
 * alignment keeps "punctual" close to "on time" even when the doc around it
 * says other things.
 *
 * @module
 */
import type { Embedder } from "../embedding/embedder.ts";
import { STOP_WORDS, words } from "../text/text_terms.ts";

/** Word vectors by word, filled on demand. */
export interface WordVectors {
  embedder: Embedder;
  cache: Map<string, Float32Array | null>;
}

/** A cache of word vectors for `embedder`. */
export function createWordVectors(embedder: Embedder): WordVectors {
  return { embedder, cache: new Map() };
}

/** Content words of a text (stop words and one-letter words dropped), deduplicated. */
export function alignmentWords(text: string): string[] {
  return [...new Set(words(text).filter((w) => !STOP_WORDS.has(w) && w.length > 1 && !/^\d+$/.test(w)))];
}

/**
 * Vectors of `list`, embedding the words not yet cached in one batch; words
 * the model does not know are left out.
 */
export async function vectorsOf(vectors: WordVectors, list: readonly string[]): Promise<Float32Array[]> {
  const missing = [...new Set(list.filter((w) => !vectors.cache.has(w)))];
  if (missing.length > 0) {
    const embedded = await vectors.embedder.embed(missing);
    missing.forEach((w, i) => vectors.cache.set(w, embedded[i] ?? null));
  }
  return list.map((w) => vectors.cache.get(w)).filter((v): v is Float32Array => v instanceof Float32Array);
}

/**
 * Mean over phrase words of the best cosine to any entity word (unit
 * vectors), in -1..1; `undefined` when either side has no known word.
 *
 * @example
 * alignmentSimilarity(await vectorsOf(wv, ["punctual"]), await vectorsOf(wv, ["on", "time", "percent"]))
 */
export function alignmentSimilarity(phrase: readonly Float32Array[], entity: readonly Float32Array[]): number | undefined {
  if (phrase.length === 0 || entity.length === 0) return undefined;
  let sum = 0;
  for (const q of phrase) {
    let best = -1;
    for (const e of entity) {
      let dot = 0;
      for (let j = 0; j < q.length; j++) dot += q[j]! * e[j]!;
      if (dot > best) best = dot;
    }
    sum += best;
  }
  return sum / phrase.length;
}
