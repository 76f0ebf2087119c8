/**
 * A view whose name says the shape the question asks for: a ranked list
 * ("top_posters", "busiest_routes", "worst_airports") for a question that
 * asks for the top or the least ("most active submitters"), or a time
 * series at a grain ("rides_by_hour", "crimes_by_year") for a question that
 * asks for one ("peak times of day", "trend since 2001"). Such a view was
 * written to answer the question and runs as it is, even when the word
 * vectors ranked it below a field. Read only from English shape words and
 * the view's name; which of several such views is meant comes from the
 * ranking and the question's words.
 *
 * @module
 */
import type { EntityRecord } from "../index/entity_text.ts";
import type { EntityMatch } from "../ranking/types.ts";
import { splitName, stem } from "../text/text_terms.ts";
import type { Grain, QuestionRoles } from "./question_roles.ts";

/** Name words of a view that lists the top or the bottom of something. */
const RANKING_WORDS: ReadonlySet<string> = new Set(["top", "busiest", "most", "best", "leader", "leaders", "leaderboard", "leading", "highest", "largest",
  "biggest", "popular", "priciest", "worst", "least", "lowest", "bottom", "cheapest", "slowest", "fastest", "longest", "hottest", "richest"]);

/** Words ending in "est" that are no superlative. */
const NOT_SUPERLATIVE: ReadonlySet<string> = new Set(["interest", "request", "guest", "forest", "contest", "harvest", "protest", "digest", "manifest",
  "suggest", "conquest", "honest", "modest", "inquest", "latest", "earliest", "test", "west", "rest", "nest", "quest", "chest", "pest", "vest", "arrest"]);

/** A name word that ranks: a ranking word, or a superlative ("wettest", "priciest", "longest"). */
function ranks(word: string): boolean {
  return RANKING_WORDS.has(word) || (word.length >= 6 && word.endsWith("est") && !NOT_SUPERLATIVE.has(word));
}

/** Name words of a view over time, by the grain they give. */
const GRAIN_NAMES: Readonly<Record<string, Grain>> = {
  hour: "hour", hourly: "hour", day: "day", daily: "day", weekday: "day", dow: "day", week: "week", weekly: "week", month: "month", monthly: "month",
  quarter: "quarter", quarterly: "quarter", year: "year", yearly: "year", annual: "year", season: "month", seasonal: "month",
};

/** Question words that ask for change over time at no particular grain: any time view answers. */
const OVER_TIME = /\b(over time|trends?|over the (years|months)|growth|history|historical|since \d{4}|seasonality|seasonal)\b/i;

/** The grain a view's name gives, when it is a time series (`by_month`, `per_year`, `daily_rides`). */
export function viewGrain(words: readonly string[]): Grain | undefined {
  for (const [i, w] of words.entries()) {
    const grain = GRAIN_NAMES[w];
    if (grain && (w.endsWith("ly") || w === "annual" || w === "seasonal" || ["by", "per", "of"].includes(words[i - 1] ?? ""))) return grain;
  }
  return undefined;
}

/**
 * The source's view whose name says the question's shape, if one fits:
 * among views named for a ranked list (a question with an order) or for a
 * time series at the asked grain (any grain for "over time", "trend"), the
 * best-ranked one, or the one whose other name words the question uses.
 *
 * @param question - the question as asked
 * @param roles - its roles (question_roles.ts)
 * @param matches - the source's ranked matches, best first
 * @param fields - every field of the source in scope (views included)
 * @param asked - the question's stemmed content words
 *
 * @example
 * shapeView("most active submitters", roles, matches, fields, asked)?.name // "top_posters"
 */
export function shapeView(question: string, roles: QuestionRoles, matches: readonly EntityMatch[], fields: readonly EntityRecord[], asked: ReadonlySet<string>): EntityRecord | undefined {
  const overTime = OVER_TIME.test(question);
  if (!roles.order && !roles.grain && !overTime) return undefined;
  const rankOf = new Map(matches.map((m, i) => [m.entity.name, i] as const));
  let best: EntityRecord | undefined;
  let bestScore = 0;
  const fitting: EntityRecord[] = [];
  for (const view of fields) {
    if (view.kind !== "view" || view.name.includes(".")) continue;
    const words = splitName(view.name);
    const grain = viewGrain(words);
    const ranked = words.some(ranks);
    // The view's shape is the question's: an order asks for a ranked list; a grain for a series at that grain (any grain "over time").
    const series = grain !== undefined && (grain === roles.grain || overTime);
    const fits = series || (roles.order !== undefined && ranked);
    if (!fits) continue;
    fitting.push(view);
    const own = words.filter((w) => !ranks(w) && !GRAIN_NAMES[w] && !["by", "per", "of"].includes(w)).map(stem);
    const overlap = own.filter((w) => asked.has(w)).length + view.lexicalTerms.related.filter((w) => asked.has(w)).length * 0.5;
    const rank = rankOf.get(view.name);
    if (rank === undefined && overlap === 0) continue;
    // A grain the question names ("busiest times of day") is more of its shape than the order.
    const score = overlap + (rank !== undefined ? 1 / (1 + rank) : 0) + (series && roles.grain && !overTime ? 1 : 0);
    if (score > bestScore) [best, bestScore] = [view, score];
  }
  // The source's only view of that shape answers it ("peak times of day": its one hourly view).
  return best ?? (fitting.length === 1 ? fitting[0] : undefined);
}
