/**
 * Publisher's discovery curation: a package whose `publisher.json` has
 * `"queryableSources": "declared"` publishes as models only the files its
 * `explores` lists. The other models still compile (the listed ones import
 * them) but are not models of the version: not listed by the models API,
 * not indexed, not in `get_context`, and a query of one answers `404`.
 * Nor can a query of a listed model name a source or query that an unlisted
 * file defines and the listed model imports ({@link curatedDefinition}).
 * Notebooks are not curated.
 * @module
 */

/** Whether a model path is published as a model, by a parsed `publisher.json`; `undefined` when the package curates nothing. */
export function declaredModels(publisher: unknown): ((modelPath: string) => boolean) | undefined {
  const p = publisher as { queryableSources?: unknown; explores?: unknown } | null;
  if (!p || p.queryableSources !== "declared" || !Array.isArray(p.explores)) return undefined;
  const listed = new Set(p.explores.filter((e): e is string => typeof e === "string").map((e) => e.replace(/^(\.\/)+/, "")));
  return (modelPath) => modelPath.endsWith(".malloynb") || listed.has(modelPath);
}

type Entry = { sourceID?: unknown; location?: { url?: unknown } };

/** The names of `contents` that a file `queryable` refuses defines (a source by its `name@url` id, a query by its location). */
function undeclaredNames(contents: Record<string, unknown>, fileOf: (url: string) => string, queryable: (modelPath: string) => boolean): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(contents)) {
    const entry = value as Entry;
    const id = typeof entry.sourceID === "string" && entry.sourceID.includes("@") ? entry.sourceID.slice(entry.sourceID.indexOf("@") + 1) : undefined;
    const url = id ?? (typeof entry.location?.url === "string" ? entry.location.url : undefined);
    if (url === undefined) continue;
    const path = fileOf(url);
    if (path !== url && !queryable(path)) out.push(name);
  }
  return out;
}

const curated = new WeakMap<object, object>();

/**
 * A model definition without the sources and queries that files the package
 * does not declare define (a source imported from `internal.malloy` into a
 * declared model): the query text compiles against it, so it cannot name
 * them (the package's own sources built on them keep their definitions).
 * The same object per definition.
 */
export function curatedDefinition<T extends { contents: Record<string, unknown>; exports: string[] }>(def: T, fileOf: (url: string) => string, queryable: (modelPath: string) => boolean): T {
  const known = curated.get(def);
  if (known) return known as T;
  const hidden = new Set(undeclaredNames(def.contents, fileOf, queryable));
  let out = def;
  if (hidden.size > 0) {
    const contents = { ...def.contents };
    for (const name of hidden) delete contents[name];
    out = { ...def, contents, exports: def.exports.filter((name) => !hidden.has(name)) };
  }
  curated.set(def, out);
  return out;
}
