/**
 * The `malloy_documentation` of a `get_context` answer: a short Malloy
 * primer (under 1,500 characters) made of the notes that fit what was found
 * (time fields, filter values, views, joined fields, measures), instead of
 * the whole reference in every answer (`docs/malloy_reference.md`, still
 * available through {@link malloyReference} in context_result.ts).
 *
 * @module
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

// The lexer's keyword table of the installed Malloy (not in the package's exports, so required by file).
const require = createRequire(import.meta.url);
const KEYWORD_DISPLAY_NAMES = require(join(dirname(require.resolve("@malloydata/malloy")), "lang", "lib", "Malloy", "keyword-display-names.js"))
  .KEYWORD_DISPLAY_NAMES as Record<string, string>;

/** Malloy words that cannot be a bare field name (`number`, `date`, `count`, ...). */
const MALLOY_RESERVED: ReadonlySet<string> = new Set(
  Object.values(KEYWORD_DISPLAY_NAMES).filter((k) => !k.endsWith(":")).map((k) => k.toLowerCase()),
);

/**
 * A field path as Malloy accepts it: each segment backquoted when it is a
 * reserved word or not a plain identifier (`` `number` ``, `` customer.`date` ``).
 *
 * @example
 * malloyName("orders.number") // "orders.`number`"
 */
export function malloyName(path: string): string {
  return path.split(".").map(malloySourceName).join(".");
}

/**
 * A source's (or a view's, or a query's) name as Malloy accepts it: one
 * identifier, backquoted when it is a reserved word or not a plain
 * identifier (a backquoted `pay.roll` is one name, not a path).
 *
 * @example
 * malloySourceName("pay.roll") // "`pay.roll`"
 */
export function malloySourceName(name: string): string {
  return /^[A-Za-z_][A-Za-z_0-9]*$/.test(name) && !MALLOY_RESERVED.has(name.toLowerCase()) ? name : "`" + name.replace(/`/g, "") + "`";
}

/** What an answer found, for choosing notes. */
export interface FoundKinds {
  time: boolean;
  values: boolean;
  views: boolean;
  joined: boolean;
  measures: boolean;
}

const BASE = [
  "Malloy: `run: source -> { where: ...; group_by: dims; aggregate: measures; order_by: x desc; limit: n }`. Use field names exactly as listed; backquote reserved words (`` `number` ``).",
  "Strings in single quotes: `where: status = 'shipped'`; several values: `status ? 'a' | 'b'`; `and`/`or`/`not`.",
  "Dimensions go in `group_by:`, measures in `aggregate:` (ad hoc: `count()`, `x.sum()`, `x.avg()`, `count(x)` distinct); filter measures with `having:`; rename a name used twice (`n is count()`).",
];
const NOTES: Record<keyof FoundKinds, string> = {
  time: "Time: `group_by: m is created_at.month` (`.year`, `.quarter`, `.week`, `.day`); filters `created_at ? @2024`, `? @2024-01 to @2024-04`, `? now - 30 days for 30 days`.",
  values: "A listed value is written exactly as shown, in single quotes, in `where:`.",
  views: "A view runs as `run: source -> view_name`, refined with `+ { where: ...; limit: 10 }`.",
  joined: "Joined fields keep their path (`customer.name`); aggregate a joined measure through it (`customer.total.sum()`).",
  measures: "Prefer the model's measures to ad-hoc aggregates: they encode its definitions.",
};

/**
 * The short Malloy notes for an answer.
 *
 * @example
 * malloyNotes({ time: true, values: false, views: false, joined: false, measures: true }).length < 1500 // true
 */
export function malloyNotes(found: FoundKinds): string {
  const lines = [...BASE];
  for (const key of Object.keys(NOTES) as Array<keyof FoundKinds>) if (found[key]) lines.push(NOTES[key]);
  return lines.map((l) => `- ${l}`).join("\n");
}
