/**
 * Sources after the returned ones (`close_sources`) name their fields, and an
 * answer over its budget shrinks to fit (context_result.ts), on a compiled
 * Malloy model ranked by the real `get_context` ranking: a field the ranking
 * placed under a close source is still in the answer by name, every field is
 * named once per source, a second source too wide for the budget moves to
 * `close_sources` with its fields by name, and the first source stays whole.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileModel, createPackageRuntime, modelMetadata } from "../../src/engine/mod.ts";
import { buildContextResult, type ContextResult } from "../../src/retrieval/answer/context_result.ts";
import { getEmbedder } from "../../src/retrieval/embedding/embedder.ts";
import { type EntityRecord, entitiesFromMetadata } from "../../src/retrieval/index/entity_text.ts";
import { rankQuestionEntities } from "../../src/retrieval/ranking/question_rank.ts";
import { prepareScope, type ScopeIndex } from "../../src/retrieval/ranking/scope_index.ts";

/** Columns of the wide `sessions` source: more than a 6,000-character answer can list as objects. */
const WIDE = Array.from({ length: 90 }, (_, i) => `${i} as session_metric_${i}`).join(", ");

const MODEL = `
source: stores is duckdb.sql("select 1 as id, 'Main St' as store_city, 'north' as store_region") extend {
  primary_key: id
  measure: store_count is count()
}
source: staff is duckdb.sql("select 1 as id, 1 as store_id, 'Ann' as staff_name, 12.5 as hourly_wage") extend {
  join_one: stores with store_id
  measure: staff_count is count()
}
source: deliveries is duckdb.sql("select 1 as id, 1 as store_id, 3 as delay_days, 'DHL' as carrier") extend {
  join_one: stores with store_id
  measure: avg_delay is delay_days.avg()
}
source: payments is duckdb.sql("select 1 as id, 1 as store_id, 9.5 as amount, 'card' as payment_method") extend {
  join_one: stores with store_id
  measure: total_paid is amount.sum()
}
source: late_deliveries is deliveries extend {
  where: delay_days > 2
  dimension: is_very_late is delay_days > 5
}
source: sessions is duckdb.sql("select 1 as id, 1 as store_id, ${WIDE}") extend {
  join_one: stores with store_id
  measure: session_count is count()
}
`;

let entities: EntityRecord[];
let scope: ScopeIndex;
const embedder = await getEmbedder();

beforeAll(async () => {
  const runtime = createPackageRuntime(new Map([["shop.malloy", new TextEncoder().encode(MODEL)]]), mkdtempSync(join(tmpdir(), "close-sources-")));
  const meta = await modelMetadata(await compileModel(runtime, "shop.malloy"));
  entities = entitiesFromMetadata(meta, {}, {});
  const vectors = new Map<string, Float32Array>();
  if (embedder) (await embedder.embed(entities.map((e) => e.text))).forEach((v, i) => v && vectors.set(entities[i]!.id, v));
  scope = await prepareScope(entities, embedder, (e) => vectors.get(e.id));
}, 60_000);

async function answer(question: string, maxSources?: number): Promise<ContextResult> {
  const matches = await rankQuestionEntities(question, scope, embedder);
  return buildContextResult([{ phrase: question, description: "the question", matches }], { question, scope: entities, ...(maxSources ? { maxSources } : {}) });
}

/** A source's own top-level field names and its joins, as a close source names them. */
function ownNames(source: string): string[] {
  const names = entities.filter((e) => e.sourceName === source && e.kind !== "source" && e.kind !== "query").map((e) => e.name.split(".")[0]!);
  return [...new Set(names)].sort();
}

describe("close sources", () => {
  test("each close source names every field of its own once: its matched fields, then the others by name", async () => {
    const result = await answer("store region and city");
    const returned = new Set(result.sources.map((s) => s.source_name));
    expect(result.close_sources?.length).toBeGreaterThan(0);
    for (const c of result.close_sources!) {
      expect(returned.has(c.source_name)).toBe(false);
      const named = [...c.matched.map((m) => m.split(".")[0]!), ...(c.fields ?? [])];
      // under the budget, every field (joins by name) is named; a matched field is not named again
      expect(c.fields).toBeDefined();
      expect(c.fields!.filter((f) => c.matched.includes(f))).toEqual([]);
      if (c.source_name !== "late_deliveries") expect([...new Set(named)].sort()).toEqual(ownNames(c.source_name));
    }
    expect(JSON.stringify(result).length).toBeLessThanOrEqual(6000);
  }, 30_000);

  test("a close source that extends a listed source names only the fields it adds (each field once)", async () => {
    // one source returned: deliveries; late_deliveries (ranked second) is a close source
    const result = await answer("delivery delay by carrier", 1);
    expect(result.sources.map((s) => s.source_name)).toEqual(["deliveries"]);
    const late = result.close_sources?.find((c) => c.source_name === "late_deliveries");
    expect(late).toBeDefined();
    // delay_days, carrier, avg_delay... are deliveries' fields, listed there; the extension adds is_very_late (and its join)
    expect([...late!.matched, ...(late!.fields ?? [])].filter((n) => n !== "stores").sort()).toEqual(late!.matched.includes("is_very_late") ? late!.matched.filter((n) => n !== "stores").sort() : [...late!.matched.filter((n) => n !== "stores"), "is_very_late"].sort());
    expect(late!.fields ?? []).not.toContain("delay_days");
    expect(late!.fields ?? []).not.toContain("carrier");
  }, 30_000);

  test("over the budget, a second source too wide to list moves to close_sources with its fields by name; the first stays whole", async () => {
    const result = await answer("session metric and the payment amount");
    const size = JSON.stringify(result).length;
    expect(size).toBeLessThanOrEqual(6000);
    const first = result.sources[0]!;
    const listed = [...first.phrases.flatMap((p) => p.entities.map((e) => e.name.split(".")[0]!)), ...(first.fields ?? []).map((f) => f.name)];
    expect([...new Set(listed)].sort()).toEqual(ownNames(first.source_name));
    // sessions (90 columns) and payments are both in the answer: one returned, or named in close_sources with every field
    for (const name of ["sessions", "payments"]) {
      if (result.sources.some((s) => s.source_name === name)) continue;
      const close = result.close_sources!.find((c) => c.source_name === name)!;
      expect([...new Set([...close.matched.map((m) => m.split(".")[0]!), ...(close.fields ?? [])])].sort()).toEqual(ownNames(name));
    }
    // the wide sessions source, second by rank, is the first close source, with every field by name only
    expect(result.sources.map((s) => s.source_name)).toEqual(["payments"]);
    expect(result.close_sources![0]!.source_name).toBe("sessions");
  }, 30_000);
});
