/**
 * The one place that keeps server file paths out of responses: a package's
 * extracted files become package-relative paths (`data/flights.csv`), any
 * other absolute path under a server directory becomes `<server path>`.
 * Used by the request handler for every JSON response and by the query
 * engine for its errors and generated SQL (MCP results included).
 * @module
 */
import { tmpdir } from "node:os";
import { resolve } from "node:path";

const roots = new Set<string>([resolve(tmpdir()), resolve(process.cwd())]);
if (process.env.HOME) roots.add(resolve(process.env.HOME));

/** Adds a directory of this server (`DATA_DIR`, the watch root) whose paths never leave it. */
export function addServerRoot(dir: string): void {
  roots.add(resolve(dir));
}

/** Characters that end a path inside a message (quotes, brackets, whitespace, separators). */
const PATH_CHARS = "[^\\s'\"`()<>,;\\]\\[{}\\\\]";
/** A maximal run of path characters: every path of a message lies inside one run. */
const PATH_RUN = new RegExp(`${PATH_CHARS}+`, "g");
/**
 * A package's extraction folder inside a run: a segment named by its 64-hex-digit
 * sha256 (or `.tmp-<sha>-<uuid>` while written), ending the run or followed by `/`.
 */
const PACKAGE_SEGMENT = /\/(?:\.tmp-)?[0-9a-f]{64}(?:-[0-9a-f-]{36})?(?=\/|$)/g;

/**
 * A run with its package path made package-relative: from its first `/` (or a
 * `file:///` just before it) up to the first package segment after that slash
 * becomes what follows the segment (`.` when nothing does). Linear in the run:
 * the segment is searched once from the slash, never from every slash in turn
 * (a lazy `/.*?/<sha>` pattern tried each start and took quadratic time on a
 * long run of slashes, which any query text can hold).
 */
function packageRelative(run: string): string {
  const first = run.indexOf("/");
  if (first < 0) return run;
  const starts = first >= 5 && run.slice(first - 5, first + 3) === "file:///" ? [{ at: first - 5, slash: first + 2 }, { at: first, slash: first }] : [{ at: first, slash: first }];
  for (const { at, slash } of starts) {
    PACKAGE_SEGMENT.lastIndex = slash + 1;
    const found = PACKAGE_SEGMENT.exec(run);
    if (!found) continue;
    const rest = run.slice(found.index + found[0].length + 1);
    return run.slice(0, at) + (rest || ".");
  }
  return run;
}

const SYSTEM_DIRS =
  /(?<![\w.:/~-])\/(?:tmp|var|etc|usr|opt|home|root|proc|sys|dev|srv|mnt|run|private|Users)(?=[/\s'"`()<>,;\][{}\\]|$)(?:\/[^\s'"`()<>,;\][{}\\]*)?/g;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Whether a text may hold a server path (cheap pre-check). */
export function mayHoldServerPath(text: string): boolean {
  SYSTEM_DIRS.lastIndex = 0;
  if (SYSTEM_DIRS.test(text)) return true;
  for (const root of roots) if (root !== "/" && text.includes(root)) return true;
  return /[0-9a-f]{64}\//.test(text);
}

/** Rewrites the server paths of a text (see the module doc); other text is unchanged. */
export function hideServerPaths(text: string): string {
  if (!mayHoldServerPath(text)) return text;
  let out = text.replace(PATH_RUN, packageRelative);
  const sorted = [...roots].filter((r) => r !== "/").sort((a, b) => b.length - a.length);
  for (const root of sorted) {
    out = out.replace(new RegExp(`(?:file://)?${escapeRegExp(root)}(?:/${PATH_CHARS}*)?`, "g"), "<server path>");
  }
  SYSTEM_DIRS.lastIndex = 0;
  return out.replace(SYSTEM_DIRS, "<server path>");
}
