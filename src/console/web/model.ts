/**
 * A model (or notebook) of a package version: its sources with their fields
 * (kind, type, doc, indexed values), views and named queries, and a query
 * editor with the model's names at hand, a row limit, and results drawn by
 * Malloy's renderer. A compile error is shown at its line.
 * @module
 */
import { api, ApiFailure } from "./api.ts";
import { badge, errorBox, fill, h } from "./dom.ts";
import { type QueryAnswer, resultView } from "./results.ts";

interface Field {
  name: string;
  path: string;
  fieldType: string;
  dataType: string;
  description?: string;
  indexed: boolean;
}

interface Source {
  name: string;
  description?: string;
  connection?: string;
  dimensions: Field[];
  measures: Field[];
  views: Field[];
  authorized?: boolean;
}

interface Model {
  modelPath: string;
  versionId: string;
  sources: Source[];
  queries: { name: string; sourceName?: string; description?: string }[];
}

interface IndexItem {
  id: string;
  sourceName: string;
  dimension: string;
  status: string;
  valueCount: number;
}

interface Problem {
  line?: number;
  column?: number;
  message: string;
}

const enc = encodeURIComponent;

/** Where a model view is. */
interface ModelWhere {
  org: string;
  env: string;
  pkg: string;
  modelPath: string;
  version?: string;
  /** A view (`source.view`) or named query to run at once. */
  run?: string;
}

/** The model page. */
export async function modelView(where: ModelWhere): Promise<HTMLElement> {
  const pkgBase = `/organizations/${enc(where.org)}/environments/${enc(where.env)}/packages/${enc(where.pkg)}`;
  const versionQuery = where.version ? `?versionId=${enc(where.version)}` : "";
  const model = await api<Model>("GET", `${pkgBase}/models/${where.modelPath.split("/").map(enc).join("/")}${versionQuery}`);
  const editor = queryEditor({ pkgBase, model });
  const schema = h("aside", { class: "schema" },
    model.sources.map((s) => sourceBlock(s, { pkgBase, model, editor })),
    model.queries.length ? h("div", { class: "source" }, h("h3", {}, "Named queries"), h("ul", { class: "fields" }, model.queries.map((q) =>
      h("li", {}, h("button", { type: "button", class: "run", title: `run query ${q.name}`, onclick: () => editor.runNamed(q.name, q.sourceName ?? "", true) }, "▶"),
        h("code", {}, q.name), q.description ? h("div", { class: "doc" }, q.description) : null)))) : null);
  const view = h("section", { class: "model" },
    h("h1", {}, where.modelPath, " ", where.modelPath.endsWith(".malloynb") ? badge("notebook") : null, " ", h("span", { class: "role" }, `version ${model.versionId}`)),
    h("div", { class: "split" }, schema, editor.element));
  if (where.run) {
    const [sourceName, viewName] = where.run.includes(".") ? where.run.split(".") : ["", where.run];
    queueMicrotask(() => editor.runNamed(viewName ?? "", sourceName ?? ""));
  }
  return view;
}

function sourceBlock(source: Source, ctx: { pkgBase: string; model: Model; editor: Editor }): HTMLElement {
  const fieldItem = (f: Field) => {
    const values = h("div", { class: "values" });
    return h("li", { class: "field", "data-field": f.path },
      h("div", { class: "field-head" },
        h("button", { type: "button", class: "name", title: "insert into the query", onclick: () => ctx.editor.insert(f.path) }, f.path),
        h("span", { class: `type t-${f.dataType}` }, f.dataType),
        f.indexed ? h("button", { type: "button", class: "small", title: "the values the index holds", onclick: () => void showValues(values, { ...ctx, source: source.name, field: f.path }) }, "values") : null),
      f.description ? h("div", { class: "doc" }, f.description) : null,
      values);
  };
  const fieldList = (title: string, fields: Field[]) => fields.length
    ? h("details", { open: true }, h("summary", {}, `${title} (${fields.length})`), h("ul", { class: "fields" }, fields.map(fieldItem)))
    : null;
  return h("div", { class: "source", "data-source": source.name },
    h("h3", {}, source.name, source.authorized === false ? h("span", { class: "badge s-failed" }, "not authorized for you") : null),
    source.description ? h("p", { class: "doc" }, source.description) : null,
    source.views.length ? h("div", { class: "views" }, h("h4", {}, "Views"), source.views.map((v) =>
      h("div", { class: "view" }, h("button", { type: "button", class: "run", title: `run ${source.name} -> ${v.name}`, onclick: () => ctx.editor.runNamed(v.name, source.name) }, "▶ ", v.name),
        v.description ? h("span", { class: "doc" }, v.description) : null))) : null,
    fieldList("Dimensions", source.dimensions),
    fieldList("Measures", source.measures));
}

async function showValues(target: HTMLElement, where: { pkgBase: string; model: Model; source: string; field: string }): Promise<void> {
  const vBase = `${where.pkgBase}/versions/${enc(where.model.versionId)}/indexes`;
  fill(target, h("p", { class: "doc" }, "Loading values…"));
  try {
    const list = await api<IndexItem[]>("GET", vBase);
    const index = list.find((i) => i.sourceName === where.source && i.dimension === where.field && i.status === "built");
    if (!index) {
      fill(target, h("p", { class: "doc" }, "No built index yet: a run of this version builds it."));
      return;
    }
    const detail = await api<{ values: { value: string; count: number }[] }>("GET", `${vBase}/${enc(index.id)}`);
    fill(target, h("div", { class: "index-values", "data-field": where.field },
      h("div", { class: "chips", title: `${index.valueCount} indexed values, most frequent first (count of rows)` },
        detail.values.map((v) => h("span", { class: "chip" }, v.value, h("small", {}, ` ${v.count}`))))));
  } catch (error) {
    fill(target, errorBox(error));
  }
}

/** The query editor of a model page. */
interface Editor {
  element: HTMLElement;
  insert(text: string): void;
  /** Runs a view of a source, or (`topLevel`) a named query of the model. */
  runNamed(name: string, sourceName: string, topLevel?: boolean): void;
}

function queryEditor(ctx: { pkgBase: string; model: Model }): Editor {
  const first = ctx.model.sources[0];
  const start = first ? `run: ${first.name} -> {\n  aggregate: ${first.measures[0]?.name ?? "row_count is count()"}\n}` : "";
  const text = h("textarea", { class: "code", spellcheck: "false", rows: 6, "aria-label": "Malloy query" }) as HTMLTextAreaElement;
  text.value = start;
  const gutter = h("div", { class: "gutter", "aria-hidden": "true" });
  const limit = h("input", { type: "number", min: 1, value: 100, class: "limit", "aria-label": "row limit" }) as HTMLInputElement;
  const output = h("div", { class: "output" }, h("p", { class: "hint" },
    "Run a view on the left (▶), or write Malloy here and press Run. The result appears below as the chart its tags ask for ",
    h("code", {}, "# bar_chart"), ", ", h("code", {}, "# line_chart"), ", ", h("code", {}, "# dashboard"), " (a table otherwise), with its rows and SQL."));
  const problems = h("div", { class: "problems" });
  let errorLines = new Set<number>();
  const paintGutter = () => {
    const lines = text.value.split("\n").length;
    fill(gutter, Array.from({ length: lines }, (_, i) => h("div", { class: errorLines.has(i + 1) ? "ln err" : "ln" }, i + 1)));
    gutter.scrollTop = text.scrollTop;
  };
  // completion: the model's names starting with the word before the cursor; Tab takes the first
  const names = [...new Set(ctx.model.sources.flatMap((s) => [s.name, ...[...s.dimensions, ...s.measures, ...s.views].map((f) => f.path)])
    .concat(ctx.model.queries.map((q) => q.name)))].sort();
  const suggestions = h("div", { class: "suggest", "aria-live": "polite" });
  let offered: string[] = [];
  const wordBefore = () => /[A-Za-z_][\w.]*$/.exec(text.value.slice(0, text.selectionStart ?? 0))?.[0] ?? "";
  const complete = (name: string) => {
    const word = wordBefore();
    const at = (text.selectionStart ?? 0) - word.length;
    text.value = text.value.slice(0, at) + name + text.value.slice(text.selectionStart ?? at);
    text.focus();
    text.selectionStart = text.selectionEnd = at + name.length;
    fill(suggestions);
    offered = [];
    paintGutter();
  };
  const suggest = () => {
    const word = wordBefore();
    offered = word ? names.filter((n) => n.startsWith(word) && n !== word).slice(0, 8) : [];
    fill(suggestions, offered.length ? [h("span", { class: "muted" }, "Tab ↹ "), ...offered.map((n) => h("button", { type: "button", class: "small", onclick: () => complete(n) }, n))] : []);
  };
  text.addEventListener("input", () => {
    errorLines = new Set();
    paintGutter();
    suggest();
  });
  text.addEventListener("keydown", (e) => {
    if ((e as KeyboardEvent).key === "Tab" && offered.length) {
      e.preventDefault();
      complete(offered[0] ?? "");
    }
  });
  text.addEventListener("scroll", () => {
    gutter.scrollTop = text.scrollTop;
  });
  const run = async (body: Record<string, unknown>) => {
    fill(problems);
    fill(output, h("p", { class: "muted" }, "Running…"));
    errorLines = new Set();
    try {
      const rowLimit = Math.max(1, Number(limit.value) || 100);
      const answer = await api<QueryAnswer>("POST", `${ctx.pkgBase}/models/${ctx.model.modelPath.split("/").map(enc).join("/")}/query`,
        { ...body, versionId: ctx.model.versionId, limit: rowLimit, malloyResult: true });
      fill(output, resultView(answer));
    } catch (error) {
      fill(output);
      const list = error instanceof ApiFailure ? (error.details?.problems as Problem[] | undefined) : undefined;
      if (list?.length) {
        errorLines = new Set(list.map((p) => p.line ?? 0).filter((n) => n > 0));
        fill(problems, h("div", { class: "error", role: "alert" }, h("strong", {}, "The query does not compile"),
          h("ul", {}, list.map((p) => h("li", { class: "problem" }, p.line ? h("button", { type: "button", class: "at", onclick: () => goToLine(text, p.line ?? 1) }, `line ${p.line}${p.column ? `, column ${p.column}` : ""}`) : null, p.line ? ": " : "", p.message)))));
      } else {
        fill(problems, errorBox(error));
      }
    }
    paintGutter();
  };
  const runText = () => void run({ query: text.value });
  text.addEventListener("keydown", (e) => {
    if ((e as KeyboardEvent).key === "Enter" && ((e as KeyboardEvent).ctrlKey || (e as KeyboardEvent).metaKey)) {
      e.preventDefault();
      runText();
    }
  });
  paintGutter();
  const element = h("div", { class: "work" },
    h("div", { class: "editor" }, gutter, text),
    suggestions,
    h("div", { class: "controls" },
      h("button", { type: "button", class: "primary", onclick: runText }, "Run"),
      h("label", {}, "Row limit ", limit),
      h("span", { class: "muted" }, "Ctrl+Enter runs · click a field or view on the left to use it")),
    problems, output);
  return {
    element,
    insert(name: string) {
      const at = text.selectionStart ?? text.value.length;
      text.value = text.value.slice(0, at) + name + text.value.slice(text.selectionEnd ?? at);
      text.focus();
      text.selectionStart = text.selectionEnd = at + name.length;
      paintGutter();
    },
    runNamed(name: string, sourceName: string, topLevel = false) {
      text.value = topLevel || !sourceName ? `run: ${name}` : `run: ${sourceName} -> ${name}`;
      paintGutter();
      void run({ queryName: name, sourceName });
    },
  };
}

function goToLine(text: HTMLTextAreaElement, line: number): void {
  const lines = text.value.split("\n");
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  text.focus();
  text.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
}
