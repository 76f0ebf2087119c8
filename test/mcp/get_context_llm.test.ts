/**
 * `get_context` with a language model (`LLM_BASE_URL`): a real loopback
 * server speaking the OpenAI chat-completions API splits the question into
 * phrases; every failure (HTTP 500, garbage, a wrong shape, a timeout, nothing
 * listening) falls back to the local path, and the answer's `retrieval` says
 * which path answered. Through a real MCP client.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { waitForRuns } from "../../src/runs/worker.ts";
import { connectClient, serveOnLoopback, type Served } from "../helpers/mcp.ts";
import { groupApiKey, publish, startWorld, type World } from "../packages/helpers.ts";
import { ecommerceFiles } from "../retrieval/fixtures.ts";

interface Received {
  path: string;
  authorization: string | null;
  body: { model?: string; messages?: { role: string; content: string }[] };
}

let reply: () => Response | Promise<Response>;
/** Answers the candidate pick (LLM_PICK): the request's candidate lines in, a response out. */
let pickReply: (candidates: string[]) => Response | Promise<Response> = () => completion('{"picks":[]}');
const received: Received[] = [];
let llm: ReturnType<typeof Bun.serve>;
let w: World;
let served: Served;
let client: Client;

const completion = (content: string) => Response.json({ id: "c1", object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] });
const QUESTION = "average delivery delay by carrier";
const PHRASES = {
  phrases: [
    { phrase: "average delivery delay", description: "measure: mean delay of deliveries" },
    { phrase: "carrier", description: "dimension to group by" },
  ],
};

interface Answer {
  retrieval: string;
  sources: { source_name: string; phrases: { phrase: string; phrase_description: string; entities: { name: string }[] }[] }[];
  next_steps: string[];
}

async function ask(question = QUESTION): Promise<Answer> {
  const result = await client.callTool({ name: "get_context", arguments: { natural_language_query: question, environment_name: "prod" } });
  expect(result.isError).toBeFalsy();
  const text = (result as { content: { text: string }[] }).content[0]!.text;
  expect(result.structuredContent).toEqual(JSON.parse(text));
  return JSON.parse(text) as Answer;
}

const entityNames = (answer: Answer) => answer.sources.flatMap((s) => s.phrases.flatMap((p) => p.entities.map((e) => e.name)));

beforeAll(async () => {
  llm = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const body = await request.json().catch(() => ({}));
      received.push({ path: url.pathname, authorization: request.headers.get("authorization"), body });
      const messages = (body as Received["body"]).messages ?? [];
      if (messages[0]?.content.includes("choose which fields")) {
        return await pickReply(messages[1]!.content.split("\n").filter((l) => /^\d+\. /.test(l)));
      }
      return await reply();
    },
  });
  w = await startWorld({
    LLM_BASE_URL: `http://127.0.0.1:${llm.port}/v1`,
    LLM_MODEL: "phrase-model",
    LLM_API_KEY: "sk-loopback",
    LLM_TIMEOUT_MS: "400",
    LLM_PICK: "true",
  });
  expect((await publish(w, "shop", "1.0.0", { token: w.admin, files: ecommerceFiles() })).status).toBe(201);
  await waitForRuns(w.s.service.ctx);
  const key = await groupApiKey(w, "agents", { viewerOf: "/organizations/acme/environments/prod/packages/shop" });
  served = serveOnLoopback(w.s.service.handle);
  client = await connectClient(`${served.url}/mcp/acme`, `ApiKey ${key}`);
}, 120_000);

afterAll(async () => {
  await client?.close();
  served?.stop();
  llm?.stop(true);
  await w?.s.close();
}, 120_000);

describe("get_context with LLM_BASE_URL", () => {
  test("the model's phrases are ranked each, the whole question last; retrieval says llm; the request is an OpenAI chat completion", async () => {
    received.length = 0;
    reply = () => completion(JSON.stringify(PHRASES));
    const answer = await ask();
    expect(answer.retrieval).toBe("llm");
    const phrases = answer.sources.flatMap((s) => s.phrases.map((p) => [p.phrase, p.phrase_description]));
    expect(phrases).toContainEqual(["average delivery delay", "measure: mean delay of deliveries"]);
    expect(phrases).toContainEqual(["carrier", "dimension to group by"]);
    expect(entityNames(answer)).toEqual(expect.arrayContaining(["avg_delivery_delay", "carrier"]));
    const shipments = answer.sources.find((s) => s.source_name === "shipments")!;
    expect(shipments.phrases.find((p) => p.phrase === "average delivery delay")!.entities[0]!.name).toBe("avg_delivery_delay");
    // the split, then the pick among the question's candidates (answered: none)
    expect(received).toHaveLength(2);
    const request = received[0]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.authorization).toBe("Bearer sk-loopback");
    expect(request.body.model).toBe("phrase-model");
    expect(request.body.messages?.map((m) => m.role)).toEqual(["system", "user"]);
    expect(request.body.messages?.[1]?.content).toBe(QUESTION);
  });

  test("LLM_PICK: the model's pick moves a candidate to the top of the question's ranking; it cannot add one", async () => {
    reply = () => completion(JSON.stringify(PHRASES));
    const questionPhrase = (answer: Answer) =>
      answer.sources.flatMap((s) => s.phrases.filter((p) => p.phrase === QUESTION).map((p) => ({ source: s.source_name, entities: p.entities as unknown as { name: string; score: number; match_reason: string }[] })));
    let sent: string[] = [];
    pickReply = (candidates) => {
      sent = candidates;
      const n = candidates.findIndex((l) => l.includes("shipments.shipping_cost ("));
      return completion(JSON.stringify({ picks: [999, "x", 0, n + 1] }));
    };
    try {
      const answer = await ask();
      expect(answer.retrieval).toBe("llm");
      // the candidates are the question's ranked fields, numbered, with kind and type
      expect(sent.length).toBeGreaterThan(1);
      expect(sent.some((l) => l.includes("shipments.shipping_cost (measure, number)"))).toBe(true);
      const shipments = questionPhrase(answer).find((p) => p.source === "shipments")!;
      expect(shipments.entities[0]!.name).toBe("shipping_cost");
      expect(shipments.entities[0]!.match_reason).toStartWith("picked by the language model (#1); ");
      const scores = shipments.entities.map((e) => e.score);
      expect(scores).toEqual([...scores].sort((a, b) => b - a));
      // numbers outside the list add nothing: every entity of the answer was a candidate or ranked before
      const names = answer.sources.flatMap((s) => s.phrases.flatMap((p) => p.entities.map((e) => e.name)));
      expect(names.filter((n) => n === "shipping_cost")).toHaveLength(1);
      // a failing pick leaves the ranking as it was
      pickReply = () => new Response("boom", { status: 500 });
      const unpicked = await ask();
      expect(unpicked.retrieval).toBe("llm");
      const first = questionPhrase(unpicked).flatMap((p) => p.entities)[0];
      expect(first?.match_reason ?? "").not.toContain("picked by the language model");
    } finally {
      pickReply = () => completion('{"picks":[]}');
    }
  });

  test("a phrase longer than the question is left out, a long description is cut", async () => {
    reply = () => completion(JSON.stringify({
      phrases: [
        { phrase: `delay ${"very ".repeat(100)}long`, description: "not a part of the question" },
        { phrase: "carrier", description: "x".repeat(1000) },
      ],
    }));
    const answer = await ask();
    expect(answer.retrieval).toBe("llm");
    const phrases = answer.sources.flatMap((s) => s.phrases);
    expect(phrases.some((p) => p.phrase.includes("very very"))).toBe(false);
    const carrier = phrases.find((p) => p.phrase === "carrier")!;
    expect(carrier.phrase_description.length).toBe(200);
  });

  test("a failing model falls back to the local path: HTTP 500, garbage, a wrong shape, no phrases; retrieval says local", async () => {
    reply = () => new Response("unused", { status: 200 });
    const failures: Array<[string, () => Response]> = [
      ["HTTP 500", () => new Response("upstream exploded", { status: 500 })],
      ["a body that is not JSON", () => new Response("<html>bad gateway</html>", { headers: { "content-type": "text/html" } })],
      ["content that is not JSON", () => completion("Sure! delay and carrier.")],
      ["no choices", () => Response.json({ choices: [] })],
      ["JSON without phrases", () => completion('{"answer":"delay"}')],
      ["empty phrases", () => completion('{"phrases":[{"phrase":"  "}]}')],
    ];
    for (const [, make] of failures) {
      received.length = 0;
      reply = make;
      const answer = await ask();
      expect(answer.retrieval).toBe("local");
      expect(received).toHaveLength(1);
      // the local path's answer: one phrase, the question
      expect(new Set(answer.sources.flatMap((s) => s.phrases.map((p) => p.phrase)))).toEqual(new Set([QUESTION]));
      expect(entityNames(answer)).toEqual(expect.arrayContaining(["avg_delivery_delay", "carrier"]));
    }
  });

  test("a model slower than LLM_TIMEOUT_MS falls back to the local path", async () => {
    received.length = 0;
    reply = async () => {
      await Bun.sleep(1500);
      return completion(JSON.stringify(PHRASES));
    };
    const answer = await ask();
    expect(answer.retrieval).toBe("local");
    expect(received).toHaveLength(1);
    expect(entityNames(answer)).toContain("avg_delivery_delay");
  });

  test("nothing listening at LLM_BASE_URL: the local path answers", async () => {
    llm.stop(true);
    const answer = await ask();
    expect(answer.retrieval).toBe("local");
    expect(entityNames(answer)).toEqual(expect.arrayContaining(["avg_delivery_delay", "carrier"]));
  });
});
