/**
 * A scope's entities grouped by source, once per scope array: the answer of
 * `get_context` lists each returned and close source's fields from these
 * groups (./context_result.ts).
 * @module
 */
import type { EntityRecord } from "../index/entity_text.ts";

/** The key of an entity's source: environment and package (in environment scope), model path and source name. */
export function groupKey(e: EntityRecord): string {
  const o = e.origin;
  return `${o ? `${o.environmentName}/${o.packageName}/` : ""}${e.modelPath}#${e.sourceName}`;
}

/** The scope's fields and source entities by source key (`groupKey`). */
export interface ScopeParts {
  fields: ReadonlyMap<string, EntityRecord[]>;
  sources: ReadonlyMap<string, EntityRecord>;
}

/** Parts of scope arrays already grouped: a search's scope array is kept and searched again (scoped_entities.ts). */
const partsOf = new WeakMap<readonly EntityRecord[], ScopeParts>();

/** The fields and source entities of a scope by source key (read-only; computed once per scope array). */
export function scopeParts(scope: readonly EntityRecord[] | undefined): ScopeParts {
  const known = scope && partsOf.get(scope);
  if (known) return known;
  const fields = new Map<string, EntityRecord[]>();
  const sources = new Map<string, EntityRecord>();
  for (const e of scope ?? []) {
    if (e.kind === "query") continue;
    const key = groupKey(e);
    if (e.kind === "source") sources.set(key, e);
    else {
      const list = fields.get(key);
      if (list) list.push(e);
      else fields.set(key, [e]);
    }
  }
  const parts = { fields, sources };
  if (scope) partsOf.set(scope, parts);
  return parts;
}
