/**
 * Names in the Malloy text the platform writes itself (the queries of runs,
 * value indexes and materializations): a source's or a view's name is one
 * identifier whatever it holds (a backquoted `pay.roll` is a source name, not
 * a path), a field path is dotted through joins (`carriers.nickname`).
 * Backquotes inside a name are dropped (Malloy has no escape for them in
 * identifiers): such a name then matches nothing, and the query fails
 * rather than reaching another name.
 *
 * @module
 */

/**
 * One identifier, backquoted.
 *
 * @example
 * quoteName("pay.roll") // "`pay.roll`"
 */
export function quoteName(name: string): string {
  return `\`${name.replace(/`/g, "")}\``;
}

/**
 * A dotted field path, each segment backquoted.
 *
 * @example
 * quotePath("carriers.nickname") // "`carriers`.`nickname`"
 */
export function quotePath(path: string): string {
  return path.split(".").map(quoteName).join(".");
}
