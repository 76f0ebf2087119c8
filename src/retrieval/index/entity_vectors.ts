/**
 * Entity embeddings: the entity's own text, blended with a small weight of
 * its source's `#(doc)` (a field of a source documented as "Employees, one
 * row per person" leans towards people questions without its own words being
 * drowned, as they are when the doc is pasted into the text and mean pooled).
 *
 * @module
 */
import type { Embedder } from "../embedding/embedder.ts";
import type { EntityRecord } from "./entity_text.ts";

/** Weight of the source doc's vector against the entity's own (both unit length). */
export const SOURCE_DOC_WEIGHT = 0.5;

/** Options of {@link embedEntities}. */
export interface EntityVectorOptions {
  /** Weight of the source doc's vector; default {@link SOURCE_DOC_WEIGHT}; 0 embeds the text alone. */
  sourceDocWeight?: number;
}

/**
 * What an entity's embedding depends on, as one string (hash it to key
 * stored embeddings): the text, and the source doc when it is blended in.
 */
export function entityVectorKey(entity: Pick<EntityRecord, "text" | "sourceDoc">, options: EntityVectorOptions = {}): string {
  const weight = options.sourceDocWeight ?? SOURCE_DOC_WEIGHT;
  return weight > 0 && entity.sourceDoc ? `${entity.text}\n#source-doc ${weight}: ${entity.sourceDoc}` : entity.text;
}

/**
 * Embeds entities: `normalize(v(text) + w * v(sourceDoc))`, or `v(text)`
 * when the entity has no source doc, the weight is 0 or the doc has no known
 * word. One vector (or `null`: no known word in the text) per entity, in order.
 *
 * @example
 * const vectors = await embedEntities(embedder, entities);
 */
export async function embedEntities(
  embedder: Embedder,
  entities: ReadonlyArray<Pick<EntityRecord, "text" | "sourceDoc">>,
  options: EntityVectorOptions = {},
): Promise<(Float32Array | null)[]> {
  const weight = options.sourceDocWeight ?? SOURCE_DOC_WEIGHT;
  const own = await embedder.embed(entities.map((e) => e.text));
  if (weight <= 0) return own;
  // Each distinct source doc once.
  const docs = [...new Set(entities.map((e) => e.sourceDoc).filter((d): d is string => !!d && d.trim() !== ""))];
  const docVectors = new Map<string, Float32Array | null>();
  const embedded = docs.length > 0 ? await embedder.embed(docs) : [];
  docs.forEach((d, i) => docVectors.set(d, embedded[i] ?? null));
  return entities.map((e, i) => {
    const v = own[i] ?? null;
    const d = e.sourceDoc ? docVectors.get(e.sourceDoc) : undefined;
    return v && d ? blend(v, d, weight) : v;
  });
}

/** `normalize(a + weight * b)`. */
function blend(a: Float32Array, b: Float32Array, weight: number): Float32Array {
  const out = new Float32Array(a.length);
  let norm = 0;
  for (let i = 0; i < a.length; i++) {
    out[i] = a[i]! + weight * (b[i] ?? 0);
    norm += out[i]! * out[i]!;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}
