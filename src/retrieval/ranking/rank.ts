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
import type { EntityRecord } from "../index/entity_text.ts";
import { scopeTerms, scoreEntity, type ScoreOptions } from "./entity_score.ts";
import { phraseTerms } from "./phrase_terms.ts";
import { type EntityMatch, kindOrder, type RankedPhrase, type RankOptions, type RankPhrase } from "./types.ts";

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
