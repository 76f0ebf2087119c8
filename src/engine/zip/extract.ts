/**
 * Extracting a package archive into a read-only cache directory keyed by the
 * archive's sha256, so every node can rebuild its files from the stored zip.
 * @module
 */

import { chmod, mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { MAX_MODEL_FILE_BYTES, type PackageFiles, type ReadArchiveOptions, unpackArchive } from "./archive.ts";

/** Options of {@link extractArchive}. */
export interface ExtractArchiveOptions {
  /** Folder that holds one sub-folder per archive sha256. */
  cacheDir: string;
  /** The archive's files when already read (skips a second unzip). */
  files?: PackageFiles;
  /** The archive's sha256 (hex) when already known. */
  sha256?: string;
  /** Limits of the archive policy when `files` is not given. */
  read?: ReadArchiveOptions;
}

/** Hex sha256 of some bytes (Web Crypto). */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Extracts an archive to `<cacheDir>/<sha256>/` and returns that absolute
 * path (files 0400, folders 0500: private and read-only). Reuses the folder when it exists. Files are written into a temporary
 * folder, made read-only, then renamed into place, so concurrent callers
 * (other requests, other processes) never see a half-written package.
 *
 * The bytes are written to a temporary file and unpacked from it with
 * {@link extractArchiveFile} (unless `files` are given); large archives
 * should be passed as a file to that function instead.
 */
export async function extractArchive(
  zipBytes: Uint8Array,
  options: ExtractArchiveOptions,
): Promise<string> {
  const sha = options.sha256 ?? await sha256Hex(zipBytes);
  checkSha(sha);
  const cacheDir = resolve(options.cacheDir);
  const target = join(cacheDir, sha);
  if (await isDirectory(target)) return target;
  await mkdir(cacheDir, { recursive: true });
  if (options.files) {
    const files = options.files;
    return await intoPlace(cacheDir, sha, (temp) => writeFiles(temp, files));
  }
  const zipPath = join(cacheDir, `.tmp-${sha}-${crypto.randomUUID()}.zip`);
  try {
    await writeFile(zipPath, zipBytes, { mode: 0o600 });
    return await extractArchiveFile(zipPath, { cacheDir, sha256: sha, read: options.read });
  } finally {
    await rm(zipPath, { force: true });
  }
}

/** Options of {@link extractArchiveFile}. */
export interface ExtractArchiveFileOptions {
  /** Folder that holds one sub-folder per archive sha256. */
  cacheDir: string;
  /** The archive's sha256 (hex), computed while it was received or stored. */
  sha256: string;
  /** Limits of the archive policy. */
  read?: ReadArchiveOptions;
}

/**
 * Extracts the archive file `zipPath` to `<cacheDir>/<sha256>/` (as
 * {@link extractArchive}), streaming each entry to disk: memory stays a few
 * MiB whatever the archive's size ({@link unpackArchive}).
 */
export async function extractArchiveFile(zipPath: string, options: ExtractArchiveFileOptions): Promise<string> {
  const sha = options.sha256;
  checkSha(sha);
  const cacheDir = resolve(options.cacheDir);
  const target = join(cacheDir, sha);
  if (await isDirectory(target)) return target;
  await mkdir(cacheDir, { recursive: true });
  return await intoPlace(cacheDir, sha, async (temp) => {
    await unpackArchive(zipPath, temp, options.read);
  });
}

/**
 * The model texts (`.malloy`, `.malloynb`) of an extracted package by
 * package-relative path: all that compilation reads (imports resolve among
 * them). Each is at most {@link MAX_MODEL_FILE_BYTES} (checked at publish);
 * data files stay on disk.
 */
export async function readModelFiles(dir: string): Promise<PackageFiles> {
  const root = resolve(dir);
  const files: PackageFiles = new Map();
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !/\.malloy(nb)?$/.test(entry.name)) continue;
    const full = join(entry.parentPath, entry.name);
    if ((await stat(full)).size > MAX_MODEL_FILE_BYTES) continue;
    files.set(full.slice(root.length + 1), new Uint8Array(await readFile(full)));
  }
  return files;
}

function checkSha(sha: string): void {
  if (!/^[0-9a-f]{64}$/.test(sha)) throw new Error(`'${sha}' is not a hex sha256`);
}

/** Fills a temporary folder, makes it read-only and renames it to `<cacheDir>/<sha>`. */
async function intoPlace(cacheDir: string, sha: string, fill: (temp: string) => Promise<void>): Promise<string> {
  const target = join(cacheDir, sha);
  const temp = join(cacheDir, `.tmp-${sha}-${crypto.randomUUID()}`);
  try {
    await mkdir(temp, { recursive: true });
    await fill(temp);
    await makeReadOnly(temp);
    try {
      await rename(temp, target);
    } catch (error) {
      // Another caller won the race: its copy is identical (same sha256).
      if (!(await isDirectory(target))) throw error;
    }
  } finally {
    await removeTree(temp);
  }
  return target;
}

/** Removes a cached package folder (it is read-only, so make it writable first). */
export async function removeExtracted(path: string): Promise<void> {
  await removeTree(path);
}

async function writeFiles(root: string, files: PackageFiles): Promise<void> {
  await mkdir(root, { recursive: true });
  for (const [path, bytes] of files) {
    const full = resolve(root, path);
    if (!full.startsWith(root + "/")) throw new Error(`'${path}' escapes the package folder`);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, bytes);
  }
}

async function makeReadOnly(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) await makeReadOnly(full);
    else await chmod(full, 0o400);
  }
  await chmod(dir, 0o500);
}

async function makeWritable(dir: string): Promise<void> {
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) await makeWritable(join(dir, entry.name));
  }
}

async function removeTree(dir: string): Promise<void> {
  if (!(await isDirectory(dir))) return;
  await makeWritable(dir);
  await rm(dir, { recursive: true, force: true });
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
