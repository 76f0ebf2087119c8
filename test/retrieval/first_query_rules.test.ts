/**
 * The rules that turn a ranking into the first `next_steps` query
 * (src/retrieval/answer/first_query.ts), each on a small compiled Malloy
 * model with the ranking written out (so the test reads the rule, not the
 * word model): a question that only names a field lists its best candidates
 * (a time first for "when"), a number each row holds is shown rather than
 * counted or averaged, a measure ahead of an equally named field gives way
 * to it, a value of a code list runs on the source joining it, an
 * identifier shows the name it points to, a view only a word vector matched
 * does not run for a field question, a joined source's field shows through
 * the join on the source the answer leads with, a view named for the asked shape
 * ("top_genres" for "most popular genres") runs as it is, and "how many"
 * picks the count measure covering the question's words. Every query runs on DuckDB.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type CompiledModel, compileModel, createPackageRuntime, modelMetadata, runQuery } from "../../src/engine/mod.ts";
import { buildContextResult } from "../../src/retrieval/answer/context_result.ts";
import { type EntityRecord, entitiesFromMetadata } from "../../src/retrieval/index/entity_text.ts";
import { questionRoles } from "../../src/retrieval/answer/question_roles.ts";
import type { EntityMatch } from "../../src/retrieval/ranking/types.ts";

const MODEL = `
source: genres is duckdb.sql("""select * from (values (1, 'Rock'), (2, 'Classical')) as t(genre_id, name)""") extend {
  measure: classical_genre_count is count() { where: name = 'Classical' }
  primary_key: genre_id
}

#(doc) One row per track
source: tracks is duckdb.sql("""
  select i as track_id, (i % 2) + 1 as genre_id, 'Track ' || i as title, 1000 * i as bytes, i % 2 = 0 as is_explicit, i % 3 = 0 as is_live_explicit,
         timestamp '2024-01-01 10:00:00' + to_days(cast(i as integer)) as released_at,
         timestamp '2024-02-01 10:00:00' + to_days(cast(i as integer)) as added_at
    from range(10) as r(i)
""") extend {
  primary_key: track_id
  join_one: genres with genre_id
  measure: track_count is count()
  measure: explicit_track_count is count() { where: is_explicit }
  measure: total_bytes is bytes.sum()
  measure: entry_count is count()
  view: by_genre is { group_by: genres.name; aggregate: track_count }
  view: top_genres is { group_by: genres.name; aggregate: track_count; order_by: track_count desc; limit: 5 }
  view: releases_by_month is { group_by: release_month is released_at.month; aggregate: track_count }
  view: classical_tracks is { where: genres.name = 'Classical'; select: title }
}

source: flights is duckdb.sql("""select i as flight_id, case when i % 2 = 0 then 'TX' else 'CA' end as origin_state, case when i % 3 = 0 then 'TX' else 'NY' end as dest_state from range(6) as r(i)""") extend {
  primary_key: flight_id
  measure: flight_count is count()
}

source: loans is duckdb.sql("""
  select i as loan_id, 5.0 + i as int_rate, 100.0 * i as installment, i % 4 as bedrooms, 50.0 * i as units_in_stock from range(6) as r(i)
""") extend {
  primary_key: loan_id
  measure: loan_count is count()
  measure: default_rate is avg(int_rate) / 100
  measure: stock_value is units_in_stock.sum()
}
`;

let model: CompiledModel;
let entities: EntityRecord[];

beforeAll(async () => {
  const runtime = createPackageRuntime(new Map([["music.malloy", new TextEncoder().encode(MODEL)]]), mkdtempSync(join(tmpdir(), "first-query-rules-")));
  model = await compileModel(runtime, "music.malloy");
  entities = entitiesFromMetadata(await modelMetadata(model), {}, { values: { "genres.name": ["Rock", "Classical"], "tracks.genres.name": ["Rock", "Classical"], "flights.origin_state": ["TX", "CA"], "flights.dest_state": ["TX", "NY"] } });
}, 60_000);

/** A match of `source.field` with the given score and lexical share (and, for a value, the value found). */
function match(path: string, score: number, lexical = 0, extra: Partial<EntityMatch> & { alsoIn?: string[] } = {}): EntityMatch {
  const dot = path.indexOf(".");
  const [source, name] = [path.slice(0, dot), path.slice(dot + 1)];
  const entity = entities.find((e) => e.sourceName === source && e.name === name && e.kind !== "source");
  if (!entity) throw new Error(`no entity ${path}`);
  return { entity, score, lexical, semantic: score, value: 0, matchReason: "test", ...extra };
}

/** The first next step's query for a question ranked as given; it must run. */
async function firstStep(question: string, matches: EntityMatch[]): Promise<string> {
  const result = buildContextResult([{ phrase: question, description: "the question", matches }], { question, scope: entities });
  const step = result.next_steps[0]!;
  const query = step.slice(step.indexOf("run: "));
  await runQuery(model, { query, rowLimit: 5 });
  return query.replace(/\n\s*/g, " ");
}

describe("the first next step of a question that names a field", () => {
  test("lists the best candidates side by side, a time first for 'when', with no figure", async () => {
    const query = await firstStep("when was the track added", [match("tracks.bytes", 0.6), match("tracks.released_at", 0.55), match("tracks.added_at", 0.5)]);
    expect(query).toMatch(/^run: tracks -> \{ select: released_at, added_at, bytes limit: 20 \}$/);
  });

  test("'number of X' where X is a number each row holds shows it, not a count", async () => {
    const query = await firstStep("number of bedrooms", [match("loans.bedrooms", 1, 0.9), match("loans.loan_count", 0.5, 0.2)]);
    expect(query).toContain("select: bedrooms");
    expect(query).not.toMatch(/aggregate|count\(\)/);
  });

  test("a measure ahead of a field as good by name gives way to the field", async () => {
    const query = await firstStep("stock on hand", [match("loans.stock_value", 0.61, 0.33), match("loans.units_in_stock", 0.57, 0.33)]);
    expect(query).toContain("select: units_in_stock");
    expect(query).not.toContain("aggregate");
  });

  test("a rate word or a grain adjective naming a number each row holds shows the number", async () => {
    const rate = await firstStep("interest rate on the loan", [match("loans.int_rate", 0.7, 0.5), match("loans.installment", 0.3)]);
    expect(rate).toContain("select: int_rate");
    expect(rate).not.toContain("avg()");
    const monthly = await firstStep("monthly payment", [match("loans.installment", 0.7, 0.4), match("loans.int_rate", 0.3)]);
    expect(monthly).toContain("select: installment");
    expect(monthly).not.toContain(".month");
    // "by month" still groups.
    const grouped = await firstStep("payment by month", [match("loans.installment", 0.7, 0.4)]);
    expect(grouped).not.toContain("select:");
  });

  test("'X on each Y' with no figure asked shows X per row; with a figure it groups", async () => {
    const perRow = await firstStep("file size of each track", [match("tracks.bytes", 0.8, 0.4), match("tracks.title", 0.5, 0.3)]);
    expect(perRow).toContain("select: bytes");
    expect(perRow).not.toContain("group_by");
    const grouped = await firstStep("total file size of each genre", [match("tracks.bytes", 0.8, 0.4), match("genres.name", 0.5, 0.3)]);
    expect(grouped).toContain("group_by");
  });

  test("an identifier shows the name of what it identifies", async () => {
    const query = await firstStep("genre of a track", [match("tracks.genre_id", 0.9, 0.8), match("tracks.title", 0.4)]);
    expect(query).toMatch(/select: name is genres\.name/);
    expect(query).not.toContain("genre_id");
  });

  test("a view only a word vector matched does not run for a field question; a named one does", async () => {
    const field = await firstStep("headline of a track", [match("tracks.by_genre", 0.5, 0), match("tracks.title", 0.45, 0)]);
    expect(field).toContain("select: title");
    const view = await firstStep("tracks by genre", [match("tracks.by_genre", 0.9, 0.9), match("tracks.title", 0.4)]);
    expect(view).toBe("run: tracks -> by_genre");
  });

  test("a view named for the asked shape runs as it is: a ranked list for 'most', a series for 'over time'", async () => {
    const top = await firstStep("most popular genres", [match("tracks.title", 0.6, 0), match("tracks.bytes", 0.5, 0)]);
    expect(top).toMatch(/^run: tracks -> top_genres( \+ \{ limit: 10 \})?$/);
    const series = await firstStep("track releases over time", [match("tracks.released_at", 0.7, 0.3), match("tracks.bytes", 0.4)]);
    expect(series).toBe("run: tracks -> releases_by_month");
    // No shape asked: the field, not a view.
    const field = await firstStep("title of a track", [match("tracks.title", 0.8, 0.6), match("tracks.bytes", 0.4)]);
    expect(field).toContain("select: title");
  });

  test("a field of a joined source ranked near the source's own shows through the join", async () => {
    // "genre of each track": the tracks source is the answer's first; genres.name reaches it as tracks.genres.name.
    const genre = match("genres.name", 0.8, 0.4, { alsoIn: ["tracks.genres.name"] });
    const query = await firstStep("genre of each track", [match("tracks.title", 0.85, 0.3), genre, match("tracks.released_at", 0.5)]);
    expect(query).toMatch(/^run: tracks -> \{/);
    expect(query).toContain("genres.name");
  });

  test("a view named by every word of the question runs as it is, without the value its name says", async () => {
    const classical = match("genres.name", 1, 0, { value: 1, matchedValue: "Classical", alsoIn: ["tracks.genres.name"] });
    const query = await firstStep("classical tracks", [match("tracks.classical_tracks", 0.99, 1), classical, match("tracks.title", 0.5, 0.5)]);
    expect(query).toBe("run: tracks -> classical_tracks");
  });

  test("a yes/no field filters only when the question writes all its own words", async () => {
    const query = await firstStep("live title", [match("tracks.title", 0.8, 0.6), match("tracks.is_live_explicit", 0.5, 0.3)]);
    expect(query).not.toContain("where");
  });
});

describe("the first next step of a count or a value", () => {
  test("'how many' picks the count measure covering the question with the fewest other words", async () => {
    const query = await firstStep("how many tracks", [match("tracks.explicit_track_count", 0.91, 0.6), match("tracks.track_count", 0.9, 0.7)]);
    expect(query).toContain("aggregate: track_count");
  });

  test("a count measure the question names neither by its words nor by its source gives way to the best-ranked measure", async () => {
    // "how many kilobytes were stored": the best measure is total_bytes; track_count counts tracks, which the question never names.
    const kilobytes = await firstStep("how many kilobytes were stored", [match("tracks.total_bytes", 0.6), match("tracks.track_count", 0.5)]);
    expect(kilobytes).toContain("aggregate: total_bytes");
    // "how many tracks were released": the question names the counted source (entry_count counts tracks).
    const tracks = await firstStep("how many tracks were released", [match("tracks.total_bytes", 0.6), match("tracks.entry_count", 0.5)]);
    expect(tracks).toContain("aggregate: entry_count");
  });

  test("a value two fields hold goes to the field pointing the way the question says ('out of', 'to')", async () => {
    const both = (question: string) => [match("flights.dest_state", 1, 0, { value: 0.9, matchedValue: "TX" }), match("flights.origin_state", 0.96, 0, { value: 0.9, matchedValue: "TX" })];
    expect(await firstStep("flights out of TX", both("flights out of TX"))).toContain("where: origin_state = 'TX'");
    expect(await firstStep("flights to TX", both("flights to TX"))).toContain("where: dest_state = 'TX'");
    // No direction said: the best-ranked field's.
    expect(await firstStep("TX flights", both("TX flights"))).toContain("where: dest_state = 'TX'");
  });

  test("a value of a code list runs on the source that joins it, counting its rows", async () => {
    const classical = match("genres.name", 1, 0, { value: 1, matchedValue: "Classical", alsoIn: ["tracks.genres.name"] });
    const query = await firstStep("classical music", [classical]);
    expect(query).toMatch(/^run: tracks -> \{ where: genres\.name = 'Classical'/);
    // Five of the ten tracks are classical: the answer counts tracks, not the one genre row.
    const { data } = await runQuery(model, { query, rowLimit: 5 });
    expect(Object.values(data[0] as Record<string, unknown>)).toEqual([5]);
  });

  test("a count measure named for the value counts its rows already: no second filter", async () => {
    const classical = match("genres.name", 1, 0.3, { value: 1, matchedValue: "Classical" });
    const query = await firstStep("how many classical genres", [classical, match("genres.classical_genre_count", 0.9, 0.9)]);
    expect(query).toBe("run: genres -> { aggregate: classical_genre_count }");
  });
});

describe("question roles", () => {
  test("'by a/an' names who did it, not a grouping; 'times of day' asks for the hour", () => {
    expect(questionRoles("disapprovals cast by a member").groupings).toEqual([]);
    expect(questionRoles("votes by member").groupings).toEqual([["member"]]);
    expect(questionRoles("busiest times of day")).toMatchObject({ grain: "hour", order: "desc" });
  });
});
