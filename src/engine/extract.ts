/**
 * Extracting a package archive into a read-only cache directory keyed by the
 * archive's sha256, so every node can rebuild its files from the stored zip.
 * @module
 */

import { chmod, mkdir, readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { type PackageFiles, readArchive, type ReadArchiveOptions } from "./archive.ts";

/** Options of {@link extractArchive}. */
export interface ExtractArchiveOptions {
  /** Folder that holds one sub-folder per archive sha256. */
  cacheDir: string;
  /** The archive's files when already read (skips a second unzip). */
  files?: PackageFiles;
  /** The archive's sha256 (hex) when already known. */
  sha256?: string;
  /** Limits passed to {@link readArchive} when `files` is not given. */
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
 */
export async function extractArchive(
  zipBytes: Uint8Array,
  options: ExtractArchiveOptions,
): Promise<string> {
  const sha = options.sha256 ?? await sha256Hex(zipBytes);
  if (!/^[0-9a-f]{64}$/.test(sha)) throw new Error(`'${sha}' is not a hex sha256`);
  const cacheDir = resolve(options.cacheDir);
  const target = join(cacheDir, sha);
  if (await isDirectory(target)) return target;

  const files = options.files ?? readArchive(zipBytes, options.read);
  await mkdir(cacheDir, { recursive: true });
  const temp = join(cacheDir, `.tmp-${sha}-${crypto.randomUUID()}`);
  try {
    await writeFiles(temp, files);
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
