import { describe, expect, test } from "bun:test";
import type { ModelMetadata } from "../../src/engine/compile/metadata.ts";
import { buildContextResult, malloyReference } from "../../src/retrieval/answer/context_result.ts";
import { entitiesFromMetadata, type EntityRecord } from "../../src/retrieval/index/entity_text.ts";
import type { Lexicon } from "../../src/retrieval/text/lexicon.ts";
import { buildMemoryIndex, searchMemoryIndex } from "../../src/retrieval/ranking/memory_index.ts";
import { mergeRankings, rankEntities } from "../../src/retrieval/ranking/rank.ts";
import { stem } from "../../src/retrieval/text/text_terms.ts";
import { dim, msr, source, view } from "../bench/retrieval_packages.ts";

const META: ModelMetadata = {
  modelPath: "flights.malloy",
  sources: [
    source("flights", "Flights between US airports", [
      dim("carrier", "string", "Two-letter airline code", true),
      dim("origin", "string", "Departure airport code", true),
      dim("airline_name", "string", "Full airline name"),
      dim("dep_dt", "date", "Departure date"),
      dim("delivery_delay_days", "number", "Days late"),
      msr("flight_count", "How many flights"),
      msr("avg_arr_delay", "Average arrival delay in minutes"),
      view("by_carrier", "Flights and distance per carrier"),
    ]),
    source("airports", "Airports", [dim("state", "string", "Two-letter state", true), msr("airport_count")]),
  ],
  queries: [{ name: "carrier_summary", sourceName: "flights" }],
};
const VALUES = { "flights.carrier": ["AA", "UA"], "flights.origin": ["JFK", "LAX"], "airports.state": ["TX", "New Mexico"] };
const ENTITIES = entitiesFromMetadata(META, {}, { values: VALUES });
const byName = (name: string): EntityRecord => ENTITIES.find((e) => e.name === name)!;

describe("rankEntities", () => {
  test("an exact field name wins over closer semantic neighbours", () => {
    const similarities = new Map([[byName("airline_name").id, 0.97], [byName("by_carrier").id, 0.95], [byName("carrier").id, 0.5]]);
    const [ranked] = rankEntities([{ phrase: "carrier", description: "", similarities }], ENTITIES);
    expect(ranked!.matches[0]!.entity.name).toBe("carrier");
    expect(ranked!.matches[0]!.score).toBe(1);
    expect(ranked!.matches[0]!.matchReason).toContain("exact name match");
    expect(ranked!.matches[1]!.score).toBeLessThan(1);
    const neighbour = ranked!.matches.find((m) => m.entity.name === "airline_name")!;
    expect(neighbour.score).toBeLessThan(1);
    expect(neighbour.matchReason).toContain("semantic similarity 0.97 to 'airline name");
  });

  test("a field name written in a longer phrase scores near the top", () => {
    const [ranked] = rankEntities([{ phrase: "orders with delivery_delay_days over 5", description: "" }], ENTITIES);
    expect(ranked!.matches[0]!.entity.name).toBe("delivery_delay_days");
    expect(ranked!.matches[0]!.score).toBeGreaterThan(0.9);
  });

  test("a known indexed value in the phrase matches its dimension", () => {
    const [ranked] = rankEntities([{ phrase: "flights departing JFK", description: "" }], ENTITIES);
    const origin = ranked!.matches.find((m) => m.entity.name === "origin")!;
    expect(ranked!.matches[0]!.entity.name).toBe("origin");
    expect(origin.matchReason).toContain("indexed value 'JFK' of dimension origin");
    expect(origin.matchedValue).toBe("JFK");
    // Short codes must be written as such; multi-word values match case-insensitively.
    const [lower] = rankEntities([{ phrase: "jfk", description: "" }], ENTITIES);
    expect(lower!.matches.some((m) => m.value > 0)).toBe(false);
    const [state] = rankEntities([{ phrase: "airports in new mexico", description: "" }], ENTITIES);
    expect(state!.matches[0]!.matchReason).toContain("indexed value 'New Mexico' of dimension state");
  });

  test("scores lie in 0..1 and matches are sorted by score", () => {
    const similarities = new Map(ENTITIES.map((e, i) => [e.id, -0.5 + (i % 7) * 0.25]));
    const ranked = rankEntities([
      { phrase: "average arrival delay by carrier", description: "", similarities },
      { phrase: "how many flights", description: "", similarities },
    ], ENTITIES, { minScore: 0, limit: 100 });
    for (const phrase of ranked) {
      expect(phrase.matches.length).toBe(ENTITIES.length);
      for (const [i, m] of phrase.matches.entries()) {
        expect(m.score).toBeGreaterThanOrEqual(0);
        expect(m.score).toBeLessThanOrEqual(1);
        if (i > 0) expect(m.score).toBeLessThanOrEqual(phrase.matches[i - 1]!.score);
      }
    }
    const [lexical] = rankEntities([{ phrase: "average arrival delay by carrier", description: "" }], ENTITIES);
    expect(lexical!.matches[0]!.entity.name).toBe("avg_arr_delay");
  });

  test("a phrase with no vector still gets lexical results", () => {
    const [ranked] = rankEntities([{ phrase: "zzqx delay days", description: "" }], ENTITIES);
    expect(ranked!.matches.length).toBeGreaterThan(0);
    expect(ranked!.matches[0]!.entity.name).toBe("delivery_delay_days");
    expect(ranked!.matches[0]!.matchReason).toMatch(/name match on 'delay', 'day'/);
  });

  test("merged ranking gives each phrase's best entity before any second best", () => {
    const ranked = rankEntities([
      { phrase: "flight_count", description: "" },
      { phrase: "state", description: "" },
    ], ENTITIES);
    expect(mergeRankings(ranked).slice(0, 2).map((m) => m.entity.name)).toEqual(["flight_count", "state"]);
  });
});

describe("buildContextResult", () => {
  const ranked = rankEntities([
    { phrase: "flight count", description: "main subject" },
    { phrase: "JFK", description: "filter: JFK" },
    { phrase: "airports", description: "part of the question" },
  ], ENTITIES);
  const result = buildContextResult(ranked);

  test("has exactly the seed's fields", () => {
    expect(Object.keys(result).sort()).toEqual(["malloy_documentation", "next_steps", "sources"]);
    const flights = result.sources.find((s) => s.source_name === "flights")!;
    expect(flights.model_uri).toBe("flights.malloy");
    const phrase = flights.phrases.find((p) => p.phrase === "flight count")!;
    expect(Object.keys(phrase).sort()).toEqual(["entities", "overall_score", "phrase", "phrase_description"]);
    expect(phrase.phrase_description).toBe("main subject");
    expect(phrase.overall_score).toBe(phrase.entities[0]!.score);
    expect(Object.keys(phrase.entities[0]!).sort()).toEqual(["data_type", "description", "field_type", "match_reason", "name", "score"]);
    expect(phrase.entities[0]).toMatchObject({ name: "flight_count", field_type: "measure", data_type: "number", description: "How many flights" });
    const jfk = flights.phrases.find((p) => p.phrase === "JFK")!.entities[0]!;
    expect(jfk).toMatchObject({ name: "origin", field_type: "dimension", values: ["JFK", "LAX"] });
    // Sources are groups, not entities.
    expect(result.sources.flatMap((s) => s.phrases.flatMap((p) => p.entities)).some((e) => e.field_type === "source")).toBe(false);
  });

  test("next_steps name the model_uri, the source_name and a query skeleton", () => {
    const text = result.next_steps.join("\n");
    expect(text).toContain("model_uri 'flights.malloy'");
    expect(text).toContain("source_name 'flights'");
    expect(text).toContain("run: flights -> {");
    expect(text).toContain("where: origin = 'JFK'");
    expect(text).toContain("aggregate: flight_count");
  });

  test("views are suggested and short Malloy notes fitting the matches are attached", () => {
    const views = buildContextResult(rankEntities([{ phrase: "by carrier", description: "" }], ENTITIES));
    expect(views.next_steps.join("\n")).toContain("query_name 'by_carrier'");
    expect(views.malloy_documentation).toContain("run: source -> view_name");
    expect(result.malloy_documentation.length).toBeLessThan(1500);
    expect(result.malloy_documentation).toContain("group_by");
    expect(result.malloy_documentation).toContain("single quotes");
    // The whole reference stays available.
    expect(malloyReference()).toContain("Common errors");
  });

  test("no match says how to widen the search", () => {
    const empty = buildContextResult([{ phrase: "zzqx", description: "", matches: [] }], { documentation: "" });
    expect(empty.sources).toEqual([]);
    expect(empty.next_steps[0]).toContain("Widen the search");
  });
});

describe("memory index", () => {
  const unit = (...xs: number[]) => {
    const n = Math.hypot(...xs);
    return new Float32Array(xs.map((x) => x / n));
  };

  test("returns the k nearest by cosine, best first, skipping null vectors", () => {
    const index = buildMemoryIndex(["a", "b", "c", "d"], [unit(1, 0), unit(0, 1), null, unit(1, 1)]);
    expect(index.ids).toEqual(["a", "b", "d"]);
    const hits = searchMemoryIndex(index, unit(1, 0.1), { k: 2 });
    expect(hits.map((h) => h.id)).toEqual(["a", "d"]);
    expect(hits[0]!.similarity).toBeGreaterThan(hits[1]!.similarity);
    expect(searchMemoryIndex(index, unit(1, 0), { k: 5, filter: (id) => id !== "a" }).map((h) => h.id)).toEqual(["d", "b"]);
  });

  test("rejects vectors of the wrong length", () => {
    expect(() => buildMemoryIndex(["a", "b"], [unit(1, 0), unit(1, 0, 0)])).toThrow("expected 2");
    const index = buildMemoryIndex(["a"], [unit(1, 0)]);
    expect(() => searchMemoryIndex(index, unit(1, 0, 0))).toThrow("length 3");
  });
});

describe("rankEntities with multi-hop lexicon relations", () => {
  test("a derivational base's related words reach an entity, with less credit than a direct synonym", () => {
    const lexicon: Lexicon = {
      dir: "stub",
      related: (w) => ({ profit: ["earnings"], gain: ["earnings"] }[w] ?? []),
      has: () => true,
      derivationBases: (w) => (w === "profitability" ? ["profit"] : []),
    };
    const make = (name: string): EntityRecord => ({
      id: name, kind: "measure", name, sourceName: "s", modelPath: "m", fieldType: "measure", dataType: "number", text: name,
      lexicalTerms: { name: [stem(name)], doc: [], context: [], related: [] },
    });
    const entities = [make("earnings"), make("other")];
    const far = rankEntities([{ phrase: "profitability", description: "" }], entities, { lexicon })[0]!.matches;
    const near = rankEntities([{ phrase: "gain", description: "" }], entities, { lexicon })[0]!.matches;
    expect(far.map((m) => m.entity.name)).toEqual(["earnings"]);
    expect(far[0]!.matchReason).toContain(`profitability~${stem("earnings")}`);
    expect(far[0]!.lexical).toBeLessThan(near[0]!.lexical);
    expect(rankEntities([{ phrase: "profitability", description: "" }], entities, {})[0]!.matches).toEqual([]);
  });
});
