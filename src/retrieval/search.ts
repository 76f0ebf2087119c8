/**
 * `get_context` search over the database: the entities the caller may read
 * in scope (with their stored embeddings, read once per version and kept in
 * memory) -> one ranking for the whole question (question_rank.ts) -> the
 * seed's result shape (context_result.ts).
 *
 * @module
 */
import type { Db } from "../db/database.ts";
import type { AppContext } from "../context.ts";
import { ValidationError } from "../errors.ts";
import type { Principal } from "../access/principal.ts";
import { buildContextResult, type ContextResult } from "./answer/context_result.ts";
import { type Embedder, getEmbedder } from "./embedding/embedder.ts";
import { EmbeddingServiceError } from "./embedding/remote_embedder.ts";
import { type QuestionRankOptions, rankQuestionEntities } from "./ranking/question_rank.ts";
import { prepareScope } from "./ranking/scope_index.ts";
import type { RankedPhrase } from "./ranking/types.ts";
import { checkScope, type ScopedVersion, scopedEntities, scopedVersions, type StoredEntity } from "./index/scoped_entities.ts";
import { type Phrase, type PhraseSplit, splitPhrases } from "./text/phrases.ts";
import { type IndexState, scopeIndexState } from "./index/index_state.ts";
import { pickWithModel } from "./ranking/llm_pick.ts";

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
  /** Searches what `principal` may read; throws ValidationError (scope chain) or NotFoundError (unknown scope). */
  search(principal: Principal, args: ContextSearchArgs): Promise<ContextAnswer>;
}

/** Options of {@link createContextSearcher}. */
export interface ContextSearcherOptions {
  /** Results kept; default 20. */
  limit?: number;
  /** Ranking options (weights, synonym threshold). */
  rank?: QuestionRankOptions;
}

/** What `get_context` adds to the seed's result: which path split the question, and whether its scope is fully indexed. */
interface ContextAnswer extends ContextResult, IndexState {
  /** `llm`: the language model (`LLM_BASE_URL`) split the question into phrases; `local`: the local path answered. */
  retrieval: "local" | "llm";
}

/** Phrases ranked against the scoped entities, before shaping (shared with the REST search). */
export interface RankedSearch {
  ranked: RankedPhrase[];
  entities: StoredEntity[];
  versions: ScopedVersion[];
  /** `semantic+lexical`, or `lexical` when no embedding model is available. */
  mode: "semantic+lexical" | "lexical";
  /** How the question was split, when {@link RankQuestionInput.split} was given. */
  split?: PhraseSplit;
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
      const { llmBaseUrl, llmModel, llmApiKey, llmTimeoutMs } = ctx.config;
      const split = llmBaseUrl
        ? (question: string) => splitPhrases(question, { baseUrl: llmBaseUrl, model: llmModel, apiKey: llmApiKey, timeoutMs: llmTimeoutMs })
        : undefined;
      const found = await rankQuestion(ctx.sql, principal, {
        organization: args.organization,
        question: args.natural_language_query,
        scope: args,
        workspace: args.workspace,
        split,
      }, options);
      if (found.split?.fallbackReason) {
        ctx.log({ level: "warn", event: "llm_phrases_fallback", reason: found.split.fallbackReason });
      }
      // LLM_PICK: the model that split the question reorders the question's ranking (never adds to it).
      if (llmBaseUrl && ctx.config.llmPick && found.split?.source === "llm" && found.ranked.length > 0) {
        const last = found.ranked.length - 1;
        try {
          found.ranked[last] = await pickWithModel(args.natural_language_query, found.ranked[last]!, { baseUrl: llmBaseUrl, model: llmModel, apiKey: llmApiKey, timeoutMs: llmTimeoutMs });
        } catch (error) {
          ctx.log({ level: "warn", event: "llm_pick_fallback", reason: error instanceof Error ? error.message : String(error) });
        }
      }
      const result = buildContextResult(found.ranked, { sourceDescriptions: sourceDescriptions(found.entities), question: args.natural_language_query, scope: found.entities });
      const state = await scopeIndexState(ctx.sql, found.versions);
      return { ...result, retrieval: found.split?.source === "llm" ? "llm" : "local", ...state };
    },
  };
}

/** Source descriptions by scope array ({@link sourceDescriptions}). */
const descriptionsOf = new WeakMap<readonly StoredEntity[], Record<string, string>>();

/** The descriptions of a scope's sources by `environment/package/model#source`, once per scope array (read-only). */
function sourceDescriptions(entities: readonly StoredEntity[]): Record<string, string> {
  const known = descriptionsOf.get(entities);
  if (known) return known;
  const descriptions: Record<string, string> = {};
  for (const e of entities) {
    if (e.kind === "source" && e.description && e.origin) {
      descriptions[`${e.origin.environmentName}/${e.origin.packageName}/${e.modelPath}#${e.name}`] = e.description;
    }
  }
  descriptionsOf.set(entities, descriptions);
  return descriptions;
}

/** What {@link rankQuestion} searches. */
export interface RankQuestionInput {
  organization: string;
  question: string;
  scope: { environment_name?: string; package_name?: string; model_uri?: string; source_name?: string };
  workspace?: string;
  /** Only entities of these kinds. */
  kinds?: ReadonlyArray<StoredEntity["kind"]>;
  /**
   * Splits the question into phrases (the language model, text/phrases.ts); called once the scope is
   * known to be readable. Phrases of a split by `llm` are ranked each beside the whole question.
   */
  split?: (question: string) => Promise<PhraseSplit>;
}

/** Phrases of a language model's split ranked at most (each is one ranking of the scope). */
const MAX_RANKED_PHRASES = 8;

/** Entities kept per phrase of a language model's split. */
const PHRASE_LIMIT = 8;

/** The versions of a question's scope (its chain checked first). */
async function versionsInScope(db: Db, principal: Principal, input: RankQuestionInput): Promise<ScopedVersion[]> {
  checkScope(input.scope);
  return await scopedVersions(db, principal, { organization: input.organization, scope: input.scope, workspace: input.workspace });
}

/** Scope check, permissions and ranking of one question (question_rank.ts), on in-memory vectors. */
export async function rankQuestion(db: Db, principal: Principal, input: RankQuestionInput, options: ContextSearcherOptions = {}): Promise<RankedSearch> {
  if (typeof input.question !== "string" || input.question.trim() === "") {
    throw new ValidationError("natural_language_query must be a non-empty question, e.g. 'average delivery delay by carrier'");
  }
  const versions = await versionsInScope(db, principal, input);
  const [entities, embedder, split] = await Promise.all([
    scopedEntities(db, versions, input.scope),
    getEmbedder(),
    input.split ? input.split(input.question) : undefined,
  ]);
  const kinds = input.kinds ? new Set(input.kinds) : null;
  const limit = options.limit ?? 20;
  const question = input.question.trim();
  const phrases = split?.source === "llm" ? llmPhrases(split.phrases, question) : [];
  let ranked: RankedPhrase[];
  let semantic = embedder;
  try {
    ranked = await rankPhrases(entities, embedder, { question: input.question, phrases, kinds, limit, rank: options.rank });
  } catch (error) {
    // An embeddings server that fails now (EMBEDDING_BASE_URL): this answer is lexical, as without a model.
    if (!(error instanceof EmbeddingServiceError)) throw error;
    console.warn(`embedding server failed, this search falls back to lexical matching: ${error.message}`);
    semantic = null;
    ranked = await rankPhrases(entities, null, { question: input.question, phrases, kinds, limit, rank: options.rank });
  }
  return {
    ranked,
    // the scope's own array when unfiltered: what the answer derives from it is kept per array
    entities: kinds ? entities.filter((e) => kinds.has(e.kind)) : entities,
    versions,
    mode: semantic ? "semantic+lexical" : "lexical",
    ...(split ? { split } : {}),
  };
}

/** A language model's phrases first, each ranked on its own; the whole question last, as the local splitter orders them. */
async function rankPhrases(
  entities: readonly StoredEntity[],
  embedder: Embedder | null,
  input: { question: string; phrases: readonly Phrase[]; kinds: ReadonlySet<string> | null; limit: number; rank?: QuestionRankOptions },
): Promise<RankedPhrase[]> {
  // Vectors are the stored ones, made by the active model (another model's are left out: the version is re-indexed).
  const model = embedder?.model;
  const scope = await prepareScope(entities, embedder, (e) => ((e as StoredEntity).vectorModel === model ? (e as StoredEntity).vector : null));
  const { kinds } = input;
  // Kinds filter the ranking of the whole scope (its statistics are memoized per scope, not per kind).
  const rank = async (text: string, keep: number) => {
    const found = await rankQuestionEntities(text, scope, embedder, { ...input.rank, limit: kinds ? Math.max(keep * 10, 200) : keep });
    return kinds ? found.filter((m) => kinds.has(m.entity.kind)).slice(0, keep) : found;
  };
  const ranked: RankedPhrase[] = [];
  for (const phrase of input.phrases) {
    ranked.push({ phrase: phrase.phrase, description: phrase.description || "part of the question", matches: await rank(phrase.phrase, PHRASE_LIMIT) });
  }
  ranked.push({ phrase: input.question.trim(), description: "the question", matches: await rank(input.question, input.limit) });
  return ranked;
}

/** The language model's phrases worth a ranking of their own: not the whole question again, at most {@link MAX_RANKED_PHRASES}. */
function llmPhrases(phrases: readonly Phrase[], question: string): Phrase[] {
  const whole = question.toLowerCase().replace(/[?.!]+$/, "");
  // A phrase is a part of the question: one longer than it (or than a line) is not, and is left out.
  const longest = Math.max(MAX_PHRASE_CHARS, question.length);
  return phrases
    .filter((p) => p.phrase.length <= longest && p.phrase.toLowerCase().replace(/[?.!]+$/, "") !== whole)
    .slice(0, MAX_RANKED_PHRASES)
    .map((p) => (p.description.length > MAX_PHRASE_CHARS ? { ...p, description: `${p.description.slice(0, MAX_PHRASE_CHARS - 1)}…` } : p));
}

/** Characters of a language model's phrase (beyond the question's length) and of its description kept. */
const MAX_PHRASE_CHARS = 200;
