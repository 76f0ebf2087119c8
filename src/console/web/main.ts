/**
 * The console's page script: a hash router over the views of the browse,
 * query, runs and administration modules. Bundled by Bun (src/console/bundle.ts).
 * @module
 */
import { errorBox, fill, h, link } from "./dom.ts";
import { environmentView, homeView, organizationView, packageView } from "./browse.ts";
import { modelView } from "./model.ts";

/** A parsed console route: its path segments and query parameters. */
interface Route {
  parts: string[];
  query: URLSearchParams;
}

function parseRoute(): Route {
  const hash = location.hash.replace(/^#/, "") || "/";
  const [path = "/", search = ""] = hash.split("?");
  return { parts: path.split("/").filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

/** Aborted when the view changes (event streams of the previous view end). */
let viewScope = new AbortController();

async function render(): Promise<void> {
  viewScope.abort();
  viewScope = new AbortController();
  const signal = viewScope.signal;
  const main = document.getElementById("main") as HTMLElement;
  const crumbs = document.getElementById("crumbs") as HTMLElement;
  const { parts, query } = parseRoute();
  const trail: HTMLElement[] = [link("/", "Organizations")];
  const [o, org, e, env, p, pkg, m, ...model] = parts;
  if (o === "o" && org) trail.push(link(`/o/${org}`, org));
  if (e === "e" && env) trail.push(link(`/o/${org}/e/${env}`, env));
  if (p === "p" && pkg) trail.push(link(`/o/${org}/e/${env}/p/${pkg}`, pkg));
  if (m === "m" && model.length) trail.push(h("span", {}, model.join("/")));
  fill(crumbs, trail.flatMap((t, i) => (i ? [h("span", { class: "sep" }, "›"), t] : [t])));
  fill(main, h("p", { class: "muted" }, "Loading…"));
  try {
    let view: HTMLElement;
    if (!org) view = await homeView();
    else if (!env) view = await organizationView(org, query.get("tab") ?? undefined);
    else if (!pkg) view = await environmentView(org, env);
    else if (m !== "m" || !model.length) view = await packageView({ org, env, pkg, tab: query.get("tab") ?? undefined, version: query.get("v") ?? undefined, signal });
    else view = await modelView({ org, env, pkg, modelPath: model.join("/"), version: query.get("v") ?? undefined, run: query.get("run") ?? undefined });
    if (!signal.aborted) fill(main, view);
  } catch (error) {
    if (!signal.aborted) fill(main, errorBox(error));
  }
}

window.addEventListener("hashchange", () => void render());
// a module script runs once the document is parsed
void render();
