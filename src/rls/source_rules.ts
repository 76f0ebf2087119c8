/**
 * The access rules of each exported source of a compiled model, as plain
 * data: computed once per model at publish, in the compile worker (see
 * `src/publishing/describe_model.ts`), then used on the main thread both by the
 * publish check (`checkAccessAnnotations` in `publish_check.ts`) and for the
 * `access` stored with each source's metadata ({@link withAccess}). Pure: no
 * database, no HTTP.
 * @module
 */
import type { Explore, Model } from "@malloydata/malloy";
import type { CompiledModel } from "../engine/mod.ts";
import type { ModelMetadata } from "../engine/compile/metadata.ts";
import { accessRules, type DeclaredRules, declaredRules } from "./lineage.ts";
import type { AccessRules } from "./rule_notes.ts";

/** A declared parameter (or argument) of a source: what a bound attribute must fill. */
interface ParameterFacts {
  type?: string;
  filterType?: string;
}

/** The access facts of one exported source. */
export interface SourceAccessFacts {
  name: string;
  /** Its rules, with what it inherits and reaches through joins. */
  rules: AccessRules;
  /** True when annotated `#@ persist`. */
  persist: boolean;
  /** Its declared parameters, by name. */
  parameters: Record<string, ParameterFacts>;
  /** Arguments it was given (a source built from a parameterized one), by name. */
  arguments: Record<string, ParameterFacts>;
}

/** The access rules of a source as stored in its metadata. */
export interface SourceAccess {
  /** `#(bind)` pairs reached (the source's own, inherited, or of joined sources). */
  bindings: { source: string; parameter: string; attribute: string }[];
  /** Each entry: the caller must belong to one of these groups. */
  authorizeGroups: string[][];
  /** Each entry: one of these gate expressions over givens must hold (`#(authorize) "$ROLE = 'admin'"`). */
  gates?: string[][];
}

/**
 * Whether a Malloy URL is a file of the package (annotations there are
 * trusted; query text is not), given the package's `fileOf`.
 */
export function trustedBy(fileOf: (url: string) => string): (url: string) => boolean {
  return (url: string) => url.startsWith("file:") && fileOf(url) !== url;
}

const declaredByModel = new WeakMap<Model, DeclaredRules>();

/**
 * The rules of a compiled model's sources as the package's files define
 * them, when the model queries compile against is a rewrite of that
 * definition (materializations served; `compiled.defined`); `undefined`
 * otherwise, when the walk of a query's own IR sees the whole lineage.
 * Computed once per defined model.
 */
export function declaredOf(compiled: CompiledModel): DeclaredRules | undefined {
  const defined = compiled.defined;
  if (!defined) return undefined;
  let declared = declaredByModel.get(defined);
  if (!declared) {
    declared = declaredRules(defined._modelDef, { trusted: trustedBy(compiled.pkg.fileOf) });
    declaredByModel.set(defined, declared);
  }
  return declared;
}

function isPersisted(explore: Explore): boolean {
  try {
    return (explore as unknown as { annotations: { parseAsTag(route: string): { tag: { has(name: string): boolean } } } })
      .annotations.parseAsTag("@").tag.has("persist");
  } catch {
    return false;
  }
}

function parametersOf(declared: Record<string, { type?: string; filterType?: string }> | undefined): Record<string, ParameterFacts> {
  const out: Record<string, ParameterFacts> = {};
  for (const [name, p] of Object.entries(declared ?? {})) {
    out[name] = { ...(p.type !== undefined ? { type: p.type } : {}), ...(p.filterType !== undefined ? { filterType: p.filterType } : {}) };
  }
  return out;
}

/** The access facts of every exported source of a model, walking its IR once per source. */
export function sourceAccessFacts(model: Model, trusted: (url: string) => boolean): SourceAccessFacts[] {
  return model.exportedExplores.map((explore) => {
    const def = explore.structDef as { parameters?: Record<string, ParameterFacts>; arguments?: Record<string, ParameterFacts> };
    return {
      name: explore.name,
      rules: accessRules(explore.structDef, model._modelDef, { trusted }),
      persist: isPersisted(explore),
      parameters: parametersOf(def.parameters),
      arguments: parametersOf(def.arguments),
    };
  });
}

/**
 * The rules of each named query of a model, by name: what the query reaches
 * (its source, joins at any depth, the sources behind query sources), so a
 * query over an inline source that joins an `#(authorize)` one is known as
 * such, which its `sourceName` (the inline source's, or none) does not say.
 */
export function queryAccessRules(model: Model, trusted: (url: string) => boolean): Map<string, AccessRules> {
  const out = new Map<string, AccessRules>();
  const def = model._modelDef;
  for (const [name, entry] of Object.entries(def.contents)) {
    if (entry.type === "query") out.set(name, accessRules(entry, def, { trusted }));
  }
  return out;
}

function stored(r: AccessRules | undefined): SourceAccess | null {
  if (!r || (r.bindings.length === 0 && r.authorize.length === 0 && r.gates.length === 0)) return null;
  return { bindings: r.bindings, authorizeGroups: r.authorize.map((a) => a.groups), ...(r.gates.length > 0 ? { gates: r.gates.map((g) => g.anyOf) } : {}) };
}

/** The model metadata with `access` on each source, and each named query, that has rules. */
export function withAccess(meta: ModelMetadata, facts: SourceAccessFacts[], queries: ReadonlyMap<string, AccessRules> = new Map()): ModelMetadata {
  const rules = new Map(facts.map((f) => [f.name, f.rules]));
  return {
    ...meta,
    sources: meta.sources.map((source) => {
      const access = stored(rules.get(source.name));
      return access ? { ...source, access } : source;
    }),
    queries: meta.queries.map((query) => {
      const access = stored(queries.get(query.name));
      return access ? { ...query, access } : query;
    }),
  };
}
