/**
 * Small DOM helpers of the console (no framework): element builder, tables,
 * error boxes and tabs.
 * @module
 */
import { ApiFailure } from "./api.ts";

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | ((e: Event) => void) | undefined>;

/** Creates an element: `attrs` keys starting with `on` are listeners, the others attributes (`class`, `href`, ...). */
export function h(tag: string, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === "function") el.addEventListener(key.slice(2).toLowerCase(), value);
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el: HTMLElement, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces an element's children. */
export function fill(el: HTMLElement, ...children: (Child | Child[])[]): HTMLElement {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** A link to a console route (`#/...`). */
export function link(route: string, text: string, attrs: Attrs = {}): HTMLElement {
  return h("a", { href: `#${route}`, ...attrs }, text);
}

/** A table of objects; `columns` maps a heading to a cell of a row. */
export function table<T>(rows: T[], columns: Record<string, (row: T) => Child | Child[]>, options: { empty?: string; cls?: string } = {}): HTMLElement {
  if (rows.length === 0) return h("p", { class: "muted" }, options.empty ?? "Nothing here yet.");
  return h("table", { class: options.cls ?? "grid" },
    h("thead", {}, h("tr", {}, Object.keys(columns).map((c) => h("th", {}, c)))),
    h("tbody", {}, rows.map((row) => h("tr", {}, Object.values(columns).map((cell) => h("td", {}, cell(row)))))));
}

/** An error box: the API's message and code, or the error's message. */
export function errorBox(error: unknown): HTMLElement {
  if (error instanceof ApiFailure) return h("div", { class: "error", role: "alert" }, h("strong", {}, `${error.status} ${error.code}`), ": ", error.message);
  return h("div", { class: "error", role: "alert" }, String((error as Error)?.message ?? error));
}

/** A date as local date and time. */
export function when(iso: unknown): string {
  if (typeof iso !== "string" || !iso) return "—";
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A small colored label of a state (`succeeded`, `failed`, `indexed`, ...). */
export function badge(state: unknown): HTMLElement {
  const text = String(state ?? "unknown");
  return h("span", { class: `badge s-${text.replace(/[^a-z_]/gi, "")}` }, text);
}

/** Tabs: a bar of buttons, each showing its panel (built on first show). */
export function tabs(items: { id: string; label: string; show: (panel: HTMLElement) => void }[], initial?: string): HTMLElement {
  const bar = h("div", { class: "tabs", role: "tablist" });
  const panel = h("div", { class: "tab-panel" });
  const select = (id: string) => {
    for (const b of bar.children) b.classList.toggle("active", (b as HTMLElement).dataset.tab === id);
    const item = items.find((i) => i.id === id) ?? items[0];
    fill(panel);
    item?.show(panel);
  };
  for (const item of items) {
    const b = h("button", { type: "button", role: "tab", onclick: () => select(item.id) }, item.label);
    b.dataset.tab = item.id;
    bar.append(b);
  }
  queueMicrotask(() => select(initial ?? items[0]?.id ?? ""));
  return h("div", {}, bar, panel);
}
