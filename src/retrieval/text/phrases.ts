/**
 * Splits a `get_context` question into semantic phrases, each later embedded
 * and matched against indexed metadata.
 *
 * With `LLM_BASE_URL` set, an OpenAI-compatible chat-completions endpoint is
 * asked for the phrases (short timeout). On any failure, or without an LLM, a
 * deterministic local splitter is used instead.
 *
 * @module
 */
import { askChatJson } from "./chat.ts";

/** One semantic phrase of a question. */
export interface Phrase {
  /** The phrase text, e.g. `average delivery delay`. */
  phrase: string;
  /** What the phrase stands for in the question. */
  description: string;
}

/** Result of {@link splitPhrases}. */
export interface PhraseSplit {
  phrases: Phrase[];
  /** `llm` when the language model answered, `local` for the fallback splitter. */
  source: "llm" | "local";
  /** Why the language model was not used (absent when `source` is `llm`, or no LLM is configured). */
  fallbackReason?: string;
}

/** Options of {@link splitPhrases}; each falls back to its environment variable. */
export interface SplitPhrasesOptions {
  /** OpenAI-compatible base URL, e.g. `http://localhost:11434/v1`; default `LLM_BASE_URL`. Empty string disables the LLM. */
  baseUrl?: string;
  /** Model name sent to the endpoint; default `LLM_MODEL`. */
  model?: string;
  /** Sent as `Authorization: Bearer ...`; default `LLM_API_KEY`. */
  apiKey?: string;
  /** Request timeout in milliseconds; default 5000. */
  timeoutMs?: number;
}

/** Most phrases taken from a language model answer. */
const MAX_PHRASES = 12;

const SYSTEM_PROMPT = [
  "You split a data question into the semantic phrases needed to find matching fields in a data model:",
  "measures (what is counted or aggregated), dimensions to group by, filters (values, time ranges) and entities.",
  "Keep multi-word noun phrases together, drop filler words, keep concrete values (names, years) as phrases.",
  'Answer with JSON only: {"phrases":[{"phrase":"...","description":"..."}]} where description says in a few words what the phrase means in the question.',
].join(" ");

/**
 * Splits a question into semantic phrases, by language model when configured
 * (`LLM_BASE_URL`, `LLM_MODEL`, `LLM_API_KEY`), else locally.
 *
 * @example
 * const { phrases, source } = await splitPhrases("average delivery delay by carrier in 2023");
 * // source 'local': "average delivery delay", "carrier", "2023", and the whole question
 */
export async function splitPhrases(question: string, options: SplitPhrasesOptions = {}): Promise<PhraseSplit> {
  const baseUrl = options.baseUrl ?? process.env.LLM_BASE_URL ?? "";
  if (baseUrl.trim() === "" || question.trim() === "") {
    return { phrases: splitPhrasesLocally(question), source: "local" };
  }
  try {
    const phrases = await askLanguageModel(question, baseUrl.trim(), options);
    return { phrases, source: "llm" };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { phrases: splitPhrasesLocally(question), source: "local", fallbackReason: reason };
  }
}

async function askLanguageModel(question: string, baseUrl: string, options: SplitPhrasesOptions): Promise<Phrase[]> {
  const parsed = await askChatJson(
    { baseUrl, model: options.model ?? process.env.LLM_MODEL, apiKey: options.apiKey ?? process.env.LLM_API_KEY, timeoutMs: options.timeoutMs ?? 5000 },
    { system: SYSTEM_PROMPT, user: question },
  );
  return parsePhrases(parsed);
}

/** Reads the model's JSON answer: a `phrases` array (or the array itself). */
function parsePhrases(parsed: unknown): Phrase[] {
  const list = Array.isArray(parsed) ? parsed : (parsed as { phrases?: unknown })?.phrases;
  if (!Array.isArray(list)) throw new Error('language model JSON has no "phrases" array');
  const phrases: Phrase[] = [];
  const seen = new Set<string>();
  for (const item of list) {
    const phrase = typeof item === "string" ? item : (item as { phrase?: unknown })?.phrase;
    if (typeof phrase !== "string" || phrase.trim() === "") continue;
    const text = phrase.trim().replace(/\s+/g, " ");
    if (seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    const description = (item as { description?: unknown })?.description;
    phrases.push({ phrase: text, description: typeof description === "string" ? description.trim() : "" });
    if (phrases.length === MAX_PHRASES) break;
  }
  if (phrases.length === 0) throw new Error("language model returned no phrases");
  return phrases;
}

/** Words that end a phrase and say what the next phrase means ("" = no particular role). */
const BOUNDARIES: ReadonlyMap<string, string> = new Map([
  ...["by", "per", "each", "every", "across"].map((w) => [w, "grouping"] as const),
  ...["in", "during", "over", "since", "from", "to", "until", "before", "after", "between", "within", "at", "on"]
    .map((w) => [w, "filter or time range"] as const),
  ...["for", "with", "without", "where", "having", "excluding", "including", "than", "vs", "versus", "against", "among"]
    .map((w) => [w, "filter"] as const),
  ...["of", "as", "into", "about"].map((w) => [w, ""] as const),
]);

/** Conjunctions: end a phrase, the next phrase keeps the previous role ("by region and month"). */
const CONJUNCTIONS: ReadonlySet<string> = new Set(["and", "or", "nor", "but", "plus"]);

/** Filler words dropped from phrases; each also ends the current phrase. */
const STOP_WORDS: ReadonlySet<string> = new Set(
  `a an the this that these those what which who whom whose how why when where is are was were be been being
do does did done can could would should will shall may might must have has had i me my we our us you
your it its they them their he she his her there here show shows give tell list find get display return
please want need know see let lets all any some much many more also just only very so then if not no yes`
    .split(/\s+/).filter((w) => w.length > 0),
);

/**
 * Deterministic local splitter: drops stop words, splits at conjunctions,
 * prepositions and punctuation, keeps multi-word noun phrases (words as written),
 * and adds the whole question as the last phrase.
 *
 * @example
 * splitPhrasesLocally("What is the average delivery delay for late orders by carrier?").map((p) => p.phrase)
 * // ["average delivery delay", "late orders", "carrier", "What is the average delivery delay for late orders by carrier"]
 */
export function splitPhrasesLocally(question: string): Phrase[] {
  const phrases: Phrase[] = [];
  const seen = new Set<string>();
  const add = (phrase: string, description: string) => {
    const key = phrase.toLowerCase();
    if (phrase === "" || seen.has(key)) return;
    seen.add(key);
    phrases.push({ phrase, description });
  };

  // A word keeps letters, digits and underscores, joined by inner dots,
  // hyphens or apostrophes (`delivery_delay_days`, `2023-01-01`, `3.5`);
  // any other character ends the current phrase.
  const tokens = question.match(/[\p{L}\p{N}_]+(?:[.'’\-][\p{L}\p{N}_]+)*|[^\s\p{L}\p{N}_]/gu) ?? [];
  let current: string[] = [];
  let role = "";
  let nextRole = "";
  const flush = () => {
    if (current.length > 0) add(current.join(" "), describe(current.join(" "), role, phrases.length === 0));
    current = [];
  };
  for (const token of tokens) {
    const word = token.replace(/['’]s$/i, "");
    const lower = word.toLowerCase();
    const boundary = BOUNDARIES.get(lower);
    if (!/[\p{L}\p{N}]/u.test(token) || boundary !== undefined || CONJUNCTIONS.has(lower) || STOP_WORDS.has(lower)) {
      flush();
      if (boundary !== undefined) nextRole = boundary;
      continue;
    }
    if (current.length === 0) role = nextRole;
    current.push(word);
  }
  flush();

  const whole = question.trim().replace(/\s+/g, " ").replace(/[?.!]+$/, "");
  add(whole, "the whole question");
  return phrases;
}

function describe(phrase: string, role: string, first: boolean): string {
  if (role === "grouping") return `group results by ${phrase}`;
  if (role === "filter or time range") return `filter or time range: ${phrase}`;
  if (role === "filter") return `filter: ${phrase}`;
  return first ? `main subject of the question: ${phrase}` : `part of the question: ${phrase}`;
}
