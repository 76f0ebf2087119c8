/**
 * How many values an index unit keeps, and how many distinct values its
 * dimension has: `#(index_values) N` on the dimension (with `#(index)`) keeps
 * the N most frequent values; the default keeps {@link DEFAULT_INDEX_VALUES}.
 * @module
 */
import type { CompiledModel } from "../engine/compile/compile.ts";
import { runQuery } from "../engine/query/query.ts";
import { quoteName, quotePath } from "../engine/query/malloy_names.ts";
import { ValidationError } from "../errors.ts";

/** Values kept per `#(index)` dimension without `#(index_values)`. */
const DEFAULT_INDEX_VALUES = 1000;
/** The most values `#(index_values)` may ask for. */
const MAX_INDEX_VALUES = 100_000;

interface Annotated {
  annotations?: { forRoute(route?: string): Array<{ content: string }> };
}

/**
 * The `#(index_values) N` of a dimension (dotted path through joins) of a
 * source of the compiled model, else the default. A value that is not a
 * whole number from 1 to {@link MAX_INDEX_VALUES} is a 400 naming it.
 */
export function indexValuesLimit(compiled: CompiledModel, dimension: { sourceName: string; path: string }): number {
  let explore = compiled.model.explores.find((e) => e.name === dimension.sourceName);
  const segments = dimension.path.split(".");
  let field: unknown;
  for (const [i, segment] of segments.entries()) {
    field = explore?.getFieldByNameIfExists(segment);
    if (i < segments.length - 1) explore = (field as { isExploreField?: () => boolean })?.isExploreField?.() ? field as typeof explore : undefined;
  }
  const notes = (field as Annotated | undefined)?.annotations?.forRoute("index_values") ?? [];
  const text = notes.at(-1)?.content.trim();
  if (text === undefined || text === "") return DEFAULT_INDEX_VALUES;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > MAX_INDEX_VALUES) {
    throw new ValidationError(`#(index_values) ${text} on '${dimension.sourceName}.${dimension.path}' must be a whole number from 1 to ${MAX_INDEX_VALUES}`);
  }
  return n;
}

/** How many distinct non-null values a dimension has (one Malloy query). */
export async function distinctValueCount(
  compiled: CompiledModel,
  dimension: { sourceName: string; path: string },
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const field = quotePath(dimension.path);
  const query = `run: ${quoteName(dimension.sourceName)} -> { where: ${field} != null; aggregate: distinct_values is count(${field}) }`;
  const result = await runQuery(compiled, { query, rowLimit: 1, countTotalRows: false, timeoutMs: options.timeoutMs, signal: options.signal, keep: false });
  return Number(result.data[0]?.distinct_values ?? 0);
}
