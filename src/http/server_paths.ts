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
/** A package's extraction folder is named by its 64-hex-digit sha256 (or `.tmp-<sha>-<uuid>` while written). */
const PACKAGE_FILE = new RegExp(
  `(?:file://)?/${PATH_CHARS}*?/(?:\\.tmp-)?[0-9a-f]{64}(?:-[0-9a-f-]{36})?(?:/(${PATH_CHARS}*)|(?=${PATH_CHARS.replace("[^", "[")}|$))`,
  "g",
);
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
  let out = text.replace(PACKAGE_FILE, (_match, rest: string | undefined) => rest || ".");
  const sorted = [...roots].filter((r) => r !== "/").sort((a, b) => b.length - a.length);
  for (const root of sorted) {
    out = out.replace(new RegExp(`(?:file://)?${escapeRegExp(root)}(?:/${PATH_CHARS}*)?`, "g"), "<server path>");
  }
  SYSTEM_DIRS.lastIndex = 0;
  return out.replace(SYSTEM_DIRS, "<server path>");
}
