/**
 * Files of an in-package web app: the `public/` folder of a version's
 * extracted archive, with safe path resolution and content types.
 * @module
 */
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { AppContext } from "../context.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { extractionDir, extractStoredArchive } from "../archives/store.ts";

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  map: "application/json",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  ico: "image/x-icon",
  txt: "text/plain; charset=utf-8",
  md: "text/markdown; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  wasm: "application/wasm",
  woff: "font/woff",
  woff2: "font/woff2",
  malloy: "text/plain; charset=utf-8",
};

/** Content type of a file name by its extension (`application/octet-stream` when unknown). */
export function contentTypeOf(path: string): string {
  const dot = path.lastIndexOf(".");
  return (dot >= 0 && TYPES[path.slice(dot + 1).toLowerCase()]) || "application/octet-stream";
}

/**
 * The app-relative path of a request wildcard: decoded, `index.html` for the
 * app root or a trailing `/`. 400 for `..`, `.` segments, backslashes or NUL.
 */
export function appPath(raw: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw new ValidationError(`app path '${raw}' is not valid percent-encoding`);
  }
  if (decoded.includes("\\") || decoded.includes("\0")) throw new ValidationError("app paths may not contain backslashes or NUL");
  const parts = decoded.split("/");
  if (parts.some((p) => p === ".." || p === ".")) throw new ValidationError(`app path '${decoded}' may not contain '.' or '..' segments`);
  const path = parts.filter(Boolean).join("/");
  if (path === "") return "index.html";
  return decoded.endsWith("/") ? `${path}/index.html` : path;
}

/** The extracted folder of a stored archive (extracted on first use on this node). */
export async function extractedDir(ctx: AppContext, sha256: string): Promise<string> {
  const dir = join(extractionDir(ctx.config), sha256);
  if (await stat(dir).then((s) => s.isDirectory(), () => false)) return dir;
  const extracted = await extractStoredArchive(ctx.sql, sha256, { cacheDir: extractionDir(ctx.config), read: { maxBytes: ctx.config.maxPackageBytes } });
  if (!extracted) throw new NotFoundError("the archive of this version is missing; publish it again");
  return extracted;
}

/** A resolved app file: its absolute path and its path inside `public/`. */
export interface AppFile {
  file: string;
  path: string;
}

/** Resolves an app path inside `<dir>/public` (a folder serves its `index.html`); 404 when missing. */
export async function appFile(dir: string, path: string): Promise<AppFile> {
  const root = resolve(dir, "public");
  let file = resolve(root, path);
  if (file !== root && !file.startsWith(root + "/")) throw new ValidationError(`app path '${path}' leaves the app folder`);
  let info = await stat(file).catch(() => null);
  if (info?.isDirectory()) {
    file = join(file, "index.html");
    path = path ? `${path}/index.html` : "index.html";
    info = await stat(file).catch(() => null);
  }
  if (!info?.isFile()) throw new NotFoundError(`app file '${path}' not found in public/ of the package`);
  return { file, path };
}
