/**
 * Other forms of indexed values (src/retrieval/text/value_forms.ts and the
 * continents of places.ts): a sex or gender code read from "women" or
 * "men", a web domain from its name, a continent from its adjective; in
 * ranking and in the first query's filter.
 */
import { describe, expect, test } from "bun:test";
import { buildContextResult } from "../../src/retrieval/answer/context_result.ts";
import { getEmbedder } from "../../src/retrieval/embedding/embedder.ts";
import { embedEntities } from "../../src/retrieval/index/entity_vectors.ts";
import { entitiesFromMetadata } from "../../src/retrieval/index/entity_text.ts";
import { rankQuestionEntities } from "../../src/retrieval/ranking/question_rank.ts";
import { prepareScope } from "../../src/retrieval/ranking/scope_index.ts";
import { placeAliases } from "../../src/retrieval/text/places.ts";
import { valueForms } from "../../src/retrieval/text/value_forms.ts";
import { dim, msr, source } from "../bench/retrieval_packages.ts";

describe("valueForms", () => {
  test("F and M (or female and male), with unknown codes beside them, are read from the words for each", () => {
    expect(valueForms(["F", "M"])).toContainEqual(["F", "women"]);
    expect(valueForms(["M", "F", "U"])).toContainEqual(["M", "men"]);
    expect(valueForms(["male", "female", "unknown"])).toContainEqual(["female", "ladies"]);
    // Not a sex field: other values beside F and M.
    expect(valueForms(["F", "M", "L", "XL"])).toEqual([]);
    expect(valueForms(["M"])).toEqual([]);
  });

  test("a web domain is read from its name", () => {
    expect(valueForms(["github.com", "www.nytimes.com", "m.facebook.com", "analytics.google.com", "(direct)"]))
      .toEqual([["github.com", "github"], ["www.nytimes.com", "nytimes"], ["m.facebook.com", "facebook"]]);
  });

  test("a continent is read from its adjective", () => {
    expect(placeAliases(["Europe", "North America"], "group")).toEqual([["Europe", "European"], ["North America", "North American"]]);
  });
});

describe("a form of a value in a question finds the value", () => {
  const meta = {
    modelPath: "models/site.malloy",
    sources: [source("visits", "One row per visit", [dim("sex", "string"), dim("referrer", "string"), dim("region", "string"), msr("visit_count")])],
    queries: [],
  };
  const values = { "visits.sex": ["F", "M"], "visits.referrer": ["github.com", "news.ycombinator.com", "google.com"], "visits.region": ["Europe", "Asia"] };

  async function firstStep(question: string) {
    const embedder = await getEmbedder();
    const entities = entitiesFromMetadata(meta, {}, { values });
    const vectors = embedder ? await embedEntities(embedder, entities) : [];
    const scope = await prepareScope(entities, embedder, (e) => vectors[entities.indexOf(e)]);
    const ranked = await rankQuestionEntities(question, scope, embedder);
    return buildContextResult([{ phrase: question, description: "the question", matches: ranked }], { question, scope: entities }).next_steps[0]!;
  }

  test("'visits by women' keeps sex = 'F'; 'visits from github' keeps the domain; 'European visits' the continent", async () => {
    expect(await firstStep("visits by women")).toContain("where: sex = 'F'");
    expect(await firstStep("visits from github")).toContain("where: referrer = 'github.com'");
    expect(await firstStep("European visits")).toContain("where: region = 'Europe'");
  });
});
