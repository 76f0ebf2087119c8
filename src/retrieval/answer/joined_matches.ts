/**
 * The matches the first query of a source reads: its own, and those of the
 * sources it joins, seen by their join paths (context_result.ts builds the
 * query sources from these).
 * @module
 */
import type { EntityRecord } from "../index/entity_text.ts";
import type { QuestionMatch } from "../ranking/question_rank.ts";
import type { EntityMatch } from "../ranking/types.ts";
import { groupKey } from "./scope_parts.ts";

/**
 * The first query's view of a source: its own matches, and the matches of other sources that it reaches
 * through a join (their `alsoIn` paths), as its joined fields ("territory of each order" on
 * salesorderheader: `territory.Name`), best first. A joined dimension counts once, at its own score.
 */
export function sourceMatches(key: string, sourceName: string, own: readonly EntityMatch[], all: readonly EntityMatch[], fields: readonly EntityRecord[] | undefined): EntityMatch[] {
  const out = [...own];
  if (fields) {
    const seen = new Set(own.map((m) => m.entity.name));
    const byName = new Map(fields.map((f) => [f.name, f] as const));
    for (const m of all) {
      // Joined dimensions only: a joined source's measure counts that source's rows, not this one's.
      if (groupKey(m.entity) === key || m.entity.kind !== "dimension") continue;
      for (const place of (m as QuestionMatch).alsoIn ?? []) {
        if (!place.startsWith(`${sourceName}.`)) continue;
        const path = place.slice(sourceName.length + 1);
        const entity = path.includes(".") ? byName.get(path) : undefined;
        if (entity && !seen.has(path) && entity.origin?.versionId === m.entity.origin?.versionId) {
          seen.add(path);
          out.push({ ...m, entity });
        }
      }
    }
  }
  return out.sort((a, b) => b.score - a.score);
}
