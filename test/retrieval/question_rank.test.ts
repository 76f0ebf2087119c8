import { describe, expect, test } from "bun:test";
import type { ModelMetadata } from "../../src/engine/metadata.ts";
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
});

describe("question ranking centers the cosine", () => {
  const meta: ModelMetadata = {
    modelPath: "models/shop.malloy",
    sources: [
      source("orders", undefined, [dim("order_date", "date"), dim("tax_paid", "number"), dim("customer_name", "string"), dim("subtotal", "number"),
        msr("total_revenue"), msr("order_count"), dim("store_city", "string"), dim("status", "string")]),
      source("staff", undefined, [dim("first_name", "string"), dim("hire_date", "date"), dim("salary", "number"), msr("staff_count")]),
    ],
    queries: [],
  };

  test("the centered cosine from dot products equals the cosine of the vectors minus the scope's mean", async () => {
    const embedder = await getEmbedder();
    if (!embedder) return;
    const entities = entitiesFromMetadata(meta);
    const vectors = await embedEntities(embedder, entities);
    const scope = await prepareScope(entities, embedder, (e) => vectors[entities.indexOf(e)]);
    const c = scope.centering!;
    const [a, b] = [vectors[1]!, vectors[9]!];
    const minus = (v: Float32Array) => v.map((x, i) => x - c.mean[i]!);
    const [ca, cb] = [minus(a), minus(b)];
    const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i]!, 0);
    const explicit = dot(ca, cb) / Math.sqrt(dot(ca, ca) * dot(cb, cb));
    // a plays the question (unit length): q.m = meanDot, |q - m| = norm.
    const fromDots = (dot(a, b) - c.meanDot[1]! - c.meanDot[9]! + c.meanSquare) / (c.norm[1]! * c.norm[9]!);
    expect(fromDots).toBeCloseTo(explicit, 4);
  });

  test("'pay of workers' puts salary above a date field the plain cosine finds as close", async () => {
    const embedder = await getEmbedder();
    const entities = entitiesFromMetadata(meta);
    const vectors = embedder ? await embedEntities(embedder, entities) : [];
    const scope = await prepareScope(entities, embedder, (e) => vectors[entities.indexOf(e)]);
    const names = async (disable: Array<"centering">) => (await rankQuestionEntities("pay of workers", scope, embedder, { disable })).map((m) => m.entity.name);
    const centered = await names([]);
    const plain = await names(["centering"]);
    expect(centered.indexOf("salary")).toBeLessThan(centered.indexOf("hire_date"));
    expect(plain.indexOf("salary")).toBeGreaterThan(plain.indexOf("hire_date"));
  });
});
