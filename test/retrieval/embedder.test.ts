import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AutoTokenizer } from "@huggingface/transformers";
import {
  DEFAULT_EMBEDDING_MODEL_DIR,
  embedderStatus,
  getEmbedder,
  resetEmbedder,
  type Embedder,
} from "../../src/retrieval/embedding/embedder.ts";

const vocab: Record<string, number> = (await Bun.file(join(DEFAULT_EMBEDDING_MODEL_DIR, "tokenizer.json")).json()).model.vocab;

/** Ids the tokenizer must produce: the vocabulary ids of the given words, [UNK] (1) for unknown ones. */
function idsOf(words: string[]): number[] {
  return words.map((w) => vocab[w] ?? 1);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

function norm(a: Float32Array): number {
  return Math.sqrt(cosine(a, a));
}

const scratch = await mkdtemp(join(tmpdir(), "embedder-test-"));
afterAll(async () => {
  resetEmbedder();
  await rm(scratch, { recursive: true, force: true });
}, 120_000);

describe("committed model files", () => {
  test("config and tokenizer config hold what transformers.js needs", async () => {
    const config = await Bun.file(join(DEFAULT_EMBEDDING_MODEL_DIR, "config.json")).json();
    expect(config.model_type).toBe("bert");
    expect(config.hidden_size).toBe(100);
    const tokenizerConfig = await Bun.file(join(DEFAULT_EMBEDDING_MODEL_DIR, "tokenizer_config.json")).json();
    expect(tokenizerConfig.unk_token).toBe("[UNK]");
    expect(tokenizerConfig.pad_token).toBe("[PAD]");
    expect(vocab["[PAD]"]).toBe(0);
    expect(vocab["[UNK]"]).toBe(1);
    expect(Object.keys(vocab).length).toBe(100_002);
    const onnxSize = Bun.file(join(DEFAULT_EMBEDDING_MODEL_DIR, "onnx", "model_quantized.onnx")).size;
    expect(onnxSize).toBeGreaterThan(9_000_000);
    expect(onnxSize).toBeLessThan(12_000_000);
  });

  test("vocabulary has content words but no stop words or punctuation", () => {
    for (const word of ["order", "date", "delivery", "delay", "revenue", "carrier", "banana"]) {
      expect(vocab[word]).toBeGreaterThan(1);
    }
    for (const word of ["the", "of", "and", "is", ",", "n't", "e-mail"]) expect(vocab[word]).toBeUndefined();
  });
});

describe("tokenizer parity (tokenizer.json through transformers.js AutoTokenizer)", () => {
  let tokenize: (text: string) => number[];
  beforeAll(async () => {
    const tokenizer = await AutoTokenizer.from_pretrained(DEFAULT_EMBEDDING_MODEL_DIR, { local_files_only: true });
    tokenize = (text) => (tokenizer(text).input_ids.tolist() as bigint[][])[0]!.map(Number);
  }, 120_000);

  const cases: [string, string[]][] = [
    ["orderDate", ["order", "date"]],
    ["delivery_delay_days", ["delivery", "delay", "days"]],
    ["HTTPServer", ["http", "server"]],
    ["Total Revenue (USD)", ["total", "revenue", "usd"]],
    ["customer.lifetimeValue/2023", ["customer", "lifetime", "value", "2023"]],
    ["late   delivery--delay", ["late", "delivery", "delay"]],
    ["the xqzzyq", ["[UNK]", "[UNK]"]],
  ];
  for (const [text, words] of cases) {
    test(`${JSON.stringify(text)} -> ${words.join(" ")}`, () => {
      expect(tokenize(text)).toEqual(idsOf(words));
    });
  }

  test("no special tokens are added and empty text has no tokens", () => {
    expect(tokenize("")).toEqual([]);
    expect(tokenize("late")).toEqual(idsOf(["late"]));
  });
});

describe("default embedder", () => {
  let embedder: Embedder;
  beforeAll(async () => {
    resetEmbedder();
    const loaded = await getEmbedder();
    if (!loaded) throw new Error(`default model did not load: ${embedderStatus().reason}`);
    embedder = loaded;
  }, 120_000);

  test("concurrent callers share one loaded embedder; status is ready", async () => {
    const [a, b] = await Promise.all([getEmbedder(), getEmbedder()]);
    expect(a).toBe(embedder);
    expect(b).toBe(embedder);
    expect(embedderStatus()).toEqual({ model: "wink-glove-100d", dimension: 100, state: "ready", provider: "in-process" });
    expect(embedder.model).toBe("wink-glove-100d");
    expect(embedder.dimension).toBe(100);
  });

  test("vectors are unit length, one per text, in input order", async () => {
    const texts = ["late", "average delivery delay by carrier", "orderDate", "Total Revenue"];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(4);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v!.length).toBe(100);
      expect(norm(v!)).toBeCloseTo(1, 4);
    }
    const [alone] = await embedder.embed(["orderDate"]);
    expect(cosine(alone!, vectors[2]!)).toBeCloseTo(1, 5);
  });

  test("related words score higher than unrelated ones", async () => {
    const [late, delay, banana, revenue, sales, airport] = await embedder.embed(
      ["late", "delay", "banana", "revenue", "sales", "airport"],
    );
    expect(cosine(late!, delay!)).toBeGreaterThan(cosine(late!, banana!) + 0.2);
    expect(cosine(revenue!, sales!)).toBeGreaterThan(cosine(revenue!, airport!) + 0.2);
    const [question, field, other] = await embedder.embed(["late shipments", "delivery_delay_days", "fruit salad"]);
    expect(cosine(question!, field!)).toBeGreaterThan(cosine(question!, other!));
  });

  test("camelCase and snake_case names embed like the spaced words", async () => {
    const [camel, spaced, snake] = await embedder.embed(["orderDate", "order date", "order_date"]);
    expect(cosine(camel!, spaced!)).toBeCloseTo(1, 5);
    expect(cosine(snake!, spaced!)).toBeCloseTo(1, 5);
  });

  test("texts without a known word give null, never NaN", async () => {
    const vectors = await embedder.embed(["xqzzyq blorfl", "", "   ", "the of and", "late xqzzyq"]);
    expect(vectors.slice(0, 4)).toEqual([null, null, null, null]);
    const [late] = await embedder.embed(["late"]);
    expect(vectors[4]).not.toBeNull();
    expect(vectors[4]!.every(Number.isFinite)).toBe(true);
    expect(cosine(vectors[4]!, late!)).toBeGreaterThan(0.99);
  });

  test("many texts are embedded in batches", async () => {
    const texts = Array.from({ length: 150 }, (_, i) => (i % 3 === 0 ? "zzqqx" : `order ${i} revenue`));
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(150);
    expect(vectors.filter((v) => v === null)).toHaveLength(50);
    expect(vectors[0]).toBeNull();
    expect(norm(vectors[1]!)).toBeCloseTo(1, 4);
  });
});

describe("no model", () => {
  const warnings: string[] = [];
  const originalWarn = console.warn;
  beforeAll(() => {
    console.warn = (...args: unknown[]) => void warnings.push(args.join(" "));
  });
  afterEach(() => {
    warnings.length = 0;
    delete process.env.EMBEDDING_MODEL_DIR;
    resetEmbedder();
  });
  afterAll(() => {
    console.warn = originalWarn;
  });

  test("missing model directory: null, one warning, status unavailable", async () => {
    const dir = join(scratch, "missing");
    const [a, b] = await Promise.all([getEmbedder({ modelDir: dir }), getEmbedder({ modelDir: dir })]);
    expect(a).toBeNull();
    expect(b).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("falls back to lexical");
    const status = embedderStatus();
    expect(status.state).toBe("unavailable");
    expect(status.model).toBe("wink-glove-100d");
    expect(status.dimension).toBeNull();
    expect(status.reason).toContain("lacks config.json");
    // The failure is remembered: no second load, no second warning.
    expect(await getEmbedder({ modelDir: dir })).toBeNull();
    expect(warnings).toHaveLength(1);
  });

  test("EMBEDDING_MODEL_DIR pointing to an empty directory forces the no-model state", async () => {
    const empty = join(scratch, "empty");
    await mkdir(empty, { recursive: true });
    process.env.EMBEDDING_MODEL_DIR = empty;
    expect(await getEmbedder()).toBeNull();
    expect(embedderStatus().state).toBe("unavailable");
    expect(embedderStatus().reason).toContain(empty);
  });

  test("broken model file: null and status unavailable", async () => {
    const broken = join(scratch, "broken");
    await mkdir(join(broken, "onnx"), { recursive: true });
    for (const file of ["config.json", "tokenizer.json", "tokenizer_config.json"]) {
      await copyFile(join(DEFAULT_EMBEDDING_MODEL_DIR, file), join(broken, file));
    }
    await writeFile(join(broken, "onnx", "model_quantized.onnx"), "not an onnx model");
    expect(await getEmbedder({ modelDir: broken })).toBeNull();
    expect(embedderStatus().state).toBe("unavailable");
    expect(warnings).toHaveLength(1);
  });

  test("status before any load is not_loaded with the configured model name", () => {
    expect(embedderStatus()).toEqual({ model: "wink-glove-100d", dimension: null, state: "not_loaded", provider: "in-process" });
  });
});
