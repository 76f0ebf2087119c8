import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { splitPhrases, splitPhrasesLocally } from "../../src/retrieval/text/phrases.ts";

const phraseTexts = (question: string) => splitPhrasesLocally(question).map((p) => p.phrase);

describe("local splitter", () => {
  test("splits at prepositions, drops stop words, keeps noun phrases and the whole question", () => {
    expect(splitPhrasesLocally("What is the average delivery delay for late orders by carrier?")).toEqual([
      { phrase: "average delivery delay", description: "main subject of the question: average delivery delay" },
      { phrase: "late orders", description: "filter: late orders" },
      { phrase: "carrier", description: "group results by carrier" },
      { phrase: "What is the average delivery delay for late orders by carrier", description: "the whole question" },
    ]);
  });

  test("per / in / and", () => {
    expect(phraseTexts("total revenue per month in 2023")).toEqual(
      ["total revenue", "month", "2023", "total revenue per month in 2023"],
    );
    const split = splitPhrasesLocally("Show me the top 10 customers by lifetime value and region");
    expect(split.map((p) => p.phrase)).toEqual(
      ["top 10 customers", "lifetime value", "region", "Show me the top 10 customers by lifetime value and region"],
    );
    // "and" keeps the grouping role of "by".
    expect(split[2]!.description).toBe("group results by region");
  });

  test("field names and values stay whole", () => {
    expect(phraseTexts("orders with delivery_delay_days over 5")).toEqual(
      ["orders", "delivery_delay_days", "5", "orders with delivery_delay_days over 5"],
    );
    expect(phraseTexts("How many flights from SFO to JFK in the last 30 days?")).toEqual(
      ["flights", "SFO", "JFK", "last 30 days", "How many flights from SFO to JFK in the last 30 days"],
    );
    expect(phraseTexts("customer's orderDate, shipDate")).toEqual(
      ["customer orderDate", "shipDate", "customer's orderDate, shipDate"],
    );
  });

  test("single word, only stop words, empty", () => {
    expect(phraseTexts("revenue")).toEqual(["revenue"]);
    expect(phraseTexts("what is it?")).toEqual(["what is it"]);
    expect(phraseTexts("   ")).toEqual([]);
  });

  test("is deterministic", () => {
    const q = "number of passengers of each airline over time, split by origin and destination";
    expect(splitPhrasesLocally(q)).toEqual(splitPhrasesLocally(q));
    expect(phraseTexts(q)).toEqual(
      ["number", "passengers", "airline", "time", "split", "origin", "destination", q],
    );
  });
});

interface Received {
  method: string;
  path: string;
  authorization: string | null;
  contentType: string | null;
  body: any;
}

/** A real HTTP stub of an OpenAI-compatible server; `reply` decides each answer. */
let reply: (req: Request) => Response | Promise<Response> = () => new Response("unset", { status: 500 });
const received: Received[] = [];
let server: ReturnType<typeof Bun.serve>;
let baseUrl: string;

function completion(content: string): Response {
  return Response.json({
    id: "chatcmpl-1",
    object: "chat.completion",
    model: "stub-model",
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  });
}

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const text = await req.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch { /* keep raw text */ }
      received.push({
        method: req.method,
        path: new URL(req.url).pathname,
        authorization: req.headers.get("authorization"),
        contentType: req.headers.get("content-type"),
        body,
      });
      return reply(req);
    },
  });
  baseUrl = `http://127.0.0.1:${server.port}/v1`;
});
afterAll(() => server.stop(true));
afterEach(() => {
  received.length = 0;
  delete process.env.LLM_BASE_URL;
  delete process.env.LLM_MODEL;
  delete process.env.LLM_API_KEY;
});

const question = "average delivery delay by carrier in 2023";
const localPhrases = ["average delivery delay", "carrier", "2023", question];

describe("splitPhrases with a language model", () => {
  test("uses the model's phrases and sends an OpenAI chat-completion request", async () => {
    reply = () => completion(JSON.stringify({
      phrases: [
        { phrase: "average delivery delay", description: "measure: mean delay of deliveries" },
        { phrase: "carrier", description: "dimension to group by" },
        { phrase: "2023", description: "time filter on the year" },
        { phrase: "  carrier ", description: "duplicate, dropped" },
        { phrase: "", description: "empty, dropped" },
      ],
    }));
    const result = await splitPhrases(question, { baseUrl: baseUrl + "/", model: "stub-model", apiKey: "sk-test" });
    expect(result).toEqual({
      source: "llm",
      phrases: [
        { phrase: "average delivery delay", description: "measure: mean delay of deliveries" },
        { phrase: "carrier", description: "dimension to group by" },
        { phrase: "2023", description: "time filter on the year" },
      ],
    });
    expect(received).toHaveLength(1);
    const request = received[0]!;
    expect(request.method).toBe("POST");
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.authorization).toBe("Bearer sk-test");
    expect(request.contentType).toContain("application/json");
    expect(request.body.model).toBe("stub-model");
    expect(request.body.messages).toHaveLength(2);
    expect(request.body.messages[0].role).toBe("system");
    expect(request.body.messages[0].content).toContain('{"phrases":[{"phrase":"...","description":"..."}]}');
    expect(request.body.messages[1]).toEqual({ role: "user", content: question });
  });

  test("reads LLM_BASE_URL, LLM_MODEL and LLM_API_KEY; accepts fenced JSON", async () => {
    process.env.LLM_BASE_URL = baseUrl;
    process.env.LLM_MODEL = "env-model";
    reply = () => completion('```json\n{"phrases":[{"phrase":"delivery delay","description":"measure"}]}\n```');
    const result = await splitPhrases(question);
    expect(result).toEqual({ source: "llm", phrases: [{ phrase: "delivery delay", description: "measure" }] });
    expect(received[0]!.body.model).toBe("env-model");
    expect(received[0]!.authorization).toBeNull();
  });

  test("falls back to the local splitter on HTTP 500", async () => {
    reply = () => new Response("upstream exploded", { status: 500 });
    const result = await splitPhrases(question, { baseUrl });
    expect(result.source).toBe("local");
    expect(result.phrases.map((p) => p.phrase)).toEqual(localPhrases);
    expect(result.fallbackReason).toContain("HTTP 500");
    expect(received).toHaveLength(1);
  });

  test("falls back on timeout, within about the timeout", async () => {
    reply = async () => {
      await Bun.sleep(2000);
      return completion('{"phrases":[{"phrase":"too late","description":""}]}');
    };
    const started = performance.now();
    const result = await splitPhrases(question, { baseUrl, timeoutMs: 150 });
    const elapsed = performance.now() - started;
    expect(result.source).toBe("local");
    expect(result.phrases.map((p) => p.phrase)).toEqual(localPhrases);
    expect(result.fallbackReason).toContain("did not answer within 150 ms");
    expect(elapsed).toBeLessThan(1500);
  });

  test("falls back on garbage: non-JSON body, non-JSON content, no phrases, empty phrases", async () => {
    const garbage: (() => Response)[] = [
      () => new Response("<html>gateway</html>", { status: 200, headers: { "content-type": "text/html" } }),
      () => completion("Sure! The phrases are: delay, carrier."),
      () => completion('{"answer":"delay"}'),
      () => completion('{"phrases":[]}'),
      () => completion('{"phrases":[{"phrase":"   "},{"description":"no phrase"}]}'),
      () => Response.json({ choices: [] }),
    ];
    for (const make of garbage) {
      reply = make;
      const result = await splitPhrases(question, { baseUrl });
      expect(result.source).toBe("local");
      expect(result.phrases.map((p) => p.phrase)).toEqual(localPhrases);
      expect(result.fallbackReason).toBeString();
    }
    expect(received).toHaveLength(garbage.length);
  });

  test("falls back when nothing listens at LLM_BASE_URL", async () => {
    const result = await splitPhrases(question, { baseUrl: "http://127.0.0.1:9/v1", timeoutMs: 1000 });
    expect(result.source).toBe("local");
    expect(result.phrases.map((p) => p.phrase)).toEqual(localPhrases);
  });

  test("without LLM_BASE_URL the local splitter is used and nothing is sent", async () => {
    const result = await splitPhrases(question);
    expect(result).toEqual({ source: "local", phrases: splitPhrasesLocally(question) });
    expect(received).toHaveLength(0);
  });
});
