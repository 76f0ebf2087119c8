import { describe, expect, test } from "bun:test";
import type { ModelMetadata } from "../../src/engine/compile/metadata.ts";
import { entitiesFromMetadata } from "../../src/retrieval/index/entity_text.ts";
import type { Lexicon } from "../../src/retrieval/text/lexicon.ts";
import { contentStems, splitName, stem } from "../../src/retrieval/text/text_terms.ts";
import { dim, msr, source, view } from "../bench/retrieval_packages.ts";

const META: ModelMetadata = {
  modelPath: "models/flights.malloy",
  description: "US flights",
  sources: [
    {
      ...source("flights", "One row per flight", [
        dim("avgArrDelay", "number"),
        dim("origin", "string", "Departure airport code", true),
        dim("dep_dt", "date"),
        msr("flight_cnt", "How many flights"),
        view("by_carrier", "Flights per carrier"),
      ]),
      dimensions: [
        dim("avgArrDelay", "number"),
        dim("origin", "string", "Departure airport code", true),
        dim("dep_dt", "date"),
        { ...dim("nickname", "string", "Airline name"), path: "carriers.nickname", joinPath: ["carriers"] },
      ],
    },
    source("airports", undefined, [dim("faa_region", "string")]),
  ],
  queries: [{ name: "carrier_summary", description: "The carrier summary", sourceName: "flights" }],
};

describe("entitiesFromMetadata", () => {
  test("one record per source, dimension, measure, view and named query", () => {
    const entities = entitiesFromMetadata(META);
    expect(entities.map((e) => `${e.kind}:${e.sourceName}:${e.name}`)).toEqual([
      "source:flights:flights",
      "dimension:flights:avgArrDelay",
      "dimension:flights:origin",
      "dimension:flights:dep_dt",
      "dimension:flights:carriers.nickname",
      "measure:flights:flight_cnt",
      "view:flights:by_carrier",
      "source:airports:airports",
      "dimension:airports:faa_region",
      "query:flights:carrier_summary",
    ]);
    const ids = entities.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(entities.every((e) => e.modelPath === "models/flights.malloy")).toBe(true);
  });

  test("text humanizes names, expands abbreviations and includes the doc", () => {
    const byName = new Map(entitiesFromMetadata(META).map((e) => [e.name, e]));
    expect(byName.get("avgArrDelay")!.text).toBe("average arrival delay");
    expect(byName.get("flight_cnt")!.text).toBe("flight count. How many flights");
    expect(byName.get("dep_dt")!.text.startsWith("departure date")).toBe(true);
    expect(byName.get("carriers.nickname")!.text.startsWith("carriers nickname. Airline name")).toBe(true);
    expect(byName.get("flight_cnt")!.lexicalTerms.name).toEqual(expect.arrayContaining(["cnt", "count", "flight"]));
    expect(byName.get("origin")!.lexicalTerms.doc).toEqual(expect.arrayContaining(["departur", "airport"]));
    expect(byName.get("origin")!.lexicalTerms.context).toEqual(expect.arrayContaining(["flight"]));
    expect(byName.get("origin")!.description).toBe("Departure airport code");
    expect(byName.get("faa_region")!.dataType).toBe("string");
  });

  test("scope keeps one source and the queries on it", () => {
    const entities = entitiesFromMetadata(META, { sourceName: "airports" });
    expect(entities.map((e) => e.name)).toEqual(["airports", "faa_region"]);
  });

  test("a lexicon splits glued name words it does not know into words it knows", () => {
    const known = new Set(["sign", "up", "date", "count"]);
    const lexicon: Lexicon = { dir: "stub", related: () => [], has: (w) => known.has(w), derivationBases: () => [] };
    const meta: ModelMetadata = { ...META, sources: [{ ...META.sources[0]!, dimensions: [{ ...META.sources[0]!.dimensions[0]!, name: "signup_dt", path: "signup_dt" }] }] };
    const entity = entitiesFromMetadata(meta, {}, { lexicon }).find((e) => e.name === "signup_dt")!;
    expect(entity.text.startsWith("sign up date")).toBe(true);
    expect(entity.lexicalTerms.name).toEqual(expect.arrayContaining(["signup", "sign", "up", "date"]));
    expect(entitiesFromMetadata(meta).find((e) => e.name === "signup_dt")!.text.startsWith("signup date")).toBe(true);
  });

  test("a column prefix most dimensions of a source share is left out of matched and embedded words", () => {
    const orders = source("orders", undefined, [
      dim("o_orderdate", "date"), dim("o_clerk", "string"), dim("o_totalprice", "number"), dim("status", "string"),
    ]);
    const lines = source("lineitem", undefined, [dim("l_availqty", "number"), dim("l_tax", "number")]);
    const meta: ModelMetadata = {
      modelPath: "m.malloy",
      sources: [orders, { ...lines, dimensions: [...lines.dimensions, { ...dim("o_clerk", "string"), path: "orders.o_clerk", joinPath: ["orders"] }] }],
      queries: [],
    };
    const known = new Set(["avail", "order", "date", "total", "price"]);
    const lexicon: Lexicon = { dir: "stub", related: () => [], has: (w) => known.has(w), derivationBases: () => [] };
    const byKey = new Map(entitiesFromMetadata(meta, {}, { lexicon }).map((e) => [`${e.sourceName}.${e.name}`, e]));
    expect(byKey.get("orders.o_clerk")!.text).toBe("clerk");
    expect(byKey.get("orders.o_clerk")!.lexicalTerms.name).toEqual(["clerk"]);
    expect(byKey.get("orders.o_orderdate")!.text.startsWith("order date")).toBe(true);
    expect(byKey.get("lineitem.orders.o_clerk")!.text).toBe("orders clerk");
    // Two fields are too few to call `l` a prefix; a glued abbreviation is split and expanded.
    expect(byKey.get("lineitem.l_availqty")!.text).toBe("l avail quantity");
    expect(byKey.get("orders.status")!.text).toBe("status");
  });

  test("indexed values attach to their dimension only", () => {
    const entities = entitiesFromMetadata(META, {}, { values: { "flights.origin": ["JFK", "LAX"], "flights.flight_cnt": ["1"] } });
    expect(entities.find((e) => e.name === "origin")!.values).toEqual(["JFK", "LAX"]);
    expect(entities.filter((e) => e.values !== undefined).map((e) => e.name)).toEqual(["origin"]);
  });

  test("a lexicon adds related words of the name, stemmed, without repeating name words", () => {
    const lexicon: Lexicon = {
      dir: "stub",
      related: (word) => ({ arrival: ["arriving", "reaching"], delay: ["holdup", "time lag", "delay"] }[word] ?? []),
      has: () => true,
      derivationBases: () => [],
    };
    const entity = entitiesFromMetadata(META, {}, { lexicon }).find((e) => e.name === "avgArrDelay")!;
    expect(entity.lexicalTerms.related).toEqual(expect.arrayContaining([stem("arriving"), "reach", "holdup", "time lag"]));
    expect(entity.lexicalTerms.related).not.toContain("delay");
    expect(entitiesFromMetadata(META).find((e) => e.name === "avgArrDelay")!.lexicalTerms.related).toEqual([]);
  });
});

describe("text terms", () => {
  test("splitName handles snake, camel, dots and digits", () => {
    expect(splitName("avgArrDelay_min")).toEqual(["avg", "arr", "delay", "min"]);
    expect(splitName("carriers.nickname")).toEqual(["carriers", "nickname"]);
    expect(splitName("HTTPStatus2xx")).toEqual(["http", "status", "2", "xx"]);
  });

  test("stemming folds inflections together", () => {
    expect(stem("deliveries")).toBe(stem("delivery"));
    expect(stem("delayed")).toBe(stem("delays"));
    expect(stem("shipping")).toBe(stem("ship"));
    expect(contentStems("Number of the delayed flights")).toEqual(["number", "delay", "flight"]);
  });

  test("a -ly that belongs to the word stays, and a short stem keeps its e", () => {
    expect(stem("supplies")).toBe(stem("supply"));
    expect(stem("supply")).not.toBe(stem("sup"));
    expect(stem("family")).toBe("family");
    expect(stem("monthly")).toBe(stem("month"));
    expect(stem("rating")).toBe(stem("rate"));
    expect(stem("rated")).toBe(stem("rate"));
    expect(stem("hiring")).toBe(stem("hire"));
  });
});
