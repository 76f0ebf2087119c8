/**
 * Shapes ranked phrases into the `get_context` result: `sources[]` with their
 * `phrases[]` and `entities[]` (each entity once, with where else it appears
 * through joins and extends), `next_steps` (a first query that compiles:
 * reserved words backquoted, output names unique, the best-matching fields,
 * a `where:` on a matched value) and `malloy_documentation` (short notes
 * that fit what was found, malloy_notes.ts; the whole reference in
 * `docs/malloy_reference.md` stays available through {@link malloyReference}).
 *
 * @module
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { EntityRecord } from "../index/entity_text.ts";
import { malloyName, malloyNotes, malloySourceName } from "./malloy_notes.ts";
import type { QuestionMatch } from "../ranking/question_rank.ts";
import type { EntityMatch, RankedPhrase } from "../ranking/types.ts";

/** One entity of a phrase, as `get_context` returns it. */
interface ContextEntity {
  name: string;
  field_type: string;
  data_type: string;
  description: string;
  score: number;
  match_reason: string;
  /** Indexed values (the matched one first, at most {@link VALUES_SHOWN}), for indexed dimensions. */
  values?: string[];
  /** How many indexed values the dimension has, when more than are shown. */
  values_total?: number;
  /** The same field seen through joins or extended sources (`source.path`), at most 5. */
  also_in?: string[];
}

/** Indexed values shown per entity. */
const VALUES_SHOWN = 12;

/** One phrase of the question within one source. */
interface ContextPhrase {
  phrase: string;
  phrase_description: string;
  overall_score: number;
  entities: ContextEntity[];
}

/** One matched source. */
interface ContextSource {
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
  /** Documentation text; default short notes fitting the matched entities (malloy_notes.ts). */
  documentation?: string;
}

/** Default location of the Malloy reference. */
const MALLOY_REFERENCE_PATH: string = join(import.meta.dir, "..", "..", "..", "docs", "malloy_reference.md");

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
 * adds `next_steps` and `malloy_documentation`. An entity ranked by several
 * phrases is listed once, under the phrase that ranked it best.
 *
 * @example
 * const result = buildContextResult([{ phrase: question, description: "the question", matches }]);
 * result.sources[0].phrases[0].entities[0].match_reason
 */
export function buildContextResult(ranked: readonly RankedPhrase[], options: ContextResultOptions = {}): ContextResult {
  // Each entity once: under its best phrase.
  const bestOf = new Map<string, { score: number; phrase: number }>();
  ranked.forEach((phrase, i) => {
    for (const m of phrase.matches) {
      const seen = bestOf.get(m.entity.id);
      if (!seen || m.score > seen.score) bestOf.set(m.entity.id, { score: m.score, phrase: i });
    }
  });
  const groups = new Map<string, SourceGroup>();
  ranked.forEach((phrase, i) => {
    const bySource = new Map<string, EntityMatch[]>();
    for (const match of phrase.matches) {
      if (bestOf.get(match.entity.id)?.phrase !== i) continue;
      const key = groupKey(match.entity);
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
  });
  const perPhrase = options.entitiesPerPhrase ?? 8;
  const ordered = [...groups.values()].sort((a, b) => b.best - a.best).slice(0, options.maxSources ?? 5);
  for (const group of ordered) for (const p of group.phrases) p.matches = p.matches.slice(0, perPhrase);
  const sources = ordered.map((group): ContextSource => {
    const description = options.sourceDescriptions?.[group.key];
    return {
      source_name: group.sourceName,
      model_uri: group.modelPath,
      ...(group.origin
        ? { environment_name: group.origin.environmentName, package_name: group.origin.packageName, version_id: group.origin.versionId }
        : {}),
      ...(description ? { description } : {}),
      phrases: group.phrases.filter((p) => p.matches.length > 0 || p.sourceScore > 0).map(({ ranked: phrase, matches, sourceScore }) => ({
        phrase: phrase.phrase,
        phrase_description: phrase.description,
        overall_score: Math.max(sourceScore, matches[0]?.score ?? 0),
        entities: matches.map(toContextEntity),
      })),
    };
  });
  const shown = ordered.flatMap((g) => g.phrases.flatMap((p) => p.matches));
  return {
    sources,
    next_steps: nextSteps(ordered),
    malloy_documentation: options.documentation ?? malloyNotes({
      time: shown.some((m) => m.entity.dataType === "date" || m.entity.dataType === "timestamp"),
      values: shown.some((m) => m.matchedValue !== undefined || (m.entity.values?.length ?? 0) > 0),
      views: shown.some((m) => m.entity.kind === "view"),
      joined: shown.some((m) => m.entity.name.includes(".")),
      measures: shown.some((m) => m.entity.kind === "measure"),
    }),
  };
}

function groupKey(e: EntityRecord): string {
  const o = e.origin;
  return `${o ? `${o.environmentName}/${o.packageName}/` : ""}${e.modelPath}#${e.sourceName}`;
}

function toContextEntity(match: EntityMatch): ContextEntity {
  const e = match.entity;
  const also = (match as QuestionMatch).alsoIn;
  let values = e.values;
  if (values && values.length > 0) {
    const matched = match.matchedValue;
    values = [...(matched !== undefined ? [matched] : []), ...values.filter((v) => v !== matched)].slice(0, VALUES_SHOWN);
  }
  return {
    name: e.name,
    field_type: e.fieldType,
    data_type: e.dataType,
    description: e.description ?? "",
    score: match.score,
    match_reason: match.matchReason,
    ...(values && values.length > 0 ? { values } : {}),
    ...(values && e.values && e.values.length > values.length ? { values_total: e.values.length } : {}),
    ...(also && also.length > 0 ? { also_in: also.slice(0, 5) } : {}),
  };
}

function nextSteps(groups: SourceGroup[]): string[] {
  if (groups.length === 0) {
    return [
      "No entity matched the question. Widen the search by dropping arguments from the right (source_name, then model_uri, then package_name), or rephrase with the words the model uses.",
    ];
  }
  const steps: string[] = [];
  for (const group of groups.slice(0, 2)) {
    const best = group.phrases.flatMap((p) => p.matches).sort((a, b) => b.score - a.score);
    const uri = `model_uri '${group.modelPath}'`;
    if (group.sourceName === "") {
      const queries = best.filter((m) => m.entity.kind === "query").slice(0, 3).map((m) => m.entity.name);
      if (queries.length > 0) steps.push(`In ${uri}, run a named query with execute_query: query '${queries.map((q) => `run: ${malloySourceName(q)}`).join("' or '")}'.`);
      continue;
    }
    const scope = group.origin
      ? `environment_name '${group.origin.environmentName}', package_name '${group.origin.packageName}'`
      : "environment_name, package_name";
    steps.push(`Query source_name '${group.sourceName}' in ${uri}: call execute_query with ${scope}, model_uri '${group.modelPath}' and query:\n${querySkeleton(group.sourceName, best)}`);
    const views = best.filter((m) => m.entity.kind === "view").slice(0, 3).map((m) => m.entity.name);
    if (views.length > 0) {
      steps.push(`Views to try on '${group.sourceName}': ${views.join(", ")} (execute_query with model_uri '${group.modelPath}', source_name '${group.sourceName}', query_name '${views[0]}'; or query 'run: ${malloySourceName(group.sourceName)} -> ${malloyName(views[0]!)}').`);
    }
  }
  steps.push("Use the field names listed above exactly (joined fields keep their dotted path; backquote reserved words). If a query does not compile, fix it with the notes in malloy_documentation.");
  return steps;
}

/**
 * The first query for a source from its best entities: a matched value as
 * `where:`, the best dimensions as `group_by:` (time truncated to month),
 * the best measures as `aggregate:`; names backquoted where Malloy needs it
 * and every output name unique.
 */
function querySkeleton(sourceName: string, best: readonly EntityMatch[]): string {
  const lines: string[] = [];
  const used = new Set<string>();
  const unique = (name: string) => {
    let out = name;
    for (let i = 2; used.has(out.toLowerCase()); i++) out = `${name}_${i}`;
    used.add(out.toLowerCase());
    return out;
  };
  const wheres = best.filter((m) => m.matchedValue !== undefined && m.entity.kind === "dimension").slice(0, 1)
    .map((m) => `${malloyName(m.entity.name)} = ${quote(m.matchedValue!)}`);
  if (wheres.length > 0) lines.push(`where: ${wheres.join(", ")}`);
  const filtered = new Set(best.filter((m) => m.matchedValue !== undefined).slice(0, 1).map((m) => m.entity.name));
  const dims = best.filter((m) => m.entity.kind === "dimension" && !filtered.has(m.entity.name) && isGroupable(m.entity)).slice(0, 2);
  if (dims.length > 0) lines.push(`group_by: ${dims.map((m) => groupByItem(m.entity, unique)).join(", ")}`);
  const measures = best.filter((m) => m.entity.kind === "measure").slice(0, 2);
  const aggregates = measures.map((m) => {
    const leaf = m.entity.name.split(".").at(-1)!;
    const name = unique(leaf);
    return name === leaf && !m.entity.name.includes(".") ? malloyName(m.entity.name) : `${malloyName(name)} is ${malloyName(m.entity.name)}`;
  });
  if (aggregates.length === 0) aggregates.push(`${unique("row_count")} is count()`);
  lines.push(`aggregate: ${aggregates.join(", ")}`);
  if (dims.length > 0) lines.push("limit: 50");
  return `run: ${malloySourceName(sourceName)} -> {\n  ${lines.join("\n  ")}\n}`;
}

function isGroupable(entity: EntityRecord): boolean {
  return !["record", "array", "json", "sql native", "error"].includes(entity.dataType);
}

function groupByItem(entity: EntityRecord, unique: (name: string) => string): string {
  const leaf = entity.name.split(".").at(-1)!;
  if (entity.dataType === "date" || entity.dataType === "timestamp") {
    const base = leaf.replace(/_(dt|date|at|time|ts)$/i, "").replace(/(Date|Time)$/, "") || leaf;
    return `${malloyName(unique(`${base}_month`))} is ${malloyName(entity.name)}.month`;
  }
  const name = unique(leaf);
  return name === leaf && !entity.name.includes(".") ? malloyName(entity.name) : `${malloyName(name)} is ${malloyName(entity.name)}`;
}

function quote(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}
