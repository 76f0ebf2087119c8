/**
 * Values indexed without `#(index)`: at run time, each string dimension of a
 * source's own fields whose distinct count is at most
 * {@link AUTO_INDEX_MAX_DISTINCT}, in sources of at most
 * {@link AUTO_INDEX_ROW_BUDGET} rows, gets its values indexed as if it said
 * `#(index)`, so value questions ("orders shipped by truck") find the
 * dimension. `#(index) false` opts a dimension out; an explicit `#(index)`
 * keeps its meaning (built by its own index unit).
 *
 * One query per source counts its rows and the distinct values of every
 * candidate at once; one query per kept dimension lists the values.
 *
 * @module
 */
import type { ModelMetadata } from "../../engine/metadata.ts";
import { type CompiledModel, runQuery } from "../../engine/mod.ts";
import { quoteName, quotePath } from "../../engine/malloy_names.ts";
import { dimensionValues, type IndexedValue } from "./indexed_values.ts";

/** Most distinct values of a dimension indexed automatically. */
const AUTO_INDEX_MAX_DISTINCT = 1_000;

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
  const maxDistinct = options.maxDistinct ?? AUTO_INDEX_MAX_DISTINCT;
  const budget = options.rowBudget ?? AUTO_INDEX_ROW_BUDGET;
  const bySource = new Map<string, AutoIndexCandidate[]>();
  for (const c of autoIndexCandidates(models)) {
    if (options.built?.has(`${c.modelPath}#${c.sourceName}.${c.path}`)) continue;
    const key = `${c.modelPath}#${c.sourceName}`;
    bySource.set(key, [...(bySource.get(key) ?? []), c]);
  }
  for (const [sourceKey, candidates] of bySource) {
    if (options.signal?.aborted) throw options.signal.reason;
    const { modelPath, sourceName } = candidates[0]!;
    let keep: AutoIndexCandidate[] = [];
    let compiled: CompiledModel;
    try {
      compiled = await compiledFor(modelPath);
      const counts = candidates.map((c, i) => `auto_distinct_${i} is count(${quotePath(c.path)})`).join(", ");
      const result = await runQuery(compiled, {
        query: `run: ${quoteName(sourceName)} -> { aggregate: auto_rows is count(), ${counts} }`,
        rowLimit: 1, countTotalRows: false, timeoutMs: options.timeoutMs, signal: options.signal,
      });
      const row = result.data[0] ?? {};
      if (Number(row.auto_rows) > budget) continue;
      keep = candidates.filter((_, i) => Number(row[`auto_distinct_${i}`]) <= maxDistinct && Number(row[`auto_distinct_${i}`]) > 0);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      options.onError?.(sourceKey, error);
      continue;
    }
    // Value lists of the source already indexed, to leave out a second name of the same column.
    const seen = new Set<string>();
    for (const [key, list] of options.built ?? []) if (key.startsWith(`${sourceKey}.`)) seen.add(signatureOf(list));
    for (const c of keep) {
      const key = `${c.modelPath}#${c.sourceName}.${c.path}`;
      try {
        const values = await dimensionValues(compiled, c, { maxValues: maxDistinct, timeoutMs: options.timeoutMs, signal: options.signal });
        const signature = signatureOf(values);
        if (seen.has(signature)) continue;
        seen.add(signature);
        out.set(key, values);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        options.onError?.(key, error);
      }
    }
  }
  return out;
}

/** Values and counts as one string (key order of stored JSON does not matter). */
function signatureOf(values: readonly IndexedValue[]): string {
  return values.map((v) => `${v.value}\u0000${v.count}`).join("\u0001");
}
