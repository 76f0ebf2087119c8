/**
 * Plain-JSON description of a compiled model: its sources, their fields and
 * views, and its named queries, with `#(doc)` descriptions and `#(index)`
 * flags. Stored as entity rows and returned by `GET .../models/{modelPath}`.
 *
 * Annotations are read through Malloy's route API (`entity.annotations`):
 * `#(doc) text` is route `doc`, `#(index)` is route `index`, `#" text` is the
 * built-in doc-string route `"`.
 * @module
 */

import { Annotations, type Explore, type Field, type Model } from "@malloydata/malloy";
import type { CompiledModel } from "./compile.ts";

/** The kind of a field. */
type FieldType = "dimension" | "measure" | "view";

/** A dimension, measure or view of a source (or of one of its joins). */
export interface FieldMetadata {
  name: string;
  /** Dotted path from the source, e.g. `carrier.nickname`; equals `name` at top level. */
  path: string;
  fieldType: FieldType;
  /** `string`, `number`, `date`, `timestamp`, `boolean`, `json`, `record`, `array`, `view`, ... */
  dataType: string;
  description?: string;
  /** True when annotated `#(index)` (not `#(index) false`). */
  indexed: boolean;
  /** True when annotated `#(index) false`: never indexed, not even automatically. */
  noIndex?: boolean;
  /** Join names leading to the field; empty for the source's own fields. */
  joinPath: string[];
  /** Other tag lines (e.g. `# bar_chart`), as written. */
  tags?: string[];
  /** True for a raw table column the model takes as it is: no expression, not renamed (`get_context` field type `column`). */
  column?: true;
}

/** A join of a source. */
interface JoinMetadata {
  name: string;
  /** How it is joined: `one` (join_one), `many` (join_many) or `cross` (join_cross). */
  relationship: string;
  joinPath: string[];
  description?: string;
}

/** A source of a model. */
export interface SourceMetadata {
  name: string;
  description?: string;
  /** Connection name, e.g. `duckdb`. */
  connection: string;
  /** Package-relative file that defines the source. */
  file?: string;
  /** True when annotated `#@ persist` (a run materializes it). */
  persist?: boolean;
  dimensions: FieldMetadata[];
  measures: FieldMetadata[];
  views: FieldMetadata[];
  joins: JoinMetadata[];
}

/** A top-level `query:` of a model. */
interface NamedQueryMetadata {
  name: string;
  description?: string;
  /** The source the query starts from, when known. */
  sourceName?: string;
}

/** Everything {@link modelMetadata} extracts from one model file. */
export interface ModelMetadata {
  modelPath: string;
  description?: string;
  sources: SourceMetadata[];
  queries: NamedQueryMetadata[];
}

/** Options of {@link modelMetadata}. */
export interface ModelMetadataOptions {
  /** How deep to follow joins (0: the source's own fields only). Default 2. */
  maxJoinDepth?: number;
}

interface Annotated {
  annotations: { forRoute(route?: string): Array<{ content: string; route: string }> };
}

/** A compiled model as {@link modelMetadata} reads it (a {@link CompiledModel} is one). */
export interface MetadataInput {
  /** Package-relative path of the model file. */
  path: string;
  model: Model;
  pkg: { fileOf(url: string): string };
}

/**
 * Extracts the sources defined in a compiled model file (imported sources
 * are described by their own file) and its named queries. Pure: the compile
 * worker runs it at publish.
 */
export function modelMetadata(
  compiled: MetadataInput,
  options: ModelMetadataOptions = {},
): ModelMetadata {
  const model = compiled.model;
  const depth = options.maxJoinDepth ?? 2;
  const sources = model.exportedExplores.map((explore) => {
    const location = explore.location?.url;
    return {
      name: explore.name,
      description: describe(explore),
      connection: connectionOf(explore),
      file: location ? compiled.pkg.fileOf(location) : undefined,
      ...(isPersisted(explore) ? { persist: true } : {}),
      ...fieldsOf(explore, [], depth),
    };
  });
  return {
    modelPath: compiled.path,
    description: describe(model),
    sources,
    queries: namedQueries(model, compiled.pkg.fileOf).filter((query) => query.file === undefined || query.file === compiled.path)
      .map(({ file: _file, ...query }) => query),
  };
}

/** Whether a source carries `#@ persist` (Malloy's persistence route `@`, tag `persist`). */
function isPersisted(explore: Explore): boolean {
  const annotations = (explore as unknown as { annotations?: { parseAsTag(route: string): { tag: { has(name: string): boolean } } } }).annotations;
  try {
    return annotations?.parseAsTag("@").tag.has("persist") ?? false;
  } catch {
    return false;
  }
}

function fieldsOf(
  explore: Explore,
  joinPath: string[],
  depth: number,
): Pick<SourceMetadata, "dimensions" | "measures" | "views" | "joins"> {
  const out: Pick<SourceMetadata, "dimensions" | "measures" | "views" | "joins"> = {
    dimensions: [],
    measures: [],
    views: [],
    joins: [],
  };
  for (const field of explore.allFields) {
    if (!queryable(field)) continue;
    if (field.isExploreField()) {
      const kind = field.structDef.type;
      if (kind === "record" || kind === "array") {
        out.dimensions.push(describeField(field, "dimension", kind, joinPath));
        continue;
      }
      out.joins.push({
        name: field.name,
        relationship: (field.structDef as { join?: string }).join ?? "one",
        joinPath,
        description: describe(field),
      });
      if (joinPath.length < depth) {
        const nested = fieldsOf(field, [...joinPath, field.name], depth);
        out.dimensions.push(...nested.dimensions);
        out.measures.push(...nested.measures);
        out.views.push(...nested.views);
        out.joins.push(...nested.joins);
      }
    } else if (field.isQueryField()) {
      out.views.push(describeField(field, "view", "view", joinPath));
    } else if (field.isAtomicField()) {
      const measure = field.isCalculation();
      const described = describeField(field, measure ? "measure" : "dimension", String(field.type), joinPath);
      out[measure ? "measures" : "dimensions"].push(!measure && isRawColumn(field) ? { ...described, column: true } : described);
    }
  }
  return out;
}

/**
 * Whether query text may name a field: Malloy's access modifiers
 * (`include { private: salary; internal: code }`, `private join_one: ...`)
 * keep `private` and `internal` fields out of every query against the source,
 * so they are not described, listed by get_context or indexed for their values.
 */
function queryable(field: Field): boolean {
  const def = field as unknown as { fieldTypeDef?: { accessModifier?: string }; structDef?: { accessModifier?: string } };
  const modifier = def.fieldTypeDef?.accessModifier ?? (field.isExploreField() ? def.structDef?.accessModifier : undefined);
  return modifier === undefined || modifier === "public";
}

/**
 * Whether a dimension is a column of the source's table taken as it is: Malloy
 * calls a field without an expression intrinsic, and a `rename:` keeps the
 * column's name in the definition under a new field name.
 */
function isRawColumn(field: Field): boolean {
  const def = (field as unknown as { fieldTypeDef?: { name?: string; e?: unknown } }).fieldTypeDef;
  return field.isIntrinsic() && def !== undefined && !("e" in def) && def.name === field.name;
}

function describeField(
  field: Field,
  fieldType: FieldType,
  dataType: string,
  joinPath: string[],
): FieldMetadata {
  const annotated = field as unknown as Annotated;
  const indexNotes = annotated.annotations.forRoute("index").map((note) => note.content.trim().toLowerCase());
  const tags = annotated.annotations.forRoute("").map((note) => `# ${note.content.trim()}`)
    .filter((tag) => tag !== "# ");
  return {
    name: field.name,
    path: [...joinPath, field.name].join("."),
    fieldType,
    dataType,
    description: describe(annotated),
    indexed: indexNotes.length > 0 && !indexNotes.includes("false"),
    ...(indexNotes.includes("false") ? { noIndex: true } : {}),
    joinPath,
    ...(tags.length > 0 ? { tags } : {}),
  };
}

function namedQueries(
  model: Model,
  fileOf: (url: string) => string,
): Array<NamedQueryMetadata & { file?: string }> {
  return model.queries().named.map((name) => {
    try {
      const query = model.getPreparedQueryByName(name);
      let sourceName: string | undefined;
      try {
        sourceName = query.preparedResult.sourceExplore?.name;
      } catch {
        sourceName = undefined;
      }
      // A query inherits the notes of the view it runs; describe it by its own.
      const own = (query._query as { annotations?: { notes?: unknown[]; blockNotes?: unknown[] } })
        .annotations;
      const annotations = new Annotations(
        own ? { notes: own.notes, blockNotes: own.blockNotes } as ConstructorParameters<typeof Annotations>[0] : undefined,
      );
      const url = (query._query as { location?: { url: string } }).location?.url;
      return {
        name,
        description: describe({ annotations }),
        sourceName,
        file: url ? fileOf(url) : undefined,
      };
    } catch {
      return { name };
    }
  });
}

function describe(entity: Annotated): string | undefined {
  const notes = [
    ...entity.annotations.forRoute("doc"),
    ...entity.annotations.forRoute('"'),
  ];
  const text = notes.map((note) => note.content.trim()).filter((t) => t !== "").join("\n");
  return text === "" ? undefined : text;
}

function connectionOf(explore: Explore): string {
  const def = explore.structDef as { connection?: string };
  return def.connection ?? "duckdb";
}
