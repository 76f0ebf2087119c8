/**
 * In-process text embedder for retrieval (`get_context`, entity indexing).
 *
 * Runs a transformers.js feature-extraction pipeline (mean pooling, unit
 * length, `dtype: 'q8'`). The default model is the static GloVe word-vector
 * model committed in `models/wink-glove-100d` (built by
 * `scripts/build_embedding_model.ts`), loaded from disk with remote models
 * disabled. `EMBEDDING_MODEL` switches model (e.g. `Xenova/all-MiniLM-L6-v2`)
 * and `EMBEDDING_MODEL_DIR` gives a local directory holding its files; a
 * non-default model without a directory is downloaded and cached.
 *
 * With `EMBEDDING_BASE_URL` set, vectors come from that OpenAI-compatible
 * embeddings server instead (remote_embedder.ts; `EMBEDDING_MODEL` names the
 * server's model and is the name stored with the vectors, so changing it
 * re-embeds as any model change does).
 *
 * If the model cannot be loaded, {@link getEmbedder} resolves `null`, logs one
 * warning, and callers fall back to lexical matching. A server that could not
 * be reached is tried again after {@link REMOTE_RETRY_MS} by the next caller.
 *
 * @module
 */
import { join, resolve } from "node:path";
import { loadRemoteEmbedder } from "./remote_embedder.ts";

/** Name of the default, committed model. */
const DEFAULT_EMBEDDING_MODEL = "wink-glove-100d";

/** Directory of the default model inside the repository. */
export const DEFAULT_EMBEDDING_MODEL_DIR: string = join(import.meta.dir, "..", "..", "..", "models", DEFAULT_EMBEDDING_MODEL);

/** A loaded embedding model. */
export interface Embedder {
  /** Model name (e.g. `wink-glove-100d`, `Xenova/all-MiniLM-L6-v2`). */
  model: string;
  /** Length of every vector. */
  dimension: number;
  /**
   * Embeds texts in batches; one unit-length vector per text, in input order,
   * or `null` for a text with no known token (empty, or only unknown words).
   */
  embed(texts: string[]): Promise<(Float32Array | null)[]>;
}

/** Load state of the embedder, for the status endpoint. */
export interface EmbedderStatus {
  /** Model name that is (or would be) used. */
  model: string;
  /** Vector length, once ready; `null` otherwise. */
  dimension: number | null;
  /** `not_loaded` until first use, then `ready` or `unavailable`. */
  state: "not_loaded" | "ready" | "unavailable";
  /** Why the model is unavailable. */
  reason?: string;
  /** `remote`: an embeddings server (`EMBEDDING_BASE_URL`); `in-process`: transformers.js. */
  provider: "remote" | "in-process";
}

/** Options of {@link getEmbedder}; each falls back to its environment variable. */
export interface EmbedderOptions {
  /** Model name; default `EMBEDDING_MODEL` or `wink-glove-100d`. */
  model?: string;
  /**
   * Local directory holding the model files (`config.json`, tokenizer files,
   * `onnx/model_quantized.onnx`); default `EMBEDDING_MODEL_DIR`, else the
   * committed directory for the default model. Point it at an empty
   * directory to force the "no model" state.
   */
  modelDir?: string;
  /** Texts per model call (per request to a server); default 64 in process, 32 remote. */
  batchSize?: number;
  /** OpenAI-compatible embeddings server, e.g. `http://127.0.0.1:11434/v1`; default `EMBEDDING_BASE_URL`; empty: in process. */
  baseUrl?: string;
  /** Bearer key of the server; default `EMBEDDING_API_KEY`. */
  apiKey?: string;
  /** Longest request to the server, ms; default `EMBEDDING_TIMEOUT_MS` or 10,000. */
  timeoutMs?: number;
}

interface Resolved {
  model: string;
  dir: string | null;
  batchSize: number;
  key: string;
  remote?: { baseUrl: string; apiKey?: string; timeoutMs: number; retryMs: number };
}

interface Slot {
  key: string;
  promise: Promise<Embedder | null>;
  status: EmbedderStatus;
  /** When a failed load may be tried again (a server that could not be reached); absent: never. */
  retryAt?: number;
}

/** How long after a failed connection to the embeddings server the next caller tries again, ms (`EMBEDDING_RETRY_MS`). */
const REMOTE_RETRY_MS = 30_000;

const recoveryListeners = new Set<(embedder: Embedder) => void>();

/**
 * Calls `listener` each time the embeddings server answers again after a
 * failed connection (versions indexed meanwhile have no vectors: re-index
 * them). Returns a function that removes the listener.
 */
export function onEmbedderRecovered(listener: (embedder: Embedder) => void): () => void {
  recoveryListeners.add(listener);
  return () => recoveryListeners.delete(listener);
}

let current: Slot | null = null;

function resolveOptions(options: EmbedderOptions): Resolved {
  const baseUrl = (options.baseUrl ?? process.env.EMBEDDING_BASE_URL ?? "").trim();
  if (baseUrl !== "") {
    const model = options.model ?? process.env.EMBEDDING_MODEL ?? "";
    const apiKey = options.apiKey ?? (process.env.EMBEDDING_API_KEY || undefined);
    const timeoutMs = Math.max(1, Math.floor(options.timeoutMs ?? (Number(process.env.EMBEDDING_TIMEOUT_MS) || 10_000)));
    const batchSize = Math.max(1, Math.floor(options.batchSize ?? 32));
    const retryMs = Math.max(0, Number(process.env.EMBEDDING_RETRY_MS) || REMOTE_RETRY_MS);
    return {
      model, dir: null, batchSize, remote: { baseUrl, apiKey, timeoutMs, retryMs },
      key: JSON.stringify(["remote", baseUrl, model, apiKey ?? "", timeoutMs, batchSize]),
    };
  }
  const model = options.model ?? (process.env.EMBEDDING_MODEL || DEFAULT_EMBEDDING_MODEL);
  const envDir = process.env.EMBEDDING_MODEL_DIR || undefined;
  const given = options.modelDir ?? envDir;
  const dir = given !== undefined
    ? resolve(given)
    : model === DEFAULT_EMBEDDING_MODEL ? DEFAULT_EMBEDDING_MODEL_DIR : null;
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 64));
  return { model, dir, batchSize, key: JSON.stringify([model, dir, batchSize]) };
}

/**
 * Returns the shared embedder, loading the model on first call. Concurrent
 * callers share one load. Resolves `null` (and logs one warning) when the
 * model cannot be loaded; later calls with the same options return the same
 * result without retrying.
 *
 * @example
 * const embedder = await getEmbedder();
 * const [vector] = (await embedder?.embed(["late deliveries"])) ?? [null];
 */
export function getEmbedder(options: EmbedderOptions = {}): Promise<Embedder | null> {
  const resolved = resolveOptions(options);
  const retrying = current?.key === resolved.key && current.retryAt !== undefined;
  if (current?.key === resolved.key && !(retrying && Date.now() >= current.retryAt!)) return current.promise;
  const provider = resolved.remote ? "remote" : "in-process";
  const slot: Slot = {
    key: resolved.key,
    promise: Promise.resolve(null),
    status: { model: resolved.model, dimension: null, state: "not_loaded", provider },
  };
  // While a server is tried again, callers keep the lexical fallback (and its status) until it answers.
  if (retrying) slot.status = current!.status;
  current = slot;
  slot.promise = load(resolved).then(
    (embedder) => {
      slot.status = { model: resolved.model, dimension: embedder.dimension, state: "ready", provider };
      if (retrying) for (const listener of recoveryListeners) listener(embedder);
      return embedder;
    },
    (error: unknown) => {
      const reason = error instanceof Error ? error.message.split("\n")[0]! : String(error);
      slot.status = { model: resolved.model, dimension: null, state: "unavailable", reason, provider };
      if (resolved.remote && resolved.model !== "") slot.retryAt = Date.now() + resolved.remote.retryMs;
      if (!retrying) console.warn(`embedding model '${resolved.model}' unavailable, retrieval falls back to lexical matching: ${reason}`);
      return null;
    },
  );
  return slot.promise;
}

/**
 * Load state of the embedder most recently requested through
 * {@link getEmbedder} (or of the configured one, if none was requested yet).
 */
export function embedderStatus(): EmbedderStatus {
  if (current) return { ...current.status };
  const resolved = resolveOptions({});
  return { model: resolved.model, dimension: null, state: "not_loaded", provider: resolved.remote ? "remote" : "in-process" };
}

/** Forgets the loaded embedder so the next {@link getEmbedder} loads again (tests, config reload). */
export function resetEmbedder(): void {
  current = null;
}

// Structural types for the parts of transformers.js used here; its own
// declarations are too loose (unions over every pipeline) to be useful.
interface TokenizerOutput {
  input_ids: { tolist(): bigint[][] | number[][] };
}
interface Tokenizer {
  (text: string, options?: { truncation?: boolean }): TokenizerOutput;
  all_special_ids: number[];
  unk_token_id?: number | null;
  pad_token_id?: number | null;
}
interface OutputTensor {
  dims: number[];
  data: Float32Array;
}
interface FeaturePipeline {
  (texts: string[], options: { pooling: "mean"; normalize: boolean }): Promise<OutputTensor>;
  tokenizer: Tokenizer;
  model: { config?: { hidden_size?: number } };
}

async function load(options: Resolved): Promise<Embedder> {
  if (options.remote) {
    if (options.model === "") {
      throw new Error("EMBEDDING_BASE_URL is set but EMBEDDING_MODEL is not: name the server's embedding model, e.g. nomic-embed-text (Ollama) or text-embedding-3-small (OpenAI)");
    }
    return await loadRemoteEmbedder({ ...options.remote, model: options.model, batchSize: options.batchSize });
  }
  if (options.dir !== null) await checkModelDir(options.dir);
  const transformers = await import("@huggingface/transformers");
  const { env, pipeline } = transformers;
  env.allowLocalModels = true;
  env.allowRemoteModels = options.dir === null;
  if (options.dir === null) env.cacheDir = resolve(process.env.EMBEDDING_CACHE_DIR || ".cache/models");
  // An absolute path is not a valid Hugging Face model id, so transformers.js
  // reads the files straight from it.
  const id = options.dir ?? options.model;
  const pipe = (await pipeline("feature-extraction", id, {
    dtype: "q8",
    local_files_only: options.dir !== null,
  })) as unknown as FeaturePipeline;

  const tokenizer = pipe.tokenizer;
  const ignored = new Set<number>([
    ...tokenizer.all_special_ids,
    ...[tokenizer.unk_token_id, tokenizer.pad_token_id].filter((id): id is number => typeof id === "number"),
  ]);
  /** True when the text has at least one token that is neither special nor unknown. */
  const hasKnownToken = (text: string): boolean => {
    const ids = tokenizer(text, { truncation: true }).input_ids.tolist()[0] ?? [];
    return ids.some((id) => !ignored.has(Number(id)));
  };

  const embed = async (texts: string[]): Promise<(Float32Array | null)[]> => {
    const result: (Float32Array | null)[] = new Array(texts.length).fill(null);
    const known: number[] = [];
    texts.forEach((text, i) => {
      if (typeof text === "string" && hasKnownToken(text)) known.push(i);
    });
    for (let start = 0; start < known.length; start += options.batchSize) {
      const indexes = known.slice(start, start + options.batchSize);
      const output = await pipe(indexes.map((i) => texts[i]!), { pooling: "mean", normalize: true });
      const width = output.dims.at(-1)!;
      indexes.forEach((textIndex, row) => {
        const vector = output.data.slice(row * width, (row + 1) * width);
        result[textIndex] = vector.every(Number.isFinite) ? vector : null;
      });
    }
    return result;
  };

  let dimension = pipe.model.config?.hidden_size;
  if (typeof dimension !== "number") {
    const [probe] = await embed(["data"]);
    if (!probe) throw new Error(`model '${options.model}' gave no vector for a probe text`);
    dimension = probe.length;
  }
  return { model: options.model, dimension, embed };
}

/** Fails early with a clear message when the model directory lacks its files. */
async function checkModelDir(dir: string): Promise<void> {
  const required = ["config.json", "tokenizer.json", "tokenizer_config.json", join("onnx", "model_quantized.onnx")];
  const missing: string[] = [];
  for (const file of required) {
    if (!(await Bun.file(join(dir, file)).exists())) missing.push(file);
  }
  if (missing.length > 0) {
    throw new Error(`model directory ${dir} lacks ${missing.join(", ")}; set EMBEDDING_MODEL_DIR to a directory with the model files or run bun scripts/build_embedding_model.ts`);
  }
}
