/**
 * The access rules a compiled query (or a source) carries, read from
 * Malloy's IR rather than from query text:
 *
 * - every source definition the query reaches — its source, the sources of
 *   its joins (at any depth), the sources behind query sources, SQL sources
 *   with embedded queries, composite sources — is visited, resolving named
 *   references through the model definition;
 * - a visited source's annotations include what it inherits (`extend` keeps
 *   the annotations of the source it extends), so `#(bind)` and
 *   `#(authorize)` on a source apply to everything built on it;
 * - only annotations written in the package's own files count: a note the
 *   query text adds (e.g. its own `#(bind)`) is ignored; what the notes say
 *   is read by ./rule_notes.ts.
 *
 * {@link fillBindings} answers a copy of the query in which every bound
 * parameter of every reached source holds the caller's value, so the SQL
 * is generated from the IR with those values (no text splicing), and every
 * such source reads its rows through the barrier of ./barrier.ts (the
 * model's filters run in an inner stage, before any expression of the caller).
 * @module
 */
import { barrierContext, barrierProblem, behindBarrier, noteKey } from "./barrier.ts";
import { type AccessRules, type AnnotationDef, type Binding, emptyRules, hasRules, mergeRules, notesOf, parseNote, rulesOfNotes } from "./rule_notes.ts";

/** Options of {@link accessRules}. */
export interface LineageOptions {
  /** True for an annotation location that belongs to the package (not to query text). */
  trusted: (url: string) => boolean;
  /**
   * The rules of the package's sources as its files define them
   * ({@link declaredRules}), when the definition walked is a rewrite of them
   * (materializations served): every source reached adds the rules of the
   * package sources it is or is built on, which the rewrite may have cut
   * from its definition (a built `#@ persist` source reads a file, not the
   * query that reached an `#(authorize)` source).
   */
  declared?: DeclaredRules;
}

type Node = Record<string, unknown>;
const SOURCE_TYPES = new Set(["table", "sql_select", "query_source", "composite", "virtual"]);

/**
 * Keys of IR objects that hold expressions, usage summaries, locations or
 * annotations: they never contain a source definition or a source
 * reference, so the walk skips them (and the copy shares them).
 */
const OPAQUE_KEYS = new Set([
  "annotations", "location", "at", "e", "refSummary", "fieldUsage", "expandedFieldUsage", "expandedGivenUsage",
  "expandedUngroupings", "drillExpression", "filterList", "orderBy", "givenUsage", "code",
]);

/** Whether an IR object is a source definition (of a model, a join or a query). */
function isSourceDef(node: Node): boolean {
  return typeof node.type === "string" && SOURCE_TYPES.has(node.type) && Array.isArray(node.fields);
}

function contentsOf(modelDef: unknown): Record<string, Node> {
  return ((modelDef as { contents?: Record<string, Node> })?.contents ?? {});
}

/** The rules of a model's sources and named queries as the package's files define them, and the notes that name them. */
export interface DeclaredRules {
  /** Rules of each source and named query of the model, by name (only those with rules). */
  byName: Map<string, AccessRules>;
  /** The source that declares each trusted note (by {@link noteKey}), for sources with rules. */
  byNote: Map<string, string>;
}

/**
 * The rules of every source and named query of `modelDef` (a model as the
 * package's files define it, never a rewrite of it), walked over its whole
 * lineage, with the own notes of each source that has rules.
 */
export function declaredRules(modelDef: unknown, options: LineageOptions): DeclaredRules {
  const declared: DeclaredRules = { byName: new Map(), byNote: new Map() };
  for (const [name, entry] of Object.entries(contentsOf(modelDef))) {
    if (!isSourceDef(entry) && entry.type !== "query") continue;
    const rules = accessRules(entry, modelDef, { trusted: options.trusted });
    if (!hasRules(rules)) continue;
    declared.byName.set(name, rules);
    const own = entry.annotations as AnnotationDef | undefined;
    for (const note of [...(own?.blockNotes ?? []), ...(own?.notes ?? [])]) {
      if (note.at?.url && options.trusted(note.at.url)) declared.byNote.set(noteKey(note), name);
    }
  }
  return declared;
}

/** Whether a source's filters read a given (`where: tenant = $TENANT`): its rows then depend on the caller. */
function filtersReadGivens(def: Node, ids?: ReadonlySet<string>): boolean {
  const filters = (def.filterList as { refSummary?: { givenUsage?: { id?: string }[] } }[] | undefined) ?? [];
  return filters.some((f) => (f.refSummary?.givenUsage ?? []).some((u) => ids === undefined || (u.id !== undefined && ids.has(u.id))));
}

function sourceName(node: Node): string | undefined {
  const id = node.sourceID;
  if (typeof id === "string" && id.includes("@")) return id.slice(0, id.indexOf("@"));
  return typeof node.as === "string" ? node.as : typeof node.name === "string" ? node.name : undefined;
}

/**
 * Every access rule a query (or a source definition) reaches: walks the IR
 * from `root`, resolving named sources through `modelDef`.
 */
export function accessRules(root: unknown, modelDef: unknown, options: LineageOptions): AccessRules {
  const rules: AccessRules = emptyRules();
  const contents = contentsOf(modelDef);
  const seen = new Set<object>();
  const visit = (value: unknown): void => {
    if (value === null || typeof value !== "object" || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    const node = value as Node;
    if (typeof node.structRef === "string") visit(contents[node.structRef]);
    if (isSourceDef(node)) {
      const name = sourceName(node);
      const notes = notesOf(node.annotations as AnnotationDef | undefined, options.trusted);
      if (filtersReadGivens(node)) rules.givenFilters = true;
      if (name) {
        const own = typeof node.sourceID === "string" && options.trusted(node.sourceID.slice(node.sourceID.indexOf("@") + 1));
        if (own && !rules.sources.includes(name)) rules.sources.push(name);
        rulesOfNotes(name, notes, rules);
        // a bound source of the package whose filters cannot pass the barrier (./barrier.ts): refused at publish
        const bound = own && notes.some((n) => (parseNote(n).bind?.length ?? 0) > 0);
        const problem = bound ? barrierProblem(name, node) : undefined;
        if (problem && !rules.problems.includes(problem)) rules.problems.push(problem);
        if (options.declared) {
          // the package sources this one is (by name) or is built on (by their notes in its annotation chain)
          const names = new Set<string>(own ? [name] : []);
          for (const note of notes) {
            const declarer = options.declared.byNote.get(noteKey(note));
            if (declarer) names.add(declarer);
          }
          for (const n of names) {
            const more = options.declared.byName.get(n);
            if (more) mergeRules(rules, more);
          }
        }
      }
    }
    for (const [key, child] of Object.entries(node)) {
      if (OPAQUE_KEYS.has(key)) continue;
      if (child !== null && typeof child === "object") visit(child);
    }
  };
  visit(root);
  return rules;
}

/** The argument that fills a parameter: its Malloy type and IR constant (e.g. `{ node: "stringLiteral", literal: "EU" }`). */
export interface BoundArgument {
  type: string;
  value: Record<string, unknown>;
  filterType?: string;
}

function bindingsOf(node: Node, trusted: (url: string) => boolean): Binding[] {
  const rules: AccessRules = emptyRules();
  rulesOfNotes(sourceName(node) ?? "", notesOf(node.annotations as AnnotationDef | undefined, trusted), rules);
  return rules.bindings;
}

/**
 * A copy of `query` in which every reached source bound (by its own or
 * inherited trusted `#(bind)` notes) to an attribute of `values` has that
 * parameter's argument set to the caller's value, and so has a query's own
 * argument list for such a source; each such source is re-based behind the
 * barrier ({@link behindBarrier}; throws its `BarrierRefused`). Named
 * sources are inlined as copies, so the shared model definition is never changed.
 */
export function fillBindings(query: unknown, modelDef: unknown, options: LineageOptions & { values: Map<string, BoundArgument>; trustedGivens?: ReadonlySet<string> }): unknown {
  const contents = contentsOf(modelDef);
  const barrier = barrierContext(contents, options.trusted);
  const argumentFor = (declared: Node | undefined, parameter: string, bound: BoundArgument): Node => ({
    ...(declared ?? {}),
    name: parameter,
    type: bound.type,
    ...(bound.filterType ? { filterType: bound.filterType } : {}),
    value: bound.value,
  });
  // copy on write: a node is copied only when something under it changes
  const copy = (value: unknown): unknown => {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) {
      const items = value.map(copy);
      return items.some((item, i) => item !== value[i]) ? items : value;
    }
    const node = value as Node;
    const out: Node = {};
    let changed = false;
    for (const [key, child] of Object.entries(node)) {
      let next: unknown;
      if (key === "structRef" && typeof child === "string" && contents[child]) {
        next = copy(contents[child]);
        // keep the reference by name unless the named source needed a change
        if (next === contents[child]) next = child;
      } else if (OPAQUE_KEYS.has(key)) {
        next = child;
      } else {
        next = copy(child);
      }
      out[key] = next;
      if (next !== child) changed = true;
    }
    if (isSourceDef(node)) {
      const bindings = bindingsOf(node, options.trusted).filter((b) => options.values.has(b.attribute));
      if (bindings.length > 0) {
        const args = { ...((out.arguments as Node | undefined) ?? {}) };
        const params = (node.parameters ?? {}) as Record<string, Node>;
        for (const b of bindings) {
          args[b.parameter] = argumentFor((params[b.parameter] ?? args[b.parameter]) as Node | undefined, b.parameter, options.values.get(b.attribute)!);
        }
        out.arguments = args;
        return behindBarrier(out, barrier, node);
      }
      // a source whose filters read givens filled from trusted attributes is filtered in the same stage
      if (options.trustedGivens && options.trustedGivens.size > 0 && filtersReadGivens(node, options.trustedGivens)) return behindBarrier(out, barrier, node);
    }
    if (node.sourceArguments && typeof node.sourceArguments === "object") {
      const target = typeof node.structRef === "string" ? contents[node.structRef] : node.structRef as Node | undefined;
      if (target && isSourceDef(target)) {
        const args = { ...(out.sourceArguments as Node) };
        for (const b of bindingsOf(target, options.trusted)) {
          const bound = options.values.get(b.attribute);
          if (bound && args[b.parameter]) {
            args[b.parameter] = argumentFor(args[b.parameter] as Node | undefined, b.parameter, bound);
            changed = true;
          }
        }
        out.sourceArguments = args;
      }
    }
    return changed ? out : node;
  };
  return copy(query);
}
