/**
 * The compact field list of a source in a `get_context` answer: with the
 * source's matched entities, every field of the source once, one short
 * entry each (`{ name, kind, type, description? }`), so the agent's own
 * language model can choose a field the ranking missed. A field listed
 * among the matched entities is not repeated. Fields of a join or a record
 * are listed under it (`fields`), by their last name segment; a join whose
 * fields another source of the answer lists names that source instead. A
 * description is cut to its first sentence (at most
 * {@link DESCRIPTION_CHARS} characters) and left out for joined fields
 * (their own source describes them).
 *
 * The list is built from the entities the caller may read in scope, so it
 * holds nothing the caller may not query.
 *
 * @module
 */
import type { EntityRecord } from "../index/entity_text.ts";

/** One field of a source's compact list. */
export interface CompactField {
  name: string;
  /** `dimension`, `measure`, `view`, or `join` for a joined source's fields. */
  kind: string;
  /** Data type (`string`, `number`, `date`, ...); `view` for views; the join's name for joins. */
  type: string;
  description?: string;
  /** Fields of a join or a record, by their last segment. */
  fields?: CompactField[];
}

/** Characters of a field's description kept in the list. */
const DESCRIPTION_CHARS = 80;

/** Entity kinds that are fields of a source (`column`: a raw table column the model does not rename). */
const FIELD_KINDS: ReadonlySet<string> = new Set(["dimension", "measure", "view", "column"]);

/**
 * The compact field list of one source from its entities (any order; kinds
 * other than fields are ignored).
 *
 * @param listed - names of fields the answer lists already (the source's matched entities): left out
 * @param others - field names of the answer's other sources (same model) by source name: a join whose fields one of them lists names it instead of repeating them
 *
 * @example
 * compactFields(entitiesOfOrders, new Set(["status"]))
 * // [{ name: "placed_at", kind: "dimension", type: "timestamp" }, { name: "customer", kind: "join", type: "join", fields: [...] }, ...]
 */
export function compactFields(
  entities: readonly EntityRecord[],
  listed: ReadonlySet<string> = new Set(),
  others: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
): CompactField[] {
  const root: CompactField[] = [];
  const nodes = new Map<string, CompactField>();
  const every = entities.filter((e) => FIELD_KINDS.has(e.kind));
  const records = new Set(every.filter((e) => e.dataType === "record").map((e) => e.name));
  const fields = every.filter((e) => !listed.has(e.name));
  // Parents first, so a record's subfields find it.
  fields.sort((a, b) => a.name.split(".").length - b.name.split(".").length);
  const parentOf = (path: string): CompactField[] => {
    const at = path.lastIndexOf(".");
    if (at < 0) return root;
    const parent = path.slice(0, at);
    let node = nodes.get(parent);
    if (!node) {
      const leaf = parent.slice(parent.lastIndexOf(".") + 1);
      node = records.has(parent) ? { name: leaf, kind: "dimension", type: "record" } : { name: leaf, kind: "join", type: "join" };
      nodes.set(parent, node);
      parentOf(parent).push(node);
    }
    node.fields ??= [];
    return node.fields;
  };
  for (const e of fields) {
    if (nodes.has(e.name)) continue;
    const joined = e.name.includes(".") && !records.has(e.name.slice(0, e.name.lastIndexOf(".")));
    const description = !joined ? shortDescription(e.description) : undefined;
    const node: CompactField = { name: e.name.slice(e.name.lastIndexOf(".") + 1), kind: e.kind, type: e.dataType, ...(description ? { description } : {}) };
    nodes.set(e.name, node);
    parentOf(e.name).push(node);
  }
  for (const node of root) {
    if (node.kind !== "join" || !node.fields) continue;
    const names = node.fields.map((f) => f.name);
    const same = [...others].find(([, list]) => names.every((n) => list.has(n)));
    if (same) {
      delete node.fields;
      node.description = `its fields are listed under source '${same[0]}'`;
    }
  }
  return root;
}

/** A description's first sentence, at most {@link DESCRIPTION_CHARS} characters. */
function shortDescription(text: string | undefined): string | undefined {
  const t = text?.replace(/\s+/g, " ").trim();
  if (!t) return undefined;
  const sentence = /^(.+?[.!?])(\s|$)/.exec(t)?.[1] ?? t;
  return sentence.length <= DESCRIPTION_CHARS ? sentence : `${sentence.slice(0, DESCRIPTION_CHARS - 1).replace(/\s+\S*$/, "")}…`;
}

/**
 * Shrinks the field lists of an answer while `over()` says it is over its
 * budget, least important first: the joined fields of the last source's list,
 * then of the lists before it (each join keeps its name and says how to write
 * its fields), then the descriptions, last list first. Lists are changed in place.
 *
 * @example
 * shrinkFieldLists(result.sources.map((s) => s.fields ?? []), () => JSON.stringify(result).length > 6000);
 */
export function shrinkFieldLists(lists: readonly CompactField[][], over: () => boolean): void {
  for (const list of [...lists].reverse()) {
    if (!over()) return;
    for (const f of list) {
      if (f.kind !== "join" || !f.fields) continue;
      delete f.fields;
      f.description = `fields left out for size (write ${f.name}.field)`;
    }
  }
  for (const list of [...lists].reverse()) {
    if (!over()) return;
    for (const f of list) if (f.kind !== "join") delete f.description;
  }
}

