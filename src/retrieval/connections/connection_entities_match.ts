/**
 * Matching search text to connection tables and columns, and the modeling
 * suggestions made for each table.
 *
 * Matching: the search text's stemmed content words (abbreviations expanded,
 * `cust` meets `customer`) against each table's and column's name words:
 * lexical score = share of the search words the name holds (1 for the whole
 * name). With an embedder, the cosine of the search text and the name's words
 * is blended in (`0.7 * lexical + 0.3 * cosine`), and a name without common
 * words still matches on a cosine of at least 0.6 (`0.6 * cosine`). A table's
 * score is its name's score or 0.9 times its best column's, whichever is higher.
 * @module
 */
import type { Embedder } from "../embedding/embedder.ts";
import type { RawTable } from "./connection_entities.ts";
import { contentStems, expandAbbreviations, splitName } from "../text/text_terms.ts";

/** A column in a result. */
interface EntityColumn {
  name: string;
  type: string;
  score?: number;
  match_reason?: string;
}

/** A modeling suggestion for a table. */
interface ModelingSuggestion {
  kind: "source" | "join";
  description: string;
  malloy: string;
}

/** A table in a result. */
export interface EntityTable extends Omit<RawTable, "columns"> {
  columns: EntityColumn[];
  score: number;
  match_reason?: string;
  suggestions: ModelingSuggestion[];
}

interface Match {
  score: number;
  reason: string;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

/** Readable words of a table or column name (`public.order_items` -> `order items`, file extension dropped). */
function nameWords(name: string): string {
  const last = name.split(/[/.]/).filter((s) => !/^(csv|tsv|parquet|json|jsonl|ndjson)$/i.test(s)).at(-1) ?? name;
  return expandAbbreviations(splitName(last)).join(" ");
}

/** Scores names against a search text. */
async function scorer(text: string, names: string[], embedder: Embedder | null): Promise<(name: string) => Match | null> {
  const asked = contentStems(text, { expand: true });
  const vectors = new Map<string, Float32Array | null>();
  let askedVector: Float32Array | null = null;
  if (embedder) {
    const distinct = [...new Set(names.map(nameWords))];
    const embedded = await embedder.embed([text, ...distinct]);
    askedVector = embedded[0] ?? null;
    distinct.forEach((w, i) => vectors.set(w, embedded[i + 1] ?? null));
  }
  return (name: string) => {
    const words = nameWords(name);
    const stems = new Set(contentStems(words));
    const common = asked.filter((s) => stems.has(s));
    const lexical = asked.length === 0 ? 0 : common.length / asked.length;
    const vector = vectors.get(words);
    const sem = askedVector && vector ? Math.max(0, cosine(askedVector, vector)) : 0;
    if (lexical > 0) {
      const score = askedVector ? 0.7 * lexical + 0.3 * sem : lexical;
      return { score: round(score), reason: `name '${name}' contains ${common.map((c) => `'${c}'`).join(", ")}` };
    }
    if (sem >= 0.6) return { score: round(0.6 * sem), reason: `name '${name}' is semantically close to '${text}' (cosine ${round(sem)})` };
    return null;
  };
}

/**
 * Scores tables and their columns against a search text; tables with no
 * match are dropped, the rest sorted best first.
 */
export async function matchTables(tables: RawTable[], options: { searchText: string; embedder: Embedder | null }): Promise<EntityTable[]> {
  const names = tables.flatMap((t) => [t.table, ...t.columns.map((c) => c.name)]);
  const score = await scorer(options.searchText, names, options.embedder);
  const out: EntityTable[] = [];
  for (const t of tables) {
    const own = score(t.table);
    const columns: EntityColumn[] = t.columns.map((c) => {
      const m = score(c.name);
      return m ? { ...c, score: m.score, match_reason: m.reason } : { ...c };
    });
    const bestColumn = columns.reduce<EntityColumn | null>((best, c) => (c.score ?? 0) > (best?.score ?? 0) ? c : best, null);
    const viaColumn = bestColumn ? round(0.9 * bestColumn.score!) : 0;
    if (!own && !bestColumn) continue;
    const useOwn = own !== null && own.score >= viaColumn;
    out.push({
      ...t,
      columns,
      score: useOwn ? own!.score : viaColumn,
      match_reason: useOwn ? own!.reason : `column ${bestColumn!.match_reason}`,
      suggestions: suggestionsFor(t),
    });
  }
  return out.sort((a, b) => b.score - a.score || a.connection.localeCompare(b.connection) || a.table.localeCompare(b.table));
}

/** Tables as they are, with their suggestions (enumeration without matching). */
export function unmatchedTables(tables: RawTable[]): EntityTable[] {
  return tables.map((t) => ({ ...t, columns: t.columns.map((c) => ({ ...c })), score: 1, suggestions: suggestionsFor(t) }));
}

type Kind = "number" | "time" | "string" | "boolean" | "other";

/** Malloy-side kind of a SQL column type. */
function columnKind(type: string): Kind {
  const t = type.toLowerCase();
  if (/^(tiny|small|big|hug|u)?int|integer|numeric|decimal|double|float|real|number|money|serial/.test(t)) return "number";
  if (/date|time/.test(t)) return "time";
  if (/bool/.test(t)) return "boolean";
  if (/char|text|string|varchar|uuid|enum/.test(t)) return "string";
  return "other";
}

/** A snake_case Malloy identifier from a table name or file path. */
function sourceName(table: string): string {
  const words = splitName(table.split(/[/.]/).filter((s) => !/^(csv|tsv|parquet|json|jsonl|ndjson)$/i.test(s)).at(-1) ?? table);
  const id = words.join("_") || "data";
  return /^[a-z_]/.test(id) ? id : `t_${id}`;
}

function quoteName(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `\`${name.replace(/`/g, "")}\``;
}

function singular(word: string): string {
  return word.endsWith("ies") ? `${word.slice(0, -3)}y` : word.endsWith("s") && !word.endsWith("ss") ? word.slice(0, -1) : word;
}

/**
 * The suggested Malloy source of a table (primary key, time dimensions,
 * sum/avg measures of numeric columns) and join hints for `*_id` columns.
 */
function suggestionsFor(t: RawTable): ModelingSuggestion[] {
  const name = sourceName(t.table);
  const cols = t.columns;
  const lower = (c: { name: string }) => c.name.toLowerCase();
  const pk = cols.find((c) => lower(c) === "id") ?? cols.find((c) => lower(c) === `${singular(name)}_id`);
  const isKey = (c: { name: string }) => c === pk || /(^id$|_id$|Id$)/.test(c.name);
  const lines: string[] = [];
  if (pk) lines.push(`  primary_key: ${quoteName(pk.name)}`);
  const times = cols.filter((c) => columnKind(c.type) === "time").slice(0, 3);
  for (const c of times) lines.push(`  dimension: ${sourceName(c.name).replace(/_(at|date|time|ts)$/, "")}_month is ${quoteName(c.name)}.month`);
  lines.push("  measure: row_count is count()");
  const numbers = cols.filter((c) => columnKind(c.type) === "number" && !isKey(c)).slice(0, 4);
  for (const c of numbers) {
    const n = sourceName(c.name);
    lines.push(`  measure: total_${n} is ${quoteName(c.name)}.sum()`);
    lines.push(`  measure: avg_${n} is ${quoteName(c.name)}.avg()`);
  }
  const ref = `${t.connection}.table('${t.table.replace(/'/g, "\\'")}')`;
  const out: ModelingSuggestion[] = [{
    kind: "source",
    description: `a source over ${t.table}${pk ? ` keyed by ${pk.name}` : " (no id column found: add primary_key before joining to it)"}`,
    malloy: `source: ${name} is ${ref} extend {\n${lines.join("\n")}\n}`,
  }];
  for (const c of cols.filter((c) => c !== pk && /_id$/i.test(c.name))) {
    const target = c.name.replace(/_id$/i, "");
    out.push({
      kind: "join",
      description: `${c.name} looks like a key of ${target}: define a '${target}s' source with primary_key and join it`,
      malloy: `join_one: ${sourceName(target)}s with ${quoteName(c.name)}`,
    });
  }
  return out;
}
