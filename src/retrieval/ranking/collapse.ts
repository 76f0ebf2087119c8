/**
 * One result per field: the collapse key of an entity is the field it shows,
 * shared by its copies seen through a join or through a source that extends
 * another.
 *
 * @module
 */
import type { EntityRecord } from "../index/entity_text.ts";

/**
 * Collapse keys: a field of a join (`customer.c_name` in `orders`) is the
 * field of the source whose own fields include every field of the join
 * (`customer.c_name`); a field of a source that extends another (its fields
 * include all of the other's) is the other's field.
 */
function collapseKeys(entities: readonly EntityRecord[]): string[] {
  // Top-level field signatures per source of a model (within one package).
  const place = (e: EntityRecord) => `${e.origin ? `${e.origin.environmentName}/${e.origin.packageName}/` : ""}${e.modelPath}`;
  const top = new Map<string, Map<string, Set<string>>>();
  const joined = new Map<string, Set<string>>();
  for (const e of entities) {
    if (e.kind === "source" || e.kind === "query") continue;
    const m = place(e);
    const dot = e.name.lastIndexOf(".");
    if (dot < 0) {
      let sources = top.get(m);
      if (!sources) top.set(m, sources = new Map());
      let fields = sources.get(e.sourceName);
      if (!fields) sources.set(e.sourceName, fields = new Set());
      fields.add(`${e.name}:${e.dataType}`);
    } else {
      const key = `${m}#${e.sourceName}.${e.name.slice(0, dot)}`;
      let fields = joined.get(key);
      if (!fields) joined.set(key, fields = new Set());
      fields.add(`${e.name.slice(dot + 1)}:${e.dataType}`);
    }
  }
  const covers = (big: Set<string>, small: Set<string>) => {
    if (small.size === 0 || small.size > big.size) return false;
    for (const f of small) if (!big.has(f)) return false;
    return true;
  };
  // Base of each source: the smallest other source whose fields it all has (an extend).
  const base = new Map<string, string>();
  for (const [m, sources] of top) {
    for (const [name, fields] of sources) {
      let best: string | undefined;
      for (const [other, theirs] of sources) {
        if (other === name || theirs.size < 2 || !covers(fields, theirs)) continue;
        if (theirs.size === fields.size && other > name) continue;
        if (!best || theirs.size < sources.get(best)!.size) best = other;
      }
      if (best) base.set(`${m}#${name}`, best);
    }
  }
  // Target of each join: the source whose own fields include all the join's fields (smallest such).
  const target = new Map<string, string>();
  for (const [key, fields] of joined) {
    const m = key.slice(0, key.indexOf("#"));
    let best: string | undefined;
    for (const [name, theirs] of top.get(m) ?? []) {
      if (!covers(theirs, fields)) continue;
      if (!best || theirs.size < top.get(m)!.get(best)!.size) best = name;
    }
    if (best) target.set(key, best);
  }
  return entities.map((e) => {
    const m = place(e);
    if (e.kind === "source" || e.kind === "query") return `${m}#${e.sourceName}/${e.kind}:${e.name}`;
    const dot = e.name.lastIndexOf(".");
    let source = e.sourceName;
    let field = e.name;
    if (dot >= 0) {
      const t = target.get(`${m}#${e.sourceName}.${e.name.slice(0, dot)}`);
      if (t) [source, field] = [t, e.name.slice(dot + 1)];
    }
    const b = base.get(`${m}#${source}`);
    if (b && top.get(m)?.get(b)?.has(`${field}:${e.dataType}`)) source = b;
    return `${m}#${source}.${field}:${e.kind}`;
  });
}

/** Collapse keys by entity array ({@link scopeCollapseKeys}). */
const keysOf = new WeakMap<readonly EntityRecord[], ReadonlyMap<EntityRecord, string>>();

/**
 * {@link collapseKeys} of a whole scope array by entity, computed once per array (ranking and the
 * answer's field lists both ask for them). A key depends only on the entities of its own package and
 * model, so the keys of a subset made of whole models are these keys.
 */
export function scopeCollapseKeys(entities: readonly EntityRecord[]): ReadonlyMap<EntityRecord, string> {
  let keys = keysOf.get(entities);
  if (!keys) {
    const list = collapseKeys(entities);
    keysOf.set(entities, keys = new Map(entities.map((e, i) => [e, list[i]!] as const)));
  }
  return keys;
}
