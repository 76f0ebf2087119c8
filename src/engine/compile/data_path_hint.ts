/**
 * The one explanation of a common first publish: data paths written relative
 * to another root (`imdb/data/names.parquet` in a package whose root is the
 * `imdb/` folder). Every model reading such a path fails with DuckDB's "No
 * files found that match the pattern"; the compile failure says once that
 * data paths are relative to the package root and names the file that exists.
 * @module
 */
import { readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { Problem } from "../problems.ts";

const MISSING = /No files found that match the pattern "([^"]+)"/;
/** At most this many package entries are looked at for a same-named file. */
const WALK_LIMIT = 10_000;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Package files (relative, `/`-separated) named `name`, at most 3. */
function sameNamed(packageDir: string, name: string): string[] {
  let entries: string[];
  try {
    entries = (readdirSync(packageDir, { recursive: true }) as string[]).slice(0, WALK_LIMIT);
  } catch {
    return [];
  }
  return entries.map((e) => e.split("\\").join("/")).filter((e) => basename(e) === name && isFile(join(packageDir, e))).sort().slice(0, 3);
}

/** The package file a missing relative path most likely meant: the path without leading folders, or files of the same name. */
function suggestions(packageDir: string, missing: string): string[] {
  const segments = missing.replace(/^\.\//, "").split("/").filter((s) => s !== "" && s !== "." && s !== "..");
  for (let i = 1; i < segments.length; i++) {
    const candidate = segments.slice(i).join("/");
    if (isFile(join(packageDir, candidate))) return [candidate];
  }
  const name = segments.at(-1);
  return name ? sameNamed(packageDir, name).filter((s) => s !== missing) : [];
}

/**
 * Problems with the "no files found" ones about relative paths replaced by one
 * problem per missing path (at its first place; saying it once, with the
 * models it failed in and the file that exists), first; the others unchanged
 * after them.
 */
export function explainDataPaths(problems: Problem[], packageDir: string): Problem[] {
  const byPath = new Map<string, Set<string>>();
  const first = new Map<string, Problem>();
  const rest: Problem[] = [];
  for (const problem of problems) {
    const path = problem.message.match(MISSING)?.[1];
    if (!path || path.startsWith("/") || /^[a-z][a-z0-9+.-]*:/i.test(path)) {
      rest.push(problem);
      continue;
    }
    if (!first.has(path)) first.set(path, problem);
    const files = byPath.get(path) ?? new Set<string>();
    if (problem.file) files.add(problem.file);
    byPath.set(path, files);
  }
  if (byPath.size === 0) return problems;
  const explained: Problem[] = [...byPath].map(([path, files], i) => {
    const found = suggestions(packageDir, path);
    const hint = found.length === 1 ? `; did you mean '${found[0]}'?` : found.length > 1 ? `; files of that name: ${found.map((f) => `'${f}'`).join(", ")}` : "";
    const models = [...files].sort();
    const where = models.length > 0 ? ` (read by ${models.length === 1 ? models[0] : `${models.length} models: ${models.slice(0, 3).join(", ")}${models.length > 3 ? ", ..." : ""}`})` : "";
    const rule = i === 0 ? "data paths are relative to the package root (the folder that holds publisher.json); " : "";
    const { file, line, column } = first.get(path)!;
    return { file, line, column, message: `${rule}'${path}' does not exist in the package${where}${hint}`, code: "data-path-not-found" };
  });
  return [...explained, ...rest];
}
