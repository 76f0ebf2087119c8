/**
 * The first query of a `get_context` answer, written to answer the question
 * rather than to list the best matches: the question's roles
 * (question_roles.ts) are mapped onto the best source's fields.
 * - A view that the question names (its name, doc or label matched) runs as
 *   it is: `run: source -> by_month`, refined with the question's filters.
 * - Quantity words pick a measure: the best-matched one (a count measure for
 *   "how many"), or an ad-hoc `sum()`/`avg()` of a matched amount, or `count()`.
 * - "by / per / each / monthly" group by the dimension the phrase names (a
 *   time dimension at the asked grain); a numeric amount is never grouped by.
 * - A matched indexed value becomes a `where:` filter, unless its words are
 *   the field's own name words ("ship mode" is the field, not the value 'SHIP').
 * - "top / best / most / least" order by the measure, with a limit.
 * - A question that only names a field ("when did the parcel arrive", "number
 *   of bedrooms", "interest rate on the loan") lists its best few candidates
 *   with `select:` (a time first for "when"; an identifier as the name it
 *   points to), so the field shows even when the ranking put it second.
 * - A value of a code list's own field ("classical music") runs on the
 *   source joining it, counting that source's rows.
 * Filters are chosen in value_filters.ts. Names are backquoted where Malloy
 * needs it and every output name is unique.
 *
 * @module
 */
import type { EntityRecord } from "../index/entity_text.ts";
import type { EntityMatch } from "../ranking/types.ts";
import { contentStems, splitName } from "../text/text_terms.ts";
import { malloyName, malloySourceName } from "./malloy_notes.ts";
import { type Grain, type QuestionRoles, questionRoles } from "./question_roles.ts";
import { shapeView, viewGrain } from "./shape_views.ts";
import { COUNT_NAME, COUNT_WORDS, CODE_LIST_FIELDS, DIMENSION_KINDS, labelOf, listingFields, nameValue, role, selectItem, shaped, VIEW_LEXICAL } from "./field_listing.ts";
import { chooseFilters, valueNamedBy } from "./value_filters.ts";


/** A source the first query may run on: its matched entities (best first), its fields in scope and its name's words. */
export interface QuerySource {
  sourceName: string;
  matches: readonly EntityMatch[];
  fields: readonly EntityRecord[];
  /** Stemmed words of the source's name. */
  nameTerms: readonly string[];
}

/**
 * Chooses the source of the first query, then writes it. The best-matched
 * fields are often reachable from other sources through joins (their
 * `alsoIn` paths); the query runs on the one of those sources that the
 * question names (its name's words, or one of its measures' words), as
 * "orders from the automobile segment" runs on `orders` with the joined
 * `customer.c_mktsegment`, keeping every filter reachable.
 *
 * @param top - the best-ranked source
 * @param lookup - another source of the same model by name, when in scope
 * @param named - measures anywhere in the answer whose words the question uses
 *
 * @example
 * planFirstQuery("orders from the automobile segment", customer, (n) => sources.get(n), []).sourceName // "orders"
 */
export function planFirstQuery(question: string, top: QuerySource, lookup: (sourceName: string) => QuerySource | undefined, named: readonly EntityMatch[]): { sourceName: string; query: string } {
  const asked = new Set(contentStems(question, { expand: true }));
  const filters = chooseFilters(top.matches, question, new Set(top.nameTerms)).map((f) => f.match);
  const leading = top.matches.slice(0, 3).filter((m) => m.entity.kind !== "source");
  const candidates = new Map<string, QuerySource>([[top.sourceName, top]]);
  for (const m of leading) {
    for (const place of (m as EntityMatch & { alsoIn?: string[] }).alsoIn ?? []) {
      const name = place.slice(0, place.indexOf("."));
      const found = candidates.has(name) ? undefined : lookup(name);
      if (found) candidates.set(name, found);
    }
  }
  // A code list: a source with at most a few own fields besides its keys (genres, statuses, regions).
  const codeList = top.fields.filter((f) => DIMENSION_KINDS.has(f.kind) && !f.name.includes(".") && role(f) !== "identifier").length <= CODE_LIST_FIELDS;
  let best = top;
  let bestScore = -1;
  for (const c of candidates.values()) {
    // Every filter must be reachable from the source.
    if (!filters.every((f) => pathIn(f, c) !== undefined)) continue;
    // Named in the question: another source reaching the best field is where the question's rows are ("customer country on orders").
    const nameHit = c === top ? (c.nameTerms.some((t) => asked.has(t)) ? 1 : 0) : c.nameTerms.some((t) => asked.has(t) && !top.nameTerms.includes(t)) ? 2 : 0;
    const measureHit = named.some((m) => m.entity.sourceName === c.sourceName || ((m as EntityMatch & { alsoIn?: string[] }).alsoIn ?? []).some((p) => p.startsWith(`${c.sourceName}.`))) ? 1 : 0;
    // A value of a lookup source's own field ("classical music": genres.Name = 'Classical') asks for the rows of the source joining it, not the one row it names.
    const lookup = c !== top && filters.length > 0 && codeList && filters.every((f) => f.entity.sourceName === top.sourceName && !f.entity.name.includes(".") && pathIn(f, c)?.split(".").length === 2) ? 0.6 : 0;
    const score = nameHit + measureHit + lookup + (c === top ? 0.5 : 0);
    if (score > bestScore) [best, bestScore] = [c, score];
  }
  if (best === top) return { sourceName: top.sourceName, query: firstQuery(question, top.sourceName, top.matches, top.fields, top.nameTerms) };
  // The top source's matches seen from the chosen source (by their join paths), then its own.
  const moved: EntityMatch[] = [];
  for (const m of top.matches) {
    const path = pathIn(m, best);
    const entity = path !== undefined ? best.fields.find((f) => f.name === path) : undefined;
    if (entity) moved.push({ ...m, entity });
  }
  const seen = new Set(moved.map((m) => m.entity.name));
  const matches = [...moved, ...best.matches.filter((m) => !seen.has(m.entity.name))].sort((a, b) => b.score - a.score);
  return { sourceName: best.sourceName, query: firstQuery(question, best.sourceName, matches, best.fields, best.nameTerms) };
}

/** The path of a matched field in a source: its own name there, or the join path its `alsoIn` gives. */
function pathIn(match: EntityMatch, source: QuerySource): string | undefined {
  if (match.entity.sourceName === source.sourceName) return match.entity.name;
  const place = ((match as EntityMatch & { alsoIn?: string[] }).alsoIn ?? []).find((p) => p.startsWith(`${source.sourceName}.`));
  return place?.slice(source.sourceName.length + 1);
}

/**
 * The first query for one source: a Malloy `run:` statement answering the
 * question with the source's fields.
 *
 * @param matches - the source's matched entities, best first
 * @param fields - every field of the source in scope (for time grains, counts and grouping words the ranking did not list); the matches' entities when absent
 *
 * @example
 * firstQuery("revenue by month", "order_items", matches, fields) // "run: order_items -> by_month"
 */
export function firstQuery(question: string, sourceName: string, matches: readonly EntityMatch[], fields?: readonly EntityRecord[], nameTerms?: readonly string[]): string {
  const roles = questionRoles(question);
  // "per customer" on the customers source asks for one figure over its rows, not a grouping.
  const own = new Set(nameTerms ?? contentStems(sourceName.replace(/[_.]+/g, " "), { expand: true }));
  roles.groupings = roles.groupings.filter((words) => !words.every((w) => own.has(w)));
  const all = fields && fields.length > 0 ? fields.filter((f) => f.kind !== "source" && f.kind !== "query") : matches.map((m) => m.entity);
  const src = malloySourceName(sourceName);
  let filters = chooseFilters(matches, question, own);
  const asked = new Set(contentStems(question, { expand: true }));
  const namedView = chooseView(matches, roles, filters.length > 0);
  const shapedView = shapeView(question, roles, matches, all, asked);
  // A question naming a grain ("busiest times of day") runs the view at that grain before a named view without one.
  const view = namedView && !(roles.grain && shapedView && viewGrain(splitName(shapedView.name)) === roles.grain && viewGrain(splitName(namedView.name)) === undefined) ? namedView : (shapedView ?? namedView);
  if (view) {
    // A value the view's own name says ("landing page": 'PAGE' in landing_pages) is what the view reads already, not a filter.
    const viewWords = new Set(view.lexicalTerms.name);
    filters = filters.filter((f) => !valueNamedBy(f, viewWords));
    const refine = [...(filters.length > 0 ? [`where: ${filters.map((f) => f.text).join(", ")}`] : []), ...(roles.limit ? [`limit: ${roles.limit}`] : [])];
    return `run: ${src} -> ${malloyName(view.name)}${refine.length > 0 ? ` + { ${refine.join("; ")} }` : ""}`;
  }
  const used = new Set<string>();
  const unique = (name: string) => {
    let out = name;
    for (let i = 2; used.has(out.toLowerCase()); i++) out = `${name}_${i}`;
    used.add(out.toLowerCase());
    return out;
  };
  const filtered = new Set(filters.map((f) => f.entity.name));
  // A question that only names a field ("when did the parcel arrive", "host name"): its best candidates side by side.
  // "state levy on each ride": with no figure asked, "on each X" asks for a value per row, not a grouping.
  const perRow = roles.perRow && roles.aggregate === undefined && !roles.order && !roles.grain
    ? { ...roles, groupings: roles.groupings.filter((g) => !roles.perRow!.includes(g)) } : roles;
  const listing = filters.length === 0 ? listingFields(question, perRow, matches, own) : [];
  if (listing.length > 0) {
    const first = role(listing[0]!) === "identifier" ? (labelOf(listing[0]!, all) ?? listing[0]!) : listing[0]!;
    const label = role(first) === "amount" || role(first) === "identifier"
      ? all.find((e) => e.kind === "dimension" && e.dataType === "string" && !e.name.includes(".") && /(^|_|\b)(name|title)$/i.test(e.name))
      : undefined;
    // An identifier shows the name of what it identifies when a join reaches it ("artist of an album": artists.Name, not ArtistId).
    const named = [...new Map(listing.map((e) => (role(e) === "identifier" ? (labelOf(e, all) ?? e) : e)).map((e) => [e.name, e] as const)).values()];
    const shown = [...(label && !named.some((e) => e.name === label.name) ? [label] : []), ...named].map((e) => selectItem(e, unique));
    return `run: ${src} -> {\n  select: ${shown.join(", ")}\n  limit: 20\n}`;
  }
  const number = listedField(roles, matches, filtered);
  // An identifier shows the name of what it identifies when a join reaches it ("artist of an album": artists.Name, not ArtistId).
  const listed = number && role(number) === "identifier" ? (labelOf(number, all) ?? number) : number;
  if (listed) {
    // "price of a song": the number itself, beside the source's name field.
    const label = all.find((e) => e.kind === "dimension" && e.dataType === "string" && !e.name.includes(".") && /(^|_|\b)(name|title)$/i.test(e.name));
    const shown = [...(label && label.name !== listed.name ? [label.name] : []), listed.name].map(malloyName);
    return `run: ${src} -> {\n  ${[...(filters.length > 0 ? [`where: ${filters.map((f) => f.text).join(", ")}`] : []), `select: ${shown.join(", ")}`, "limit: 20"].join("\n  ")}\n}`;
  }
  const groups = chooseGroups(roles, matches, all, filtered, asked);
  const aggregate = chooseAggregate(roles, matches, all, new Set(groups.map((g) => g.entity.name)), asked);
  // A measure named for the flag counts its rows already ("how many food orders": food_order_count, no where).
  if (aggregate.kind === "measure") {
    const measureWords = new Set(aggregate.entity.lexicalTerms.name);
    filters = filters.filter((f) => !f.flagWords?.every((w) => measureWords.has(w)));
    // A measure named for the value counts its rows already ("how many orders were delivered": delivered_order_count, no where).
    if (COUNT_NAME.test(aggregate.entity.name.split(".").at(-1)!)) filters = filters.filter((f) => !valueNamedBy(f, measureWords));
  }
  const lines: string[] = [];
  if (filters.length > 0) lines.push(`where: ${filters.map((f) => f.text).join(", ")}`);
  const groupItems = groups.map((g) => groupItem(g.entity, g.grain, unique));
  if (groupItems.length > 0) lines.push(`group_by: ${groupItems.map((g) => g.text).join(", ")}`);
  const measure = aggregateItem(aggregate, unique);
  lines.push(`aggregate: ${measure.text}`);
  const timeGroup = groupItems.find((g) => g.grain);
  if (roles.order && groupItems.length > 0) lines.push(`order_by: ${malloyName(measure.output)} ${roles.order}`, `limit: ${roles.limit ?? 10}`);
  else if (timeGroup) lines.push(`order_by: ${malloyName(timeGroup.output)}`, "limit: 100");
  else if (groupItems.length > 0) lines.push("limit: 50");
  return `run: ${src} -> {\n  ${lines.join("\n  ")}\n}`;
}



/** The best match when the question names one numeric field and asks nothing of it ("price of a song"): shown as it is, never summed. */
function listedField(roles: QuestionRoles, matches: readonly EntityMatch[], filtered: ReadonlySet<string>): EntityRecord | undefined {
  if (shaped(roles)) return undefined;
  const top = matches.find((m) => m.entity.kind !== "source" && !nameValue(m));
  if (!top || (role(top.entity) !== "amount" && role(top.entity) !== "identifier") || filtered.has(top.entity.name)) return undefined;
  return top.entity;
}


/** Lexical score from which a view's name holds every word of the question. */
const WHOLE_NAME = 0.95;

/** A view the question names: the source's best match, or one whose words the question uses, close to the best. */
function chooseView(matches: readonly EntityMatch[], roles: QuestionRoles, filtered: boolean): EntityRecord | undefined {
  const best = matches[0];
  if (!best) return undefined;
  // A view named by every word of the question, close to the best ("landing page": landing_pages over type = 'PAGE'), runs as it is.
  const whole = matches.slice(0, 3).find((m) => m.entity.kind === "view" && m.lexical >= WHOLE_NAME && m.score >= 0.8 * best.score);
  if (whole) return whole.entity;
  // A question about a subset ("urgent orders") asks for its rows or its count, not a view's breakdown.
  if (filtered && !shaped(roles)) return undefined;
  // A view only a word vector matched ("headline of a question": questions_by_tag) does not answer a question that names a field.
  if (best.entity.kind === "view") return shaped(roles) || best.lexical >= VIEW_LEXICAL ? best.entity : undefined;
  const view = matches.slice(0, 3).find((m) => m.entity.kind === "view");
  if (!view || view.lexical < 0.5 || view.score < 0.8 * best.score) return undefined;
  // A view close to the best match answers a shaped question ("by", "top"); a plain field question keeps the field.
  return roles.groupings.length > 0 || roles.grain || roles.order ? view.entity : undefined;
}

interface Group {
  entity: EntityRecord;
  grain?: Grain;
}

/** Fields to group by: the time field at the asked grain, the fields the grouping phrases name, or the best-matched field of a listing question. */
function chooseGroups(roles: QuestionRoles, matches: readonly EntityMatch[], all: readonly EntityRecord[], filtered: ReadonlySet<string>, asked: ReadonlySet<string>): Group[] {
  const out: Group[] = [];
  const rankOf = new Map(matches.map((m, i) => [m.entity.name, i] as const));
  const byRank = (a: EntityRecord, b: EntityRecord) => (rankOf.get(a.name) ?? 1e9) - (rankOf.get(b.name) ?? 1e9);
  if (roles.grain) {
    const times = all.filter((e) => role(e) === "time").sort(byRank);
    const time = times.find((e) => rankOf.has(e.name)) ?? times.find((e) => !e.name.includes(".")) ?? times[0];
    if (time) out.push({ entity: time, grain: roles.grain });
  }
  for (const words of roles.groupings) {
    if (out.length >= 2) break;
    const found = bestFor(words, all.filter((e) => DIMENSION_KINDS.has(e.kind)), rankOf);
    // A phrase may name an identifier ("payments by customer" -> customer_id), never an amount.
    if (!found || (role(found) !== "group" && role(found) !== "identifier") || filtered.has(found.name) || out.some((g) => g.entity.name === found.name)) continue;
    out.push({ entity: found });
  }
  if (out.length > 0) return out;
  // "most popular genres", "list the market segments", "customer name": the best-matched field when it is one to group by.
  const groupable = matches.filter((m) => role(m.entity) === "group" && !filtered.has(m.entity.name));
  if (roles.order || roles.groupings.length > 0) return groupable.slice(0, 1).map((m) => ({ entity: m.entity }));
  if (roles.quantity) return [];
  const top = matches.find((m) => (role(m.entity) === "group" || role(m.entity) === "time") && !nameValue(m) && !filtered.has(m.entity.name));
  // A measure ranked above the best field, covering as many of the question's words, answers on its own ("film name" shows titles; "late deliveries" counts).
  const measure = matches.find((m) => m.entity.kind === "measure");
  if (!top || (measure && measure.score >= top.score && covered(measure.entity, asked) >= covered(top.entity, asked))) return [];
  return [{ entity: top.entity, ...(role(top.entity) === "time" ? { grain: "month" as const } : {}) }];
}

/** How many of the question's words a field's name words cover. */
function covered(e: EntityRecord, asked: ReadonlySet<string>): number {
  return e.lexicalTerms.name.filter((w) => asked.has(w)).length;
}

/** The field whose words best cover a phrase's words (name words count most, then lexicon synonyms, then the doc); ties go to the better-ranked field. */
function bestFor(words: readonly string[], all: readonly EntityRecord[], rankOf: ReadonlyMap<string, number>): EntityRecord | undefined {
  let best: EntityRecord | undefined;
  let bestScore = 0;
  for (const e of all) {
    const name = new Set(e.lexicalTerms.name);
    const related = new Set(e.lexicalTerms.related);
    const doc = new Set(e.lexicalTerms.doc);
    let score = 0;
    for (const w of words) score += name.has(w) ? 1 : related.has(w) ? 0.6 : doc.has(w) ? 0.4 : 0;
    if (score === 0) continue;
    // Fewer extra name words first (`ship mode` before `ship mode code`), own fields before joined ones, then the ranking.
    score -= 0.05 * Math.max(0, name.size - words.length) + (e.name.includes(".") ? 0.1 : 0);
    const rank = rankOf.get(e.name);
    if (rank !== undefined) score += 0.2 / (1 + rank);
    if (score > bestScore) [best, bestScore] = [e, score];
  }
  return best;
}

type Aggregate = { kind: "measure"; entity: EntityRecord } | { kind: "adhoc"; entity: EntityRecord; fn: "sum" | "avg" } | { kind: "count" };

/** The measure the question asks for. */
function chooseAggregate(roles: QuestionRoles, matches: readonly EntityMatch[], all: readonly EntityRecord[], grouped: ReadonlySet<string>, asked: ReadonlySet<string>): Aggregate {
  const best = matches[0]?.score ?? 0;
  // A measure or amount the question's words name, or one close to the best match.
  const named = (m: EntityMatch) => m.lexical > 0 || m.score >= 0.6 * best;
  const measures = matches.filter((m) => m.entity.kind === "measure" && named(m));
  // "most active submitters": with no aggregate word, an order counts rows unless the question's words name the amount.
  const countsRows = roles.order !== undefined && roles.aggregate === undefined;
  const amounts = matches.filter((m) => role(m.entity) === "amount" && !grouped.has(m.entity.name) && named(m) && (!countsRows || m.lexical > 0));
  if (roles.aggregate === "count") {
    // A count measure, unless another measure covers more of the question's words ("active customers count").
    const covered = (m: EntityMatch | undefined) => (m ? m.entity.lexicalTerms.name.filter((w) => asked.has(w)).length : 0);
    // Of the count measures, the one covering most of the question's words with the fewest others ("number of trips": trip_count, not airport_trip_count).
    const extra = (m: EntityMatch) => m.entity.lexicalTerms.name.filter((w) => !asked.has(w) && !COUNT_WORDS.has(w)).length;
    const counted = measures.filter((m) => COUNT_NAME.test(m.entity.name.split(".").at(-1)!))
      .map((m, i) => ({ m, i })).sort((a, b) => covered(b.m) - covered(a.m) || extra(a.m) - extra(b.m) || a.i - b.i)[0]?.m;
    // A count measure none of whose words the question uses, on a source it does not name either, gives way to the
    // best-ranked measure ("how many miles did the fleet cover": total_distance, not flight_count).
    const countsNamed = (m: EntityMatch) => covered(m) > 0 || m === measures[0] || contentStems(splitName(m.entity.sourceName).join(" "), { expand: true }).some((w) => asked.has(w));
    if (counted && covered(counted) >= covered(measures[0]) && countsNamed(counted)) return { kind: "measure", entity: counted.entity };
    if (!measures[0] && !amounts[0]) {
      const own = all.filter((e) => e.kind === "measure" && !e.name.includes(".") && COUNT_NAME.test(e.name));
      return own.length === 1 ? { kind: "measure", entity: own[0]! } : { kind: "count" };
    }
  }
  const measure = measures[0];
  const amount = amounts[0];
  if (amount && (!measure || amount.score > measure.score)) {
    const fn = roles.aggregate === "sum" || (roles.aggregate !== "avg" && /(price|amount|cost|revenue|sales|total|value|fee|spend|paid|pay|salary|income|balance|profit|quantity|qty|units)/i.test(amount.entity.name)) ? "sum" : "avg";
    return { kind: "adhoc", entity: amount.entity, fn };
  }
  if (measure) return { kind: "measure", entity: measure.entity };
  // "orders by country": the source's own count measure whose words the question uses.
  const counts = all.filter((e) => e.kind === "measure" && !e.name.includes(".") && COUNT_NAME.test(e.name) && e.lexicalTerms.name.some((w) => asked.has(w)));
  return counts.length === 1 ? { kind: "measure", entity: counts[0]! } : { kind: "count" };
}

function aggregateItem(a: Aggregate, unique: (name: string) => string): { text: string; output: string } {
  if (a.kind === "count") {
    const output = unique("row_count");
    return { text: `${malloyName(output)} is count()`, output };
  }
  const leaf = a.entity.name.split(".").at(-1)!;
  if (a.kind === "adhoc") {
    const output = unique(`${a.fn === "sum" ? "total" : "avg"}_${leaf}`);
    return { text: `${malloyName(output)} is ${malloyName(a.entity.name)}.${a.fn}()`, output };
  }
  const output = unique(leaf);
  return { text: output === leaf && !a.entity.name.includes(".") ? malloyName(a.entity.name) : `${malloyName(output)} is ${malloyName(a.entity.name)}`, output };
}

function groupItem(entity: EntityRecord, grain: Grain | undefined, unique: (name: string) => string): { text: string; output: string; grain?: Grain } {
  const leaf = entity.name.split(".").at(-1)!;
  if (grain) {
    // A date has no hour: its finest grain is the day.
    if (grain === "hour" && entity.dataType === "date") grain = "day";
    const base = leaf.replace(/_(dt|date|at|time|ts)$/i, "").replace(/(Date|Time)$/, "") || leaf;
    const output = unique(`${base}_${grain}`);
    return { text: `${malloyName(output)} is ${malloyName(entity.name)}.${grain}`, output, grain };
  }
  const output = unique(leaf);
  return { text: output === leaf && !entity.name.includes(".") ? malloyName(entity.name) : `${malloyName(output)} is ${malloyName(entity.name)}`, output };
}
