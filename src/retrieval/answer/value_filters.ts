/**
 * The `where:` conditions of the first query (first_query.ts): indexed
 * values the question writes, at most two fields, each value once (on the
 * field pointing the way the question says, "flights out of Texas" on
 * OriginState), and yes/no fields the question names.
 *
 * @module
 */
import type { EntityRecord } from "../index/entity_text.ts";
import type { EntityMatch } from "../ranking/types.ts";
import { containsWord, contentStems, splitName } from "../text/text_terms.ts";
import { DIMENSION_KINDS, nameValue } from "./field_listing.ts";
import { malloyName } from "./malloy_notes.ts";

/** A `where:` condition of the first query. */
export interface Filter {
  entity: EntityRecord;
  match: EntityMatch;
  text: string;
  /** For a yes/no field kept at true: its own name words. */
  flagWords?: string[];
}

/**
 * Matched values as filters (at most two fields). A value made of the
 * field's own name words gives way to another of the field's values written
 * in the question ("lines shipped by truck": 'TRUCK', not 'SHIP'); a field
 * with two values written ("Mr or Mrs") is asked for as a whole, not filtered.
 */
export function chooseFilters(matches: readonly EntityMatch[], question = "", sourceWords: ReadonlySet<string> = new Set()): Filter[] {
  const out: Filter[] = [];
  const text = question.toLowerCase();
  const asked = new Set(contentStems(question, { expand: true }));
  const way = asked.size > 0 ? questionDirection(question) : undefined;
  for (const [i, m] of matches.entries()) {
    if (!DIMENSION_KINDS.has(m.entity.kind) || out.length >= 2 || out.some((f) => f.entity.name === m.entity.name)) continue;
    if (m.matchedValue === undefined || m.value <= 0) {
      // A value whose words the question writes, among the best few fields ("urgent orders": '1-URGENT').
      const words = (v: string) => contentStems(v, { expand: true }).filter((w) => /^\p{L}/u.test(w));
      const found = i < 5 ? (m.entity.values ?? []).filter((v) => words(v).length > 0 && words(v).every((w) => asked.has(w) && !m.entity.lexicalTerms.name.includes(w))) : [];
      if (found.length === 1) out.push({ entity: m.entity, match: { ...m, matchedValue: found[0]! }, text: `${malloyName(m.entity.name)} = ${quote(found[0]!)}` });
      continue;
    }
    // Values written in the question; a short upper-case code as written, case kept, as ranking matches it ("in the UK" writes 'UK', not 'IN').
    const written = (m.entity.values ?? []).filter((v) => v.trim().length > 1 && (/^[A-Z0-9]{2,3}$/.test(v.trim()) ? containsWord(question, v.trim()) : containsWord(text, v.toLowerCase().replace(/[.]+$/, ""))));
    if (written.length > 1 && new Set(written.map((v) => v.toLowerCase())).size > 1 && !written.some((v) => written.some((w) => w !== v && w.toLowerCase().includes(v.toLowerCase())))) continue;
    const value = nameValue(m) ? written.filter((v) => v !== m.matchedValue).sort((a, b) => b.length - a.length)[0] : m.matchedValue;
    // One filter per written value: the same value of a joined field ("Venezuela" as ShipCountry and Customers.Country) is the best field's,
    // unless the question says a direction another field with that value has ("flights out of Texas": OriginState, not DestState).
    if (value === undefined || out.some((f) => f.match.matchedValue?.toLowerCase() === value.toLowerCase())) continue;
    if (way && wrongWay(m, matches, way)) continue;
    out.push({ entity: m.entity, match: m, text: `${malloyName(m.entity.name)} = ${quote(value)}` });
  }
  // A yes/no field among the best three that the question's words name keeps its true rows ("drinks on the menu": where: is_drink_item).
  for (const m of matches.slice(0, 3)) {
    if (out.length >= 2 || m.entity.dataType !== "boolean" || !DIMENSION_KINDS.has(m.entity.kind) || out.some((f) => f.entity.name === m.entity.name)) continue;
    // Its own words: not the source's name words ("supply name" does not ask for is_perishable_supply).
    const own = m.entity.lexicalTerms.name.filter((w) => !FLAG_WORDS.has(w) && !sourceWords.has(w));
    if (own.length > 0 && own.every((w) => asked.has(w))) out.push({ entity: m.entity, match: m, text: malloyName(m.entity.name), flagWords: own });
  }
  return out;
}

/**
 * True when a value filter's value is made only of `words` (a view's or a measure's name words): the view or
 * measure reads those rows already ("landing page": 'PAGE' in `landing_pages`). Yes/no filters never are.
 */
export function valueNamedBy(filter: Filter, words: ReadonlySet<string>): boolean {
  if (filter.flagWords) return false;
  const valueWords = contentStems(filter.match.matchedValue ?? "", { expand: true });
  return valueWords.length > 0 && valueWords.every((w) => words.has(w));
}

/** Question words that say where rows start ("from", "out of", "pickups") or end ("to", "into", "arriving"). */
const FROM_WORDS = /\b(from|out of|leaving|leave|departing|departs?|departures?|origin(ating)?|starting|starts?|pick ?ups?|picked up)\b/i;
const TO_WORDS = /\b(to|into|arriving|arrives?|arrivals?|bound for|destinations?|ending|ends|drop ?offs?|dropped off)\b/i;
/** Name words of a field that start rows (`OriginState`, `pickup_zone`, `start_station`) or end them (`DestState`, `dropoff_zone`). */
const FROM_NAME = new Set(["origin", "orig", "from", "start", "starting", "pickup", "pu", "source", "src", "departure", "dep"]);
const TO_NAME = new Set(["dest", "destination", "to", "end", "ending", "dropoff", "do", "arrival", "arr", "target"]);

/** Which way a field's name points: its rows' start, their end, or neither. */
function direction(e: EntityRecord): "from" | "to" | undefined {
  const words = splitName(e.name).map((w) => w.toLowerCase());
  const from = words.some((w) => FROM_NAME.has(w));
  const to = words.some((w) => TO_NAME.has(w));
  return from === to ? undefined : from ? "from" : "to";
}

/** The way a question points: only "from" words, only "to" words, or neither. */
function questionDirection(question: string): "from" | "to" | undefined {
  const from = FROM_WORDS.test(question);
  return from === TO_WORDS.test(question) ? undefined : from ? "from" : "to";
}

/** True when `m`'s field points against the asked way and another match has the same value on a field pointing that way. */
function wrongWay(m: EntityMatch, matches: readonly EntityMatch[], asked: "from" | "to"): boolean {
  const own = direction(m.entity);
  if (own === undefined || own === asked) return false;
  const value = m.matchedValue?.toLowerCase();
  return matches.some((o) => o !== m && o.matchedValue?.toLowerCase() === value && direction(o.entity) === asked);
}

/** Words of a yes/no field's name that say nothing of what it flags. */
const FLAG_WORDS: ReadonlySet<string> = new Set(["is", "has", "flag", "item", "was"]);

function quote(value: string): string {
  return `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}
