/**
 * The embeddings-server client (remote_embedder.ts) against a real loopback
 * server speaking OpenAI's `/v1/embeddings`: request shape (model, input
 * arrays in batches, Bearer key), answer order and unit length, and every
 * failure as a clear EmbeddingServiceError.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { EmbeddingServiceError, loadRemoteEmbedder } from "../../src/retrieval/embedding/remote_embedder.ts";

interface Received {
  path: string;
  authorization: string | null;
  body: { model?: string; input?: string[]; encoding_format?: string };
}

const received: Received[] = [];
let reply: (body: Received["body"]) => Response | Promise<Response>;
let server: ReturnType<typeof Bun.serve>;
let baseUrl: string;

/** A vector of 4 numbers from a text's length, not unit length (the client normalizes). */
const vectorOf = (text: string) => [text.length, 1, 2, 3];
const answer = (input: string[], order = (i: number) => i) =>
  Response.json({ object: "list", model: "m", data: input.map((_, i) => ({ object: "embedding", index: order(i), embedding: vectorOf(input[order(i)]!) })) });

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const body = await request.json().catch(() => ({}));
      received.push({ path: new URL(request.url).pathname, authorization: request.headers.get("authorization"), body });
      return await reply(body);
    },
  });
  baseUrl = `http://127.0.0.1:${server.port}/v1`;
});
afterAll(() => server.stop(true));

const options = (extra: object = {}) => ({ baseUrl, model: "embed-model", apiKey: "sk-embed", batchSize: 2, timeoutMs: 400, ...extra });

describe("remote embedder", () => {
  test("probes the dimension, sends OpenAI embedding requests in batches, keeps input order, answers unit vectors", async () => {
    received.length = 0;
    // the server answers data out of order; index says where each belongs
    reply = (body) => answer(body.input!, (i) => body.input!.length - 1 - i);
    const embedder = await loadRemoteEmbedder(options());
    expect(embedder).toMatchObject({ model: "embed-model", dimension: 4 });
    expect(received).toHaveLength(1);
    expect(received[0]).toEqual({ path: "/v1/embeddings", authorization: "Bearer sk-embed", body: { model: "embed-model", input: ["data"], encoding_format: "float" } });
    received.length = 0;
    const texts = ["a", "", "abc", "abcdefg", "  ", "ab"];
    const vectors = await embedder.embed(texts);
    // empty texts get no vector and are not sent; the rest in batches of 2
    expect(received.map((r) => r.body.input)).toEqual([["a", "abc"], ["abcdefg", "ab"]]);
    expect(vectors[1]).toBeNull();
    expect(vectors[4]).toBeNull();
    for (const i of [0, 2, 3, 5]) {
      const v = vectors[i]!;
      const raw = vectorOf(texts[i]!);
      const norm = Math.hypot(...raw);
      expect([...v].map((x) => Math.round(x * 1e5))).toEqual(raw.map((x) => Math.round((x / norm) * 1e5)));
    }
  });

  test("no key, no Authorization header", async () => {
    received.length = 0;
    reply = (body) => answer(body.input!);
    await loadRemoteEmbedder(options({ apiKey: undefined }));
    expect(received[0]!.authorization).toBeNull();
  });

  test("each failure is an EmbeddingServiceError that says what went wrong, never the key", async () => {
    const failures: Array<[() => Response | Promise<Response>, string]> = [
      [() => new Response("model not found", { status: 404 }), "HTTP 404"],
      [() => new Response("overloaded", { status: 500 }), "HTTP 500"],
      [() => new Response("bad key", { status: 401 }), "EMBEDDING_API_KEY"],
      [() => new Response("<html>proxy</html>", { headers: { "content-type": "text/html" } }), "not JSON"],
      [() => Response.json({ embeddings: [[1, 2]] }), "data array"],
      [() => Response.json({ data: [] }), "data array"],
      [() => Response.json({ data: [{ index: 0, embedding: "AAAA" }] }), "not a list of numbers"],
      [() => Response.json({ data: [{ index: 0, embedding: [1, null] }] }), "not a list of numbers"],
      [async () => {
        await Bun.sleep(1500);
        return answer(["data"]);
      }, "did not answer within 400 ms"],
    ];
    for (const [make, says] of failures) {
      reply = make;
      const error = await loadRemoteEmbedder(options()).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(EmbeddingServiceError);
      expect((error as Error).message).toContain(says);
      expect((error as Error).message).not.toContain("sk-embed");
    }
  });

  test("a vector of another length than the probe's fails clearly (the server's model changed)", async () => {
    reply = (body) => answer(body.input!);
    const embedder = await loadRemoteEmbedder(options());
    reply = (body) => Response.json({ data: body.input!.map((_, index) => ({ index, embedding: [1, 2] })) });
    await expect(embedder.embed(["x"])).rejects.toThrow("not 4 as before");
  });

  test("nothing listening: unreachable", async () => {
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response() });
    const url = `http://127.0.0.1:${closed.port}/v1`;
    closed.stop(true);
    const error = await loadRemoteEmbedder(options({ baseUrl: url })).then(() => null, (e: unknown) => e);
    expect(error).toBeInstanceOf(EmbeddingServiceError);
    expect((error as Error).message).toContain("unreachable");
  });
});
