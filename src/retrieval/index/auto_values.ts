/**
 * Values indexed without `#(index)`: at run time, each string dimension of a
 * source's own fields whose distinct count is at most
 * {@link AUTO_INDEX_MAX_DISTINCT}, in sources of at most
 * {@link AUTO_INDEX_ROW_BUDGET} rows, gets its values indexed as if it said
 * `#(index)`, so value questions ("orders shipped by truck") find the
 * dimension. `#(index) false` opts a dimension out; an explicit `#(index)`
 * keeps its meaning (built by its own index unit).
 *
 * One statement per DuckDB source, however many fields it has: Malloy
 * selects the candidate columns, and SQL over those rows counts them, counts
 * the distinct values of every candidate and lists the values of those within
 * the limits. Sources of other connections: one query counts, then one query
 * per kept dimension lists its values. None is kept in the model's cache of
 * compiled queries.
 *
 * @module
 */
import type { ModelMetadata } from "../../engine/compile/metadata.ts";
import { type CompiledModel, runQuery } from "../../engine/mod.ts";
import { quoteName, quotePath } from "../../engine/query/malloy_names.ts";
import { dimensionValues, type IndexedValue } from "./indexed_values.ts";

/** Most distinct values of a dimension indexed automatically. */
const AUTO_INDEX_MAX_DISTINCT = 1_000;

/**
 * Sources scanned at once: one compiles on this thread while others run in
 * their DuckDB instances (each query has its own, within QUERY_CONCURRENCY).
 */
const AUTO_INDEX_CONCURRENCY = 3;

/** Sources with more rows are not scanned for automatic value indexes. */
const AUTO_INDEX_ROW_BUDGET = 5_000_000;

/** A dimension that may be indexed automatically. */
export interface AutoIndexCandidate {
  modelPath: string;
  sourceName: string;
  path: string;
}

/**
 * String dimensions of the sources' own fields (not through joins) that
 * have neither `#(index)` nor `#(index) false`.
 *
 * @example
 * autoIndexCandidates(models) // [{ modelPath: "m.malloy", sourceName: "orders", path: "status" }, ...]
 */
export function autoIndexCandidates(models: readonly ModelMetadata[]): AutoIndexCandidate[] {
  const out: AutoIndexCandidate[] = [];
  for (const model of models) {
    for (const source of model.sources) {
      for (const dim of source.dimensions) {
        if (dim.dataType !== "string" || dim.indexed || dim.noIndex || dim.joinPath.length > 0) continue;
        out.push({ modelPath: model.modelPath, sourceName: source.name, path: dim.path });
      }
    }
  }
  return out;
}

/** Options of {@link autoIndexValues}. */
export interface AutoIndexOptions {
  /**
   * Values already built (explicit `#(index)`), by `modelPath#source.path`:
   * those dimensions are skipped, and so is a dimension whose values and
   * counts equal another indexed one of its source (`carrier is carrier_name`).
   */
  built?: ReadonlyMap<string, readonly IndexedValue[]>;
  maxDistinct?: number;
  rowBudget?: number;
  /** Timeout of each query, ms; default 30,000. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A source or dimension whose query failed (the others still run). */
  onError?: (key: string, error: unknown) => void;
}


/**
 * Values of the low-cardinality string dimensions of `models`, keyed
 * `modelPath#source.path`, most frequent first.
 */
export async function autoIndexValues(
  compiledFor: (modelPath: string) => Promise<CompiledModel>,
  models: readonly ModelMetadata[],
  options: AutoIndexOptions = {},
): Promise<Map<string, IndexedValue[]>> {
  const out = new Map<string, IndexedValue[]>();
  const limits = { maxDistinct: options.maxDistinct ?? AUTO_INDEX_MAX_DISTINCT, budget: options.rowBudget ?? AUTO_INDEX_ROW_BUDGET };
  const bySource = new Map<string, AutoIndexCandidate[]>();
  for (const c of autoIndexCandidates(models)) {
    if (options.built?.has(`${c.modelPath}#${c.sourceName}.${c.path}`)) continue;
    const key = `${c.modelPath}#${c.sourceName}`;
    bySource.set(key, [...(bySource.get(key) ?? []), c]);
  }
  const connections = new Map<string, string>(models.flatMap((m) => m.sources.map((s) => [`${m.modelPath}#${s.name}`, s.connection] as const)));
  const sources = [...bySource];
  const answers = await inTurns(sources, AUTO_INDEX_CONCURRENCY, async ([sourceKey, candidates]) => {
    if (options.signal?.aborted) throw options.signal.reason;
    try {
      const compiled = await compiledFor(candidates[0]!.modelPath);
      return (connections.get(sourceKey) === "duckdb"
        ? await duckdbSourceValues(compiled, candidates, { ...options, ...limits }).catch((error) => {
          if (options.signal?.aborted) throw error;
          return undefined; // one broken dimension fails the statement: the query per dimension finds which
        })
        : undefined) ?? await sourceValues(compiled, candidates, { ...options, ...limits });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      options.onError?.(sourceKey, error);
      return undefined;
    }
  });
  for (const [index, [sourceKey, candidates]] of sources.entries()) {
    const found = answers[index];
    if (!found) continue;
    // Value lists of the source already indexed, to leave out a second name of the same column.
    const seen = new Set<string>();
    for (const [key, list] of options.built ?? []) if (key.startsWith(`${sourceKey}.`)) seen.add(signatureOf(list));
    for (const c of candidates) {
      const key = `${c.modelPath}#${c.sourceName}.${c.path}`;
      const values = found.get(c);
      if (values instanceof Error) {
        options.onError?.(key, values);
        continue;
      }
      if (!values || values.length === 0) continue;
      const signature = signatureOf(values);
      if (seen.has(signature)) continue;
      seen.add(signature);
      out.set(key, values);
    }
  }
  return out;
}

type Limits = AutoIndexOptions & { maxDistinct: number; budget: number };

/**
 * A DuckDB source in one statement: the source's candidate columns selected
 * by Malloy (one compile), then, over those rows (unpivoted into name and
 * value), each candidate's values with their counts, kept when the source
 * has at most `budget` rows and the candidate at most `maxDistinct` values,
 * most frequent first. A candidate missing from the answer has no value or
 * too many.
 */
async function duckdbSourceValues(compiled: CompiledModel, candidates: readonly AutoIndexCandidate[], options: Limits): Promise<Map<AutoIndexCandidate, IndexedValue[]>> {
  const select = candidates.map((c, i) => `auto_v${i} is ${quotePath(c.path)}`).join(", ");
  const wrapSql = (sql: string) => `WITH auto_source AS (${sql.trim().replace(/;\s*$/, "")}),
auto_rows AS (SELECT count(*) AS auto_n FROM auto_source),
auto_cells AS (UNPIVOT auto_source ON COLUMNS(*) INTO NAME auto_name VALUE auto_value),
auto_groups AS (SELECT auto_name, CAST(auto_value AS VARCHAR) AS auto_value, count(*) AS auto_count FROM auto_cells
                WHERE (SELECT auto_n FROM auto_rows) <= ${options.budget} GROUP BY ALL),
auto_distinct AS (SELECT auto_name, count(*) AS auto_d FROM auto_groups GROUP BY ALL)
SELECT auto_name, auto_value, auto_count FROM auto_groups JOIN auto_distinct USING (auto_name) WHERE auto_d <= ${options.maxDistinct}
QUALIFY row_number() OVER (PARTITION BY auto_name ORDER BY auto_count DESC, auto_value) <= ${options.maxDistinct}`;
  const result = await runQuery(compiled, {
    query: `run: ${quoteName(candidates[0]!.sourceName)} -> { select: ${select} }`,
    wrapSql, rowLimit: candidates.length * options.maxDistinct, countTotalRows: false, keep: false,
    timeoutMs: options.timeoutMs, signal: options.signal,
  });
  const found = new Map<AutoIndexCandidate, IndexedValue[]>(candidates.map((c) => [c, []]));
  for (const row of result.data) {
    const value = String(row.auto_value);
    const candidate = candidates[Number(String(row.auto_name).slice("auto_v".length))];
    if (candidate && !value.includes("\u0000")) found.get(candidate)!.push({ value, count: Number(row.auto_count) });
  }
  for (const list of found.values()) list.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  return found;
}

/**
 * Any connection: one query counts the source's rows and the distinct
 * values of every candidate, then one query per kept candidate lists its
 * values (a failing one is reported alone).
 */
async function sourceValues(compiled: CompiledModel, candidates: readonly AutoIndexCandidate[], options: Limits): Promise<Map<AutoIndexCandidate, IndexedValue[] | Error>> {
  const timing = { timeoutMs: options.timeoutMs, signal: options.signal };
  const counts = candidates.map((c, i) => `auto_distinct_${i} is count(${quotePath(c.path)})`).join(", ");
  const result = await runQuery(compiled, {
    query: `run: ${quoteName(candidates[0]!.sourceName)} -> { aggregate: auto_rows is count(), ${counts} }`,
    rowLimit: 1, countTotalRows: false, keep: false, ...timing,
  });
  const row = result.data[0] ?? {};
  const found = new Map<AutoIndexCandidate, IndexedValue[] | Error>();
  if (Number(row.auto_rows) > options.budget) return found;
  const keep = candidates.filter((_, i) => Number(row[`auto_distinct_${i}`]) <= options.maxDistinct && Number(row[`auto_distinct_${i}`]) > 0);
  for (const c of keep) {
    try {
      found.set(c, await dimensionValues(compiled, c, { maxValues: options.maxDistinct, ...timing }));
    } catch (error) {
      if (options.signal?.aborted) throw error;
      found.set(c, error instanceof Error ? error : new Error(String(error)));
    }
  }
  return found;
}

/** Calls `work` on every item, at most `turns` at a time; answers in the items' order. */
async function inTurns<T, R>(items: readonly T[], turns: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(turns, items.length) }, async () => {
    while (next < items.length) {
      const at = next++;
      out[at] = await work(items[at]!);
    }
  }));
  return out;
}

/** Values and counts as one string (key order of stored JSON does not matter). */
function signatureOf(values: readonly IndexedValue[]): string {
  return values.map((v) => `${v.value}\u0000${v.count}`).join("\u0001");
}
