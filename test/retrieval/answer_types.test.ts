import { describe, expect, test } from "bun:test";
import { phraseEmbeddingText } from "../../src/retrieval/answer/answer_types.ts";

describe("phraseEmbeddingText", () => {
  test("rewrites question words into answer-type words, whole words only", () => {
    expect(phraseEmbeddingText("When did people register")).toBe("date time did people register");
    expect(phraseEmbeddingText("what year was it built")).toBe("date time was it built");
    expect(phraseEmbeddingText("whenever orders ship")).toBe("whenever orders ship");
    expect(phraseEmbeddingText("orders by carrier")).toBe("orders by carrier");
  });
});
