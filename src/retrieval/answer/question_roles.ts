/**
 * The roles of a question's words for writing its first query: a time grain
 * ("monthly", "by year"), grouping phrases ("by carrier", "per genre",
 * "which categories ..."), an order ("top 5", "the most", "least"), and the
 * kind of aggregate asked for ("how many", "average", "total"). Only words
 * that say how to shape a query are read here; which fields the other words
 * mean is the ranking's work (question_rank.ts).
 *
 * @module
 */
import { contentStems } from "../text/text_terms.ts";

/** A time grain Malloy truncates to (`created_at.month`). */
export type Grain = "hour" | "day" | "week" | "month" | "quarter" | "year";

/** The aggregate a question's words ask for. */
type AggregateCue = "count" | "avg" | "sum";

/** What a question asks its query to do. */
export interface QuestionRoles {
  /** Time grain to group by. */
  grain?: Grain;
  /** Stemmed content words of each grouping phrase ("by ship mode" -> ["ship", "mode"]). */
  groupings: string[][];
  /** The question asks for an ordered top or bottom list. */
  order?: "desc" | "asc";
  /** Rows asked for ("top 5"); set with `order`. */
  limit?: number;
  /** The aggregate asked for, when a word says it. */
  aggregate?: AggregateCue;
  /** Grouping phrases read after "of each", "on each", "for each" ("state levy on each ride"): a value per row when no figure is asked. */
  perRow?: string[][];
  /** Any quantity word ("how many", "revenue" is not one: only the shape words). */
  quantity: boolean;
}

const GRAIN_WORDS: Record<string, Grain> = {
  hourly: "hour", hour: "hour", hours: "hour", daily: "day", day: "day", days: "day", weekly: "week", week: "week", weeks: "week",
  monthly: "month", month: "month", months: "month", quarterly: "quarter", quarter: "quarter", quarters: "quarter",
  yearly: "year", annual: "year", annually: "year", year: "year", years: "year",
};
/** Words that start a grouping phrase. */
const GROUP_CUES = new Set(["by", "per", "each", "every", "across"]);
/** Words that end a grouping phrase. */
const PHRASE_ENDS = new Set(["and", "with", "where", "in", "for", "from", "of", "that", "who", "which", "whose", "over", "during", "on", "at", "to",
  "than", "since", "before", "after", "between", "or", "is", "are", "was", "were", "has", "have", "had", "do", "does", "did", "the"]);
const DESC_WORDS = new Set(["top", "best", "most", "highest", "largest", "biggest", "greatest", "leading", "popular", "busiest", "longest", "max", "maximum"]);
const ASC_WORDS = new Set(["least", "lowest", "smallest", "fewest", "worst", "bottom", "shortest", "min", "minimum", "cheapest"]);
const NUMBER_WORDS: Record<string, number> = { three: 3, five: 5, ten: 10, twenty: 20, fifty: 50, hundred: 100 };

/**
 * Reads the roles of a question's words.
 *
 * @example
 * questionRoles("top 5 carriers by revenue") // { order: "desc", limit: 5, groupings: [["revenu"]], ... }
 * questionRoles("orders per month").grain // "month"
 */
export function questionRoles(question: string): QuestionRoles {
  const tokens = question.toLowerCase().replace(/[^\p{L}\p{N}#'_-]+/gu, " ").trim().split(/\s+/).filter((t) => t !== "");
  const roles: QuestionRoles = { groupings: [], quantity: false };
  const text = ` ${tokens.join(" ")} `;
  if (/ (how many|number of|count of|count) /.test(text)) roles.aggregate = "count";
  else if (/ (average|avg|mean|typical) /.test(text)) roles.aggregate = "avg";
  else if (/ (total|sum|overall|combined|altogether) /.test(text)) roles.aggregate = "sum";
  roles.quantity = roles.aggregate !== undefined || / (how much|rate|ratio|share|percent|percentage) /.test(text);
  if (/ (over time|trend|trends|timeline) /.test(text)) roles.grain = "month";
  const hourOfDay = / (times?|hours?) of (the )?day /.test(text);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const grain = GRAIN_WORDS[t];
    const before = tokens[i - 1];
    if (grain && (t.endsWith("ly") || t === "annual" || (before !== undefined && (GROUP_CUES.has(before) || before === "per" || before === "over")))) roles.grain = grain;
    if (DESC_WORDS.has(t) || ASC_WORDS.has(t)) {
      roles.order ??= ASC_WORDS.has(t) ? "asc" : "desc";
      const next = tokens[i + 1] ?? "";
      const n = /^\d+$/.test(next) ? Number(next) : NUMBER_WORDS[next];
      if (n !== undefined && n > 0 && n <= 1000) roles.limit = n;
    }
    // "disapprovals cast by a member": "by a/an" names who did it, not a grouping.
    if (GROUP_CUES.has(t) && !(t === "by" && /^(a|an)$/.test(tokens[i + 1] ?? ""))) {
      const phrase = phraseAfter(tokens, i + 1);
      if (phrase.length > 0) roles.groupings.push(phrase);
      if (phrase.length > 0 && t === "each" && /^(of|on|for|in)$/.test(tokens[i - 1] ?? "")) (roles.perRow ??= []).push(phrase);
    }
  }
  // "which product categories sell the most", "what genres have the highest rating": the asked-for thing is grouped.
  if (roles.order && /^(which|what)$/.test(tokens[0] ?? "")) {
    const phrase = phraseAfter(tokens, 1);
    if (phrase.length > 0) roles.groupings.unshift(phrase);
  } else if (roles.order) {
    // "top 10 customers by revenue", "most popular genres": the words after the order word.
    const at = tokens.findIndex((t) => DESC_WORDS.has(t) || ASC_WORDS.has(t));
    let start = at + 1;
    while (start < tokens.length && (/^\d+$/.test(tokens[start]!) || NUMBER_WORDS[tokens[start]!] !== undefined || DESC_WORDS.has(tokens[start]!))) start++;
    const phrase = phraseAfter(tokens, start);
    if (phrase.length > 0) roles.groupings.push(phrase);
  }
  // "busiest times of day": the hour.
  if (hourOfDay) roles.grain = "hour";
  if (roles.order) roles.limit ??= 10;
  return roles;
}

/** Stemmed content words from `start` to the end of the phrase (at most three, grain words left out). */
function phraseAfter(tokens: readonly string[], start: number): string[] {
  const out: string[] = [];
  for (let i = start; i < tokens.length && out.length < 3; i++) {
    const t = tokens[i]!;
    if (PHRASE_ENDS.has(t) || GROUP_CUES.has(t) || DESC_WORDS.has(t) || ASC_WORDS.has(t)) {
      if (out.length > 0 || t !== "the") break;
      continue;
    }
    if (GRAIN_WORDS[t]) continue;
    out.push(...contentStems(t, { expand: true }));
  }
  return out;
}
