/**
 * Indexed values of `#(index)` dimensions: the distinct values of each such
 * dimension with their row counts, most frequent first, computed by running
 * one Malloy query per dimension over the version's own data (its DuckDB
 * files or the environment's connections).
 *
 * @module
 */
import type { ModelMetadata } from "../../engine/compile/metadata.ts";
import { quoteName, quotePath } from "../../engine/query/malloy_names.ts";
import { type CompiledModel, compileModel, createPackageRuntime, type LookupConnection, type PackageFiles, runQuery } from "../../engine/mod.ts";

/** One distinct value of a dimension and how many rows have it. */
export interface IndexedValue {
  value: string;
  count: number;
}

/** Options of {@link computeIndexedValues}. */
export interface IndexedValuesOptions {
  /** The environment's connections (postgres, ...), besides the package's `duckdb`. */
  lookupConnection?: LookupConnection;
  /** Values kept per dimension (most frequent first); default 100. */
  maxValues?: number;
  /** Timeout of each query, ms; default 30,000. */
  timeoutMs?: number;
  /** Called for a dimension whose values could not be computed (the others still are). */
  onError?: (key: string, error: unknown) => void;
}

/** Options of {@link dimensionValues}. */
export interface DimensionValuesOptions {
  /** Values kept (most frequent first); default 100. */
  maxValues?: number;
  /** Timeout of the query, ms; default 30,000. */
  timeoutMs?: number;
  /** Cancels the query. */
  signal?: AbortSignal;
}

/**
 * Distinct values of one dimension of a compiled model with their row
 * counts, most frequent first (one Malloy query). Throws the query's error.
 * A value holding a NUL character is left out: PostgreSQL's text and jsonb
 * cannot store it (one such value failed the whole retrieval step of a
 * run), and no question can type it.
 */
export async function dimensionValues(
  compiled: CompiledModel,
  dimension: { sourceName: string; path: string },
  options: DimensionValuesOptions = {},
): Promise<IndexedValue[]> {
  const limit = Math.max(1, options.maxValues ?? 100);
  const field = quotePath(dimension.path);
  const query = `run: ${quoteName(dimension.sourceName)} -> {
  where: ${field} != null
  group_by: indexed_value is ${field}
  aggregate: indexed_count is count()
  order_by: indexed_count desc, indexed_value
  limit: ${limit}
}`;
  const result = await runQuery(compiled, { query, rowLimit: limit, countTotalRows: false, timeoutMs: options.timeoutMs, signal: options.signal, keep: false });
  return valuesOf(result.data);
}

/** Values and counts of result rows, without values holding NUL. */
function valuesOf(rows: readonly Record<string, unknown>[]): IndexedValue[] {
  return rows.map((row) => ({ value: String(row.indexed_value), count: Number(row.indexed_count) }))
    .filter((v) => !v.value.includes("\u0000"));
}

/**
 * Values of every `#(index)` dimension of `models`, keyed
 * `modelPath#sourceName.fieldPath`. A dimension whose query fails is left
 * out and reported through `onError`.
 */
export async function computeIndexedValues(
  pkg: { files: PackageFiles; packageDir: string },
  models: readonly ModelMetadata[],
  options: IndexedValuesOptions = {},
): Promise<Map<string, IndexedValue[]>> {
  const out = new Map<string, IndexedValue[]>();
  const wanted = models.filter((m) => m.sources.some((s) => s.dimensions.some((d) => d.indexed)));
  if (wanted.length === 0) return out;
  const runtime = createPackageRuntime(pkg.files, pkg.packageDir, { lookupConnection: options.lookupConnection });
  const limit = Math.max(1, options.maxValues ?? 100);
  for (const meta of wanted) {
    const compiled = await compileModel(runtime, meta.modelPath);
    for (const source of meta.sources) {
      for (const dim of source.dimensions.filter((d) => d.indexed)) {
        const key = `${meta.modelPath}#${source.name}.${dim.path}`;
        try {
          out.set(key, await dimensionValues(compiled, { sourceName: source.name, path: dim.path }, { ...options, maxValues: limit }));
        } catch (error) {
          options.onError?.(key, error);
        }
      }
    }
  }
  return out;
}
