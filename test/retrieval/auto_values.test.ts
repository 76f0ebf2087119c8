/**
 * Values indexed without `#(index)` (auto_values.ts) and the first query of
 * `next_steps` (context_result.ts), on a real compiled Malloy model: the
 * query must compile and run, quote reserved words, keep output names
 * unique, use the matched fields and filter on a matched value.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compileModel, createPackageRuntime, modelMetadata, runQuery } from "../../src/engine/mod.ts";
import { autoIndexCandidates, autoIndexValues } from "../../src/retrieval/index/auto_values.ts";
import { buildContextResult } from "../../src/retrieval/answer/context_result.ts";
import { getEmbedder } from "../../src/retrieval/embedding/embedder.ts";
import { entitiesFromMetadata } from "../../src/retrieval/index/entity_text.ts";
import { rankQuestionEntities } from "../../src/retrieval/ranking/question_rank.ts";
import { prepareScope } from "../../src/retrieval/ranking/scope_index.ts";

const MODEL = `
source: teams is duckdb.sql("""
  select * from (values ('t1', 'Red Lions'), ('t2', 'Blue Sharks'), ('t3', 'Green Owls')) as t(team_id, name)
""") extend {
  primary_key: team_id
}

#(doc) Games played, one row per player and game
source: games is duckdb.sql("""
  select 'g' || i as game_id, 'p' || (i % 7) as player_id, 't' || (i % 3 + 1) as team_id,
         case i % 4 when 0 then 'home' when 1 then 'away' when 2 then 'neutral' else 'home' end as venue,
         case i % 2 when 0 then 'win' else 'loss' end as result,
         'note ' || i as note, i % 10 as number, date '2024-01-01' + cast(i as integer) as played_on
    from range(40) as r(i)
""") extend {
  join_one: teams with team_id
  #(index) false
  dimension: player is player_id
  dimension: name is concat('player ', player_id)
  #(doc) Shirt number
  dimension: shirt is \`number\`
  measure: game_count is count()
  #(doc) Goals scored on average
  measure: avg_number is \`number\`.avg()
}
`;

async function compiled() {
  const files = new Map([["sports.malloy", new TextEncoder().encode(MODEL)]]);
  const runtime = createPackageRuntime(files, mkdtempSync(join(tmpdir(), "auto-values-")));
  const model = await compileModel(runtime, "sports.malloy");
  return { model, meta: await modelMetadata(model) };
}

describe("automatic value indexes", () => {
  test("low-cardinality string dimensions get their values; #(index) false, joins and high cardinality do not", async () => {
    const { model, meta } = await compiled();
    const candidates = autoIndexCandidates([meta]).map((c) => `${c.sourceName}.${c.path}`);
    expect(candidates).toContain("games.venue");
    expect(candidates).not.toContain("games.player"); // #(index) false
    expect(candidates).not.toContain("games.teams.name"); // through a join: indexed on teams itself
    expect(candidates).not.toContain("games.shirt"); // not a string
    const values = await autoIndexValues(async () => model, [meta], { maxDistinct: 5 });
    expect(values.get("sports.malloy#games.venue")).toEqual([
      { value: "home", count: 20 }, { value: "away", count: 10 }, { value: "neutral", count: 10 },
    ]);
    expect(values.get("sports.malloy#teams.name")?.map((v) => v.value).sort()).toEqual(["Blue Sharks", "Green Owls", "Red Lions"]);
    expect(values.has("sports.malloy#games.note")).toBe(false); // 40 distinct > 5
    expect(values.has("sports.malloy#games.player")).toBe(false);
    // Sources over the row budget are not scanned.
    const small = await autoIndexValues(async () => model, [meta], { rowBudget: 10 });
    expect([...small.keys()].every((k) => k.startsWith("sports.malloy#teams."))).toBe(true);
    // Already built (explicit #(index)) dimensions are skipped.
    const venue = values.get("sports.malloy#games.venue")!;
    const skipped = await autoIndexValues(async () => model, [meta], { built: new Map([["sports.malloy#games.venue", venue]]) });
    expect(skipped.has("sports.malloy#games.venue")).toBe(false);
    // A second name of an indexed column (same values and counts) is left out.
    // (as stored: jsonb puts the keys in another order)
    const stored = venue.map((v) => ({ count: v.count, value: v.value }));
    const other = await autoIndexValues(async () => model, [meta], { built: new Map([["sports.malloy#games.some_alias", stored]]) });
    expect(other.has("sports.malloy#games.venue")).toBe(false);
  });
});

describe("next_steps' first query", () => {
  test("compiles and runs, filters on the matched value, quotes reserved words and keeps names unique", async () => {
    const { model, meta } = await compiled();
    const values = await autoIndexValues(async () => model, [meta]);
    const strings = Object.fromEntries([...values].map(([k, list]) => [k.slice("sports.malloy#".length), list.map((v) => v.value)]));
    const entities = entitiesFromMetadata(meta, {}, { values: strings });
    const embedder = await getEmbedder();
    const vectors = new Map<string, Float32Array>();
    if (embedder) (await embedder.embed(entities.map((e) => e.text))).forEach((v, i) => v && vectors.set(entities[i]!.id, v));
    const scope = await prepareScope(entities, embedder, (e) => vectors.get(e.id));
    const questions: Array<[string, (query: string) => void]> = [
      ["games played away by team name and player name", (q) => {
        expect(q).toContain("where: venue = 'away'");
        expect(q).toMatch(/group_by: .*name/);
      }],
      ["average number by player name", (q) => expect(q).toContain("avg_number")],
      ["shirt number and number of games", (q) => expect(q).toContain("game_count")],
    ];
    for (const [question, check] of questions) {
      const matches = await rankQuestionEntities(question, scope, embedder);
      const result = buildContextResult([{ phrase: question, description: "the question", matches }]);
      const step = result.next_steps[0]!;
      const query = step.slice(step.indexOf("run: "));
      check(query);
      const out = await runQuery(model, { query, rowLimit: 100 });
      expect(out.data.length).toBeGreaterThan(0);
      expect(result.malloy_documentation.length).toBeLessThan(1500);
    }
    // A reserved word as a field name is backquoted; a number the question only names is shown, not grouped by.
    const numberField = entities.find((e) => e.name === "number" && e.sourceName === "games")!;
    const direct = buildContextResult([{ phrase: "number", description: "", matches: [{ entity: numberField, score: 1, matchReason: "exact name match", lexical: 1, semantic: 0, value: 0 }] }]);
    expect(direct.next_steps[0]).toContain("select: `number`");
    expect(direct.next_steps[0]).not.toContain("group_by");
    await runQuery(model, { query: direct.next_steps[0]!.slice(direct.next_steps[0]!.indexOf("run: ")), rowLimit: 100 });
  });
});

describe("a source whose name holds a dot (`match.day`) is one name, not a path", () => {
  const DOTTED = `
source: \`match.day\` is duckdb.sql("""
  select case i % 3 when 0 then 'home' when 1 then 'away' else 'neutral' end as venue from range(30) as r(i)
""") extend {
  measure: game_count is count()
}
`;
  test("its values are indexed and next_steps' first query on it runs", async () => {
    const files = new Map([["dotted.malloy", new TextEncoder().encode(DOTTED)]]);
    const model = await compileModel(createPackageRuntime(files, mkdtempSync(join(tmpdir(), "auto-values-"))), "dotted.malloy");
    const meta = await modelMetadata(model);
    const errors: unknown[] = [];
    const values = await autoIndexValues(async () => model, [meta], { onError: (_key, error) => errors.push(error) });
    expect(errors).toEqual([]);
    expect(values.get("dotted.malloy#match.day.venue")?.map((v) => v.value).sort()).toEqual(["away", "home", "neutral"]);
    const entities = entitiesFromMetadata(meta, {}, { values: { "match.day.venue": ["home", "away", "neutral"] } });
    const scope = await prepareScope(entities, null, () => null);
    const matches = await rankQuestionEntities("games played away", scope, null);
    const step = buildContextResult([{ phrase: "games played away", description: "the question", matches }]).next_steps[0]!;
    const query = step.slice(step.indexOf("run: "));
    expect(query).toStartWith("run: `match.day` ->");
    expect((await runQuery(model, { query, rowLimit: 10 })).data.length).toBeGreaterThan(0);
  });
});
