/**
 * `EMBEDDING_BASE_URL`: the service embeds through a real loopback server
 * speaking OpenAI's `/v1/embeddings` (a toy bag-of-words model, 32 numbers),
 * instead of in-process transformers.js: indexing stores its vectors under
 * `EMBEDDING_MODEL`, `get_context` uses them, `/api/v0/status` says so; a
 * model change re-embeds; a server that fails at query time or is down at
 * start leaves retrieval lexical, and once it answers again the versions
 * indexed meanwhile get vectors.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { resetEmbedder } from "../../src/retrieval/embedding/embedder.ts";
import { resumeIndexing, waitForIndexing } from "../../src/retrieval/index/indexer.ts";
import { waitForRuns } from "../../src/runs/worker.ts";
import { connectClient, serveOnLoopback, type Served } from "../helpers/mcp.ts";
import { API, groupApiKey, publish, startWorld, type World } from "../packages/helpers.ts";
import { ecommerceFiles } from "../retrieval/fixtures.ts";

const DIMENSION = 32;
let mode: "ok" | "error" = "ok";
const received: { authorization: string | null; model?: string; input?: string[] }[] = [];
let embeddings: ReturnType<typeof Bun.serve>;
let w: World;
let served: Served;
let client: Client;
const saved: Record<string, string | undefined> = {};
const ENV = ["EMBEDDING_BASE_URL", "EMBEDDING_MODEL", "EMBEDDING_API_KEY", "EMBEDDING_RETRY_MS"] as const;

/** The toy model: each word adds 1 at a position hashed from it. */
function toyVector(text: string): number[] {
  const v = new Array<number>(DIMENSION).fill(0);
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean)) {
    let h = 2166136261;
    for (const c of word) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
    v[h % DIMENSION]! += 1;
  }
  return v;
}

function setEnv(values: Partial<Record<(typeof ENV)[number], string>>): void {
  for (const [k, v] of Object.entries(values)) process.env[k] = v;
  resetEmbedder();
}

const text = (result: object) => (result as { content: { text: string }[] }).content[0]!.text;
async function ask(c: Client, question: string) {
  const result = await c.callTool({ name: "get_context", arguments: { natural_language_query: question, environment_name: "prod" } });
  expect(result.isError).toBeFalsy();
  const body = JSON.parse(text(result)) as { sources: { phrases: { entities: { name: string; match_reason: string }[] }[] }[] };
  return body.sources.flatMap((s) => s.phrases.flatMap((p) => p.entities));
}

async function stored(world: World): Promise<{ model: string | null; dims: number | null; rows: number }[]> {
  return await world.s.service.db.sql`SELECT model, vector_dims(embedding) AS dims, count(*)::int AS rows FROM entity_embeddings GROUP BY 1, 2 ORDER BY 1`;
}

beforeAll(async () => {
  for (const k of ENV) saved[k] = process.env[k];
  embeddings = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const body = await request.json() as { model?: string; input?: string[] };
      received.push({ authorization: request.headers.get("authorization"), model: body.model, input: body.input });
      if (mode === "error") return new Response("model is loading", { status: 503 });
      return Response.json({ object: "list", data: (body.input ?? []).map((t, index) => ({ object: "embedding", index, embedding: toyVector(t) })) });
    },
  });
  setEnv({ EMBEDDING_BASE_URL: `http://127.0.0.1:${embeddings.port}/v1`, EMBEDDING_MODEL: "toy-embed", EMBEDDING_API_KEY: "sk-toy", EMBEDDING_RETRY_MS: "200" });
  w = await startWorld();
  expect((await publish(w, "shop", "1.0.0", { token: w.admin, files: ecommerceFiles() })).status).toBe(201);
  await waitForRuns(w.s.service.ctx);
  const key = await groupApiKey(w, "agents", { viewerOf: "/organizations/acme/environments/prod/packages/shop" });
  served = serveOnLoopback(w.s.service.handle);
  client = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${key}`);
}, 180_000);

afterAll(async () => {
  await client?.close();
  served?.stop();
  await w?.s.close();
  embeddings?.stop(true);
  for (const k of ENV) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  resetEmbedder();
}, 120_000);

describe("EMBEDDING_BASE_URL", () => {
  test("indexing stores the server's vectors under EMBEDDING_MODEL; requests carry the model, input arrays and the key", async () => {
    expect(await stored(w)).toEqual([{ model: "toy-embed", dims: DIMENSION, rows: expect.any(Number) }]);
    expect(received.length).toBeGreaterThan(1);
    for (const r of received) {
      expect(r.authorization).toBe("Bearer sk-toy");
      expect(r.model).toBe("toy-embed");
      expect(Array.isArray(r.input)).toBe(true);
      expect(r.input!.length).toBeGreaterThan(0);
      expect(r.input!.length).toBeLessThanOrEqual(32);
    }
  });

  test("get_context answers with them and /status says remote, ready, semantic", async () => {
    const entities = await ask(client, "average delivery delay");
    expect(entities[0]!.name).toBe("avg_delivery_delay");
    const status = await w.s.call("GET", `${API}/status`, { token: w.admin });
    expect(status.body.embeddings).toEqual({ model: "toy-embed", dimension: DIMENSION, state: "ready", provider: "remote", retrieval: "semantic+lexical" });
  });

  test("a server failing at query time: get_context still answers, lexically", async () => {
    mode = "error";
    try {
      // words no search embedded before, so the question needs the server
      const entities = await ask(client, "xylophone quokka shipping cost");
      expect(entities.map((e) => e.name)).toContain("shipping_cost");
      expect(entities.some((e) => e.match_reason.includes("semantic"))).toBe(false);
      // the documentation search too answers by words
      const docs = await w.s.call("GET", `${API}/coding/docs/search?q=${encodeURIComponent("join another source with join_one")}`, { token: w.admin });
      expect(docs.status).toBe(200);
      expect(String(docs.body)).toContain("join_one");
    } finally {
      mode = "ok";
    }
  });

  test("changing EMBEDDING_MODEL re-embeds on start, as any model change", async () => {
    setEnv({ EMBEDDING_MODEL: "toy-embed-2" });
    try {
      expect(await resumeIndexing(w.s.service.ctx)).toBe(1);
      await waitForIndexing(w.s.service.ctx);
      expect(await stored(w)).toEqual([{ model: "toy-embed-2", dims: DIMENSION, rows: expect.any(Number) }]);
      expect(received.at(-1)!.model).toBe("toy-embed-2");
    } finally {
      setEnv({ EMBEDDING_MODEL: "toy-embed" });
    }
  });

  test("EMBEDDING_BASE_URL without EMBEDDING_MODEL: lexical, and /status says what to set", async () => {
    delete process.env.EMBEDDING_MODEL;
    resetEmbedder();
    try {
      const status = await w.s.call("GET", `${API}/status`, { token: w.admin });
      expect(status.body.embeddings).toMatchObject({ state: "unavailable", provider: "remote", retrieval: "lexical" });
      expect(status.body.embeddings.reason).toContain("EMBEDDING_MODEL");
    } finally {
      setEnv({ EMBEDDING_MODEL: "toy-embed" });
    }
  });

  test("a server down at start: the service starts, indexes and answers lexically, /status says so; once it answers, versions get vectors", async () => {
    mode = "error";
    resetEmbedder();
    const down = await startWorld();
    try {
      const status = await down.s.call("GET", `${API}/status`, { token: down.admin });
      expect(status.body.embeddings).toMatchObject({ state: "unavailable", provider: "remote", retrieval: "lexical" });
      expect(status.body.embeddings.reason).toContain("HTTP 503");
      expect((await publish(down, "shop", "1.0.0", { token: down.admin, files: ecommerceFiles() })).status).toBe(201);
      await waitForRuns(down.s.service.ctx);
      const [version] = await down.s.service.db.sql`SELECT index_status FROM package_versions`;
      expect(version!.index_status).toBe("indexed");
      expect(await stored(down)).toEqual([{ model: null, dims: null, rows: expect.any(Number) }]);
      const key = await groupApiKey(down, "agents", { viewerOf: "/organizations/acme/environments/prod/packages/shop" });
      const downServed = serveOnLoopback(down.s.service.handle);
      const downClient = await connectClient(`${downServed.url}/mcp/acme`, `ApiKey ${key}`);
      try {
        expect((await ask(downClient, "average delivery delay"))[0]!.name).toBe("avg_delivery_delay");
        // the server answers again; after EMBEDDING_RETRY_MS the next search reconnects and the version is re-embedded
        mode = "ok";
        await Bun.sleep(300);
        expect((await ask(downClient, "average delivery delay"))[0]!.name).toBe("avg_delivery_delay");
        // the re-index is queued in the background once the server answered
        for (let i = 0; i < 100 && (await stored(down))[0]!.model === null; i++) {
          await waitForIndexing(down.s.service.ctx);
          await Bun.sleep(100);
        }
        expect(await stored(down)).toEqual([{ model: "toy-embed", dims: DIMENSION, rows: expect.any(Number) }]);
        const after = await down.s.call("GET", `${API}/status`, { token: down.admin });
        expect(after.body.embeddings).toMatchObject({ state: "ready", provider: "remote", retrieval: "semantic+lexical" });
      } finally {
        await downClient.close();
        downServed.stop();
      }
    } finally {
      mode = "ok";
      await waitForIndexing(w.s.service.ctx);
      await down.s.close();
    }
  }, 120_000);
});
