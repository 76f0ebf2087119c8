/**
 * Reading a package archive (a zip), into memory or streamed from disk into a
 * folder, with the publish policy:
 * safe relative paths only, no links, bounded entry count and size, a
 * `publisher.json` and at least one model.
 *
 * The folder `zip/`: this policy, the zip reader under it (directory.ts,
 * inflate.ts, source.ts, errors.ts) and the extraction of an archive into the
 * read-only cache folder of its sha256 (extract.ts).
 * @module
 */

import { type FileHandle, mkdir, open, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { ApiError, badRequest } from "../../http/errors.ts";
import { gcHint } from "../memory.ts";
import { isSymlink, readCentralDirectory, readCentralDirectoryFrom, type ZipEntry } from "./directory.ts";
import { ZipBudgetError, ZipEntryCountError, ZipFormatError } from "./errors.ts";
import { inflateEntry, inflateEntryFrom } from "./inflate.ts";
import { openZipFile, type ZipSource } from "./source.ts";

/** The files of a package: relative path (forward slashes) to bytes. */
export type PackageFiles = Map<string, Uint8Array>;

/** Limits of {@link readArchive}. */
export interface ReadArchiveOptions {
  /** Most entries (files and folders) an archive may hold. Default 10,000. */
  maxEntries?: number;
  /** Most uncompressed bytes, declared and actual. Default 256 MiB. */
  maxBytes?: number;
  /**
   * Most uncompressed bytes per compressed byte of one entry, declared and
   * actual (entries up to {@link RATIO_FREE_BYTES} are exempt). Default 100.
   */
  maxCompressionRatio?: number;
  /** Skip the `publisher.json` / `.malloy` requirement (for non-package zips). */
  skipPackageChecks?: boolean;
}

/** Default most entries of an archive. */
const DEFAULT_MAX_ENTRIES = 10_000;
/** Default most uncompressed bytes of an archive (256 MiB). */
const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
/** Default most uncompressed bytes per compressed byte of an entry. */
const DEFAULT_MAX_COMPRESSION_RATIO = 100;
/** Entries this small may compress better than the ratio (a 1 MiB file of spaces is no bomb). */
const RATIO_FREE_BYTES = 1024 * 1024;

/** Most bytes an entry of `compressedSize` may inflate to under the ratio limit. */
function ratioLimit(compressedSize: number, maxRatio: number): number {
  return Math.max(RATIO_FREE_BYTES, compressedSize * maxRatio);
}

const IGNORED = /(^|\/)(__MACOSX\/|\.DS_Store$)/;

/**
 * Most bytes of one model text (`.malloy`, `.malloynb`) or `publisher.json`:
 * compilation holds these in memory, data files never are (8 MiB).
 */
export const MAX_MODEL_FILE_BYTES = 8 * 1024 * 1024;

/** The entries of an archive that passed every check of the central directory. */
interface CheckedArchive {
  /** File entries (folders and ignored entries left out). */
  files: ZipEntry[];
  /** The top-level folder shared by every file (stripped), or "". */
  prefix: string;
}

/**
 * Every check that needs only the central directory: names, links,
 * encryption, duplicates, the declared total, each entry's ratio and the
 * size of model texts.
 */
function checkEntries(entries: ZipEntry[], options: ReadArchiveOptions): CheckedArchive {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRatio = options.maxCompressionRatio ?? DEFAULT_MAX_COMPRESSION_RATIO;
  const files = entries.filter((entry) => !entry.name.endsWith("/") && !IGNORED.test(entry.name));
  for (const entry of entries) checkEntry(entry);
  checkDuplicates(files);
  const declared = files.reduce((sum, entry) => sum + entry.size, 0);
  if (declared > maxBytes) throw tooLarge(declared, maxBytes);
  for (const entry of files) {
    if (entry.size > ratioLimit(entry.compressedSize, maxRatio)) throw tooCompressed(entry, maxRatio);
  }
  const prefix = commonFolder(files.map((entry) => entry.name));
  if (!options.skipPackageChecks) {
    for (const entry of files) {
      const path = entry.name.slice(prefix.length);
      if ((MODEL_TEXT.test(path) || path === "publisher.json") && entry.size > MAX_MODEL_FILE_BYTES) {
        throw new ApiError(
          "PACKAGE_TOO_LARGE",
          `packageFile entry '${entry.name}' is ${entry.size} bytes, more than the ${MAX_MODEL_FILE_BYTES} bytes a model file or publisher.json may have; split the model into files that import each other`,
          { status: 413 },
        );
      }
    }
  }
  return { files, prefix };
}

const MODEL_TEXT = /\.malloy(nb)?$/;

/**
 * Unzips a package archive into memory after checking every entry.
 *
 * Refuses (400) absolute paths, `..` segments, backslashes, drive letters,
 * symbolic links, encrypted or duplicate entries and more than `maxEntries`
 * entries; refuses (413 `PACKAGE_TOO_LARGE`) archives whose declared
 * uncompressed size is over `maxBytes`, or with an entry that declares more
 * than `maxCompressionRatio` times its compressed size — both read from the
 * central directory before anything is inflated — and enforces the same
 * limits while inflating (a header that lies is caught after at most one
 * small inflate step, so memory stays bounded by the limits). A single top-level folder shared by every file is
 * stripped. `__MACOSX/` and `.DS_Store` entries are dropped.
 *
 * This holds every file in memory: for small archives (tests, tools). A
 * publish streams the archive from disk with {@link unpackArchive}.
 */
export function readArchive(zipBytes: Uint8Array, options: ReadArchiveOptions = {}): PackageFiles {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const entries = listEntries(zipBytes, options.maxEntries ?? DEFAULT_MAX_ENTRIES, maxBytes);
  const { files, prefix } = checkEntries(entries, options);
  const out: PackageFiles = new Map();
  let total = 0;
  for (const entry of files) {
    // entry.size is within the ratio and total limits (checked above): inflating past it is a lie
    const limit = Math.min(entry.size, maxBytes - total);
    let bytes: Uint8Array;
    try {
      bytes = inflateEntry(zipBytes, entry, { limit });
    } catch (error) {
      throw inflateFailure(error, entry, { limit, total, maxBytes });
    }
    checkInflatedSize(entry, bytes.length);
    total += bytes.length;
    out.set(entry.name.slice(prefix.length), bytes);
  }
  if (!options.skipPackageChecks) checkPackage([...out.keys()], fileText(out, "publisher.json"));
  return out;
}

/**
 * Unpacks a package archive on disk into `dir` (which must not exist yet)
 * with the same checks and limits as {@link readArchive}, one entry at a
 * time and each in pieces of about 1 MiB: memory stays a few MiB whatever
 * the archive's size. Only the central directory (at most 16 MiB) is read
 * whole. Returns the package-relative paths of the files written.
 */
export async function unpackArchive(zipPath: string, dir: string, options: ReadArchiveOptions = {}): Promise<string[]> {
  return await withCheckedArchive(zipPath, options, async (source, { files, prefix }, maxBytes) => {
    const root = resolve(dir);
    await mkdir(root, { recursive: true });
    const paths: string[] = [];
    const moved = gcHint();
    let total = 0;
    for (const entry of files) {
      const path = entry.name.slice(prefix.length);
      const full = resolve(root, path);
      if (!full.startsWith(root + "/")) throw badRequest(`packageFile entry '${entry.name}' escapes the package folder`);
      await mkdir(dirname(full), { recursive: true });
      const limit = Math.min(entry.size, maxBytes - total);
      const out = await open(full, "wx", 0o600);
      let size: number;
      try {
        size = await inflateEntryFrom(source, entry, {
          limit,
          sink: async (bytes) => {
            await writeAll(out, bytes);
            moved(bytes.length);
          },
        });
      } catch (error) {
        throw inflateFailure(error, entry, { limit, total, maxBytes });
      } finally {
        await out.close();
      }
      checkInflatedSize(entry, size);
      total += size;
      paths.push(path);
    }
    if (!options.skipPackageChecks) {
      const manifest = paths.includes("publisher.json") ? await readFile(join(root, "publisher.json"), "utf8") : undefined;
      checkPackage(paths, manifest);
    }
    return paths;
  });
}

/**
 * Checks a package archive on disk without unpacking it: every check of the
 * central directory, and `publisher.json` (inflated alone, at most
 * {@link MAX_MODEL_FILE_BYTES}). For an archive whose folder is already
 * extracted. Returns the package-relative paths of its files.
 */
export async function inspectArchive(zipPath: string, options: ReadArchiveOptions = {}): Promise<string[]> {
  return await withCheckedArchive(zipPath, options, async (source, { files, prefix }, maxBytes) => {
    const paths = files.map((entry) => entry.name.slice(prefix.length));
    if (!options.skipPackageChecks) {
      const entry = files[paths.indexOf("publisher.json")];
      let manifest: string | undefined;
      if (entry) {
        const parts: Uint8Array[] = [];
        let size: number;
        try {
          size = await inflateEntryFrom(source, entry, { limit: entry.size, sink: (bytes) => void parts.push(bytes.slice()) });
        } catch (error) {
          throw inflateFailure(error, entry, { limit: entry.size, total: 0, maxBytes });
        }
        checkInflatedSize(entry, size);
        manifest = Buffer.concat(parts).toString("utf8");
      }
      checkPackage(paths, manifest);
    }
    return paths;
  });
}

type ZipFile = Awaited<ReturnType<typeof openZipFile>>;

/**
 * Opens an archive on disk, reads and checks its central directory (entry
 * count, sizes, paths), hands the package's files to `use`, and closes it.
 */
async function withCheckedArchive<T>(
  zipPath: string,
  options: ReadArchiveOptions,
  use: (source: ZipFile, checked: CheckedArchive, maxBytes: number) => Promise<T>,
): Promise<T> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  let source: ZipFile;
  try {
    source = await openZipFile(zipPath);
  } catch (error) {
    throw asBadArchive(error);
  }
  try {
    const entries = await listEntriesFrom(source, options.maxEntries ?? DEFAULT_MAX_ENTRIES, maxBytes);
    return await use(source, checkEntries(entries, options), maxBytes);
  } finally {
    await source.close();
  }
}

async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  let done = 0;
  while (done < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done);
    done += bytesWritten;
  }
}

function inflateFailure(error: unknown, entry: ZipEntry, budget: { limit: number; total: number; maxBytes: number }): unknown {
  if (error instanceof ZipBudgetError) {
    if (budget.limit < entry.size) return tooLarge(budget.total + entry.size + 1, budget.maxBytes);
    return badRequest(
      `packageFile entry '${entry.name}' inflates to more than its declared ${entry.size} bytes; the archive is damaged or forged, zip the package again`,
    );
  }
  if (error instanceof ZipFormatError) return asBadArchive(error);
  return error;
}

function checkInflatedSize(entry: ZipEntry, size: number): void {
  if (size !== entry.size) {
    throw badRequest(
      `packageFile entry '${entry.name}' inflates to ${size} bytes, not its declared ${entry.size}; zip the package again`,
    );
  }
}

/** Decodes a file of the package as UTF-8 text. */
function fileText(files: PackageFiles, path: string): string | undefined {
  const bytes = files.get(path);
  return bytes === undefined ? undefined : new TextDecoder().decode(bytes);
}

function listEntries(zipBytes: Uint8Array, maxEntries: number, maxBytes = DEFAULT_MAX_BYTES): ZipEntry[] {
  try {
    return readCentralDirectory(zipBytes, { maxEntries });
  } catch (error) {
    const failure = entryListFailure(error, maxEntries, maxBytes);
    throw failure === error ? asBadArchive(error) : failure;
  }
}

async function listEntriesFrom(source: ZipSource, maxEntries: number, maxBytes: number): Promise<ZipEntry[]> {
  try {
    return await readCentralDirectoryFrom(source, { maxEntries });
  } catch (error) {
    throw entryListFailure(error, maxEntries, maxBytes);
  }
}

function entryListFailure(error: unknown, maxEntries: number, maxBytes: number): unknown {
  if (error instanceof ZipEntryCountError) {
    return badRequest(
      `packageFile has ${error.count} entries, more than the limit of ${maxEntries}; leave generated or unused files out of the package`,
    );
  }
  if (error instanceof ZipBudgetError) return tooLarge(Number.MAX_SAFE_INTEGER, maxBytes);
  if (error instanceof ZipFormatError) return asBadArchive(error);
  return error;
}

function checkEntry(entry: ZipEntry): void {
  const name = entry.name;
  const where = `packageFile entry '${name}'`;
  if (name.length === 0 || name.includes("\0")) {
    throw badRequest(`${where} has an empty or invalid name; zip the package again`);
  }
  if (name.includes("\\")) {
    throw badRequest(`${where} contains a backslash; use forward slashes in archive paths`);
  }
  if (name.startsWith("/") || /^[A-Za-z]:/.test(name)) {
    throw badRequest(`${where} is an absolute path; archive paths must be relative to the package folder`);
  }
  const segments = name.replace(/\/$/, "").split("/");
  if (segments.some((segment) => segment === "..")) {
    throw badRequest(`${where} contains a '..' segment; archive paths must stay inside the package folder`);
  }
  if (segments.some((segment) => segment === "" || segment === ".")) {
    throw badRequest(`${where} has an empty or '.' path segment; zip the package folder again`);
  }
  if (isSymlink(entry)) {
    throw badRequest(`${where} is a symbolic link; links are not allowed, include the file itself`);
  }
  if ((entry.flags & 1) !== 0) {
    throw badRequest(`${where} is encrypted; upload an archive without a password`);
  }
}

function checkDuplicates(files: ZipEntry[]): void {
  const seen = new Set<string>();
  for (const entry of files) {
    if (seen.has(entry.name)) {
      throw badRequest(`packageFile holds '${entry.name}' twice; zip the package again`);
    }
    seen.add(entry.name);
  }
}

function commonFolder(names: string[]): string {
  if (names.length === 0) return "";
  const first = names[0].split("/")[0];
  const prefix = `${first}/`;
  return names.every((name) => name.startsWith(prefix)) ? prefix : "";
}

function checkPackage(paths: string[], manifest: string | undefined): void {
  if (manifest === undefined) {
    throw badRequest(
      "packageFile has no publisher.json at its top level; add a publisher.json (for example {\"name\": \"my-package\"}) next to your .malloy files",
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(manifest);
  } catch (error) {
    throw badRequest(`publisher.json is not valid JSON (${(error as Error).message}); fix it and publish again`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw badRequest('publisher.json must be a JSON object, for example {"name": "my-package"}');
  }
  if (!paths.some((path) => path.endsWith(".malloy"))) {
    throw badRequest("packageFile holds no .malloy file; a package needs at least one Malloy model");
  }
}

function tooCompressed(entry: ZipEntry, maxRatio: number): ApiError {
  return new ApiError(
    "PACKAGE_TOO_LARGE",
    `packageFile entry '${entry.name}' declares ${entry.size} bytes from ${entry.compressedSize} compressed, more than ${maxRatio} times its size (MAX_COMPRESSION_RATIO); the archive looks like a zip bomb`,
    { status: 413 },
  );
}

function tooLarge(size: number, maxBytes: number): ApiError {
  const shown = size >= Number.MAX_SAFE_INTEGER ? "more" : `${size} bytes, more`;
  return new ApiError(
    "PACKAGE_TOO_LARGE",
    `packageFile unpacks to ${shown} than the limit of ${maxBytes} bytes (MAX_PACKAGE_BYTES); leave large data files out of the package or read them from a warehouse connection`,
    { status: 413 },
  );
}

function asBadArchive(error: unknown): ApiError {
  const reason = error instanceof ZipFormatError ? error.message : String(error);
  return badRequest(`packageFile is not a readable zip archive: ${reason}; upload a zip of the package folder`);
}
