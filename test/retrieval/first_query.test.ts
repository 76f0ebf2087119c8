/**
 * The first `next_steps` query answers the question (first_query.ts) and
 * each returned source carries its compact field list (field_lists.ts), on
 * a real compiled Malloy model ranked by the real `get_context` ranking:
 * a named view runs as it is, "by"/"per" group by the named field (a time
 * field at the asked grain), quantity words pick the measure, "top N" orders
 * by it with a limit, a written value filters, a yes/no field the question
 * names keeps its true rows, an amount the question only names is shown and
 * never grouped by. Every query runs on DuckDB.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CompiledModel, compileModel, createPackageRuntime, modelMetadata, runQuery } from "../../src/engine/mod.ts";
import { buildContextResult, type ContextResult } from "../../src/retrieval/answer/context_result.ts";
import { type CompactField, shrinkFieldLists } from "../../src/retrieval/answer/field_lists.ts";
import { questionRoles } from "../../src/retrieval/answer/question_roles.ts";
import { getEmbedder } from "../../src/retrieval/embedding/embedder.ts";
import { type EntityRecord, entitiesFromMetadata } from "../../src/retrieval/index/entity_text.ts";
import { rankQuestionEntities } from "../../src/retrieval/ranking/question_rank.ts";
import { prepareScope, type ScopeIndex } from "../../src/retrieval/ranking/scope_index.ts";
import { loadLexicon } from "../../src/retrieval/text/lexicon.ts";

const MODEL = `
#(doc) Shop customers
source: users is duckdb.sql("""
  select * from (values (1, 'Ann', 'California'), (2, 'Bob', 'Texas'), (3, 'Cy', 'Ohio')) as t(id, name, state)
""") extend {
  primary_key: id
  measure: user_count is count()
}

#(doc) One row per item sold
source: order_items is duckdb.sql("""
  select i as id, (i % 3) + 1 as user_id, 10.0 * (i % 5) as sale_price, 10.0 * (i % 5) > 20 as is_expensive,
         case i % 3 when 0 then 'complete' when 1 then 'returned' else 'shipped' end as status,
         timestamp '2024-01-01 10:00:00' + to_days(cast(i * 9 as integer)) as created_at
    from range(60) as r(i)
""") extend {
  join_one: users with user_id
  #(doc) Sum of sale prices
  measure: total_revenue is sale_price.sum()
  measure: order_count is count()
  #(doc) Revenue by month
  view: by_month is { group_by: created_month is created_at.month; aggregate: total_revenue; order_by: created_month }
}
`;

let model: CompiledModel;
let entities: EntityRecord[];
let scope: ScopeIndex;
const embedder = await getEmbedder();

beforeAll(async () => {
  const runtime = createPackageRuntime(new Map([["shop.malloy", new TextEncoder().encode(MODEL)]]), mkdtempSync(join(tmpdir(), "first-query-")));
  model = await compileModel(runtime, "shop.malloy");
  const meta = await modelMetadata(model);
  entities = entitiesFromMetadata(meta, {}, { values: { "users.state": ["California", "Texas", "Ohio"], "order_items.status": ["complete", "returned", "shipped"], "order_items.users.state": ["California", "Texas", "Ohio"] }, lexicon: loadLexicon() });
  const vectors = new Map<string, Float32Array>();
  if (embedder) (await embedder.embed(entities.map((e) => e.text))).forEach((v, i) => v && vectors.set(entities[i]!.id, v));
  scope = await prepareScope(entities, embedder, (e) => vectors.get(e.id));
}, 60_000);

async function answer(question: string): Promise<{ result: ContextResult; query: string }> {
  const matches = await rankQuestionEntities(question, scope, embedder);
  const result = buildContextResult([{ phrase: question, description: "the question", matches }], { question, scope: entities });
  const step = result.next_steps[0]!;
  return { result, query: step.slice(step.indexOf("run: ")) };
}

describe("the first next step answers the question", () => {
  const cases: Array<[string, RegExp[], RegExp[]]> = [
    ["revenue by month", [/^run: order_items -> by_month$/], []],
    ["how many orders per status", [/group_by: status/, /aggregate: order_count/], [/where:/]],
    ["top 2 states by revenue", [/group_by: state is users\.state/, /aggregate: total_revenue/, /order_by: total_revenue desc/, /limit: 2/], []],
    ["revenue from customers in California", [/where: users\.state = 'California'/, /aggregate: total_revenue/], [/group_by/]],
    ["number of orders per week", [/group_by: created_week is created_at\.week/, /aggregate: order_count/, /order_by: created_week/], []],
    ["sale price of items", [/select: .*sale_price/], [/group_by/, /sum\(\)/]],
    ["how many expensive items", [/where: is_expensive\n/, /aggregate: order_count/], [/group_by/]],
  ];
  for (const [question, want, never] of cases) {
    test(question, async () => {
      const { query } = await answer(question);
      for (const pattern of want) expect(query).toMatch(pattern);
      for (const pattern of never) expect(query).not.toMatch(pattern);
      const out = await runQuery(model, { query, rowLimit: 100 });
      expect(out.data.length).toBeGreaterThan(0);
    }, 30_000);
  }

  test("question roles: grain, grouping phrases, order with its limit, aggregate", () => {
    expect(questionRoles("orders per month")).toMatchObject({ grain: "month", groupings: [] });
    expect(questionRoles("top 5 carriers by revenue")).toMatchObject({ order: "desc", limit: 5, groupings: [["revenu"], ["carrier"]] });
    expect(questionRoles("least popular genres")).toMatchObject({ order: "asc", limit: 10 });
    expect(questionRoles("how many flights")).toMatchObject({ aggregate: "count", quantity: true });
    expect(questionRoles("average delay by airport")).toMatchObject({ aggregate: "avg", groupings: [["airport"]] });
  });
});

describe("compact field lists", () => {
  test("each returned source lists every field once: matched entities in entities, the rest in fields, joined fields under their join", async () => {
    const { result } = await answer("revenue by month");
    const items = result.sources.find((s) => s.source_name === "order_items")!;
    const listed = items.phrases.flatMap((p) => p.entities.map((e) => e.name));
    // A join's fields are listed under it, or (when another returned source lists them) under that source.
    const users = result.sources.find((s) => s.source_name === "users");
    const usersFields = users ? [...users.phrases.flatMap((p) => p.entities.map((e) => e.name)), ...(users.fields ?? []).map((f) => f.name)] : [];
    const flat = (items.fields ?? []).flatMap((f) =>
      f.kind === "join" ? (f.fields ? f.fields.map((g) => `${f.name}.${g.name}`) : usersFields.map((n) => `${f.name}.${n}`)) : [f.name]);
    const own = entities.filter((e) => e.sourceName === "order_items" && ["dimension", "measure", "view"].includes(e.kind)).map((e) => e.name);
    expect([...listed, ...flat].sort()).toEqual([...own].sort());
    expect(new Set(flat).size).toBe(flat.length);
    expect(items.fields!.find((f) => f.name === "users")?.kind).toBe("join");
    for (const f of items.fields!) expect(Object.keys(f).every((k) => ["name", "kind", "type", "description", "fields"].includes(k))).toBe(true);
  });

  test("a join whose fields another returned source lists names it instead of repeating them", async () => {
    const { result } = await answer("customers and their orders");
    const names = result.sources.map((s) => s.source_name);
    if (!(names.includes("users") && names.includes("order_items"))) throw new Error(`expected both sources, got ${names.join(", ")}`);
    const join = result.sources.find((s) => s.source_name === "order_items")!.fields!.find((f) => f.name === "users")!;
    expect(join.fields).toBeUndefined();
    expect(join.description).toContain("'users'");
  });

  test("over the answer budget, the last source's joined fields go first, then the first's, then descriptions", () => {
    const list = (): CompactField[] => [
      { name: "status", kind: "dimension", type: "string", description: "Where the order is." },
      { name: "users", kind: "join", type: "join", fields: [{ name: "state", kind: "dimension", type: "string" }, { name: "name", kind: "dimension", type: "string" }] },
    ];
    const lists = [list(), list()];
    const size = () => JSON.stringify(lists).length;
    const full = size();
    shrinkFieldLists(lists, () => size() > full - 1);
    expect(lists[1]![1]!.fields).toBeUndefined();
    expect(lists[1]![1]!.description).toContain("users.field");
    expect(lists[0]![1]!.fields?.length).toBe(2);
    expect(lists[0]![0]!.description).toBe("Where the order is.");
    shrinkFieldLists(lists, () => size() > 0);
    expect(lists.flat().some((f) => f.fields !== undefined || (f.kind !== "join" && f.description !== undefined))).toBe(false);
  });
});
