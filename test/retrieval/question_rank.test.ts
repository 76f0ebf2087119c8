import { describe, expect, test } from "bun:test";
import type { ModelMetadata } from "../../src/engine/compile/metadata.ts";
import { getEmbedder } from "../../src/retrieval/embedding/embedder.ts";
import { embedEntities } from "../../src/retrieval/index/entity_vectors.ts";
import { entitiesFromMetadata } from "../../src/retrieval/index/entity_text.ts";
import { kindCues, rankQuestionEntities } from "../../src/retrieval/ranking/question_rank.ts";
import { prepareScope } from "../../src/retrieval/ranking/scope_index.ts";
import { dim, msr, source } from "../bench/retrieval_packages.ts";

const META: ModelMetadata = {
  modelPath: "models/shop.malloy",
  sources: [
    source("shipments", "One row per shipment", [
      dim("arrival_port", "string"),
      dim("dock_code", "string"),
      dim("received_on", "date"),
      dim("carrier", "string"),
      msr("shipment_count"),
    ]),
  ],
  queries: [],
};

async function ranked(question: string, disable: Array<"kinds"> = []): Promise<string[]> {
  const embedder = await getEmbedder();
  const entities = entitiesFromMetadata(META);
  const vectors = embedder ? await embedEntities(embedder, entities) : [];
  const scope = await prepareScope(entities, embedder, (e) => vectors[entities.indexOf(e)]);
  return (await rankQuestionEntities(question, scope, embedder, { disable })).map((m) => m.entity.name);
}

describe("question ranking kind cues", () => {
  test("a question starting with 'when' asks for a date", () => {
    expect(kindCues("When did the goods arrive?").time).toBe(true);
    expect(kindCues("what date was it shipped").time).toBe(true);
    expect(kindCues("arrival port of shipments").time).toBe(false);
  });

  test("'when' puts a date field above a field that shares the question's word", async () => {
    const question = "when did the goods arrive";
    const [top] = await ranked(question);
    expect(top).toBe("received_on");
    const without = await ranked(question, ["kinds"]);
    expect(without[0]).not.toBe("received_on");
  });

  test("a one-word question names a kind of thing: the source comes before its fields", async () => {
    expect((await ranked("freight"))[0]).toBe("shipments");
    expect((await ranked("freight", ["kinds"]))[0]).not.toBe("shipments");
  });
});

describe("question ranking reads labels", () => {
  test("a field's # label is matched like its doc: 'fee for delivery' finds the field labelled so", async () => {
    const embedder = await getEmbedder();
    const meta: ModelMetadata = {
      modelPath: "models/orders.malloy",
      sources: [
        source("order_items", undefined, [
          { ...dim("freight_value", "number"), tags: ['# label="Delivery fee"', "# currency"] },
          dim("price", "number"),
          dim("shipping_limit_date", "timestamp"),
          dim("seller_id", "string"),
          msr("item_count"),
        ]),
      ],
      queries: [],
    };
    const entities = entitiesFromMetadata(meta);
    const vectors = embedder ? await embedEntities(embedder, entities) : [];
    const scope = await prepareScope(entities, embedder, (e) => vectors[entities.indexOf(e)]);
    const top = (await rankQuestionEntities("fee for delivery", scope, embedder))[0]!;
    expect(top.entity.name).toBe("freight_value");
    expect(top.matchReason).toContain("'fee'");
  });

  test("a question in words the model never uses still gets the nearest fields, marked weak, not an empty answer", async () => {
    const embedder = await getEmbedder();
    const meta: ModelMetadata = {
      modelPath: "models/sky.malloy",
      sources: [source("stars", undefined, [dim("magnitude", "number"), dim("constellation", "string"), dim("parallax", "number"), msr("star_count")])],
      queries: [],
    };
    const entities = entitiesFromMetadata(meta);
    const vectors = embedder ? await embedEntities(embedder, entities) : [];
    const scope = await prepareScope(entities, embedder, (e) => vectors[entities.indexOf(e)]);
    const found = await rankQuestionEntities("sourdough or rye", scope, embedder);
    expect(found.length).toBeGreaterThan(0);
    for (const m of found) {
      expect(m.matchReason).toContain("weak");
      expect(m.score).toBeLessThan(0.3);
    }
  });

  test("match reasons name the question's words as written, not their stems", async () => {
    const embedder = await getEmbedder();
    const meta: ModelMetadata = {
      modelPath: "models/shop.malloy",
      sources: [source("orders", undefined, [dim("product_category", "string"), msr("category_revenue"), dim("order_date", "date")])],
      queries: [],
    };
    const entities = entitiesFromMetadata(meta);
    const vectors = embedder ? await embedEntities(embedder, entities) : [];
    const scope = await prepareScope(entities, embedder, (e) => vectors[entities.indexOf(e)]);
    const found = await rankQuestionEntities("revenue by product categories", scope, embedder);
    const revenue = found.find((m) => m.entity.name === "category_revenue")!;
    expect(revenue.matchReason).toContain("word match on 'revenue', 'categories'");
    expect(found.map((m) => m.matchReason).join(" ")).not.toMatch(/'revenu'|'categori'/);
  });
});

describe("indexed values written in the question", () => {
  test("a value after 'a', 'an', 'each' or 'per' names any member, not the rows holding it", async () => {
    const embedder = await getEmbedder();
    const entities = entitiesFromMetadata({
      modelPath: "models/league.malloy",
      sources: [source("people", undefined, [dim("category", "string"), dim("salary", "number")])],
      queries: [],
    }, {}, { values: { "people.category": ["Player", "Umpire", "Manager"] } });
    const vectors = embedder ? await embedEntities(embedder, entities) : [];
    const scope = await prepareScope(entities, embedder, (e) => vectors[entities.indexOf(e)]);
    const valueOf = async (question: string) => (await rankQuestionEntities(question, scope, embedder)).find((m) => m.entity.name === "category")?.matchedValue;
    for (const question of ["salary of a player", "salary of each player", "salary per player", "salary of an umpire"]) expect(await valueOf(question)).toBeUndefined();
    expect(await valueOf("salary of the player")).toBe("Player");
    expect(await valueOf("umpire salaries")).toBe("Umpire");
  });
});
