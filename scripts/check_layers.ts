/**
 * Layer and cycle check of `src/` (run by `.ci/run`; `bun scripts/check_layers.ts [--report]`).
 *
 * Imports are read with Bun's own transpiler (`Bun.Transpiler#scanImports`, type-only imports
 * excluded, as at run time), so the check needs no parser package and no network. Rules:
 *
 * 1. **No import cycles** between modules (a cycle through type-only imports is allowed: it
 *    vanishes at run time).
 * 2. **Route modules are leaves of the tree**: a route module (a file named `routes.ts` or
 *    `*_routes.ts`) is imported only by `src/app.ts` or by another route module; domain modules,
 *    stores and `src/http/` never import one (lookups live in the domain, e.g. `lookup.ts`); the
 *    route plugins (`src/http/route_access.ts`, `src/http/security.ts`) are imported only by the
 *    route layer: route modules and each capability's access rules (`route_rules.ts`).
 * 3. **Stores sit below `src/http/`**: `store.ts` and `*_store.ts` modules import no module of
 *    `src/http/`, type-only imports included (read from the source text, since the transpiler
 *    drops them). They throw the domain errors of `src/errors.ts` (which
 *    `src/http/error_handler.ts` maps to HTTP), take the role lattice from `src/access/roles.ts`
 *    and the principal types from `src/access/principal.ts`. Imports listed in
 *    {@link STORE_HTTP_ALLOWED} are exempt, each with its reason; the list may only shrink.
 * 4. **No mutually importing folders**: when a module of folder A imports folder B, no module of
 *    B imports A, type-only imports included. With {@link COUNT_ROUTE_LAYER} (the default) every
 *    module counts, route modules and access rules included, and each top-level file of `src/`
 *    is a node of its own; without it the route layer (route modules, `route_rules.ts` and the
 *    two route plugins) and the top-level files are not counted as importers or targets.
 *    Folders listed in {@link MUTUAL_ALLOWED} are exempt (with the route layer counted), each with
 *    its reason; the list may only shrink.
 * 5. **`src/http/` imports no domain**: it offers the mechanism (edge, errors, authentication
 *    plugin, access macro) and imports only `src/http/`, `src/access/`, `src/db/` and the shared
 *    top-level files (`context.ts`, `errors.ts`, `config.ts`, ...; not the composition root
 *    `app.ts`/`main.ts`/`service.ts`), type-only imports included. The composition root hands
 *    it what a domain knows (the authenticators of `AppContext`); capabilities declare their
 *    access rules next to their routes.
 *
 * 6. **Only the route layer throws HTTP errors**: no module outside the route layer (route modules,
 *    `route_rules.ts`), `src/http/` and `src/app.ts` imports `src/http/errors.ts`, type-only imports
 *    included; domain modules throw the errors of `src/errors.ts`. Modules listed in
 *    {@link HTTP_ERRORS_ALLOWED} are exempt, each with its reason; the list may only shrink.
 *
 * `--report` also prints the counts (modules, cycles, mutually importing folder pairs).
 * @module
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * Rule 4 counts the route layer and the top-level files (see the module comment). On by default
 * (so `.ci/run` enforces it); `--domain-only` leaves the route layer out for one run (`--routes`
 * is still accepted and changes nothing).
 */
const COUNT_ROUTE_LAYER = !process.argv.includes("--domain-only");

/**
 * Folder pairs allowed to import each other, with the reason (sorted pair, `a<->b`; only read with
 * the route layer counted). The same reasons are in docs/development.md (Layout). May only shrink.
 */
const MUTUAL_ALLOWED: Record<string, string> = {
  "auth<->users":
    "users/ holds both the account store, below sign-in (auth/signin.ts and auth/bootstrap.ts read accounts from users/store.ts), " +
    "and the account routes, above it (users/routes.ts checks the current password with auth/signin.ts before a password change)",
  "packages<->versions":
    "versions/ holds both the version store, below packages (the package store, lookups and routes read versions/store.ts), " +
    "and the version routes, above packages (versions/routes.ts declares the package access rule of packages/route_rules.ts); " +
    "moving either into packages/ would make packages import rls/, events/ and runs/, which import it back",
};

/**
 * Modules outside the route layer (and outside `src/http/` and `src/app.ts`) that still import
 * `src/http/errors.ts`, with the reason (rule 6). May only shrink.
 */
const HTTP_ERRORS_ALLOWED: Record<string, string> = {
  "src/docs/openapi_names.ts": "reads ERROR_CODES, the list of codes the OpenAPI document enumerates; it throws nothing",
  "src/engine/problems.ts": "QueryError.toApiError() answers QUERY_NOT_ALLOWED or VALIDATION_ERROR with details.problems; the mapping belongs in error_handler.ts (not moved yet)",
  "src/engine/zip/archive.ts": "archive refusals include PACKAGE_TOO_LARGE (413) for size and compression limits, which no domain error class expresses yet",
  "src/events/stream_slots.ts": "stream-slot refusals are RATE_LIMIT_EXCEEDED and SERVICE_UNAVAILABLE with Retry-After; a capacity error class is still to be added",
};

/** Imports of `src/http/` modules that a store may keep (`store -> http module`), with the reason. */
const STORE_HTTP_ALLOWED: Record<string, string> = {};

const root = resolve(import.meta.dir, "..");
const srcDir = join(root, "src");
const transpiler = new Bun.Transpiler({ loader: "ts" });

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(path);
  }
  return out;
}

const files = walk(srcDir).map((f) => relative(root, f)).sort();
const known = new Set(files);

/** Run-time imports of one module, as paths relative to the repository root. */
function importsOf(file: string): string[] {
  // a `#!` line (the CLI's entry, src/cli/main.ts) is not TypeScript to the transpiler
  const code = readFileSync(join(root, file), "utf8").replace(/^#![^\n]*/, "");
  const out: string[] = [];
  for (const imp of transpiler.scanImports(code)) {
    if (!imp.path.startsWith(".")) continue;
    const target = relative(root, resolve(dirname(join(root, file)), imp.path));
    if (known.has(target)) out.push(target);
  }
  return [...new Set(out)];
}

const graph = new Map(files.map((f) => [f, importsOf(f)]));

/**
 * Every relative import of one module, type-only ones included (`import type`, `export ... from`,
 * `import("...")` in a type), read from the source text: the transpiler drops type-only imports.
 */
function allImportsOf(file: string): string[] {
  const code = readFileSync(join(root, file), "utf8");
  const out: string[] = [];
  for (const m of code.matchAll(/\b(?:from|import)\s*\(?\s*["'](\.[^"']*)["']/g)) {
    const target = relative(root, resolve(dirname(join(root, file)), m[1]!));
    if (known.has(target)) out.push(target);
  }
  return [...new Set(out)];
}
const folderOf = (f: string) => (f.split("/").length > 2 ? f.split("/")[1]! : "(root)");
const isRouteModule = (f: string) => /(^|\/|_)routes\.ts$/.test(f);
/** The route plugins (access macro, authenticator): only the route layer uses them. */
const ROUTE_PLUGINS = new Set(["src/http/route_access.ts", "src/http/security.ts"]);
/** A capability's access rules (the route options its routes and those of the capabilities below it declare). */
const isRouteRules = (f: string) => /(^|\/)route_rules\.ts$/.test(f);
/** The route layer: route modules, access rules and the route plugins; it sits above every domain folder. */
const isRouteLayer = (f: string) => isRouteModule(f) || isRouteRules(f) || ROUTE_PLUGINS.has(f);
const isStore = (f: string) => /(^|\/|_)store\.ts$/.test(f);

const problems: string[] = [];

// 1. cycles (Tarjan's strongly connected components)
const cycles: string[][] = [];
{
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(scc.sort());
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
}
for (const c of cycles) problems.push(`import cycle: ${c.join(" <-> ")}`);

// 2. route modules imported only by src/app.ts and route modules; the route plugins only by the route layer
for (const [from, tos] of graph) {
  for (const to of tos) {
    if (ROUTE_PLUGINS.has(to) && from !== "src/app.ts" && !isRouteLayer(from)) {
      problems.push(`${from} imports the route plugin ${to}, which only the route layer uses`);
    }
  }
}
for (const [from, tos] of graph) {
  for (const to of tos) {
    if (isRouteModule(to) && from !== "src/app.ts" && !isRouteModule(from)) {
      problems.push(`${from} imports the route module ${to} (lookups belong in the domain, e.g. lookup.ts)`);
    }
  }
}

// 3. stores import nothing of src/http/ (type-only imports included)
const storeHttp: string[] = [];
for (const from of files.filter(isStore)) {
  for (const to of allImportsOf(from).filter((t) => t.startsWith("src/http/"))) {
    const edge = `${from} -> ${to}`;
    storeHttp.push(edge);
    if (STORE_HTTP_ALLOWED[edge]) continue;
    if (to === "src/http/errors.ts") problems.push(`${from} (a store) imports src/http/errors.ts: throw a domain error of src/errors.ts`);
    else {
      problems.push(
        `${from} (a store) imports ${to}: stores sit below src/http/; take the role lattice from src/access/roles.ts, ` +
          "principal types and helpers from src/access/principal.ts, or pass the store the values it needs instead of an http/ type",
      );
    }
  }
}
for (const edge of Object.keys(STORE_HTTP_ALLOWED)) {
  if (!storeHttp.includes(edge)) problems.push(`STORE_HTTP_ALLOWED lists ${edge}, which is no longer imported: remove it`);
}

// 4. mutually importing folders (type-only imports included)
const nodeOf = (f: string) => (COUNT_ROUTE_LAYER && folderOf(f) === "(root)" ? f.slice("src/".length) : folderOf(f));
const counted = (f: string) => COUNT_ROUTE_LAYER || (!isRouteLayer(f) && folderOf(f) !== "(root)");
const allGraph = new Map(files.map((f) => [f, allImportsOf(f)]));
const folderEdges = new Map<string, Set<string>>();
for (const [from, tos] of allGraph) {
  if (!counted(from)) continue;
  for (const to of tos) {
    const a = nodeOf(from);
    const b = nodeOf(to);
    if (a === b || !counted(to)) continue;
    if (!folderEdges.has(a)) folderEdges.set(a, new Set());
    folderEdges.get(a)!.add(b);
  }
}
const mutual: string[] = [];
for (const [a, bs] of folderEdges) {
  for (const b of bs) if (a < b && folderEdges.get(b)?.has(a)) mutual.push(`${a}<->${b}`);
}
const evidence = (a: string, b: string) =>
  [...allGraph].flatMap(([from, tos]) => (nodeOf(from) === a && counted(from) ? tos.filter((t) => nodeOf(t) === b && counted(t)).map((t) => `${from} -> ${t}`) : []));
for (const pair of mutual.sort()) {
  if (COUNT_ROUTE_LAYER && MUTUAL_ALLOWED[pair]) continue;
  const [a, b] = pair.split("<->") as [string, string];
  problems.push(`folders ${a} and ${b} import each other: ${[...evidence(a, b), ...evidence(b, a)].join("; ")}`);
}
if (COUNT_ROUTE_LAYER) {
  for (const pair of Object.keys(MUTUAL_ALLOWED)) {
    if (!mutual.includes(pair)) problems.push(`MUTUAL_ALLOWED lists ${pair}, which no longer import each other: remove it`);
  }
}

// 5. src/http/ imports no domain folder (type-only imports included)
const COMPOSITION_ROOT = new Set(["src/app.ts", "src/main.ts", "src/service.ts"]);
const httpMayImport = (t: string) =>
  ["http", "access", "db"].includes(folderOf(t)) || (folderOf(t) === "(root)" && !COMPOSITION_ROOT.has(t));
const httpDomain: string[] = [];
for (const [from, tos] of allGraph) {
  if (folderOf(from) !== "http") continue;
  for (const to of tos.filter((t) => !httpMayImport(t))) {
    httpDomain.push(`${from} -> ${to}`);
    problems.push(`${from} imports ${to}: src/http/ offers the mechanism and imports no domain; let the composition root hand it in, or declare the rule next to the capability's routes`);
  }
}

// 6. outside the route layer, src/http/ and src/app.ts, no module throws HTTP errors (type-only imports included)
const httpErrors: string[] = [];
for (const [from, tos] of allGraph) {
  if (isRouteLayer(from) || folderOf(from) === "http" || from === "src/app.ts" || !tos.includes("src/http/errors.ts")) continue;
  httpErrors.push(from);
  if (!HTTP_ERRORS_ALLOWED[from]) {
    problems.push(`${from} imports src/http/errors.ts: throw a domain error of src/errors.ts (mapped in src/http/error_handler.ts), or move the code to the route layer`);
  }
}
for (const file of Object.keys(HTTP_ERRORS_ALLOWED)) {
  if (!httpErrors.includes(file)) problems.push(`HTTP_ERRORS_ALLOWED lists ${file}, which no longer imports src/http/errors.ts: remove it`);
}

if (process.argv.includes("--report")) {
  console.log(`modules: ${files.length}`);
  console.log(`import cycles: ${cycles.length} (${cycles.reduce((n, c) => n + c.length, 0)} modules)`);
  console.log(`mutually importing folder pairs${COUNT_ROUTE_LAYER ? " (route layer counted)" : ""}: ${mutual.length} ${mutual.join(" ")}`);
  console.log(`src/http/ imports of a domain: ${httpDomain.length} ${httpDomain.join(", ")}`);
  console.log(`store imports of src/http/: ${storeHttp.length} ${storeHttp.join(", ")}`);
  console.log(`modules outside the route layer importing src/http/errors.ts: ${httpErrors.length} ${httpErrors.join(", ")}`);
}
for (const p of problems) console.error(p);
console.log(problems.length === 0 ? "layers: clean" : `layers: ${problems.length} problem(s)`);
process.exit(problems.length === 0 ? 0 : 1);
