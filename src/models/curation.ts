/**
 * Publisher's discovery curation: a package whose `publisher.json` has
 * `"queryableSources": "declared"` publishes as models only the files its
 * `explores` lists. The other models still compile (the listed ones import
 * them) but are not models of the version: not listed by the models API,
 * not indexed, not in `get_context`, and a query of one answers `404`.
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
