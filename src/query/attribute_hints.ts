/**
 * The attribute names a query needed last time, remembered per runner so the
 * next run of the same query reads the caller's values of those attributes in
 * its target statement (./target.ts) instead of a statement of its own.
 * @module
 */

import type { CheckedQueryArgs } from "./args.ts";

/** Most queries whose attribute names are remembered. */
const HINT_ENTRIES = 10_000;

/** The names that make two runs the same query (organization, environment, package, version argument, model, query). */
export function hintKey(args: CheckedQueryArgs): string {
  return JSON.stringify([args.organization, args.environment_name, args.package_name, args.version_id ?? null, args.modelPath, args.query ?? null, args.query_name ?? null, args.source_name ?? null]);
}

/**
 * Attribute names a query needed last time, by its names (organization,
 * environment, package, version argument, model, query): the next run of the
 * same query reads the caller's values of those attributes in its target
 * statement. Only a hint of what to read: the values are always the
 * caller's, read in this request, and a query whose rules need an attribute
 * not read that way reads it in a statement of its own.
 */
export class AttributeHints {
  readonly #hints = new Map<string, string[]>();

  /** The attribute names the query of `key` ({@link hintKey}) needed last time, if any. */
  get(key: string): string[] | undefined {
    return this.#hints.get(key);
  }

  /** Remembers the attributes a query's rules read (forgets them when it read none); keeps those of the latest {@link HINT_ENTRIES} queries. */
  remember(key: string, attributes: string[]): void {
    const hints = this.#hints;
    const known = hints.get(key);
    if (attributes.length === 0) {
      if (known) hints.delete(key);
      return;
    }
    if (known && known.length === attributes.length && known.every((a, i) => a === attributes[i])) return;
    hints.delete(key);
    hints.set(key, attributes);
    if (hints.size > HINT_ENTRIES) hints.delete(hints.keys().next().value!);
  }
}
