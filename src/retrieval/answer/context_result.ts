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
import { type CompactField, compactFields, shrinkFieldLists } from "./field_lists.ts";
import { firstQuery, planFirstQuery, type QuerySource } from "./first_query.ts";
import { contentStems, splitName } from "../text/text_terms.ts";
import { malloyName, malloyNotes, malloySourceName } from "./malloy_notes.ts";
import { scopeCollapseKeys } from "../ranking/collapse.ts";
import { groupKey, type ScopeParts, scopeParts } from "./scope_parts.ts";
import { sourceMatches } from "./joined_matches.ts";
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
  /** The same field seen through joins or extended sources (`source.path`), at most 2. */
  also_in?: string[];
}

/** Lexical score from which a measure counts as named by the question's words (a weak synonym of one word does not). */
const NAMED_LEXICAL = 0.2;

/** Indexed values shown per entity. */
const VALUES_SHOWN = 6;

/** Indexed values an entity keeps when the answer is over its budget. */
const VALUES_SHRUNK = 3;

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
  /** Every field of the source the caller may query, compactly (field_lists.ts); present when the scope's entities are given. */
  fields?: CompactField[];
}

/** A source that came close to the returned ones: its name and its best matched fields. */
interface CloseSource {
  source_name: string;
  model_uri: string;
  package_name?: string;
  score: number;
  /** Its best matched fields (at most three). */
  matched: string[];
  /** Its other fields by name (joins by their name), when the answer's budget leaves room (closeFieldNames). */
  fields?: string[];
}

/** The `get_context` result. */
export interface ContextResult {
  sources: ContextSource[];
  /** Sources ranked next after the returned ones (present when any). */
  close_sources?: CloseSource[];
  next_steps: string[];
  malloy_documentation: string;
}

/** Options of {@link buildContextResult}. */
export interface ContextResultOptions {
  /** Sources returned at most; default 2 with `scope` (each carries its field list), else 5. */
  maxSources?: number;
  /** Entities per phrase and source at most; default 6 with `scope` (4 for sources after the first; the rest are in `fields`), else 8. */
  entitiesPerPhrase?: number;
  /** Source descriptions by `modelPath#sourceName`, prefixed `environment/package/` for entities with an origin (shown with the source). */
  sourceDescriptions?: Readonly<Record<string, string>>;
  /** Documentation text; default short notes fitting the matched entities (malloy_notes.ts). */
  documentation?: string;
  /** The question (for the first query's roles); default the first phrase. */
  question?: string;
  /** Every entity the caller may read in scope: gives each returned source its `fields` and the first query the fields the ranking did not list. */
  scope?: readonly EntityRecord[];
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
  const perPhrase = options.entitiesPerPhrase ?? (options.scope ? 6 : 8);
  // Every entity in scope by source: fields (for the field lists and the first query) and the source's own entity.
  const { fields: scopeFields, sources: scopeSources } = scopeParts(options.scope);
  // Sources as wholes: the best match, raised by the share of the question's words the source's name and matched fields cover.
  const asked = new Set(contentStems(options.question ?? ranked[0]?.phrase ?? "", { expand: true }));
  const adj = new Map([...groups.values()].map((g) => [g, g.best + SOURCE_COVERAGE * coverage(g, asked, scopeSources.get(g.key))] as const));
  const ranking = [...groups.values()].sort((a, b) => adj.get(b)! - adj.get(a)!);
  const maxSources = options.maxSources ?? (options.scope ? 2 : 5);
  const ordered = ranking.slice(0, maxSources);
  const closeGroups = ranking.slice(maxSources, maxSources + CLOSE_SOURCES);
  // Each field once: a close source names only own fields that no source before it lists as its own (an extending
  // source's inherited fields are its base's); fields seen through a join do not count (a list may leave them out for size).
  // The field each entity shows (collapse.ts), computed once per scope array (a key depends only on its own model's entities).
  const sameField = options.scope ? scopeCollapseKeys(options.scope) : undefined;
  const shownFields = new Set(ordered.flatMap((g) => (scopeFields.get(g.key) ?? []).flatMap((e) => (e.name.includes(".") ? [] : sameField?.get(e) ?? []))));
  const close = closeGroups.map((g) => closeSource(g, options.scope ? scopeFields : undefined, sameField, shownFields));
  // With field lists, a source after the first shows fewer entities (its other fields are in its list).
  ordered.forEach((group, i) => {
    for (const p of group.phrases) p.matches = p.matches.slice(0, i > 0 && options.scope ? Math.min(perPhrase, 4) : perPhrase);
  });
  // Top-level field names of each returned source, for joins whose fields another returned source lists.
  const topNames = new Map(ordered.map((g) => [g.key, new Set((scopeFields.get(g.key) ?? []).filter((e) => !e.name.includes(".")).map((e) => e.name))] as const));
  const sources = ordered.map((group): ContextSource => {
    const description = options.sourceDescriptions?.[group.key];
    const own = scopeFields.get(group.key);
    const others = new Map(ordered.filter((g) => g !== group && g.modelPath === group.modelPath && g.origin?.versionId === group.origin?.versionId)
      .map((g) => [g.sourceName, topNames.get(g.key)!] as const));
    const listed = new Set(group.phrases.flatMap((p) => p.matches.map((m) => m.entity.name)));
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
      ...(own ? { fields: compactFields(own, listed, others) } : {}),
    };
  });
  const shown = ordered.flatMap((g) => g.phrases.flatMap((p) => p.matches));
  const result: ContextResult = {
    sources,
    ...(close.length > 0 ? { close_sources: close } : {}),
    next_steps: nextSteps(ordered, options.question ?? ranked[0]?.phrase ?? "", { fields: scopeFields, sources: scopeSources },
      ranked.flatMap((r) => r.matches)),
    malloy_documentation: options.documentation ?? malloyNotes({
      time: shown.some((m) => m.entity.dataType === "date" || m.entity.dataType === "timestamp"),
      values: shown.some((m) => m.matchedValue !== undefined || (m.entity.values?.length ?? 0) > 0),
      views: shown.some((m) => m.entity.kind === "view"),
      joined: shown.some((m) => m.entity.name.includes(".")),
      measures: shown.some((m) => m.entity.kind === "measure"),
    }),
  };
  shrinkAnswer(result, ordered, options.scope ? (group) => closeSource(group, scopeFields) : undefined);
  return result;
}

/** Sources named in `close_sources` (tuned sets: 8 beat 4 and 6; 10 and 12 added at most a question per set, ~100 characters more). */
const CLOSE_SOURCES = 8;

/** A source ranked after the returned ones: its best matched fields and, given the scope's fields, the names of the others. */
function closeSource(group: SourceGroup, scopeFields?: ReadonlyMap<string, EntityRecord[]>, sameField?: ReadonlyMap<EntityRecord, string>, shown?: Set<string>): CloseSource {
  const matched = group.phrases.flatMap((p) => p.matches).sort((a, b) => b.score - a.score).slice(0, 3).map((m) => m.entity.name);
  const own = scopeFields?.get(group.key) ?? [];
  const seen = (e: EntityRecord) => !e.name.includes(".") && shown?.has(sameField?.get(e) ?? "") === true;
  const names = scopeFields ? closeFieldNames(own.filter((e) => !seen(e)), new Set(matched)) : [];
  if (shown && sameField) for (const e of own) if (!e.name.includes(".")) shown.add(sameField.get(e) ?? e.id);
  return {
    source_name: group.sourceName,
    model_uri: group.modelPath,
    ...(group.origin ? { package_name: group.origin.packageName } : {}),
    score: Math.round(group.best * 1000) / 1000,
    matched,
    ...(names.length > 0 ? { fields: names } : {}),
  };
}

/**
 * Shrinks an answer over {@link ANSWER_BUDGET} characters of JSON, least useful first, until it fits:
 * the returned sources' joined fields and descriptions (shrinkFieldLists), indexed values beyond
 * {@link VALUES_SHRUNK} per entity (last source first), then (with field lists) the sources after the
 * first move to the head of `close_sources` (their fields by name), then close sources' field names go,
 * last first.
 * The first source and every close source's name and matched fields always stay.
 */
function shrinkAnswer(result: ContextResult, ordered: readonly SourceGroup[], demote?: (group: SourceGroup) => CloseSource): void {
  const over = () => JSON.stringify(result).length > ANSWER_BUDGET;
  if (!over()) return;
  const { sources } = result;
  shrinkFieldLists(sources.flatMap((s) => (s.fields ? [s.fields] : [])), over);
  for (const e of [...sources].reverse().flatMap((s) => s.phrases.flatMap((p) => p.entities))) {
    if (!over()) return;
    if (e.values && e.values.length > VALUES_SHRUNK) {
      e.values_total ??= e.values.length;
      e.values = e.values.slice(0, VALUES_SHRUNK);
    }
  }
  const close = result.close_sources ?? [];
  while (demote && over() && sources.length > 1) {
    sources.pop();
    close.unshift(demote(ordered[sources.length]!));
    result.close_sources = close;
  }
  for (const c of [...close].reverse()) {
    if (!over()) return;
    delete c.fields;
  }
}

/** A close source's field names: its own fields and its joins (by name), without those already `matched`. */
function closeFieldNames(fields: readonly EntityRecord[], matched: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const e of fields) {
    const name = e.name.includes(".") ? e.name.slice(0, e.name.indexOf(".")) : e.name;
    if (!matched.has(e.name)) out.add(name);
  }
  return [...out];
}

/** Characters of an answer's JSON above which its field lists are shrunk (shrinkFieldLists). */
const ANSWER_BUDGET = 6000;

/**
 * Weight of a source's coverage of the question's words in its rank.
 * Chosen on the eval's tuning half (0, 0.15, 0.3, 0.5): 0.3 raised the first
 * query's "answers the question" in environment scope 47.9% -> 50.9%.
 */
const SOURCE_COVERAGE = 0.3;

/** Share of the question's words that a source's name words and its matched fields' name and synonym words cover. */
function coverage(group: SourceGroup, asked: ReadonlySet<string>, source: EntityRecord | undefined): number {
  if (asked.size === 0) return 0;
  const words = new Set<string>(source?.lexicalTerms.name ?? []);
  for (const p of group.phrases) for (const m of p.matches) for (const w of [...m.entity.lexicalTerms.name, ...m.entity.lexicalTerms.related]) words.add(w);
  return [...asked].filter((w) => words.has(w)).length / asked.size;
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
    ...(also && also.length > 0 ? { also_in: also.slice(0, 2) } : {}),
  };
}

function nextSteps(groups: SourceGroup[], question: string, scope: ScopeParts, all: readonly EntityMatch[]): string[] {
  const named = all.filter((m) => m.entity.kind === "measure" && m.lexical >= NAMED_LEXICAL);
  if (groups.length === 0) {
    return [
      "No entity matched the question. Widen the search by dropping arguments from the right (source_name, then model_uri, then package_name), or rephrase with the words the model uses.",
    ];
  }
  const steps: string[] = [];
  const querySource = (key: string, sourceName: string): QuerySource => {
    const group = groups.find((g) => g.key === key);
    return {
      sourceName,
      matches: sourceMatches(key, sourceName, group ? group.phrases.flatMap((p) => p.matches) : [], all, scope.fields.get(key)),
      fields: scope.fields.get(key) ?? group?.phrases.flatMap((p) => p.matches.map((m) => m.entity)) ?? [],
      nameTerms: scope.sources.get(key)?.lexicalTerms.name ?? contentStems(splitName(sourceName).join(" ")),
    };
  };
  for (const [i, group] of groups.slice(0, 2).entries()) {
    const best = group.phrases.flatMap((p) => p.matches).sort((a, b) => b.score - a.score);
    const uri = `model_uri '${group.modelPath}'`;
    if (group.sourceName === "") {
      const queries = best.filter((m) => m.entity.kind === "query").slice(0, 3).map((m) => m.entity.name);
      if (queries.length > 0) steps.push(`In ${uri}, run a named query with execute_query: query '${queries.map((q) => `run: ${malloySourceName(q)}`).join("' or '")}'.`);
      continue;
    }
    const prefix = group.key.slice(0, group.key.lastIndexOf("#") + 1);
    const plan = i === 0
      ? planFirstQuery(question, querySource(group.key, group.sourceName), (name) => (scope.fields.has(prefix + name) ? querySource(prefix + name, name) : undefined), named)
      : { sourceName: group.sourceName, query: firstQuery(question, group.sourceName, best, scope.fields.get(group.key)) };
    const where = group.origin ? `environment_name '${group.origin.environmentName}', package_name '${group.origin.packageName}', ` : "";
    steps.push(`${steps.length === 0 ? "Answer" : "Or"} with execute_query (${where}model_uri '${group.modelPath}', source_name '${plan.sourceName}') and query:\n${plan.query}`);
    const views = best.filter((m) => m.entity.kind === "view").slice(0, 3).map((m) => m.entity.name);
    if (views.length > 0) steps.push(`Views of '${group.sourceName}' to try: ${views.join(", ")} (query_name '${views[0]}', or query 'run: ${malloySourceName(group.sourceName)} -> ${malloyName(views[0]!)}').`);
  }
  steps.push("If the question means another field, pick it from the sources' `fields` and `entities` by name (dotted paths for joins); fix a compile error with malloy_documentation.");
  return steps;
}
