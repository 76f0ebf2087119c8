/**
 * Types shared by the ranking modules (the question ranking, the phrase
 * ranking and its entity scoring) and by answer shaping: one matched entity,
 * a phrase with its matches, the phrase ranking's options, and the order of
 * entity kinds on equal scores.
 *
 * @module
 */
import type { EntityRecord } from "../index/entity_text.ts";
import type { Lexicon } from "../text/lexicon.ts";

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

/** Order of kinds on equal scores: measures, dimensions, views, queries, sources. */
export function kindOrder(entity: EntityRecord): number {
  return ["measure", "dimension", "view", "query", "source"].indexOf(entity.kind);
}
