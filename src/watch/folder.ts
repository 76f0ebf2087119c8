/**
 * A package folder on disk as a publishable zip: every regular file except
 * hidden ones and editor leftovers, in path order, with a fixed timestamp, so
 * the same content always gives the same bytes (and the same sha256). Also the
 * next version id of a package republished from its folder.
 * @module
 */
import { lstat, readdir, readFile, realpath, stat } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { zipSync, type Zippable } from "fflate";
import type { Db } from "../db/database.ts";

/** A package folder holding more bytes than a package may have (`MAX_PACKAGE_BYTES`). */
export class FolderTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the package folder holds more than MAX_PACKAGE_BYTES (${maxBytes} bytes); remove large files or raise the limit`);
    this.name = "FolderTooLargeError";
  }
}

/** Whether a package-relative path is ignored (hidden files, editor swap and backup files). */
export function isIgnoredPath(path: string): boolean {
  return path.split("/").some((part) =>
    part.startsWith(".") || part.endsWith("~") || part.endsWith(".swp") || part.endsWith(".swx") || part.startsWith("#")
  );
}

/**
 * The package-relative paths and bytes of a folder's regular files. Symbolic
 * links are never followed, at any depth: the folder is walked one directory
 * at a time and only real directories are entered (a recursive `readdir`
 * follows links to folders, so an `lstat` of each file's last component let
 * `data/linked -> /elsewhere` publish whatever it points at), and each file's
 * real path must still lie inside the folder when it is read. A package
 * folder that is itself a link, or missing, has no files; so has one reached
 * through a link below `within` (the watch root), when given. With
 * `maxBytes`, the files' sizes are added up as they are met and a folder
 * holding more is refused ({@link FolderTooLargeError}) before the file that
 * crosses the limit is read, so a huge file is never read into memory.
 */
export async function readFolder(dir: string, options: { within?: string; maxBytes?: number } = {}): Promise<Map<string, Uint8Array>> {
  let total = 0;
  const files = new Map<string, Uint8Array>();
  const top = await lstat(dir).catch(() => null);
  if (!top?.isDirectory()) return files;
  const root = await realpath(dir);
  if (options.within !== undefined) {
    // no link on the way from `within` down to the folder either (WATCH_ROOT/<org>/<env> -> another organization's folder)
    const base = await realpath(options.within).catch(() => null);
    if (base === null || root !== join(base, relative(resolve(options.within), resolve(dir)))) return files;
  }
  const pending = [""];
  while (pending.length > 0) {
    const rel = pending.pop()!;
    const entries = await readdir(join(root, rel), { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (isIgnoredPath(path)) continue;
      if (entry.isDirectory()) {
        pending.push(path);
        continue;
      }
      if (!entry.isFile()) continue;
      const real = await realpath(join(root, path)).catch(() => null);
      if (real === null || !real.startsWith(`${root}${sep}`)) continue;
      if (options.maxBytes !== undefined) {
        total += (await stat(real)).size;
        if (total > options.maxBytes) throw new FolderTooLargeError(options.maxBytes);
      }
      files.set(path, new Uint8Array(await readFile(real)));
    }
  }
  return files;
}

const FIXED_MTIME = new Date("2000-01-01T00:00:00Z");

/** A deterministic zip of package files (sorted paths, fixed timestamps). */
export function zipFolderFiles(files: Map<string, Uint8Array>): Uint8Array {
  const tree: Zippable = {};
  for (const path of [...files.keys()].sort()) tree[path] = [files.get(path)!, { mtime: FIXED_MTIME }];
  return zipSync(tree, { level: 6 });
}

/** `1.2.3` as numbers, or `null` when it is not semver. */
function semver(id: string): [number, number, number] | null {
  const m = /^(\d+)\.(\d+)\.(\d+)$/.exec(id);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

/** The greatest semver among ids, or `null`. */
function greatestVersion(ids: string[]): string | null {
  let best: [number, number, number] | null = null;
  for (const id of ids) {
    const v = semver(id);
    if (v && (!best || v[0] > best[0] || (v[0] === best[0] && (v[1] > best[1] || (v[1] === best[1] && v[2] > best[2]))))) best = v;
  }
  return best ? best.join(".") : null;
}

/** What a package of an environment holds now: its greatest version id and the sha256 of its newest archive. */
export async function packageHead(db: Db, pkg: { envId: string; name: string }): Promise<{ greatest: string | null; newestSha: string | null }> {
  const rows = await db`SELECT v.version_id, v.blob_sha256 FROM package_versions v JOIN packages p ON p.id = v.package_id
                         WHERE p.env_id = ${pkg.envId} AND p.name = ${pkg.name} ORDER BY v.created_at DESC, v.id`;
  return {
    greatest: greatestVersion(rows.map((r) => r.version_id as string)),
    newestSha: (rows[0]?.blob_sha256 as string | undefined) ?? null,
  };
}

/** The id a republish takes: the next patch after the greatest version, `0.1.0` for the first. */
export function nextPatch(greatest: string | null): string {
  const v = greatest ? semver(greatest) : null;
  return v ? `${v[0]}.${v[1]}.${v[2] + 1}` : "0.1.0";
}
