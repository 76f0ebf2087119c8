/**
 * Brute-force cosine search over unit vectors held in memory: the stand-in
 * for pgvector in tests and benchmarks.
 *
 * @module
 */

/** Vectors with their ids, packed into one array. */
export interface MemoryIndex {
  ids: string[];
  dimension: number;
  /** `ids.length * dimension` floats, row by row. */
  data: Float32Array;
}

/** One search hit. */
export interface VectorHit {
  id: string;
  /** Cosine similarity in -1..1 (dot product of unit vectors). */
  similarity: number;
}

/**
 * Packs vectors into an index; entries whose vector is `null` (texts with no
 * known word) are left out. Vectors are expected to be unit length.
 *
 * @example
 * const index = buildMemoryIndex(entities.map((e) => e.id), await embedder.embed(entities.map((e) => e.text)));
 */
export function buildMemoryIndex(ids: readonly string[], vectors: readonly (Float32Array | null)[]): MemoryIndex {
  if (ids.length !== vectors.length) {
    throw new Error(`buildMemoryIndex got ${ids.length} ids and ${vectors.length} vectors; pass one vector (or null) per id`);
  }
  const kept: number[] = [];
  let dimension = 0;
  vectors.forEach((v, i) => {
    if (!v) return;
    if (dimension === 0) dimension = v.length;
    if (v.length !== dimension) throw new Error(`vector of '${ids[i]}' has length ${v.length}, expected ${dimension}`);
    kept.push(i);
  });
  const data = new Float32Array(kept.length * dimension);
  kept.forEach((i, row) => data.set(vectors[i]!, row * dimension));
  return { ids: kept.map((i) => ids[i]!), dimension, data };
}

/** Options of {@link searchMemoryIndex}. */
export interface SearchOptions {
  /** Hits to return; default 20. */
  k?: number;
  /** Keeps only ids for which this returns true (scope filter). */
  filter?: (id: string) => boolean;
}

/**
 * The `k` nearest vectors by cosine similarity, best first.
 *
 * @example
 * const hits = searchMemoryIndex(index, phraseVector, { k: 10 });
 */
export function searchMemoryIndex(index: MemoryIndex, query: Float32Array, options: SearchOptions = {}): VectorHit[] {
  const k = Math.max(0, options.k ?? 20);
  if (k === 0 || index.dimension === 0) return [];
  if (query.length !== index.dimension) {
    throw new Error(`query vector has length ${query.length}, the index holds vectors of length ${index.dimension}`);
  }
  const { data, dimension, ids } = index;
  // Keep the best k in a small array sorted ascending (k is small).
  const best: VectorHit[] = [];
  for (let row = 0; row < ids.length; row++) {
    if (options.filter && !options.filter(ids[row]!)) continue;
    let dot = 0;
    const base = row * dimension;
    for (let j = 0; j < dimension; j++) dot += data[base + j]! * query[j]!;
    if (best.length === k && dot <= best[0]!.similarity) continue;
    let at = best.findIndex((hit) => hit.similarity > dot);
    if (at === -1) at = best.length;
    best.splice(at, 0, { id: ids[row]!, similarity: dot });
    if (best.length > k) best.shift();
  }
  return best.reverse();
}
