/**
 * Place names for codes (src/retrieval/text/places.ts): a field of state or
 * country codes matches the places' names and their people's adjectives, in
 * ranking and in the first query's filter.
 */
import { describe, expect, test } from "bun:test";
import { getEmbedder } from "../../src/retrieval/embedding/embedder.ts";
import { embedEntities } from "../../src/retrieval/index/entity_vectors.ts";
import { entitiesFromMetadata } from "../../src/retrieval/index/entity_text.ts";
import { buildContextResult } from "../../src/retrieval/answer/context_result.ts";
import { rankQuestionEntities } from "../../src/retrieval/ranking/question_rank.ts";
import { prepareScope } from "../../src/retrieval/ranking/scope_index.ts";
import { placeAliases } from "../../src/retrieval/text/places.ts";
import { dim, msr, source } from "../bench/retrieval_packages.ts";

describe("placeAliases", () => {
  test("state codes stand for the states' names", () => {
    expect(placeAliases(["TX", "CA", "NY", "DC"], "state")).toEqual([["TX", "Texas"], ["CA", "California"], ["NY", "New York"], ["DC", "District of Columbia"]]);
  });

  test("country codes, two or three letters, stand for names and adjectives; UK is Great Britain's", () => {
    const two = placeAliases(["CA", "UK", "DE", "FR"], "country");
    expect(two).toContainEqual(["CA", "Canada"]);
    expect(two).toContainEqual(["CA", "Canadian"]);
    expect(two).toContainEqual(["UK", "United Kingdom"]);
    expect(two).toContainEqual(["DE", "German"]);
    expect(two).not.toContainEqual(["CA", "California"]);
    expect(placeAliases(["USA", "GBR", "CAN"], "noc")).toContainEqual(["USA", "United States"]);
  });

  test("codes shared by both systems follow the field's name, then the larger share", () => {
    // CA, CO, GA are codes of states and of countries.
    expect(placeAliases(["CA", "CO", "GA"], "state")).toContainEqual(["CA", "California"]);
    expect(placeAliases(["CA", "CO", "GA"], "country")).toContainEqual(["CA", "Canada"]);
    expect(placeAliases(["CA", "CO", "GA"], "region")).toContainEqual(["CA", "California"]);
  });

  test("a country name value gains its adjective; values that are not mostly codes gain nothing", () => {
    expect(placeAliases(["Canada"], "country")).toEqual([["Canada", "Canadian"]]);
    expect(placeAliases(["S", "M", "XL", "MD"], "size")).toEqual([]);
    expect(placeAliases(["AL", "Beta", "Gamma", "Delta"], "stage")).toEqual([]);
    expect(placeAliases(["TX", "CA"], "state")).toEqual([]);
  });
});

describe("a place named in a question finds its code", () => {
  const meta = {
    modelPath: "models/weather.malloy",
    sources: [source("stations", "One row per weather station", [dim("name", "string"), dim("state", "string"), dim("country", "string"), msr("station_count")])],
    queries: [],
  };
  const values = { "stations.state": ["CA", "TX", "AK", "NY"], "stations.country": ["US", "CA", "IN", "UK", "AU"] };

  async function answer(question: string) {
    const embedder = await getEmbedder();
    const entities = entitiesFromMetadata(meta, {}, { values });
    const vectors = embedder ? await embedEntities(embedder, entities) : [];
    const scope = await prepareScope(entities, embedder, (e) => vectors[entities.indexOf(e)]);
    const ranked = await rankQuestionEntities(question, scope, embedder);
    return { ranked, result: buildContextResult([{ phrase: question, description: "the question", matches: ranked }], { question, scope: entities }) };
  }

  test("'stations in Texas' matches state 'TX' and the first query keeps those rows", async () => {
    const { ranked, result } = await answer("stations in Texas");
    expect(ranked[0]).toMatchObject({ entity: { name: "state" }, matchedValue: "TX" });
    expect(result.next_steps[0]).toContain("where: state = 'TX'");
  });

  test("'Canadian stations' matches country 'CA', not the state California", async () => {
    const { ranked, result } = await answer("Canadian stations");
    expect(ranked[0]).toMatchObject({ entity: { name: "country" }, matchedValue: "CA" });
    expect(result.next_steps[0]).toContain("where: country = 'CA'");
  });

  test("'stations in the UK' filters on 'UK'; the word 'in' is not the code 'IN'", async () => {
    const { result } = await answer("stations in the UK");
    expect(result.next_steps[0]).toContain("where: country = 'UK'");
  });
});
