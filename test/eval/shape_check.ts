/**
 * Checks that every alternative of every expected shape can be met: for each
 * alternative it writes a query that fits it (from a source that reaches
 * every field it names, through joins), and asks the judge. An alternative no
 * query can meet (a field not reachable from the required source, a view on
 * another source) is a mistake in the shape. Prints the count per set and
 * every alternative that fails; exits 1 when any does.
 *
 *   bun test/eval/shape_check.ts [set ...]
 * @module
 */
import { judgeShape, SHAPE_SETS } from "./judge_shape.ts";
import { Catalog } from "./query_facts.ts";
import type { EvalPackage } from "./schema.ts";
import { parseShape, type ShapeAlt, type ShapeOption } from "./shape_format.ts";

const EXTRACT: Record<string, string> = {
  month_of_year: "month", quarter_of_year: "quarter", week_of_year: "week", day_of_month: "day", day_of_week: "day_of_week",
  day_of_year: "day_of_year", hour_of_day: "hour", minute_of_hour: "minute", second_of_minute: "second",
};

const q = (name: string) => "`" + name + "`";
const dotted = (path: string[]) => path.map(q).join(".");

/** Join paths from a source to every source it reaches (shortest first, at most four joins). */
function reachable(catalog: Catalog, from: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>([[from, [[]]]]);
  let frontier: Array<[string, string[]]> = [[from, []]];
  for (let depth = 0; depth < 4; depth++) {
    const next: Array<[string, string[]]> = [];
    for (const [src, path] of frontier) {
      for (const [join, target] of catalog.joins(src)) {
        const p = [...path, join];
        out.set(target, [...(out.get(target) ?? []), p]);
        next.push([target, p]);
      }
    }
    frontier = next;
  }
  return out;
}

/** A query fitting the alternative from `source`, or undefined when some option cannot be reached. */
function queryFor(pkg: EvalPackage, catalog: Catalog, source: string, alt: ShapeAlt): string | undefined {
  const reach = reachable(catalog, source);
  const pathOf = (o: ShapeOption): string | undefined => {
    const parts = o.name.split(".");
    if (parts.length > 2) return parts[0] === source ? dotted(parts.slice(1)) : undefined;
    if (o.fn === "count" && parts.length === 1) {
      const p = reach.get(o.name)?.[0];
      return p && (p.length ? `${dotted(p)}.count()` : "count()");
    }
    // any source whose own field is this one (the field itself, or a source extending its source)
    for (const [target, paths] of reach) {
      if (catalog.own(target, parts[1]!) && catalog.canonical(`${target}.${parts[1]}`) === o.name) return dotted([...paths[0]!, parts[1]!]);
    }
    return undefined;
  };
  const body: string[] = [];
  const groups: string[] = [];
  let i = 0;
  const timed = (path: string, o: ShapeOption) => (!o.grain ? path : EXTRACT[o.grain] ? `${EXTRACT[o.grain]}(${path})` : `${path}.${o.grain}`);
  for (const item of [...(alt.groups ?? []), ...alt.fields]) {
    const path = pathOf(item[0]!);
    if (!path) return undefined;
    groups.push(`g${i++} is ${timed(path, item[0]!)}`);
  }
  const aggregates: string[] = [];
  for (const item of alt.measures) {
    const o = item[0]!;
    const path = pathOf(o);
    if (!path) return undefined;
    const fn = o.fn === "distinct" ? "count" : o.fn;
    aggregates.push(`m${aggregates.length} is ${o.fn && o.fn !== "count" ? `${fn}(${path})` : path}`);
  }
  const wheres: string[] = [];
  for (const item of alt.filters) {
    const o = item[0]!;
    const path = pathOf(o);
    if (!path) return undefined;
    const type = catalog.field(o.name.split(".").length > 2 ? (pkg.canonical.get(o.name) ?? o.name) : o.name)?.dataType;
    if (o.value === undefined) wheres.push(`${path} != null`);
    else if (type === "string") wheres.push(`${path} = '${o.value.replace(/'/g, "\\'")}'`);
    else wheres.push(`${path} = ${o.value}`);
  }
  if (wheres.length) body.push(`where: ${wheres.join(", ")}`);
  if (alt.view) {
    const view = alt.view.map((o) => o.name.split(".")[1]!).find((v) => catalog.own(source, v)?.fieldType === "view" && alt.view!.some((o) => o.name === catalog.canonical(`${source}.${v}`)));
    if (!view) return undefined;
    return `run: ${q(source)} -> ${q(view)}${body.length ? ` + { ${body.join("; ")} }` : ""}`;
  }
  if (groups.length) body.push(`group_by: ${groups.join(", ")}`);
  if (aggregates.length) body.push(`aggregate: ${aggregates.join(", ")}`);
  if (!groups.length && !aggregates.length) body.push("aggregate: rows is count()");
  if (alt.order) body.push(`order_by: m0 ${alt.order === "top" ? "desc" : "asc"}`, "limit: 10");
  return `run: ${q(source)} -> { ${body.join("; ")} }`;
}

const wanted = new Set(process.argv.slice(2));
let failures = 0;
for (const set of SHAPE_SETS) {
  if (wanted.size && !wanted.has(set.name)) continue;
  let alternatives = 0;
  for (const [key, shape] of set.shapes) {
    const pkg = set.packages.find((p) => p.name === key.split(" | ")[0])!;
    const catalog = new Catalog(pkg);
    for (const [n, alt] of parseShape(shape).entries()) {
      alternatives++;
      const why: string[] = [];
      let met = false;
      for (const source of alt.sources ?? catalog.sourceNames()) {
        const query = queryFor(pkg, catalog, source, alt);
        if (!query) continue;
        const verdict = await judgeShape(pkg, shape, query);
        if (verdict.answers) { met = true; break; }
        why.push(`${query}: ${verdict.reasons.join(" / ")}`);
      }
      if (!met) {
        failures++;
        console.log(`${set.name}: ${key}, alternative ${n + 1} cannot be met${why.length ? `\n    ${why.join("\n    ")}` : " (no source reaches every field it names)"}`);
      }
    }
  }
  console.log(`${set.name}: ${set.shapes.size} shapes, ${alternatives} alternatives`);
}
process.exit(failures > 0 ? 1 : 0);
