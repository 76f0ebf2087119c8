/**
 * `get_context` search over the database: the entities the caller may read
 * in scope (with their stored embeddings, read once per version and kept in
 * memory) -> one ranking for the whole question (question_rank.ts) -> the
 * seed's result shape (context_result.ts).
 *
 * @module
 */
import type { Db } from "../db/database.ts";
import type { AppContext } from "../http/context.ts";
import { badRequest } from "../http/errors.ts";
import type { Principal } from "../access/principal.ts";
import { buildContextResult, type ContextResult } from "./answer/context_result.ts";
import { getEmbedder } from "./embedding/embedder.ts";
import { type QuestionRankOptions, rankQuestionEntities } from "./ranking/question_rank.ts";
import { prepareScope } from "./ranking/scope_index.ts";
import type { RankedPhrase } from "./ranking/types.ts";
import { checkScope, type ScopedVersion, scopedEntities, scopedVersions, type StoredEntity } from "./index/scoped_entities.ts";

/** Arguments of a search, snake_case exactly as the MCP tool `get_context` takes them. */
interface ContextSearchArgs {
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

/** Options of {@link createContextSearcher}. */
export interface ContextSearcherOptions {
  /** Results kept; default 20. */
  limit?: number;
  /** Ranking options (weights, synonym threshold). */
  rank?: QuestionRankOptions;
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
      return buildContextResult(found.ranked, { sourceDescriptions: descriptions, question: args.natural_language_query, scope: found.entities });
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

/** Scope check, permissions and ranking of one question (question_rank.ts), on in-memory vectors. */
export async function rankQuestion(db: Db, principal: Principal, input: RankQuestionInput, options: ContextSearcherOptions = {}): Promise<RankedSearch> {
  if (typeof input.question !== "string" || input.question.trim() === "") {
    throw badRequest("natural_language_query must be a non-empty question, e.g. 'average delivery delay by carrier'");
  }
  checkScope(input.scope);
  const versions = await scopedVersions(db, principal, { organization: input.organization, scope: input.scope, workspace: input.workspace });
  const [entities, embedder] = await Promise.all([scopedEntities(db, versions, input.scope), getEmbedder()]);
  // Vectors are the stored ones, made by the active model (another model's are left out: the version is re-indexed).
  const model = embedder?.model;
  const scope = await prepareScope(entities, embedder, (e) => ((e as StoredEntity).vectorModel === model ? (e as StoredEntity).vector : null));
  const kinds = input.kinds ? new Set(input.kinds) : null;
  const limit = options.limit ?? 20;
  // Kinds filter the ranking of the whole scope (its statistics are memoized per scope, not per kind).
  let matches = await rankQuestionEntities(input.question, scope, embedder, { ...options.rank, limit: kinds ? Math.max(limit * 10, 200) : limit });
  if (kinds) matches = matches.filter((m) => kinds.has(m.entity.kind)).slice(0, limit);
  const ranked: RankedPhrase[] = [{ phrase: input.question.trim(), description: "the question", matches }];
  return { ranked, entities: entities.filter((e) => !kinds || kinds.has(e.kind)), versions, mode: embedder ? "semantic+lexical" : "lexical" };
}
