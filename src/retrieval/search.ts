/**
 * `get_context` search over the database: phrases (LLM or local) -> one
 * embedding per phrase -> pgvector nearest neighbours (cosine) among the
 * entities the caller may read in scope -> blended with lexical matching on
 * the same entities (rank.ts) -> the seed's result shape (context_result.ts).
 *
 * @module
 */
import type { Db } from "../db/database.ts";
import type { AppContext } from "../http/context.ts";
import { badRequest } from "../http/errors.ts";
import type { Principal } from "../http/principal.ts";
import { buildContextResult, type ContextResult } from "./context_result.ts";
import { getEmbedder, type Embedder } from "./embedder.ts";
import { phraseEmbeddingText } from "./answer_types.ts";
import { loadLexicon } from "./lexicon.ts";
import { splitPhrases } from "./phrases.ts";
import { rankEntities, type RankedPhrase, type RankOptions, type RankPhrase } from "./rank.ts";
import { checkScope, type ScopedVersion, scopedEntities, scopedVersions, type StoredEntity } from "./scoped_entities.ts";
import { vectorLiteral, vectorType } from "./vector_index.ts";

/** Arguments of a search, snake_case exactly as the MCP tool `get_context` takes them. */
export interface ContextSearchArgs {
  organization: string;
  natural_language_query: string;
  environment_name?: string;
  package_name?: string;
  model_uri?: string;
  source_name?: string;
  /** Only packages shared with this workspace (the MCP workspace endpoint). */
  workspace?: string;
}

/** A `get_context` searcher bound to an app. */
export interface ContextSearcher {
  /** Searches what `principal` may read; throws `ApiError` 400 (scope chain) or 404 (unknown scope). */
  search(principal: Principal, args: ContextSearchArgs): Promise<ContextResult>;
}

/** Scopes with at most this many entities are searched exactly; larger ones through the HNSW index. */
export const EXACT_SEARCH_LIMIT = 20_000;

/** Options of {@link createContextSearcher}. */
export interface ContextSearcherOptions {
  /** Nearest neighbours fetched per phrase; default 30. */
  neighbours?: number;
  /** Ranking options (limits, weights). */
  rank?: RankOptions;
}

/** Phrases ranked against the scoped entities, before shaping (shared with the REST search). */
export interface RankedSearch {
  ranked: RankedPhrase[];
  entities: StoredEntity[];
  versions: ScopedVersion[];
  /** `semantic+lexical`, or `lexical` when no embedding model is available. */
  mode: "semantic+lexical" | "lexical";
}

/**
 * Creates the `get_context` searcher.
 *
 * @example
 * const searcher = createContextSearcher(ctx);
 * const result = await searcher.search(principal, { organization: "acme", natural_language_query: "late shipments" });
 */
export function createContextSearcher(ctx: AppContext, options: ContextSearcherOptions = {}): ContextSearcher {
  return {
    async search(principal, args) {
      const found = await rankQuestion(ctx.sql, principal, {
        organization: args.organization,
        question: args.natural_language_query,
        scope: args,
        workspace: args.workspace,
      }, options);
      const descriptions: Record<string, string> = {};
      for (const e of found.entities) {
        if (e.kind === "source" && e.description && e.origin) {
          descriptions[`${e.origin.environmentName}/${e.origin.packageName}/${e.modelPath}#${e.name}`] = e.description;
        }
      }
      return buildContextResult(found.ranked, { sourceDescriptions: descriptions });
    },
  };
}

/** What {@link rankQuestion} searches. */
export interface RankQuestionInput {
  organization: string;
  question: string;
  scope: { environment_name?: string; package_name?: string; model_uri?: string; source_name?: string };
  workspace?: string;
  /** Only entities of these kinds. */
  kinds?: ReadonlyArray<StoredEntity["kind"]>;
}

/** Scope check, permissions, phrases, vector search and ranking of one question. */
export async function rankQuestion(db: Db, principal: Principal, input: RankQuestionInput, options: ContextSearcherOptions = {}): Promise<RankedSearch> {
  if (typeof input.question !== "string" || input.question.trim() === "") {
    throw badRequest("natural_language_query must be a non-empty question, e.g. 'average delivery delay by carrier'");
  }
  checkScope(input.scope);
  const versions = await scopedVersions(db, principal, { organization: input.organization, scope: input.scope, workspace: input.workspace });
  const kinds = input.kinds ? new Set(input.kinds) : null;
  const [all, split, embedder] = await Promise.all([
    scopedEntities(db, versions, input.scope),
    splitPhrases(input.question),
    getEmbedder(),
  ]);
  const entities = kinds ? all.filter((e) => kinds.has(e.kind)) : all;
  const phrases: RankPhrase[] = split.phrases.map((p) => ({ ...p, similarities: new Map<string, number>() }));
  if (embedder && entities.length > 0 && phrases.length > 0) {
    await nearestNeighbours(db, embedder, { phrases, versions, scope: input.scope, kinds: input.kinds, k: options.neighbours ?? 30, entityCount: all.length });
  }
  const ranked = rankEntities(phrases, entities, { lexicon: loadLexicon(), ...options.rank });
  return { ranked, entities, versions, mode: embedder ? "semantic+lexical" : "lexical" };
}

/** Fills each phrase's `similarities` from pgvector: one query for all phrases. */
async function nearestNeighbours(
  db: Db,
  embedder: Embedder,
  where: {
    phrases: RankPhrase[];
    versions: ScopedVersion[];
    scope: RankQuestionInput["scope"];
    kinds?: RankQuestionInput["kinds"];
    k: number;
    /** Entities in scope (decides exact scan or HNSW). */
    entityCount: number;
  },
): Promise<void> {
  const vectors = await embedder.embed(where.phrases.map((p) => phraseEmbeddingText(p.phrase)));
  const asked = vectors.map((v, i) => (v ? { i, v: vectorLiteral(v) } : null)).filter((x) => x !== null);
  if (asked.length === 0) return;
  // Phrase vectors are parsed once (in the unnest), never per row: parsing
  // per row cost 0.3 ms a row on PGlite. Small scopes: exact distances over
  // the scope's rows (found by version), no cast, faster than an index walk. Large scopes: the model's
  // HNSW expression index (vector_index.ts), same expression as the index.
  const exact = where.entityCount <= EXACT_SEARCH_LIMIT;
  const type = db.unsafe(exact ? "vector" : vectorType(embedder.dimension));
  const cast = db.unsafe(exact ? "" : `::${vectorType(embedder.dimension)}`);
  const model = where.scope.model_uri || null;
  const source = where.scope.source_name || null;
  const kinds = where.kinds ? [...where.kinds] : null;
  const rows = await db`
    SELECT q.i, n.entity_id, n.similarity FROM
      unnest(${asked.map((a) => a.i)}::int[], ${asked.map((a) => a.v)}::${type}[]) AS q(i, v)
      CROSS JOIN LATERAL (
        SELECT ee.entity_id, 1 - (ee.embedding${cast} <=> q.v) AS similarity
          FROM entity_embeddings ee JOIN model_entities me ON me.id = ee.entity_id
         WHERE ee.model = ${embedder.model} AND ee.version = ANY(${where.versions.map((v) => v.versionUuid)}::uuid[])
           AND (${model}::text IS NULL OR me.model_path = ${model})
           AND (${source}::text IS NULL OR me.source_name = ${source})
           AND (${kinds}::text[] IS NULL OR me.kind = ANY(${kinds}::text[]))
         ORDER BY ee.embedding${cast} <=> q.v
         LIMIT ${where.k}) n`;
  for (const r of rows) {
    (where.phrases[Number(r.i)]!.similarities as Map<string, number>).set(r.entity_id as string, Number(r.similarity));
  }
}
