/**
 * The line format of the expected shapes (test/eval/shapes/*.ts) and the
 * check that every shape names what its package has.
 *
 * A line is `package | question | shape`. A shape is one or more
 * alternatives separated by ` || `; the query answers the question when it
 * fits any one of them. An alternative is clauses separated by `; `:
 * - `view: orders.by_month` — the query runs that view (refinements allowed);
 * - `measure: A|B, C` — it aggregates (A or B) and C; an option is a measure
 *   `source.field`, an aggregate of a dimension `sum(source.field)` (also avg,
 *   min, max, distinct for `count(field)`), or `count(source)` for `count()`
 *   of that source's rows (`orders.count()` through a join counts orders);
 * - `group: A@month|B, C` — it groups by exactly these (each item matched,
 *   nothing else grouped but a field filtered to one value); `@grain` asks for
 *   a time dimension truncated to that grain (`@month`), or a part extracted
 *   from it (`@month_of_year` for `month(t)`, `@hour_of_day`, `@day_of_week`;
 *   `year(t)` is `@year`), no grain accepts any;
 * - `field: A|B` — it outputs the field (group_by or select), any other
 *   column allowed except a grouping by a number dimension the shape does not name;
 * - `filter: A=v|A=w, B` — it filters (where) on each item: a value option
 *   needs a filter on that field keeping only accepted values, a bare field
 *   any filter on it (a date range); a where on a field no item names refuses;
 * - `source: orders|first_orders` — the query's source is one of these;
 * - `top` / `least` — ordered by an aggregate (a measure of the shape when it
 *   names any), descending / ascending, with a limit.
 * Values may be double-quoted when they hold `,`, `|`, `;` or `=`. Field names
 * are canonical: `source.field` as the field's own source defines it (a field
 * reached through a join or an extend is the same field); a name with a join
 * in it (`trips.pickup_zone.Borough`) is that path read from that source, for
 * a source that joins the same source twice.
 * @module
 */
import type { EvalPackage } from "./schema.ts";

/** One accepted field (or measure, view, value) of a shape item. */
export interface ShapeOption {
  /** Canonical `source.field`. */
  name: string;
  /** `sum`, `avg`, ... for an aggregate of a dimension. */
  fn?: string;
  /** Time grain asked for. */
  grain?: string;
  /** Filter value asked for. */
  value?: string;
}

/** Options of which one must hold. */
export type ShapeItem = ShapeOption[];

/** One alternative of a shape. */
export interface ShapeAlt {
  view?: ShapeItem;
  measures: ShapeItem[];
  groups?: ShapeItem[];
  fields: ShapeItem[];
  filters: ShapeItem[];
  sources?: string[];
  order?: "top" | "least";
}

/** Splits on a separator outside double quotes. */
function split(text: string, sep: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (!quoted && text.startsWith(sep, i)) {
      parts.push(text.slice(start, i));
      start = i + sep.length;
      i += sep.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p !== "");
}

const unquote = (s: string) => (s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s);

function parseOption(text: string): ShapeOption {
  const eq = split(text, "=");
  const option: ShapeOption = { name: eq[0]! };
  if (eq.length > 1) option.value = unquote(eq.slice(1).join("="));
  const at = option.name.indexOf("@");
  if (at > 0) {
    option.grain = option.name.slice(at + 1);
    option.name = option.name.slice(0, at);
  }
  const paren = option.name.indexOf("(");
  if (paren > 0 && option.name.endsWith(")")) {
    option.fn = option.name.slice(0, paren);
    option.name = option.name.slice(paren + 1, -1);
  }
  return option;
}

const items = (text: string): ShapeItem[] => split(text, ",").map((item) => split(item, "|").map(parseOption));

/** Parses one shape (alternatives separated by ` || `). */
export function parseShape(text: string): ShapeAlt[] {
  return split(text, " || ").map((alt) => {
    const shape: ShapeAlt = { measures: [], fields: [], filters: [] };
    for (const clause of split(alt, "; ")) {
      const colon = clause.indexOf(":");
      const key = colon < 0 ? clause : clause.slice(0, colon).trim();
      const body = colon < 0 ? "" : clause.slice(colon + 1).trim();
      if (key === "top" || key === "least") shape.order = key;
      else if (key === "view") shape.view = items(body)[0];
      else if (key === "measure") shape.measures = items(body);
      else if (key === "group") shape.groups = items(body);
      else if (key === "field") shape.fields = items(body);
      else if (key === "filter") shape.filters = items(body);
      else if (key === "source") shape.sources = split(body, "|");
      else throw new Error(`unknown clause '${clause}' in shape '${text}'`);
    }
    return shape;
  });
}

/** Shape lines (`package | question | shape`) by `package | question`. */
export function parseShapeLines(raw: string): Map<string, string> {
  const shapes = new Map<string, string>();
  for (const line of raw.trim().split("\n")) {
    const [pkg, question, ...rest] = line.split(" | ");
    const key = `${pkg!.trim()} | ${question!.trim()}`;
    if (shapes.has(key)) throw new Error(`two shapes for '${key}'`);
    shapes.set(key, rest.join(" | ").trim());
  }
  return shapes;
}

const TIME_GRAINS = new Set(["second", "minute", "hour", "day", "week", "month", "quarter", "year", "quarter_of_year", "month_of_year",
  "week_of_year", "day_of_month", "day_of_week", "day_of_year", "hour_of_day", "minute_of_hour", "second_of_minute"]);
const FUNCTIONS = new Set(["sum", "avg", "min", "max", "distinct"]);

/**
 * What a shape names that its package lacks: unknown sources and fields, a
 * measure clause naming a dimension (or the reverse), a grain on a field that
 * is not a time, a filter value outside the field's listed values.
 */
export function shapeProblems(pkg: EvalPackage, shape: string): string[] {
  const problems: string[] = [];
  const sources = new Map(pkg.models[0]!.sources.map((s) => [s.name, s]));
  const field = (name: string) => {
    const dot = name.indexOf(".");
    const src = sources.get(name.slice(0, dot));
    const path = name.slice(dot + 1);
    return src && [...src.dimensions, ...src.measures, ...src.views].find((f) => f.path === path && (f.joinPath.length === 0 || path.includes(".")));
  };
  let alts: ShapeAlt[];
  try {
    alts = parseShape(shape);
  } catch (error) {
    return [(error as Error).message];
  }
  for (const alt of alts) {
    for (const s of alt.sources ?? []) if (!sources.has(s)) problems.push(`no source '${s}'`);
    const check = (clause: string, item: ShapeItem | undefined, kind: "dimension" | "measure" | "view") => {
      for (const o of item ?? []) {
        if (o.fn === "count" && !o.name.includes(".")) {
          if (!sources.has(o.name)) problems.push(`${clause}: count of unknown source '${o.name}'`);
          continue;
        }
        const f = field(o.name);
        if (!f) { problems.push(`${clause}: no field '${o.name}'`); continue; }
        const canonical = pkg.canonical.get(o.name);
        if (canonical && canonical !== o.name && o.name.split(".").length === 2) problems.push(`${clause}: write '${canonical}' for '${o.name}' (its own source)`);
        const want = o.fn ? "dimension" : kind;
        if (f.fieldType !== want) problems.push(`${clause}: '${o.name}' is a ${f.fieldType}, not a ${want}`);
        if (o.fn && !FUNCTIONS.has(o.fn)) problems.push(`${clause}: unknown aggregate '${o.fn}'`);
        if (o.grain && (!TIME_GRAINS.has(o.grain) || (f.dataType !== "date" && f.dataType !== "timestamp"))) {
          problems.push(`${clause}: grain '${o.grain}' on '${o.name}' (${f.dataType})`);
        }
        const listed = pkg.values[o.name];
        if (o.value !== undefined && listed && f.dataType === "string" && !listed.includes(o.value)) {
          problems.push(`${clause}: '${o.value}' is not a listed value of '${o.name}'`);
        }
        if (o.value !== undefined && f.dataType === "boolean" && o.value !== "true" && o.value !== "false") {
          problems.push(`${clause}: '${o.value}' is not a boolean`);
        }
      }
    };
    check("view", alt.view, "view");
    for (const item of alt.measures) check("measure", item, "measure");
    for (const item of alt.groups ?? []) check("group", item, "dimension");
    for (const item of alt.fields) check("field", item, "dimension");
    for (const item of alt.filters) check("filter", item, "dimension");
    if (!alt.view && alt.measures.length === 0 && !alt.groups && alt.fields.length === 0 && !alt.sources) {
      problems.push("an alternative with no view, measure, group, field or source accepts any query");
    }
  }
  return problems;
}
