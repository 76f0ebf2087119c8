/**
 * A query's answer: Malloy's own renderer (`@malloydata/render`) drawing the
 * chart or table the query's tags ask for, a plain table of the rows, and the
 * SQL with the timing.
 * @module
 */
import { MalloyRenderer } from "@malloydata/render";
import { h, table, tabs } from "./dom.ts";

/** The REST query answer with `malloyResult: true`. */
export interface QueryAnswer {
  data: Record<string, unknown>[];
  totalRows: number;
  executionTime: number;
  metadata: { schema: { name: string; type: string }[]; sql: string; versionId: string; connection: string; truncated: boolean; rowLimit: number; sourceName?: string; queryName?: string };
  malloyResult?: unknown;
}

let renderer: MalloyRenderer | undefined;

function cellText(value: unknown): string {
  if (value === null || value === undefined) return "∅";
  if (typeof value === "object") return JSON.stringify(value);
  if (typeof value === "number") return value.toLocaleString(undefined, { maximumFractionDigits: 4 });
  return String(value);
}

/** The answer of a query: rendered result, table and SQL tabs, and its figures. */
export function resultView(answer: QueryAnswer): HTMLElement {
  const m = answer.metadata;
  const figures = h("p", { class: "figures" },
    h("strong", { "data-testid": "rows" }, `${answer.data.length.toLocaleString()} row${answer.data.length === 1 ? "" : "s"}`),
    m.truncated ? ` of ${answer.totalRows.toLocaleString()} (limit ${m.rowLimit})` : "",
    ` · ${answer.executionTime} ms · version ${m.versionId} · connection ${m.connection}`);
  const columns: Record<string, (row: Record<string, unknown>) => string> = {};
  for (const c of m.schema) columns[c.name] = (row) => cellText(row[c.name]);
  return h("div", { class: "result" }, figures, tabs([
    { id: "rendered", label: "Result", show: (panel) => panel.append(rendered(answer)) },
    { id: "table", label: "Table", show: (panel) => panel.append(h("div", { class: "scroll" }, table(answer.data, columns, { empty: "No rows.", cls: "grid data" }))) },
    { id: "sql", label: "SQL", show: (panel) => panel.append(h("pre", { class: "sql" }, m.sql)) },
  ]));
}

function rendered(answer: QueryAnswer): HTMLElement {
  const target = h("div", { class: "malloy-render" });
  if (!answer.malloyResult) return h("p", { class: "muted" }, "The server sent no Malloy result to render; see the Table tab.");
  // the interpreter draws vega charts without eval (the page CSP has no unsafe-eval)
  renderer ??= new MalloyRenderer({ useVegaInterpreter: true, tableConfig: { shouldFillWidth: true } });
  const viz = renderer.createViz({ onError: (error) => target.replaceChildren(h("div", { class: "error" }, `The renderer failed: ${error.message}`)) });
  // the answer is Malloy's stable Result, produced by the service's own Malloy of the same version
  viz.setResult(answer.malloyResult as Parameters<typeof viz.setResult>[0]);
  // drawn once the element is in the document (charts measure their container)
  requestAnimationFrame(() => viz.render(target));
  return target;
}
