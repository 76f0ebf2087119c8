/**
 * The character budget of an `execute_query` answer: an agent reads the
 * answer's JSON text, so rows are cut from the end until the text fits
 * `max_chars` (default {@link DEFAULT_RESULT_CHARS}). A cut answer says so:
 * `truncated: true`, `returnedRows`, and a note on how to get the rest
 * (`totalRows` keeps the full count).
 * @module
 */
import type { QueryEnvelope } from "./tools.ts";

/** Budget of an `execute_query` answer's JSON text when the caller gives no `max_chars`. */
export const DEFAULT_RESULT_CHARS = 50_000;

/** An `execute_query` answer, with the marks of a cut. */
export interface BudgetedEnvelope extends QueryEnvelope {
  /** Present (true) when rows were left out to fit the budget. */
  truncated?: true;
  /** Rows in `data` after the cut. */
  returnedRows?: number;
  /** How to get what was left out. */
  note?: string;
}

/**
 * Keeps the first rows of `envelope.data` whose JSON fits `maxChars` with the
 * rest of the answer; returns the envelope unchanged when it fits already.
 *
 * @example
 * fitToBudget({ data: rows, totalRows: 10_000, executionTime: 12, metadata: {} }, 2_000).returnedRows // e.g. 31
 */
export function fitToBudget(envelope: QueryEnvelope, maxChars = DEFAULT_RESULT_CHARS): BudgetedEnvelope {
  return fitted(envelope, maxChars).value;
}

/**
 * {@link fitToBudget} with the JSON text of its answer, so an answer's rows are
 * serialized once: the text that measured the whole envelope is the answer's
 * text when it fits.
 */
export function fitted(envelope: QueryEnvelope, maxChars = DEFAULT_RESULT_CHARS): { value: BudgetedEnvelope; json: string } {
  const whole = JSON.stringify(envelope);
  if (whole.length <= maxChars) return { value: envelope, json: whole };
  const rows = envelope.data;
  const shell = (kept: number): BudgetedEnvelope => ({
    ...envelope,
    data: [],
    truncated: true,
    returnedRows: kept,
    note: `data holds the first ${kept} of ${rows.length} rows to stay within max_chars ${maxChars}; aggregate, add a limit or a where:, or raise max_chars for more`,
  });
  // Each kept row adds its JSON and one comma; the shell's numbers are at most as long with the final count.
  let used = JSON.stringify(shell(rows.length)).length;
  let kept = 0;
  while (kept < rows.length) {
    const size = JSON.stringify(rows[kept]).length + (kept > 0 ? 1 : 0);
    if (used + size > maxChars) break;
    used += size;
    kept++;
  }
  // The shell was measured with the largest count: a few characters may be left for more rows.
  const cut = (k: number): BudgetedEnvelope => ({ ...shell(k), data: rows.slice(0, k) });
  let value = cut(kept);
  let json = JSON.stringify(value);
  while (kept < rows.length) {
    const more = cut(kept + 1);
    const moreJson = JSON.stringify(more);
    if (moreJson.length > maxChars) break;
    kept++;
    value = more;
    json = moreJson;
  }
  return { value, json };
}
