/**
 * Shapes ranked phrases into the `get_context` result: `sources[]` with their
 * `phrases[]` and `entities[]`, `next_steps` (how to query the matched
 * entities, with a query skeleton) and `malloy_documentation` (the Malloy
 * reference in `docs/malloy_reference.md`).
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { EntityRecord } from "./entity_text.ts";
import type { EntityMatch, RankedPhrase } from "./rank.ts";

/** One entity of a phrase, as `get_context` returns it. */
export interface ContextEntity {
  name: string;
  field_type: string;
  data_type: string;
  description: string;
  score: number;
  match_reason: string;
  /** Indexed values, for `#(index)` dimensions. */
  values?: string[];
}

/** One phrase of the question within one source. */
export interface ContextPhrase {
  phrase: string;
  phrase_description: string;
  overall_score: number;
  entities: ContextEntity[];
}

/** One matched source. */
export interface ContextSource {
  source_name: string;
  model_uri: string;
  /** Scope of the source, for `execute_query` (present when searched in the database). */
  environment_name?: string;
  package_name?: string;
  version_id?: string;
  description?: string;
  phrases: ContextPhrase[];
}

/** The `get_context` result. */
export interface ContextResult {
  sources: ContextSource[];
  next_steps: string[];
  malloy_documentation: string;
}

/** Options of {@link buildContextResult}. */
export interface ContextResultOptions {
  /** Sources returned at most; default 5. */
  maxSources?: number;
  /** Entities per phrase and source at most; default 8. */
  entitiesPerPhrase?: number;
  /** Source descriptions by `modelPath#sourceName`, prefixed `environment/package/` for entities with an origin (shown with the source). */
  sourceDescriptions?: Readonly<Record<string, string>>;
  /** Reference text; default the contents of `docs/malloy_reference.md`. */
  documentation?: string;
}

/** Default location of the Malloy reference. */
export const MALLOY_REFERENCE_PATH: string = join(import.meta.dir, "..", "..", "docs", "malloy_reference.md");

let reference: string | null = null;

/**
 * The Malloy reference text (`docs/malloy_reference.md`), read once per process.
 *
 * @example
 * malloyReference().startsWith("# Malloy") // true
 */
export function malloyReference(): string {
  if (reference === null) {
    try {
      reference = readFileSync(MALLOY_REFERENCE_PATH, "utf8");
    } catch (error) {
      throw new Error(`Malloy reference ${MALLOY_REFERENCE_PATH} is missing; restore docs/malloy_reference.md (${error instanceof Error ? error.message : error})`);
    }
  }
  return reference;
}

interface SourceGroup {
  key: string;
  origin?: EntityRecord["origin"];
  sourceName: string;
  modelPath: string;
  best: number;
  phrases: Array<{ ranked: RankedPhrase; matches: EntityMatch[]; sourceScore: number }>;
}

/**
 * Groups ranked phrases by source (sources ordered by their best match) and
 * adds `next_steps` and `malloy_documentation`.
 *
 * @example
 * const result = buildContextResult(rankEntities(phrases, entities));
 * result.sources[0].phrases[0].entities[0].match_reason
 */
export function buildContextResult(ranked: readonly RankedPhrase[], options: ContextResultOptions = {}): ContextResult {
  const groups = new Map<string, SourceGroup>();
  for (const phrase of ranked) {
    const bySource = new Map<string, EntityMatch[]>();
    for (const match of phrase.matches) {
      const o = match.entity.origin;
      const key = `${o ? `${o.environmentName}/${o.packageName}/` : ""}${match.entity.modelPath}#${match.entity.sourceName}`;
      bySource.set(key, [...(bySource.get(key) ?? []), match]);
    }
    for (const [key, matches] of bySource) {
      const first = matches[0]!.entity;
      const group = groups.get(key) ??
        { key, origin: first.origin, sourceName: first.sourceName, modelPath: first.modelPath, best: 0, phrases: [] };
      const sourceScore = matches.find((m) => m.entity.kind === "source")?.score ?? 0;
      const fields = matches.filter((m) => m.entity.kind !== "source");
      group.phrases.push({ ranked: phrase, matches: fields, sourceScore });
      group.best = Math.max(group.best, matches[0]!.score);
      groups.set(key, group);
    }
  }
  const perPhrase = options.entitiesPerPhrase ?? 8;
  const ordered = [...groups.values()].sort((a, b) => b.best - a.best).slice(0, options.maxSources ?? 5);
  const sources = ordered.map((group): ContextSource => {
    const description = options.sourceDescriptions?.[group.key];
    return {
      source_name: group.sourceName,
      model_uri: group.modelPath,
      ...(group.origin
        ? { environment_name: group.origin.environmentName, package_name: group.origin.packageName, version_id: group.origin.versionId }
        : {}),
      ...(description ? { description } : {}),
      phrases: group.phrases.map(({ ranked: phrase, matches, sourceScore }) => ({
        phrase: phrase.phrase,
        phrase_description: phrase.description,
        overall_score: Math.max(sourceScore, matches[0]?.score ?? 0),
        entities: matches.slice(0, perPhrase).map(toContextEntity),
      })),
    };
  });
  return {
    sources,
    next_steps: nextSteps(ordered),
    malloy_documentation: options.documentation ?? malloyReference(),
  };
}

function toContextEntity(match: EntityMatch): ContextEntity {
  const e = match.entity;
  return {
    name: e.name,
    field_type: e.fieldType,
    data_type: e.dataType,
    description: e.description ?? "",
    score: match.score,
    match_reason: match.matchReason,
    ...(e.values ? { values: e.values } : {}),
  };
}

function nextSteps(groups: SourceGroup[]): string[] {
  if (groups.length === 0) {
    return [
      "No entity matched the question. Widen the search by dropping arguments from the right (source_name, then model_uri, then package_name), or rephrase with the words the model uses.",
    ];
  }
  const steps: string[] = [];
  for (const group of groups.slice(0, 3)) {
    const matches = group.phrases.flatMap((p) => p.matches);
    const best = bestPerEntity(matches);
    const uri = `model_uri '${group.modelPath}'`;
    if (group.sourceName === "") {
      const queries = best.filter((m) => m.entity.kind === "query").slice(0, 3).map((m) => m.entity.name);
      if (queries.length > 0) steps.push(`In ${uri}, run a named query with execute_query: query '${queries.map((q) => `run: ${q}`).join("' or '")}'.`);
      continue;
    }
    const scope = group.origin
      ? `environment_name '${group.origin.environmentName}', package_name '${group.origin.packageName}'`
      : "environment_name, package_name";
    steps.push(`Query source_name '${group.sourceName}' in ${uri}: call execute_query with ${scope}, model_uri '${group.modelPath}' and query:\n${querySkeleton(group.sourceName, best)}`);
    const views = best.filter((m) => m.entity.kind === "view").slice(0, 3).map((m) => m.entity.name);
    if (views.length > 0) {
      steps.push(`Views to try on '${group.sourceName}': ${views.join(", ")} (execute_query with model_uri '${group.modelPath}', source_name '${group.sourceName}', query_name '${views[0]}'; or query 'run: ${group.sourceName} -> ${views[0]}').`);
    }
    const queries = best.filter((m) => m.entity.kind === "query").slice(0, 2).map((m) => m.entity.name);
    if (queries.length > 0) {
      steps.push(`Named queries in ${uri}: ${queries.join(", ")} (execute_query with query_name '${queries[0]}' and source_name '${group.sourceName}').`);
    }
  }
  steps.push("Use only the field names listed above, exactly as written (joined fields keep their dotted path). If the query does not compile, compare the error with the common error patterns in malloy_documentation.");
  return steps;
}

function bestPerEntity(matches: EntityMatch[]): EntityMatch[] {
  const best = new Map<string, EntityMatch>();
  for (const m of matches) {
    const seen = best.get(m.entity.id);
    if (!seen || m.score > seen.score) best.set(m.entity.id, m);
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

/**
 * A starting query from the best entities of a source: value matches as
 * `where:`, dimensions as `group_by:` (time dimensions truncated to month),
 * measures as `aggregate:`.
 */
function querySkeleton(sourceName: string, best: EntityMatch[]): string {
  const lines: string[] = [];
  const wheres = best.filter((m) => m.matchedValue !== undefined && m.value >= m.lexical)
    .slice(0, 2).map((m) => `${m.entity.name} = ${quote(m.matchedValue!)}`);
  if (wheres.length > 0) lines.push(`where: ${wheres.join(", ")}`);
  const filtered = new Set(wheres.map((w) => w.split(" = ")[0]));
  const dims = best.filter((m) => m.entity.kind === "dimension" && !filtered.has(m.entity.name)).slice(0, 2);
  if (dims.length > 0) lines.push(`group_by: ${dims.map((m) => groupByExpression(m.entity)).join(", ")}`);
  const measures = best.filter((m) => m.entity.kind === "measure").slice(0, 2).map((m) => m.entity.name);
  lines.push(`aggregate: ${measures.length > 0 ? measures.join(", ") : "row_count is count()"}`);
  if (dims.length > 0) lines.push("limit: 50");
  return `run: ${sourceName} -> {\n  ${lines.join("\n  ")}\n}`;
}

function groupByExpression(entity: EntityRecord): string {
  if (entity.dataType !== "date" && entity.dataType !== "timestamp") return entity.name;
  const base = entity.name.split(".").at(-1)!.replace(/_(dt|date|at|time|ts)$/i, "");
  return `${base}_month is ${entity.name}.month`;
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}
