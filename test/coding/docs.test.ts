import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { splitMarkdown } from "../../src/coding/docs_index.ts";

setDefaultTimeout(60_000);

const API = "/api/v0";
let plain: TestService;
let withLlm: TestService;
let token: string;
let llmToken: string;
let apiKey: string;
let stub: ReturnType<typeof Bun.serve>;
let stubMode: "ok" | "error" | "slow" = "ok";
const stubRequests: { auth: string | null; body: { model?: string; messages: { role: string; content: string }[] } }[] = [];

beforeAll(async () => {
  stub = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      if (url.pathname !== "/v1/chat/completions") return new Response("no", { status: 404 });
      stubRequests.push({ auth: request.headers.get("authorization"), body: await request.json() });
      if (stubMode === "error") return new Response("overloaded", { status: 503 });
      if (stubMode === "slow") await Bun.sleep(1500);
      return Response.json({ choices: [{ message: { role: "assistant", content: "Add a measure inside extend, e.g. `measure: order_count is count()` [1]." } }] });
    },
  });
  plain = await startTestService();
  token = await plain.adminToken();
  await plain.call("POST", `${API}/organizations`, { token, body: { name: "acme" } });
  await plain.call("POST", `${API}/organizations/acme/groups`, { token, body: { name: "bots" } });
  apiKey = (await plain.call("POST", `${API}/organizations/acme/groups/bots/tokens?name=k`, { token })).body.secret;
  withLlm = await startTestService({ LLM_BASE_URL: `http://127.0.0.1:${stub.port}/v1`, LLM_MODEL: "stub-model", LLM_API_KEY: "sk-stub", LLM_TIMEOUT_MS: "500" });
  llmToken = await withLlm.adminToken();
}, 120_000);
afterAll(async () => {
  await plain.close();
  await withLlm.close();
  stub.stop(true);
}, 120_000);

describe("splitting markdown", () => {
  test("splits at headings, keeps code fences whole, titles carry the document title", () => {
    const passages = splitMarkdown("# Guide\nintro\n## Joins\n```malloy\n## not a heading\n```\ntext\n## Empty\n", "docs/g.md");
    expect(passages.map((p) => p.title)).toEqual(["Guide", "Guide > Joins"]);
    expect(passages[1]!.text).toContain("## not a heading");
  });
});

describe("GET /coding/docs/search", () => {
  test("answers plain text with the best passages and their headings", async () => {
    const r = await plain.call("GET", `${API}/coding/docs/search?q=${encodeURIComponent("how do I join another source with join_one")}`, { token });
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toStartWith("text/plain");
    expect(typeof r.body).toBe("string");
    const first = (r.body as string).split("\n")[0];
    expect(first).toStartWith("## ");
    expect(first).toContain("Joins");
    expect(r.body).toContain("join_one:");
  });
  test("an API key may search; anonymous is 401; blank q is 400", async () => {
    const r = await plain.call("GET", `${API}/coding/docs/search?q=measure`, { apiKey });
    expect(r.status).toBe(200);
    expect(r.body).toContain("measure");
    expect((await plain.call("GET", `${API}/coding/docs/search?q=measure`)).status).toBe(401);
    expect((await plain.call("GET", `${API}/coding/docs/search?q=%20`, { token })).status).toBe(400);
    expect((await plain.call("GET", `${API}/coding/docs/search`, { token })).status).toBe(400);
  });
  test("a question with nothing in common says so", async () => {
    const r = await plain.call("GET", `${API}/coding/docs/search?q=zzqxv`, { token });
    expect(r.status).toBe(200);
    expect(r.body).toContain("No documentation matched");
  });
});

describe("POST /coding/docs/answer", () => {
  test("without a language model: extractive answer, passages and malloy snippets", async () => {
    const r = await plain.call("POST", `${API}/coding/docs/answer`, { token, body: { question: "How do I define a measure that sums a column?", limit: 3 } });
    expect(r.status).toBe(200);
    expect(r.body.answerSource).toBe("extractive");
    expect(r.body.passages.length).toBeGreaterThan(0);
    expect(r.body.passages.length).toBeLessThanOrEqual(3);
    expect(r.body.passages[0]).toMatchObject({ title: expect.stringContaining("Measures"), source: expect.stringMatching(/^docs\/.+\.md$/) });
    expect(r.body.passages[0].score).toBeGreaterThan(0);
    expect(r.body.answer).toContain("Measures");
    expect(r.body.codeSnippets.length).toBeGreaterThan(0);
    expect(r.body.codeSnippets[0]).toMatchObject({ language: "malloy", code: expect.stringContaining(".sum()") });
  });
  test("publishing questions find the publishing guide", async () => {
    const r = await plain.call("POST", `${API}/coding/docs/answer`, { apiKey, body: { question: "what goes in publisher.json" } });
    expect(r.status).toBe(200);
    expect(r.body.passages[0].source).toBe("docs/publishing_packages.md");
  });
  test("blank or missing question is 400; anonymous is 401", async () => {
    expect((await plain.call("POST", `${API}/coding/docs/answer`, { token, body: { question: "  " } })).status).toBe(400);
    expect((await plain.call("POST", `${API}/coding/docs/answer`, { token, body: {} })).status).toBe(400);
    expect((await plain.call("POST", `${API}/coding/docs/answer`, { body: { question: "measures" } })).status).toBe(401);
  });
  test("with LLM_BASE_URL the model writes the answer from the passages", async () => {
    stubMode = "ok";
    const r = await withLlm.call("POST", `${API}/coding/docs/answer`, { token: llmToken, body: { question: "How do I add a measure?" } });
    expect(r.status).toBe(200);
    expect(r.body.answerSource).toBe("llm");
    expect(r.body.answer).toContain("measure: order_count is count()");
    expect(r.body.passages.length).toBeGreaterThan(0);
    const sent = stubRequests.at(-1)!;
    expect(sent.auth).toBe("Bearer sk-stub");
    expect(sent.body.model).toBe("stub-model");
    const user = sent.body.messages.find((m) => m.role === "user")!.content;
    expect(user).toContain("Question: How do I add a measure?");
    expect(user).toContain(`[1] ${r.body.passages[0].title}`);
  });
  test("a failing or slow language model falls back to the extractive answer", async () => {
    stubMode = "error";
    const failed = await withLlm.call("POST", `${API}/coding/docs/answer`, { token: llmToken, body: { question: "How do I add a measure?" } });
    expect(failed.status).toBe(200);
    expect(failed.body.answerSource).toBe("extractive");
    expect(failed.body.fallbackReason).toContain("HTTP 503");
    expect(failed.body.answer).toContain("Measures");
    stubMode = "slow";
    const slow = await withLlm.call("POST", `${API}/coding/docs/answer`, { token: llmToken, body: { question: "How do I add a measure?" } });
    expect(slow.body.answerSource).toBe("extractive");
    expect(slow.body.fallbackReason).toContain("within 500 ms");
    stubMode = "ok";
  });
});
