/**
 * The judge of "the first next step answers the question": does a Malloy
 * query have the shape the question expects? Shapes were written per
 * question, from the question and its package only (test/eval/shapes/*.ts,
 * format in test/eval/shape_format.ts). The query is compiled against the
 * package's `malloy` model and read from the compiled structure
 * (test/eval/query_facts.ts), never from its text.
 *
 * A query answers when it compiles and fits one alternative of the shape:
 * - source: when the alternative names sources, the query runs on one of them;
 * - view: the query runs that view, as it is or refined (`run: s -> v` or `v + {...}`);
 *   a nest of the view does not count;
 * - measure: each item is aggregated (the named measure, read from its own source or
 *   through a join or an extend, or `fn(field)` written out);
 * - group: the grouped columns are exactly the items (a time dimension at the asked
 *   grain, `year(x)` counting as `x.year`), plus any field the where keeps at a
 *   single value; a measure alternative without `group` allows only such fields;
 * - field: each item is a grouped or selected column; other columns may be added,
 *   but never a grouping by a number dimension the shape does not name (an amount);
 *   alternatives with only `source`/`filter` (a listing) follow the same rule;
 * - filter: each item has a where condition on its field keeping only accepted values
 *   (equality, `?` lists, `or` of equalities, string filter expressions and LIKE
 *   patterns, booleans as `where: flag`/`not flag`); a bare field item accepts any
 *   condition (a date range); a where condition on a field no item names refuses;
 * - top / least: the first order_by is an aggregate (one of the shape's measures when
 *   it names any), descending / ascending, and the query has a limit.
 * Order, limit, nests and extra aggregates are not checked otherwise. Only the
 * first stage of a pipeline is read.
 *
 * Use: `await judgeFirstStep(pkg, q.question, query)` with the question's own
 * package; a step that names another package does not answer (the caller
 * checks that). `verdict.reasons` says what each alternative missed.
 * `bun test/eval/shape_check.ts` checks that every alternative can be met.
 * @module
 */
import { HELDOUT_PACKAGES } from "./heldout_packages.ts";
import { HELDOUT_QUESTIONS } from "./heldout_questions.ts";
import { HELDOUT2_PACKAGES } from "./heldout2_packages.ts";
import { HELDOUT2_QUESTIONS } from "./heldout2_questions.ts";
import { HELDOUT3_PACKAGES } from "./heldout3_packages.ts";
import { HELDOUT3_QUESTIONS } from "./heldout3_questions.ts";
import { HELDOUT4_PACKAGES } from "./heldout4_packages.ts";
import { HELDOUT4_QUESTIONS } from "./heldout4_questions.ts";
import { HELDOUT5_PACKAGES } from "./heldout5_packages.ts";
import { HELDOUT5_QUESTIONS } from "./heldout5_questions.ts";
import { HELDOUT6_PACKAGES } from "./heldout6_packages.ts";
import { HELDOUT6_QUESTIONS } from "./heldout6_questions.ts";
import { HELDOUT7_PACKAGES } from "./heldout7_packages.ts";
import { HELDOUT7_QUESTIONS } from "./heldout7_questions.ts";
import { HELDOUT8_PACKAGES } from "./heldout8_packages.ts";
import { HELDOUT8_QUESTIONS } from "./heldout8_questions.ts";
import { HELDOUT9_PACKAGES } from "./heldout9_packages.ts";
import { HELDOUT9_QUESTIONS } from "./heldout9_questions.ts";
import { HELDOUT10_PACKAGES } from "./heldout10_packages.ts";
import { HELDOUT10_QUESTIONS } from "./heldout10_questions.ts";
import { EVAL_PACKAGES } from "./packages.ts";
import { EVAL_QUESTIONS, type EvalQuestion, half } from "./questions.ts";
import { type Column, type Filter, type QueryFacts, queryFacts } from "./query_facts.ts";
import type { EvalPackage } from "./schema.ts";
import { parseShape, parseShapeLines, type ShapeAlt, type ShapeItem, type ShapeOption } from "./shape_format.ts";
import { TEST, TUNING } from "./shapes/dev.ts";
import { HELDOUT } from "./shapes/heldout.ts";
import { HELDOUT2 } from "./shapes/heldout2.ts";
import { HELDOUT3 } from "./shapes/heldout3.ts";
import { HELDOUT4 } from "./shapes/heldout4.ts";
import { HELDOUT5 } from "./shapes/heldout5.ts";
import { HELDOUT6 } from "./shapes/heldout6.ts";
import { HELDOUT7 } from "./shapes/heldout7.ts";
import { HELDOUT8 } from "./shapes/heldout8.ts";
import { HELDOUT9 } from "./shapes/heldout9.ts";
import { HELDOUT10 } from "./shapes/heldout10.ts";

/** Shape sets: each the questions it covers and its lines. */
export const SHAPE_SETS: Array<{ name: string; questions: EvalQuestion[]; packages: EvalPackage[]; shapes: Map<string, string> }> = [
  { name: "tuning", questions: EVAL_QUESTIONS.filter((q) => half(q) === "tuning"), packages: EVAL_PACKAGES, shapes: parseShapeLines(TUNING) },
  { name: "test", questions: EVAL_QUESTIONS.filter((q) => half(q) === "test"), packages: EVAL_PACKAGES, shapes: parseShapeLines(TEST) },
  { name: "heldout", questions: HELDOUT_QUESTIONS, packages: HELDOUT_PACKAGES, shapes: parseShapeLines(HELDOUT) },
  { name: "heldout2", questions: HELDOUT2_QUESTIONS, packages: HELDOUT2_PACKAGES, shapes: parseShapeLines(HELDOUT2) },
  { name: "heldout3", questions: HELDOUT3_QUESTIONS, packages: HELDOUT3_PACKAGES, shapes: parseShapeLines(HELDOUT3) },
  { name: "heldout4", questions: HELDOUT4_QUESTIONS, packages: HELDOUT4_PACKAGES, shapes: parseShapeLines(HELDOUT4) },
  { name: "heldout5", questions: HELDOUT5_QUESTIONS, packages: HELDOUT5_PACKAGES, shapes: parseShapeLines(HELDOUT5) },
  { name: "heldout6", questions: HELDOUT6_QUESTIONS, packages: HELDOUT6_PACKAGES, shapes: parseShapeLines(HELDOUT6) },
  { name: "heldout7", questions: HELDOUT7_QUESTIONS, packages: HELDOUT7_PACKAGES, shapes: parseShapeLines(HELDOUT7) },
  { name: "heldout8", questions: HELDOUT8_QUESTIONS, packages: HELDOUT8_PACKAGES, shapes: parseShapeLines(HELDOUT8) },
  { name: "heldout9", questions: HELDOUT9_QUESTIONS, packages: HELDOUT9_PACKAGES, shapes: parseShapeLines(HELDOUT9) },
  { name: "heldout10", questions: HELDOUT10_QUESTIONS, packages: HELDOUT10_PACKAGES, shapes: parseShapeLines(HELDOUT10) },
];

/** The shape written for a question, or undefined. */
export function shapeOf(pkg: string, question: string): string | undefined {
  for (const set of SHAPE_SETS) {
    const shape = set.shapes.get(`${pkg} | ${question}`);
    if (shape !== undefined) return shape;
  }
  return undefined;
}

/** The judge's answer: whether the query answers, and why not. */
export interface Verdict {
  answers: boolean;
  /** Index of the alternative the query fits. */
  alternative?: number;
  /** Why each alternative refused (empty when it answers). */
  reasons: string[];
}

/** A LIKE pattern (`%` any run, `_` one character) as a test of one value. */
function likeMatches(pattern: string, value: string): boolean {
  // fits[j]: the pattern read so far matches value.slice(0, j)
  let fits = [true, ...Array.from({ length: value.length }, () => false)];
  for (const ch of pattern) {
    const next = Array.from({ length: value.length + 1 }, () => false);
    for (let j = 0; j <= value.length; j++) {
      if (ch === "%") next[j] = fits[j]! || (j > 0 && next[j - 1]!);
      else if (j > 0) next[j] = fits[j - 1]! && (ch === "_" || value[j - 1] === ch);
    }
    fits = next;
  }
  return fits[value.length]!;
}

/** An option names a canonical `source.field`, or (with two dots or more) a path from the query's source. */
const names = (o: ShapeOption, name: string | undefined, at: string | undefined) => (o.name.split(".").length > 2 ? at === o.name : name === o.name);
const grainFits = (c: Column, o: ShapeOption) => o.grain === undefined || c.grain === o.grain;
const columnFits = (c: Column, o: ShapeOption) => names(o, c.name, c.at) && grainFits(c, o);
const measureFits = (c: Column, o: ShapeOption) => c.kind === "aggregate" && names(o, c.name, c.at) && c.fn === o.fn;

/** True when the condition keeps only values the item accepts for its field. */
function filterFits(f: Filter, item: ShapeItem): boolean {
  const options = item.filter((o) => names(o, f.field, f.at));
  if (options.length === 0) return false;
  if (options.some((o) => o.value === undefined)) return true;
  const accepted = options.map((o) => o.value!);
  const kept = [...(f.values ?? []), ...(f.patterns ?? [])];
  if (kept.length === 0) return false;
  return (f.values ?? []).every((v) => accepted.includes(v)) && (f.patterns ?? []).every((p) => accepted.some((v) => likeMatches(p, v)));
}

const describe = (c: Column) => (c.fn ? `${c.fn}(${c.name})` : c.name) + (c.grain ? `@${c.grain}` : "");

function judgeAlt(alt: ShapeAlt, facts: QueryFacts): string[] {
  const why: string[] = [];
  if (alt.sources && !alt.sources.includes(facts.source)) why.push(`runs on '${facts.source}', not ${alt.sources.join(" or ")}`);
  if (alt.view && !(facts.view && alt.view.some((o) => o.name === facts.view))) {
    why.push(`does not run ${alt.view.map((o) => o.name).join(" or ")}${facts.view ? ` (runs ${facts.view})` : ""}`);
  }
  for (const item of alt.measures) {
    if (!facts.columns.some((c) => item.some((o) => measureFits(c, o)))) why.push(`aggregates no ${item.map((o) => (o.fn ? `${o.fn}(${o.name})` : o.name)).join(" or ")}`);
  }
  for (const item of alt.filters) {
    if (!facts.filters.some((f) => filterFits(f, item))) {
      const on = facts.filters.filter((f) => item.some((o) => names(o, f.field, f.at))).map((f) => f.code);
      why.push(`no where on ${item.map((o) => (o.value !== undefined ? `${o.name}=${o.value}` : o.name)).join(" or ")}${on.length ? ` (has ${on.join(", ")})` : ""}`);
    }
  }
  for (const f of facts.filters) {
    if (!alt.filters.some((item) => filterFits(f, item))) why.push(`where ${f.code} is not asked for`);
  }
  const singleValued = (c: Column) => facts.filters.some((f) => f.field === c.name && f.values?.length === 1 && !c.grain);
  const groups = facts.columns.filter((c) => c.kind === "group");
  if (!alt.view) {
    if (alt.groups) {
      for (const item of alt.groups) {
        if (!groups.some((c) => item.some((o) => columnFits(c, o)))) why.push(`does not group by ${item.map((o) => o.name + (o.grain ? `@${o.grain}` : "")).join(" or ")}`);
      }
      for (const c of groups) {
        if (!alt.groups.some((item) => item.some((o) => columnFits(c, o))) && !singleValued(c)) why.push(`groups by ${describe(c)}, not asked for`);
      }
    } else if (alt.measures.length > 0 && alt.fields.length === 0) {
      for (const c of groups) if (!singleValued(c)) why.push(`groups by ${describe(c)}; the question asks for one total`);
    } else {
      for (const c of groups) {
        if (c.number && !alt.fields.some((item) => item.some((o) => columnFits(c, o)))) why.push(`groups by the number ${describe(c)}`);
      }
    }
  }
  for (const item of alt.fields) {
    const shown = facts.columns.filter((c) => c.kind !== "aggregate");
    if (!shown.some((c) => item.some((o) => columnFits(c, o)))) why.push(`does not show ${item.map((o) => o.name + (o.grain ? `@${o.grain}` : "")).join(" or ")}`);
  }
  if (alt.order) {
    const first = facts.orderBy[0];
    const wanted = alt.order === "top" ? "desc" : "asc";
    const onMeasure = first?.column?.kind === "aggregate" && (alt.measures.length === 0 || alt.measures.some((item) => item.some((o) => measureFits(first.column!, o))));
    if (!first || !onMeasure || first.dir !== wanted) why.push(`not ordered by the measure ${wanted}`);
    if (facts.limit === undefined) why.push("no limit");
  }
  return why;
}

/**
 * Judges a query against a shape: compiles it on the package's model and
 * tries each alternative.
 */
export async function judgeShape(pkg: EvalPackage, shape: string, query: string): Promise<Verdict> {
  let facts: QueryFacts;
  try {
    facts = await queryFacts(pkg, query);
  } catch (error) {
    return { answers: false, reasons: [`does not compile: ${(error as Error).message.split("\n")[0]}`] };
  }
  const reasons: string[] = [];
  const alts = parseShape(shape);
  for (const [i, alt] of alts.entries()) {
    const why = judgeAlt(alt, facts);
    if (why.length === 0) return { answers: true, alternative: i, reasons: [] };
    reasons.push(`${alts.length > 1 ? `alternative ${i + 1}: ` : ""}${why.join("; ")}`);
  }
  return { answers: false, reasons };
}

/**
 * Decides whether `query` (Malloy, e.g. `run: orders -> by_month`) answers
 * `question` of package `pkg`, by the question's expected shape. Throws when
 * no shape was written for the question.
 */
export function judgeFirstStep(pkg: EvalPackage, question: string, query: string): Promise<Verdict> {
  const shape = shapeOf(pkg.name, question);
  if (shape === undefined) throw new Error(`no expected shape for '${pkg.name} | ${question}'`);
  return judgeShape(pkg, shape, query);
}
