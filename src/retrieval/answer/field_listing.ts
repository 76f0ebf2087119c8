/**
 * The field roles the first query reads (a grouping code, a time, an
 * amount, an identifier) and the listing of a question that only names a
 * field: its best few candidates side by side (a time first for "when"), a
 * number each row holds shown rather than counted, and an identifier shown
 * as the name it points to.
 *
 * @module
 */
import type { EntityRecord } from "../index/entity_text.ts";
import type { EntityMatch } from "../ranking/types.ts";
import { contentStems } from "../text/text_terms.ts";
import { malloyName } from "./malloy_notes.ts";
import type { QuestionRoles } from "./question_roles.ts";

/** Last name words of a number that is a code or a calendar part, not an amount (grouped by, never summed). */
const NUMBER_GROUPS = /(^|[_\s.])(year|yr|month|quarter|week|day|hour|decade|season|round|rank|level|grade|class|tier|priority|zip|code|floor|size|stars?|rating)s?$/i;
/** Last name words of an identifier: neither grouped by nor summed. */
const IDENTIFIER = /(^|[_\s.])(id|uuid|no)$|key$|(?<=[a-z])(Id|ID)$/i;
/** A count measure's name: `order_count`, `num_orders`, `number_of_trips`, `tripCount`. */
export const COUNT_NAME = /(^|_)(count|cnt)$|^(count|number|num|n)_|(?<=[a-z])Count$/i;

/** Name words of a count measure that say only that it counts. */
export const COUNT_WORDS: ReadonlySet<string> = new Set(["count", "cnt", "number", "num", "n", "total"]);

/** Kinds queried as dimensions (a raw table `column` is one to Malloy). */
export const DIMENSION_KINDS: ReadonlySet<string> = new Set(["dimension", "column"]);

/** How a field is shaped in the query: a string, a grouping code, a date, an amount, an identifier. */
export function role(e: EntityRecord): "group" | "time" | "amount" | "identifier" | "other" {
  if (!DIMENSION_KINDS.has(e.kind)) return "other";
  if (e.dataType === "date" || e.dataType === "timestamp") return "time";
  const leaf = e.name.split(".").at(-1)!;
  if (IDENTIFIER.test(leaf)) return "identifier";
  if (e.dataType === "number") return NUMBER_GROUPS.test(leaf) ? "group" : "amount";
  if (["record", "array", "json", "sql native", "error"].includes(e.dataType)) return "other";
  return "group";
}

/** A value match whose words are the field's own name words (rejected as a filter: its score says little). */
export function nameValue(m: EntityMatch): boolean {
  if (m.matchedValue === undefined || m.value <= 0) return false;
  const valueWords = contentStems(m.matchedValue, { expand: true });
  const nameWords = new Set(m.entity.lexicalTerms.name);
  return valueWords.length > 0 && valueWords.every((w) => nameWords.has(w));
}

/** Shape words of the question: it asks for a figure, a grouping, an order or a grain. */
export function shaped(roles: QuestionRoles): boolean {
  return roles.quantity || roles.groupings.length > 0 || roles.grain !== undefined || roles.order !== undefined;
}

/** Question words asking for a time: its candidates come first. */
const WHEN = /(^|\s)(when|date|day|dates|days|time|times)(\s|$)/i;

/**
 * The fields a question that only names a field asks for: when its best
 * match is a dimension and it says nothing of a figure, a grouping or an
 * order, the best few dimensions (a time first for "when"), so the answer
 * shows the field even when the ranking put it second or third.
 */
export function listingFields(question: string, roles: QuestionRoles, matches: readonly EntityMatch[], sourceWords: ReadonlySet<string>): EntityRecord[] {
  const ranked = matches.filter((m) => m.entity.kind !== "source" && !(m.entity.kind === "view" && m.lexical < VIEW_LEXICAL));
  let top = ranked[0];
  if (!top) return [];
  // "number of votes", "number of bedrooms": a count of something each row holds is that number, when it is the best match by name.
  // Its name covers a word of the question besides the count words ("shirt number and number of games" asks for a count of games).
  const askedWords = new Set(contentStems(question, { expand: true }));
  const rowNumber = roles.aggregate === "count" && roles.groupings.length === 0 && !roles.grain && !roles.order && role(top.entity) === "amount" && top.lexical >= ROW_NUMBER_LEXICAL
    && top.entity.lexicalTerms.name.some((w) => askedWords.has(w) && !COUNT_WORDS.has(w))
    && !matches.some((m) => m.entity.kind === "measure" && COUNT_NAME.test(m.entity.name.split(".").at(-1)!) && m.entity.lexicalTerms.name.some((w) => askedWords.has(w) && !COUNT_WORDS.has(w)));
  // "interest rate on the loan", "monthly payment", "yearly earnings": a rate word or a grain adjective naming a number each row holds, nothing else shaped.
  const text = ` ${question.toLowerCase()} `;
  const namesRow = role(top.entity) === "amount" && roles.aggregate === undefined && roles.groupings.length === 0 && !roles.order
    && (roles.grain === undefined || (/ (hourly|daily|weekly|monthly|quarterly|yearly|annual|annually) /.test(text) && !/ (by|per|each|every|over) /.test(text)));
  if (shaped(roles) && !rowNumber && !namesRow) return [];
  // A measure ahead of a field as good by name ("stock on hand": stock_value, UnitsInStock): with no figure asked for, the field.
  // A measure the question names only by the source's own name ("customer segment on line items": lineitem_count) is no figure asked for either.
  if (top.entity.kind === "measure" && !rowNumber) {
    const asked = new Set(contentStems(question, { expand: true }));
    const byName = top.entity.lexicalTerms.name.filter((w) => asked.has(w)).every((w) => sourceWords.has(w) || COUNT_WORDS.has(w));
    const field = ranked.slice(1, 4).find((m) => DIMENSION_KINDS.has(m.entity.kind) && role(m.entity) !== "identifier" && role(m.entity) !== "other"
      && (byName ? m.score >= SOURCE_NAMED * top!.score : m.score >= CLOSE_FIELD * top!.score && m.lexical >= top!.lexical));
    if (!field) return [];
    top = field;
  }
  if (!DIMENSION_KINDS.has(top.entity.kind)) return [];
  const fits = (m: EntityMatch) => DIMENSION_KINDS.has(m.entity.kind) && role(m.entity) !== "other" && !nameValue(m) && m.score >= LISTING_SHARE * top.score;
  let candidates = [top, ...ranked.slice(0, LISTING_WINDOW).filter((m) => m !== top)].filter(fits);
  if (WHEN.test(question)) candidates = [...candidates.filter((m) => role(m.entity) === "time"), ...candidates.filter((m) => role(m.entity) !== "time")];
  return candidates.slice(0, LISTING_SIZE).map((m) => m.entity);
}
/** A listed candidate scores at least this share of the best. */
const LISTING_SHARE = 0.5;
/** Candidates are read among the best this many matches. */
const LISTING_WINDOW = 6;
/** At most this many fields are listed. */
const LISTING_SIZE = 3;
/** A source with at most this many own fields besides its keys is a code list. */
export const CODE_LIST_FIELDS = 3;
/** A view's name or doc must cover this share of the question (lexical score) to run for a field question. */
export const VIEW_LEXICAL = 0.5;
/** A field this close to a measure ahead of it, and as good by name, is what a plain question asks for. */
const CLOSE_FIELD = 0.9;
/** Against a measure named only by its source's name words, a field this close is asked for. */
const SOURCE_NAMED = 0.7;
/** "number of X": the number field's name covers X at least this much (lexical score). */
const ROW_NUMBER_LEXICAL = 0.5;

export function selectItem(entity: EntityRecord, unique: (name: string) => string): string {
  const leaf = entity.name.split(".").at(-1)!;
  const output = unique(leaf);
  return output === leaf && !entity.name.includes(".") ? malloyName(entity.name) : `${malloyName(output)} is ${malloyName(entity.name)}`;
}

/** The name or title field of the join an identifier points to (`ArtistId` -> `artists.Name`), if the source has one. */
export function labelOf(id: EntityRecord, all: readonly EntityRecord[]): EntityRecord | undefined {
  const words = new Set(id.lexicalTerms.name.filter((w) => !["id", "key", "uuid", "no"].includes(w)));
  if (words.size === 0) return undefined;
  return all.find((e) => {
    const parts = e.name.split(".");
    if (parts.length !== 2 || e.dataType !== "string") return false;
    const stems = (t: string) => contentStems(t.replace(/[_]+/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2"), { expand: true });
    const join = stems(parts[0]!);
    if (join.length === 0 || !join.every((w) => words.has(w))) return false;
    // `artists.Name`, `albums.Title`, or a field named as its join (`aisles.aisle`, `departments.department`).
    const leaf = stems(parts[1]!);
    return /^(name|title|[a-z]*_?name)$/i.test(parts[1]!) || (leaf.length > 0 && leaf.every((w) => join.includes(w)));
  });
}
