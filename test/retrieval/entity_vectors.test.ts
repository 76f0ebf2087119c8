import { describe, expect, test } from "bun:test";
import { getEmbedder } from "../../src/retrieval/embedding/embedder.ts";
import { embedEntities, entityVectorKey } from "../../src/retrieval/index/entity_vectors.ts";

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe("entity vectors", () => {
  test("a dimension's values move its vector towards what they are, and are part of its key", async () => {
    const embedder = (await getEmbedder())!;
    const bare = { text: "ship mode" };
    const valued = { text: "ship mode", values: ["AIR", "RAIL", "TRUCK", "MAIL", "SHIP"] };
    expect(entityVectorKey(valued)).not.toBe(entityVectorKey(bare));
    expect(entityVectorKey(valued)).toContain("AIR, RAIL, TRUCK");
    const [without, withValues] = await embedEntities(embedder, [bare, valued]);
    const [question] = await embedder.embed(["transport by train or plane"]);
    expect(dot(withValues!, withValues!)).toBeCloseTo(1, 5);
    expect(dot(question!, withValues!)).toBeGreaterThan(dot(question!, without!) + 0.05);
  });

  test("an entity without values keeps the vector of its text", async () => {
    const embedder = (await getEmbedder())!;
    const [own] = await embedEntities(embedder, [{ text: "ship mode", values: [] }]);
    const [plain] = await embedder.embed(["ship mode"]);
    expect(dot(own!, plain!)).toBeCloseTo(1, 5);
    expect(entityVectorKey({ text: "ship mode", values: [] })).toBe("ship mode");
  });
});
