/** The character budget of `execute_query` answers (src/mcp/result_budget.ts). */
import { expect, test } from "bun:test";
import { DEFAULT_RESULT_CHARS, fitToBudget } from "../../src/mcp/result_budget.ts";

const rows = Array.from({ length: 1_000 }, (_, i) => ({ id: i, name: `customer ${i}`, note: "é\"quoted\"".repeat(i % 5) }));
const envelope = { data: rows, totalRows: 1_000, executionTime: 3, metadata: { sourceName: "orders" } };

test("rows are cut from the end until the JSON text fits, and the answer says so", () => {
  for (const budget of [600, 2_000, 20_000]) {
    const out = fitToBudget(envelope, budget);
    expect(JSON.stringify(out).length).toBeLessThanOrEqual(budget);
    expect(out.truncated).toBe(true);
    expect(out.returnedRows).toBe(out.data.length);
    expect(out.data).toEqual(rows.slice(0, out.data.length));
    expect(out.totalRows).toBe(1_000);
    // one more row would not have fitted
    const more = { ...out, data: rows.slice(0, out.data.length + 1), returnedRows: out.data.length + 1 };
    expect(JSON.stringify(more).length).toBeGreaterThan(budget);
  }
});

test("an answer within the budget is returned as it is; the default budget applies without max_chars", () => {
  const small = { ...envelope, data: rows.slice(0, 3), totalRows: 3 };
  expect(fitToBudget(small, 10_000)).toBe(small);
  const out = fitToBudget(envelope);
  expect(JSON.stringify(envelope).length).toBeGreaterThan(DEFAULT_RESULT_CHARS);
  expect(JSON.stringify(out).length).toBeLessThanOrEqual(DEFAULT_RESULT_CHARS);
});

test("a budget smaller than the answer without rows keeps no row", () => {
  const out = fitToBudget(envelope, 100);
  expect(out.data).toEqual([]);
  expect(out.returnedRows).toBe(0);
});
