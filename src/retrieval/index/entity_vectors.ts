/**
 * Entity embeddings: the entity's own text, blended with its indexed values
 * and with a small weight of its source's `#(doc)` (a field of a source documented as "Employees, one
 * row per person" leans towards people questions without its own words being
 * drowned, as they are when the doc is pasted into the text and mean pooled).
 *
 * @module
 */
import type { Embedder } from "../embedding/embedder.ts";
import type { EntityRecord } from "./entity_text.ts";

/** Weight of the source doc's vector against the entity's own (both unit length). */
export const SOURCE_DOC_WEIGHT = 0.5;

/**
 * Weight of the vector of a dimension's values (the first
 * {@link VALUES_IN_VECTOR}, mean pooled) against the entity's own: values say
 * what a field holds (`AIR`, `RAIL`, `TRUCK` -> a transport mode) when its
 * name does not. Chosen on the eval's tuning half (flat from 0.2 to 0.7).
 */
const VALUES_WEIGHT = 0.5;

/** How many of a dimension's values (most frequent first) its vector takes in. */
const VALUES_IN_VECTOR = 20;

/** Options of {@link embedEntities}. */
export interface EntityVectorOptions {
  /** Weight of the source doc's vector; default {@link SOURCE_DOC_WEIGHT}; 0 embeds the text alone. */
  sourceDocWeight?: number;
}

/**
 * What an entity's embedding depends on, as one string (hash it to key
 * stored embeddings): the text, the values and the source doc when they are
 * blended in.
 */
export function entityVectorKey(entity: Pick<EntityRecord, "text" | "sourceDoc" | "values">, options: EntityVectorOptions = {}): string {
  const weight = options.sourceDocWeight ?? SOURCE_DOC_WEIGHT;
  const values = valuesText(entity);
  return (weight > 0 && entity.sourceDoc ? `${entity.text}\n#source-doc ${weight}: ${entity.sourceDoc}` : entity.text) +
    (values ? `\n#values ${VALUES_WEIGHT}: ${values}` : "");
}

/** The values a dimension's vector takes in, as one text (`""`: none). */
function valuesText(entity: Pick<EntityRecord, "values">): string {
  return VALUES_WEIGHT > 0 ? (entity.values ?? []).slice(0, VALUES_IN_VECTOR).join(", ") : "";
}

/**
 * Embeds entities: `t = normalize(v(text) + 0.5 * v(values))` (or `v(text)`
 * for an entity without values), then `normalize(t + w * v(sourceDoc))`, or
 * `t` when the entity has no source doc, the weight is 0 or the doc has no
 * known word. One vector (or `null`: no known word in the text) per entity,
 * in order. Leave `values` out of an entity whose values no caller may see.
 *
 * @example
 * const vectors = await embedEntities(embedder, entities);
 */
export async function embedEntities(
  embedder: Embedder,
  entities: ReadonlyArray<Pick<EntityRecord, "text" | "sourceDoc" | "values">>,
  options: EntityVectorOptions = {},
): Promise<(Float32Array | null)[]> {
  const weight = options.sourceDocWeight ?? SOURCE_DOC_WEIGHT;
  let own = await embedder.embed(entities.map((e) => e.text));
  const withValues = entities.map((e, i) => [i, valuesText(e)] as const).filter(([, t]) => t !== "");
  if (withValues.length > 0) {
    const vv = await embedder.embed(withValues.map(([, t]) => t));
    own = [...own];
    withValues.forEach(([i], j) => {
      const v = own[i];
      const w = vv[j];
      if (v && w) own[i] = blend(v, w, VALUES_WEIGHT);
    });
  }
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
