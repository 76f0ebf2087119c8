/**
 * The language model picks among `get_context`'s top candidates (`LLM_PICK=true`
 * with `LLM_BASE_URL`): it reads the question and the best-ranked fields of
 * the question's ranking (names, kinds, types, docs: only what the caller may
 * see, since the ranking ran on the caller's scope) and names the ones that
 * answer it, best first. Picked fields move to the top of that ranking; the
 * model can only reorder candidates, never add one. Any failure leaves the
 * ranking as it was.
 *
 * @module
 */
import type { ChatOptions } from "../text/chat.ts";
import { askChatJson } from "../text/chat.ts";
import type { EntityMatch, RankedPhrase } from "./types.ts";

/** Candidates shown to the model at most. */
const CANDIDATES = 15;

/** Picks taken at most. */
const MAX_PICKS = 5;

const PICK_PROMPT = [
  "You choose which fields of a data model answer a data question.",
  "You get the question and numbered candidate fields (source.field, kind, type, description).",
  `Answer with JSON only: {"picks":[numbers]}: the candidates needed to answer the question, most important first, at most ${MAX_PICKS}; {"picks":[]} when none fits.`,
].join(" ");

/** The candidates of a ranking: its fields (not sources), best first. */
function candidatesOf(phrase: RankedPhrase): EntityMatch[] {
  return phrase.matches.filter((m) => m.entity.kind !== "source").slice(0, CANDIDATES);
}

function describe(m: EntityMatch, n: number): string {
  const e = m.entity;
  const doc = e.description ? `: ${e.description.replace(/\s+/g, " ").slice(0, 120)}` : "";
  return `${n}. ${e.sourceName ? `${e.sourceName}.` : ""}${e.name} (${e.fieldType}, ${e.dataType})${doc}`;
}

/**
 * Asks the model which candidates of `phrase` answer `question`; returns
 * `phrase` reordered (picked fields first, in the model's order, marked in
 * their match reason). Throws when the model fails or answers out of shape.
 *
 * @example
 * const picked = await pickWithModel("revenue by month", ranked.at(-1)!, { baseUrl, timeoutMs: 5000 });
 */
export async function pickWithModel(question: string, phrase: RankedPhrase, options: ChatOptions): Promise<RankedPhrase> {
  const candidates = candidatesOf(phrase);
  if (candidates.length < 2) return phrase;
  const answer = await askChatJson(options, {
    system: PICK_PROMPT,
    user: `Question: ${question}\nCandidates:\n${candidates.map((m, i) => describe(m, i + 1)).join("\n")}`,
  });
  const picks = (answer as { picks?: unknown })?.picks;
  if (!Array.isArray(picks)) throw new Error('language model JSON has no "picks" array');
  const chosen: EntityMatch[] = [];
  for (const p of picks) {
    // numbers outside the list (or not numbers) are ignored: only candidates can move
    const match = Number.isInteger(p) ? candidates[(p as number) - 1] : undefined;
    if (match && !chosen.includes(match)) chosen.push(match);
    if (chosen.length === MAX_PICKS) break;
  }
  if (chosen.length === 0) return phrase;
  return { ...phrase, matches: pickedFirst(phrase.matches, chosen) };
}

/**
 * Picked matches first with scores just under the ranking's best (so scores
 * stay sorted), the others after them in their order, their scores capped
 * below the last pick's. `chosen` must not be empty.
 *
 * @example
 * pickedFirst(ranked, [ranked[3]!])[0] // ranked[3], scored at ranked[0]'s score
 */
export function pickedFirst(matches: readonly EntityMatch[], chosen: readonly EntityMatch[]): EntityMatch[] {
  const top = Math.max(...matches.map((m) => m.score));
  const step = 0.001;
  const picked = chosen.map((m, j) => ({
    ...m,
    score: Math.round(Math.max(0, top - j * step) * 1000) / 1000,
    matchReason: `picked by the language model (#${j + 1}); ${m.matchReason}`,
  }));
  const floor = picked.at(-1)!.score - step;
  const rest = matches.filter((m) => !chosen.includes(m))
    .map((m) => (m.score > floor ? { ...m, score: Math.round(Math.max(0, floor) * 1000) / 1000 } : m));
  return [...picked, ...rest];
}
