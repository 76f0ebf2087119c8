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
import { scopeTerms, scoreEntity, type ScoreOptions } from "./entity_score.ts";
import type { Lexicon } from "./lexicon.ts";
import { phraseTerms } from "./phrase_terms.ts";

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
  // One options object for every entity, its cosine set per entity (no allocation per entity).
  const scope = scopeTerms(entities);
  const scoring: ScoreOptions = { ...options, idf: scope.idf };
  return phrases.map((phrase) => {
    const terms = phraseTerms(phrase.phrase, { lexicon: options.lexicon, matchable: scope.matchable });
    const matches: EntityMatch[] = [];
    for (const entity of entities) {
      scoring.cosine = phrase.similarities?.get(entity.id);
      const match = scoreEntity(terms, entity, scoring);
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
