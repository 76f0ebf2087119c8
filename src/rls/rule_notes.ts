/**
 * What the access notes of a source say, as rules: `#(bind)
 * parameter=attribute`, `#(authorize) groups=[...]` and Publisher's gates
 * `#(authorize) "<expression over givens>"`, each parsed once with Malloy's
 * tag parser; `#(access_filter)` is a problem. Only notes written in the
 * package's own files are read ({@link notesOf}). The walk over a query's
 * lineage that finds the sources and their notes is ./lineage.ts.
 * @module
 */
import { Annotations } from "@malloydata/malloy";
import { parseGate } from "./gate_expression.ts";

/** `#(bind) parameter=attribute` of a source. */
export interface Binding {
  /** Source whose annotation declares it (the nearest named source reached). */
  source: string;
  parameter: string;
  attribute: string;
}

/** `#(authorize) groups=[...]`: the caller must belong to one of `groups`. */
interface AuthorizeRule {
  source: string;
  groups: string[];
}

/**
 * `#(authorize) "<expression over givens>"` (Publisher's gates): the caller
 * may query `source` when one of `anyOf` holds for its givens (the gates a
 * source declares and inherits through `extend` form one OR; the gates of
 * each source a query reaches must all hold).
 */
interface GateRule {
  source: string;
  anyOf: string[];
}

/** What a query or a source needs from its caller. */
export interface AccessRules {
  bindings: Binding[];
  authorize: AuthorizeRule[];
  gates: GateRule[];
  /** True when a source of the package reached filters its rows with a given (`where: tenant = $TENANT`). */
  givenFilters: boolean;
  /** Names of the model's sources reached (in order of discovery). */
  sources: string[];
  /** Problems in the annotations themselves (e.g. `#(bind)` without `=attribute`). */
  problems: string[];
}

/** Rules without any rule. */
export function emptyRules(): AccessRules {
  return { bindings: [], authorize: [], gates: [], givenFilters: false, sources: [], problems: [] };
}

/** Whether rules hold anything a caller must satisfy or be given. */
export function hasRules(rules: AccessRules): boolean {
  return rules.bindings.length > 0 || rules.authorize.length > 0 || rules.gates.length > 0 || rules.givenFilters;
}

/** A note of an annotation, with where it was written. */
type Note = { text: string; at?: { url?: string; range?: { start?: { line?: number; character?: number } } } };
/** The annotation of an IR object: its notes and what it inherits (`extend`). */
export type AnnotationDef = { notes?: Note[]; blockNotes?: Note[]; inherits?: AnnotationDef };

/** Notes of an annotation and of everything it inherits, trusted ones only. */
export function notesOf(annotation: AnnotationDef | undefined, trusted: (url: string) => boolean): Note[] {
  const out: Note[] = [];
  for (let a = annotation; a; a = a.inherits) {
    for (const note of [...(a.blockNotes ?? []), ...(a.notes ?? [])]) {
      if (note.at?.url && trusted(note.at.url)) out.push(note);
    }
  }
  return out;
}

/** Adds `more` (the declared rules of a source reached) to `rules`. */
export function mergeRules(rules: AccessRules, more: AccessRules): void {
  for (const b of more.bindings) {
    if (!rules.bindings.some((x) => x.parameter === b.parameter && x.attribute === b.attribute && x.source === b.source)) rules.bindings.push(b);
  }
  for (const a of more.authorize) {
    const key = JSON.stringify([...a.groups].sort());
    if (!rules.authorize.some((r) => JSON.stringify([...r.groups].sort()) === key)) rules.authorize.push(a);
  }
  for (const g of more.gates) addGate(rules, g);
  if (more.givenFilters) rules.givenFilters = true;
  for (const name of more.sources) if (!rules.sources.includes(name)) rules.sources.push(name);
}

/** Adds a gate unless one with the same expressions is there. */
function addGate(rules: AccessRules, gate: GateRule): void {
  const key = JSON.stringify([...gate.anyOf].sort());
  if (!rules.gates.some((g) => JSON.stringify([...g.anyOf].sort()) === key)) rules.gates.push(gate);
}

/** A note parsed as a Malloy tag under `route` (`bind`, `authorize`). */
function tagOf(note: Note, route: string) {
  return new Annotations({ notes: [note] } as ConstructorParameters<typeof Annotations>[0]).parseAsTag(route).tag;
}

/** A note parsed once: its `#(bind)` pairs (attribute undefined when missing), `#(authorize)` groups or gate expression. */
interface ParsedNote {
  bind?: [string, string | undefined][];
  groups?: string[] | null;
  /** `#(authorize) "<expression>"`: the expression, or a problem when it is not a gate expression. */
  gate?: { expression: string } | { problem: string };
  /** `#(access_filter) ...`: not supported (the problem). */
  unsupported?: string;
}

/** `#(authorize) "<expression>"`: the expression between the quotes (Malloy string escapes), if the note is one. */
const GATE_NOTE = /^#\(authorize\)\s*"((?:[^"\\]|\\.)*)"\s*$/s;

const parsedNotes = new Map<string, ParsedNote>();
const PARSED_LIMIT = 10_000;

/** Parses a note with Malloy's tag parser, once per distinct text (notes repeat across queries). */
export function parseNote(note: Note): ParsedNote {
  let parsed = parsedNotes.get(note.text);
  if (parsed) return parsed;
  parsed = {};
  if (note.text.startsWith("#(bind)")) {
    parsed.bind = [...tagOf(note, "bind").entries()].map(([parameter, value]) => [parameter, value.text()]);
  } else if (note.text.startsWith("#(authorize)")) {
    const quoted = GATE_NOTE.exec(note.text.trim());
    if (quoted) {
      const expression = quoted[1]!.replace(/\\(.)/g, "$1");
      try {
        parseGate(expression);
        parsed.gate = { expression };
      } catch (error) {
        parsed.gate = { problem: `#(authorize) "${expression}" is not a gate expression (${(error as Error).message}); a gate compares givens with literals, e.g. #(authorize) "$ROLE = 'admin'"` };
      }
    } else {
      parsed.groups = tagOf(note, "authorize").textArray("groups") ?? null;
    }
  } else if (note.text.startsWith("#(access_filter)")) {
    parsed.unsupported = "#(access_filter) is not supported here; restrict rows with the source's where: over a given filled from a trusted attribute (e.g. where: tenant = $TENANT with an attribute TENANT), which is applied before anything the query adds";
  }
  if (parsedNotes.size >= PARSED_LIMIT) parsedNotes.clear();
  parsedNotes.set(note.text, parsed);
  return parsed;
}

/** Parses the `#(bind)` and `#(authorize)` notes of one source into rules. */
export function rulesOfNotes(name: string, notes: Note[], rules: AccessRules): void {
  const gates: string[] = [];
  for (const note of notes) {
    const parsed = parseNote(note);
    if (parsed.unsupported) rules.problems.push(`source '${name}': ${parsed.unsupported}`);
    if (parsed.gate) {
      if ("problem" in parsed.gate) rules.problems.push(`source '${name}': ${parsed.gate.problem}`);
      else if (!gates.includes(parsed.gate.expression)) gates.push(parsed.gate.expression);
    }
    if (parsed.bind) {
      if (parsed.bind.length === 0) rules.problems.push(`source '${name}': #(bind) names no parameter; write #(bind) parameter=attribute`);
      for (const [parameter, attribute] of parsed.bind) {
        if (!attribute) {
          rules.problems.push(`source '${name}': #(bind) ${parameter} needs an attribute, e.g. #(bind) ${parameter}=region`);
          continue;
        }
        if (!rules.bindings.some((b) => b.parameter === parameter && b.attribute === attribute && b.source === name)) {
          rules.bindings.push({ source: name, parameter, attribute });
        }
      }
    }
    if (parsed.groups !== undefined) {
      const groups = parsed.groups;
      if (!groups || groups.length === 0) {
        rules.problems.push(`source '${name}': #(authorize) needs a list of groups, e.g. #(authorize) groups=[finance]`);
        continue;
      }
      const key = JSON.stringify([...groups].sort());
      if (!rules.authorize.some((r) => JSON.stringify([...r.groups].sort()) === key)) rules.authorize.push({ source: name, groups });
    }
  }
  if (gates.length > 0) addGate(rules, { source: name, anyOf: gates });
}
