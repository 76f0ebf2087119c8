/**
 * Answers a question about Malloy and the platform from the documentation
 * passages: synthesized by an OpenAI-compatible chat endpoint when one is
 * configured (grounded in the passages, short timeout), otherwise, and on any
 * failure of the language model, an extractive answer made of the passages'
 * most relevant lines.
 * @module
 */
import { docTerms, malloyBlocks, searchDocs, type ScoredPassage } from "./docs_index.ts";

/** A Malloy code example taken from a passage. */
interface CodeSnippet {
  language: "malloy";
  code: string;
  /** Passage it comes from: `docs/file.md#Title`. */
  source: string;
}

/** The answer of `POST /coding/docs/answer`. */
export interface DocsAnswer {
  answer: string;
  passages: ScoredPassage[];
  codeSnippets: CodeSnippet[];
  /** `llm` when the language model wrote the answer, else `extractive`. */
  answerSource: "llm" | "extractive";
  /** Why the language model was not used, when one is configured and failed. */
  fallbackReason?: string;
}

/** Language model settings (an OpenAI-compatible `/chat/completions` endpoint). */
interface LlmSettings {
  /** Base URL, e.g. `http://localhost:11434/v1`; no answer synthesis when unset. */
  baseUrl?: string;
  model?: string;
  apiKey?: string;
  /** Request timeout, ms. */
  timeoutMs: number;
}

/** Options of {@link answerQuestion}. */
export interface AnswerOptions {
  /** Most passages used and returned; default 4. */
  limit?: number;
  llm: LlmSettings;
}

const SYSTEM_PROMPT = [
  "You answer questions about the Malloy modeling language and a Malloy data-modeling platform.",
  "Use only the numbered documentation passages given by the user; cite them as [1], [2].",
  "If the passages do not answer the question, say so. Keep the answer under 200 words.",
  "Write Malloy code in ```malloy fences, using only syntax shown in the passages.",
].join(" ");

/**
 * Answers a question from the documentation.
 *
 * @example
 * const { answer, codeSnippets } = await answerQuestion("How do I join two sources?", { llm: { timeoutMs: 5000 } });
 */
export async function answerQuestion(question: string, options: AnswerOptions): Promise<DocsAnswer> {
  const passages = await searchDocs(question, { limit: options.limit ?? 4 });
  const codeSnippets = passages.flatMap((p) =>
    malloyBlocks(p.text).map((code): CodeSnippet => ({ language: "malloy", code, source: `${p.source}#${p.title}` }))
  );
  if (passages.length === 0) {
    return {
      answer: `No documentation matched "${question}". Try other words, e.g. the Malloy keyword you need (source, join_one, measure, view, where).`,
      passages,
      codeSnippets,
      answerSource: "extractive",
    };
  }
  const baseUrl = options.llm.baseUrl?.trim();
  if (baseUrl) {
    try {
      const answer = await askLanguageModel(question, passages, { ...options.llm, baseUrl });
      return { answer, passages, codeSnippets, answerSource: "llm" };
    } catch (error) {
      const fallbackReason = error instanceof Error ? error.message : String(error);
      return { answer: extractiveAnswer(question, passages), passages, codeSnippets, answerSource: "extractive", fallbackReason };
    }
  }
  return { answer: extractiveAnswer(question, passages), passages, codeSnippets, answerSource: "extractive" };
}

/**
 * An answer made of the top passages' lines that share most words with the
 * question (code excluded), each with the passage it comes from.
 */
function extractiveAnswer(question: string, passages: ScoredPassage[]): string {
  const asked = new Set(docTerms(question));
  const out: string[] = [];
  for (const p of passages.slice(0, 3)) {
    const lines = p.text.replace(/```[\s\S]*?```/g, "").split("\n")
      .map((l) => l.replace(/^\s*(?:[-*]|\d+\.)\s+/, "").trim())
      .filter((l) => l !== "" && !l.startsWith("|"));
    const ranked = lines.map((line, i) => ({ line, i, hits: docTerms(line).filter((t) => asked.has(t)).length }))
      .sort((a, b) => b.hits - a.hits || a.i - b.i)
      .slice(0, 2)
      .sort((a, b) => a.i - b.i);
    if (ranked.length > 0) out.push(`${p.title}: ${ranked.map((r) => r.line).join(" ")}`);
  }
  return out.join("\n\n");
}

async function askLanguageModel(question: string, passages: ScoredPassage[], llm: LlmSettings & { baseUrl: string }): Promise<string> {
  const url = `${llm.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const headers = new Headers({ "content-type": "application/json", accept: "application/json" });
  if (llm.apiKey) headers.set("authorization", `Bearer ${llm.apiKey}`);
  const context = passages.map((p, i) => `[${i + 1}] ${p.title}\n${p.text}`).join("\n\n");
  const body = {
    ...(llm.model ? { model: llm.model } : {}),
    temperature: 0,
    messages: [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: `Passages:\n\n${context}\n\nQuestion: ${question}` },
    ],
  };
  let response: Response;
  try {
    response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body), signal: AbortSignal.timeout(llm.timeoutMs) });
  } catch (error) {
    if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
      throw new Error(`language model at ${url} did not answer within ${llm.timeoutMs} ms`);
    }
    throw new Error(`language model at ${url} unreachable: ${error instanceof Error ? error.message : error}`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new Error(`language model at ${url} answered HTTP ${response.status}`);
  }
  const completion = await response.json().catch(() => null) as { choices?: { message?: { content?: unknown } }[] } | null;
  const content = completion?.choices?.[0]?.message?.content;
  if (typeof content !== "string" || content.trim() === "") throw new Error("language model answer has no choices[0].message.content");
  return content.trim();
}
