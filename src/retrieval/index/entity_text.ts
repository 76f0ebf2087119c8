/**
 * Entity index rows for `get_context`: one record per source, dimension,
 * measure, view and named query of a model, with the text that is embedded
 * and the lexical terms that ranking matches questions against.
 *
 * @module
 */
import type { FieldMetadata, ModelMetadata, SourceMetadata } from "../../engine/compile/metadata.ts";
import { splitCompound } from "../text/compound_words.ts";
import type { Lexicon } from "../text/lexicon.ts";
import { contentStems, expandAbbreviations, FIELD_ABBREVIATIONS, splitName, stem, STOP_WORDS } from "../text/text_terms.ts";

/**
 * The way entity texts and lexical terms are built. Raise it with any change
 * to what {@link entitiesFromMetadata} produces for the same model (stemming,
 * words taken from docs, labels or tags): a start re-indexes every version
 * indexed with another format (resumeIndexing, sql/170). 1: the stemmer keeps
 * a word's own -ly, labels and `#` tags join the text.
 */
export const ENTITY_TEXT_FORMAT = 1;

/** What an entity is. */
type EntityKind = "source" | "dimension" | "measure" | "view" | "query";

/** Stemmed words of an entity, by where they come from. */
export interface LexicalTerms {
  /** Words of the name (and join path), as written and with abbreviations expanded. */
  name: string[];
  /** Words of the entity's own `#(doc)` text and of its `#` label (entity_text.ts tagText). */
  doc: string[];
  /** Words of the source's name and doc (for fields), or of the model doc (for sources and queries). */
  context: string[];
  /** Synonyms and derived forms of the name words (from a lexicon), not in `name`; two-word lemmas as `"call off"`. */
  related: string[];
}

/** One row of the entity index. */
export interface EntityRecord {
  /** Stable key: `modelPath#sourceName/kind:name`. */
  id: string;
  kind: EntityKind;
  /** Name as used in a query: dotted path for fields of joins (`carriers.nickname`). */
  name: string;
  /** The source the entity belongs to (the source itself for `source`; the query's source for `query`, or `""`). */
  sourceName: string;
  /** Package-relative model file. */
  modelPath: string;
  /** `source`, `dimension`, `measure`, `view` or `query`, or `column` for a dimension that is a raw table column (kind `dimension`). */
  fieldType: EntityKind | "column";
  /** `string`, `number`, `date`, ... for fields; `source`, `view`, `query` otherwise. */
  dataType: string;
  /** The `#(doc)` text, if any. */
  description?: string;
  /** The text that is embedded: humanized name, abbreviations expanded, doc, type words. */
  text: string;
  /** For fields: the source's `#(doc)`, blended into the embedding with a small weight (entity_vectors.ts). */
  sourceDoc?: string;
  lexicalTerms: LexicalTerms;
  /** Indexed values of a `#(index)` dimension, when known. */
  values?: string[];
  /** Where the entity was published (set by the database search; absent in memory). */
  origin?: EntityOrigin;
}

/** The environment, package and version an entity belongs to. */
interface EntityOrigin {
  environmentName: string;
  packageName: string;
  versionId: string;
}

/** Which part of a model to index. */
export interface EntityScope {
  /** Only this source (and queries on it). */
  sourceName?: string;
}

/** Options of {@link entitiesFromMetadata}. */
export interface EntityTextOptions {
  /** Indexed values by `sourceName.fieldPath` (from `#(index)` runs). */
  values?: Readonly<Record<string, readonly string[]>>;
  /** Lexicon for synonym expansion of name words (see `loadLexicon`); none by default. */
  lexicon?: Lexicon | null;
  /** Most indexed values kept per dimension; default 200. */
  maxValues?: number;
  /** Add the source's doc to each field's embedded text; default false (it dilutes field vectors). */
  sourceDocInText?: boolean;
}

/**
 * Builds the entity records of one model: its sources (each with its
 * dimensions, measures and views, join fields by dotted path) and its named
 * queries, restricted to `scope`.
 *
 * @example
 * const entities = entitiesFromMetadata(meta, {}, { values: { "flights.carrier": ["AA", "UA"] } });
 */
export function entitiesFromMetadata(
  meta: ModelMetadata,
  scope: EntityScope = {},
  options: EntityTextOptions = {},
): EntityRecord[] {
  const out: EntityRecord[] = [];
  const sources = meta.sources.filter((s) => !scope.sourceName || s.name === scope.sourceName);
  const prefixes = columnPrefixes(meta.sources);
  for (const source of sources) {
    out.push(sourceEntity(meta, source, options));
    for (const field of [...source.dimensions, ...source.measures, ...source.views]) {
      out.push(fieldEntity(meta, source, field, { ...options, prefixes }));
    }
  }
  for (const query of meta.queries) {
    if (scope.sourceName && query.sourceName !== scope.sourceName) continue;
    const source = meta.sources.find((s) => s.name === query.sourceName);
    out.push(makeEntity({
      kind: "query",
      name: query.name,
      nameWords: splitName(query.name),
      sourceName: query.sourceName ?? "",
      modelPath: meta.modelPath,
      dataType: "query",
      description: query.description,
      contextText: [source?.name ?? "", source?.description ?? "", meta.description ?? ""].join(" "),
    }, options));
  }
  return out;
}

function sourceEntity(meta: ModelMetadata, source: SourceMetadata, options: EntityTextOptions): EntityRecord {
  return makeEntity({
    kind: "source",
    name: source.name,
    nameWords: splitName(source.name),
    sourceName: source.name,
    modelPath: meta.modelPath,
    dataType: "source",
    description: source.description,
    contextText: meta.description ?? "",
  }, options);
}

/**
 * Column prefixes of the model's sources: a short first word (at most three
 * letters) that most of a source's own dimensions start with, as warehouse
 * schemas write them (`o_orderdate`, `ps_supplycost`). They say which table
 * a column came from, not what it means, so they are left out of the words
 * that are matched and embedded (the name itself keeps them).
 */
function columnPrefixes(sources: readonly SourceMetadata[]): Set<string> {
  const out = new Set<string>();
  for (const source of sources) {
    const own = source.dimensions.filter((d) => !d.path.includes("."));
    const counts = new Map<string, number>();
    for (const d of own) {
      const [first, ...rest] = splitName(d.path);
      if (first && rest.length > 0 && first.length <= 3 && /^[a-z]+$/.test(first)) counts.set(first, (counts.get(first) ?? 0) + 1);
    }
    for (const [word, count] of counts) if (count >= 3 && count >= 0.6 * own.length) out.add(word);
  }
  return out;
}

/** Name words of a field path without column prefixes (each dotted segment's first word, when it is one). */
function withoutPrefixes(path: string, prefixes: ReadonlySet<string>): string[] {
  return path.split(".").flatMap((segment) => {
    const list = splitName(segment);
    return list.length > 1 && prefixes.has(list[0]!) ? list.slice(1) : list;
  });
}

function fieldEntity(
  meta: ModelMetadata,
  source: SourceMetadata,
  field: FieldMetadata,
  options: EntityTextOptions & { prefixes: ReadonlySet<string> },
): EntityRecord {
  const values = field.fieldType === "dimension"
    ? options.values?.[`${source.name}.${field.path}`]?.slice(0, options.maxValues ?? 200)
    : undefined;
  return makeEntity({
    kind: field.fieldType,
    ...(field.column && field.fieldType === "dimension" ? { fieldType: "column" as const } : {}),
    name: field.path,
    nameWords: withoutPrefixes(field.path, options.prefixes),
    sourceName: source.name,
    modelPath: meta.modelPath,
    dataType: field.dataType,
    description: field.description,
    tagText: tagText(field.tags ?? []),
    contextText: `${splitName(source.name).join(" ")} ${source.description ?? ""}`,
    sourceDoc: source.description,
    values: values && values.length > 0 ? [...values] : undefined,
  }, options);
}

interface EntityParts {
  kind: EntityKind;
  /** What the answer calls it, when not its kind (`column`). */
  fieldType?: "column";
  name: string;
  nameWords: string[];
  sourceName: string;
  modelPath: string;
  dataType: string;
  description?: string;
  /** Words of the field's `#` tags: its label, and what a renderer hint says (tagText). */
  tagText?: string;
  contextText: string;
  sourceDoc?: string;
  values?: string[];
}

/** What Malloy's renderer hints say a field holds, in words. */
const HINT_WORDS: Record<string, string> = {
  currency: "money amount",
  percent: "percent share",
  duration: "duration time",
};

/**
 * The words of a field's `#` tags that say what it is: a `label`,
 * `description` or `title` property's text (`# label="Shipping fee"`), and
 * renderer hints (`# currency`, `# percent`, `# duration`) as words. Other tags
 * (`# bar_chart`, `# hidden`) say how to show the field, not what it means.
 */
function tagText(tags: readonly string[]): string {
  const out: string[] = [];
  for (const tag of tags) {
    for (const m of tag.matchAll(/\b(?:label|description|title)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"']+))/g)) {
      out.push((m[1] ?? m[2] ?? m[3] ?? "").replace(/_/g, " "));
    }
    for (const m of tag.matchAll(/(?:^#\s*|\s)(currency|percent|duration)\b/g)) out.push(HINT_WORDS[m[1]!]!);
  }
  return out.join(". ");
}

/** Words describing a data type, so "when" questions lean to dates and "how many" to numbers. */
const TYPE_WORDS: Record<string, string> = {
  date: "date day",
  timestamp: "time date",
  boolean: "flag whether",
  number: "",
  string: "",
};

function makeEntity(parts: EntityParts, options: EntityTextOptions): EntityRecord {
  // Abbreviations expanded, then glued words split (`signup` -> `sign up`) when a lexicon knows both halves.
  const lexicon = options.lexicon;
  // An abbreviation counts as a word of a compound (`availqty` -> `avail qty` -> `avail quantity`).
  const expanded = expandAbbreviations(expandAbbreviations(parts.nameWords)
    .flatMap((w) => (lexicon ? splitCompound(w, (x) => lexicon.has(x) || FIELD_ABBREVIATIONS.has(x)) : [w])));
  const nameTerms = unique([...parts.nameWords, ...expanded].filter((w) => !STOP_WORDS.has(w)).map(stem));
  const docText = [parts.description ?? "", parts.tagText ?? ""].filter((t) => t !== "").join(". ");
  const docTerms = docText !== "" ? contentStems(docText, { expand: true }) : [];
  const contextTerms = contentStems(parts.contextText, { expand: true });
  const related = relatedTerms(expanded, options.lexicon, { known: new Set(nameTerms), context: new Set([...nameTerms, ...docTerms]) });
  const humanized = expanded.join(" ");
  const text = [
    humanized,
    parts.description ?? "",
    parts.tagText ?? "",
    TYPE_WORDS[parts.dataType] ?? "",
    options.sourceDocInText && parts.sourceDoc ? parts.sourceDoc : "",
  ].map((s) => s.trim()).filter((s) => s !== "").join(". ");
  return {
    id: `${parts.modelPath}#${parts.sourceName}/${parts.kind}:${parts.name}`,
    kind: parts.kind,
    name: parts.name,
    sourceName: parts.sourceName,
    modelPath: parts.modelPath,
    fieldType: parts.fieldType ?? parts.kind,
    dataType: parts.dataType,
    ...(parts.description ? { description: parts.description } : {}),
    text,
    ...(parts.sourceDoc && !options.sourceDocInText ? { sourceDoc: parts.sourceDoc } : {}),
    lexicalTerms: { name: nameTerms, doc: docTerms, context: contextTerms, related },
    ...(parts.values ? { values: parts.values } : {}),
  };
}

/**
 * Lexicon words related to the name words; a rarer sense counts too when the
 * entity's own name or doc words appear among its lemmas (`gross margin`).
 */
function relatedTerms(
  nameWords: string[],
  lexicon: Lexicon | null | undefined,
  { known, context }: { known: Set<string>; context: Set<string> },
): string[] {
  if (!lexicon) return [];
  const inContext = (w: string) => !STOP_WORDS.has(w) && context.has(stem(w));
  const out = new Set<string>();
  const content = nameWords.filter((w) => !STOP_WORDS.has(w) && w.length > 1 && !/\d/.test(w));
  // The whole name as a lemma too ("head count", "zip code").
  const candidates = content.length > 1 ? [...content, content.join(" ")] : content;
  for (const word of candidates) {
    for (const rel of lexicon.related(word, { context: inContext })) {
      // Multi-word lemmas ("call off") are kept whole, as stemmed word pairs.
      const parts = rel.split(/[\s-]+/).filter((w) => w !== "");
      if (parts.length > 2 || (parts.length === 1 && (STOP_WORDS.has(rel) || rel.length < 2))) continue;
      const s = parts.map(stem).join(" ");
      if (!known.has(s)) out.add(s);
    }
  }
  return [...out];
}

function unique(items: string[]): string[] {
  return [...new Set(items)];
}
