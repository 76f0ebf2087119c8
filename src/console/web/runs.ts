/**
 * Runs of a package with their units and live progress: the package's event
 * stream (`run_started`, `run_progress`, `run_finished`, `indexed`,
 * `published`) refreshes the list; modelers and admins start and cancel runs.
 * @module
 */
import { api, ApiFailure, followEvents } from "./api.ts";
import { badge, errorBox, fill, h, table, when } from "./dom.ts";

interface Unit {
  kind: "table" | "index";
  target: string;
  state: string;
  rowCount?: number | null;
  valueCount?: number | null;
  error?: string | null;
  startedAt?: string | null;
  finishedAt?: string | null;
}

interface Run {
  id: string;
  versionId: string;
  state: string;
  full: boolean;
  createdAt: string;
  startedAt?: string | null;
  finishedAt?: string | null;
  error?: string | null;
  units?: Unit[];
}

/** Events after which the runs are read again. */
const REFRESH_EVENTS = new Set(["run_started", "run_progress", "run_finished", "indexed", "published"]);
/** Events that report run progress (while they arrive, nothing is read between them). */
const PROGRESS_EVENTS = new Set(["run_started", "run_progress", "run_finished", "indexed"]);
const IN_FLIGHT = new Set(["queued", "running"]);

function seconds(run: Run): string {
  if (!run.startedAt) return "—";
  const end = run.finishedAt ? Date.parse(run.finishedAt) : Date.now();
  return `${((end - Date.parse(run.startedAt)) / 1000).toFixed(1)} s`;
}

function progress(units: Unit[]): HTMLElement {
  const done = units.filter((u) => !IN_FLIGHT.has(u.state)).length;
  const total = units.length;
  const pct = total ? Math.round((done / total) * 100) : 0;
  return h("div", { class: "progress", title: `${done} of ${total} units done` },
    h("div", { class: "bar", style: `width:${pct}%` }), h("span", {}, `${done}/${total}`));
}

function unitsTable(units: Unit[]): HTMLElement {
  return table(units, {
    Unit: (u) => h("code", {}, u.target),
    Kind: (u) => u.kind,
    State: (u) => badge(u.state),
    Built: (u) => (u.kind === "index" ? `${u.valueCount ?? "—"} values` : `${u.rowCount ?? "—"} rows`),
    Time: (u) => (u.startedAt ? `${(((u.finishedAt ? Date.parse(u.finishedAt) : Date.now()) - Date.parse(u.startedAt)) / 1000).toFixed(1)} s` : "—"),
    Error: (u) => (u.error ? h("span", { class: "error-text" }, u.error) : ""),
  }, { empty: "No unit: this version has no #@ persist source and no #(index) dimension.", cls: "grid units" });
}

/** The runs tab of a package; `permission` is the user's role on the package. */
export async function runsPanel(panel: HTMLElement, where: { base: string; signal: AbortSignal; permission?: string; latestVersion?: string | null }): Promise<void> {
  const list = h("div", {});
  const status = h("span", { class: "muted live" }, "connecting to the package's events…");
  const canRun = where.permission === "admin" || where.permission === "modeler";
  const start = canRun && where.latestVersion
    ? h("button", { type: "button", class: "primary", onclick: async () => {
      try {
        await api("POST", `${where.base}/versions/${encodeURIComponent(where.latestVersion ?? "")}/runs`, {});
        await refresh();
      } catch (error) {
        list.prepend(errorBox(error));
      }
    } }, `Start a full run of ${where.latestVersion}`)
    : null;
  let lastProgress = 0;
  let inFlight = false;
  let fallback: ReturnType<typeof setTimeout> | undefined;
  // a run in flight whose progress the stream does not report is read again every 3 s
  const watch = () => {
    clearTimeout(fallback);
    if (where.signal.aborted || !inFlight) return;
    fallback = setTimeout(() => {
      if (Date.now() - lastProgress > 5000) void refresh();
      else watch();
    }, 3000);
  };
  // events can come fast (one per unit): one read at a time, and one more after it when asked meanwhile
  let reading: Promise<void> | undefined;
  let again = false;
  const refresh = async (): Promise<void> => {
    if (reading) {
      again = true;
      return await reading;
    }
    reading = read().finally(() => {
      reading = undefined;
    });
    await reading;
    if (again && !where.signal.aborted) {
      again = false;
      await refresh();
    }
  };
  const read = async () => {
    try {
      const runs = await api<Run[]>("GET", `${where.base}/runs?limit=20`);
      // the units of the newest runs (the list answers runs without them)
      const detailed = await Promise.all(runs.slice(0, 5).map((r) => api<Run>("GET", `${where.base}/runs/${r.id}`)));
      const byId = new Map(detailed.map((r) => [r.id, r]));
      fill(list, runs.length === 0 ? h("p", { class: "muted" }, "No run yet: a publish starts one (unless INDEX_ON_PUBLISH=false).") : runs.map((r, i) => runCard(byId.get(r.id) ?? r, { base: where.base, canRun, refresh, open: i === 0 })));
      inFlight = runs.some((r) => IN_FLIGHT.has(r.state));
      watch();
    } catch (error) {
      fill(list, errorBox(error));
    }
  };
  where.signal.addEventListener("abort", () => clearTimeout(fallback));
  panel.append(h("div", { class: "controls" }, start, status), list);
  await refresh();
  void followEvents(`${where.base}/events`, (e) => {
    status.textContent = "live: updates as the package's events arrive";
    if (PROGRESS_EVENTS.has(e.event)) lastProgress = Date.now();
    if (REFRESH_EVENTS.has(e.event)) void refresh();
  }, where.signal);
  status.textContent = "live: updates as the package's events arrive";
}

function runCard(run: Run, ctx: { base: string; canRun: boolean; refresh: () => Promise<void>; open: boolean }): HTMLElement {
  const units = run.units;
  const cancel = ctx.canRun && IN_FLIGHT.has(run.state)
    ? h("button", { type: "button", class: "small", onclick: async () => {
      try {
        await api("POST", `${ctx.base}/runs/${run.id}?action=cancel`);
      } catch (error) {
        if (!(error instanceof ApiFailure && error.status === 409)) throw error;
      }
      await ctx.refresh();
    } }, "Cancel")
    : null;
  return h("div", { class: "run-card", "data-run": run.id },
    h("div", { class: "run-head" }, badge(run.state), h("strong", {}, `version ${run.versionId}`),
      h("span", { class: "muted" }, `${run.full ? "full run" : "scoped run"} · started ${when(run.startedAt ?? run.createdAt)} · ${seconds(run)}`),
      units ? progress(units) : null, cancel),
    run.error ? h("p", { class: "error-text" }, run.error) : null,
    units ? h("details", { open: ctx.open || IN_FLIGHT.has(run.state) || undefined }, h("summary", {}, `${units.length} unit${units.length === 1 ? "" : "s"}`), unitsTable(units)) : null);
}
