/**
 * Embeddings from an OpenAI-compatible embeddings server (`EMBEDDING_BASE_URL`:
 * Ollama, Hugging Face TEI, vLLM, OpenAI) instead of the in-process model:
 * `POST {base}/embeddings` with `{ model, input: [texts], encoding_format: "float" }`,
 * `Authorization: Bearer <EMBEDDING_API_KEY>` when a key is set, texts in
 * batches; the answer's `data[].embedding` (ordered by `data[].index`) are
 * made unit length. Every failure is an {@link EmbeddingServiceError} whose
 * message says what went wrong without the server's address or key.
 *
 * @module
 */

/** What {@link loadRemoteEmbedder} returns: an `Embedder` (embedder.ts, which imports this module, so the shape is written here). */
interface RemoteEmbedder {
  model: string;
  dimension: number;
  embed(texts: string[]): Promise<(Float32Array | null)[]>;
}

/** The embedding server failed: unreachable, timed out, an HTTP error, or an answer of the wrong shape. */
export class EmbeddingServiceError extends Error {
  override name = "EmbeddingServiceError";
}

/** Where and how to reach the server. */
export interface RemoteEmbedderOptions {
  /** Base URL up to the API version, e.g. `http://127.0.0.1:11434/v1`; `/embeddings` is appended. */
  baseUrl: string;
  /** Model name sent with every request (and the name stored with the vectors). */
  model: string;
  /** Sent as `Authorization: Bearer ...` when set. */
  apiKey?: string;
  /** Texts per request. */
  batchSize: number;
  /** Longest a request may take, ms. */
  timeoutMs: number;
}

/**
 * Connects to the server: one request embeds a probe text to learn the
 * vector length. Throws {@link EmbeddingServiceError} when that fails.
 *
 * @example
 * const embedder = await loadRemoteEmbedder({ baseUrl: "http://127.0.0.1:11434/v1", model: "nomic-embed-text", batchSize: 32, timeoutMs: 10_000 });
 */
export async function loadRemoteEmbedder(options: RemoteEmbedderOptions): Promise<RemoteEmbedder> {
  const url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`;
  const [probe] = await requestVectors(url, ["data"], options);
  const dimension = probe!.length;
  const embed = async (texts: string[]): Promise<(Float32Array | null)[]> => {
    const result: (Float32Array | null)[] = new Array(texts.length).fill(null);
    // Empty texts get no vector (OpenAI refuses empty input), as texts without a known word in-process.
    const sent = texts.map((t, i) => [t, i] as const).filter(([t]) => typeof t === "string" && t.trim() !== "");
    for (let start = 0; start < sent.length; start += options.batchSize) {
      const batch = sent.slice(start, start + options.batchSize);
      const vectors = await requestVectors(url, batch.map(([t]) => t), options);
      batch.forEach(([, i], j) => {
        const v = vectors[j]!;
        if (v.length !== dimension) {
          throw new EmbeddingServiceError(`the embedding server answered a vector of ${v.length} numbers, not ${dimension} as before: the model behind EMBEDDING_BASE_URL changed; restart the service to re-embed`);
        }
        result[i] = v;
      });
    }
    return result;
  };
  return { model: options.model, dimension, embed };
}

/** One request: a unit-length vector per text, in order. */
async function requestVectors(url: string, input: string[], options: RemoteEmbedderOptions): Promise<Float32Array[]> {
  const headers = new Headers({ "content-type": "application/json", accept: "application/json" });
  if (options.apiKey) headers.set("authorization", `Bearer ${options.apiKey}`);
  let response: Response;
  try {
    response = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify({ model: options.model, input, encoding_format: "float" }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
  } catch (error) {
    if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
      throw new EmbeddingServiceError(`the embedding server (EMBEDDING_BASE_URL) did not answer within ${options.timeoutMs} ms (EMBEDDING_TIMEOUT_MS)`);
    }
    throw new EmbeddingServiceError(`the embedding server (EMBEDDING_BASE_URL) is unreachable: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) {
    const detail = (await response.text().catch(() => "")).replace(/\s+/g, " ").slice(0, 200);
    const hint = response.status === 401 || response.status === 403 ? "; check EMBEDDING_API_KEY" : response.status === 404 ? "; check EMBEDDING_BASE_URL (it ends with the API version, e.g. /v1) and EMBEDDING_MODEL" : "";
    throw new EmbeddingServiceError(`the embedding server answered HTTP ${response.status}${detail ? ` (${detail})` : ""}${hint}`);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new EmbeddingServiceError("the embedding server answered with a body that is not JSON; EMBEDDING_BASE_URL must be an OpenAI-compatible API (e.g. http://127.0.0.1:11434/v1)");
  }
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data) || data.length !== input.length) {
    throw new EmbeddingServiceError(`the embedding server's answer has no data array of ${input.length} embeddings; it must answer like OpenAI's /v1/embeddings`);
  }
  const ordered = data.every((d) => Number.isInteger((d as { index?: unknown })?.index))
    ? [...data].sort((a, b) => (a as { index: number }).index - (b as { index: number }).index)
    : data;
  return ordered.map((d) => {
    const embedding = (d as { embedding?: unknown })?.embedding;
    if (!Array.isArray(embedding) || embedding.length === 0 || !embedding.every((x) => typeof x === "number" && Number.isFinite(x))) {
      throw new EmbeddingServiceError("the embedding server's answer has an embedding that is not a list of numbers");
    }
    return unit(Float32Array.from(embedding as number[]));
  });
}

/** The vector scaled to length 1 (left as it is when all zeros). */
function unit(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}
