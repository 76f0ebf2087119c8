/**
 * A small, defensive reader of the zip central directory, from an archive in
 * memory or on disk (Zip64 sizes, offsets and entry counts included).
 *
 * fflate's `unzipSync` filter sees neither the external attributes (needed to
 * spot symbolic links) nor the real inflated size, so the archive policy in
 * `archive.ts` reads the central directory here first, checks every entry,
 * and only then inflates entries one by one with a byte budget
 * (./inflate.ts).
 * @module
 */

import type { ZipSource } from "./source.ts";
import { ZipBudgetError, ZipEntryCountError, ZipFormatError } from "./errors.ts";

/** One entry of a zip's central directory. */
export interface ZipEntry {
  /** The name exactly as stored (UTF-8 decoded). */
  name: string;
  /** Compression method (0 stored, 8 deflate). */
  method: number;
  /** General purpose flags (bit 0: encrypted). */
  flags: number;
  /** Compressed size in bytes. */
  compressedSize: number;
  /** Declared uncompressed size in bytes. */
  size: number;
  /** Upper byte of "version made by": 3 is Unix, 0 is MS-DOS. */
  hostOs: number;
  /** External file attributes (Unix mode in the upper 16 bits when `hostOs` is 3). */
  externalAttributes: number;
  /** Offset of the entry's local file header. */
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;

/** True when the entry is a Unix symbolic link (mode S_IFLNK). */
export function isSymlink(entry: ZipEntry): boolean {
  const mode = (entry.externalAttributes >>> 16) & 0o170000;
  return entry.hostOs === 3 && mode === 0o120000;
}

/**
 * Reads the central directory of a zip archive held in memory.
 *
 * Supports Zip64 sizes, offsets and entry counts. Stops early, with a
 * {@link ZipEntryCountError}, when the archive declares more than `maxEntries`.
 */
export function readCentralDirectory(
  zip: Uint8Array,
  options: { maxEntries: number },
): ZipEntry[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = endRecord(view, findEndOfCentralDirectory(view));
  if (end.zip64At !== undefined) {
    if (end.zip64At + 56 > zip.byteLength) throw new ZipFormatError("the Zip64 end of central directory record is damaged");
    applyZip64Record(end, new DataView(zip.buffer, zip.byteOffset + end.zip64At, 56));
  }
  if (end.count > options.maxEntries) throw new ZipEntryCountError(end.count);
  return parseEntries(zip.subarray(Math.min(end.offset, zip.byteLength)), end.count);
}

/** Most bytes of a central directory read from a file (10,000 entries with long names take about 3 MiB). */
const MAX_CENTRAL_DIRECTORY_BYTES = 16 * 1024 * 1024;

/**
 * Reads the central directory of a zip archive on disk: only its end record
 * and the directory itself (at most {@link MAX_CENTRAL_DIRECTORY_BYTES}) are
 * read, never the entries' data.
 */
export async function readCentralDirectoryFrom(
  source: ZipSource,
  options: { maxEntries: number },
): Promise<ZipEntry[]> {
  const tailLength = Math.min(source.size, 22 + MAX16 + 20);
  const tailStart = source.size - tailLength;
  const tail = await source.read(tailStart, tailLength);
  const view = new DataView(tail.buffer, tail.byteOffset, tail.byteLength);
  const end = endRecord(view, findEndOfCentralDirectory(view));
  if (end.zip64At !== undefined) {
    // the Zip64 record may lie before the tail read: read it on its own
    if (end.zip64At + 56 > source.size) throw new ZipFormatError("the Zip64 end of central directory record is damaged");
    const bytes = await source.read(end.zip64At, 56);
    applyZip64Record(end, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  if (end.count > options.maxEntries) throw new ZipEntryCountError(end.count);
  if (end.offset > source.size || end.offset + end.size > source.size) {
    throw new ZipFormatError("the central directory lies outside the archive");
  }
  if (end.size > MAX_CENTRAL_DIRECTORY_BYTES) {
    throw new ZipFormatError(`the central directory takes ${end.size} bytes, more than ${MAX_CENTRAL_DIRECTORY_BYTES}`);
  }
  return parseEntries(await source.read(end.offset, end.size), end.count);
}

interface EndRecord {
  count: number;
  offset: number;
  size: number;
  /** Where the Zip64 end record lies, when the archive uses one. */
  zip64At?: number;
}

/** Count, offset and size of the central directory from the end record (`zip64At` set when a Zip64 record holds them). */
function endRecord(view: DataView, eocd: number): EndRecord {
  const end: EndRecord = {
    count: view.getUint16(eocd + 10, true),
    size: view.getUint32(eocd + 12, true),
    offset: view.getUint32(eocd + 16, true),
  };
  if (end.count === MAX16 || end.offset === MAX32 || end.size === MAX32) {
    const locator = eocd - 20;
    if (locator < 0 || view.getUint32(locator, true) !== EOCD64_LOCATOR) {
      throw new ZipFormatError("the Zip64 end of central directory locator is missing");
    }
    end.zip64At = safeNumber(view.getBigUint64(locator + 8, true));
  }
  return end;
}

function applyZip64Record(end: EndRecord, record: DataView): void {
  if (record.getUint32(0, true) !== EOCD64) {
    throw new ZipFormatError("the Zip64 end of central directory record is damaged");
  }
  end.count = safeNumber(record.getBigUint64(32, true));
  end.size = safeNumber(record.getBigUint64(40, true));
  end.offset = safeNumber(record.getBigUint64(48, true));
}

/** Decodes `count` central directory records from the start of `cd`. */
function parseEntries(cd: Uint8Array, count: number): ZipEntry[] {
  const view = new DataView(cd.buffer, cd.byteOffset, cd.byteLength);
  const decoder = new TextDecoder("utf-8", { fatal: false });
  const entries: ZipEntry[] = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > cd.byteLength || view.getUint32(at, true) !== CENTRAL) {
      throw new ZipFormatError("the central directory is damaged");
    }
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength + extraLength > cd.byteLength) {
      throw new ZipFormatError("the central directory is truncated");
    }
    const entry: ZipEntry = {
      name: decoder.decode(cd.subarray(at + 46, at + 46 + nameLength)),
      hostOs: view.getUint8(at + 5),
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      externalAttributes: view.getUint32(at + 38, true),
      localHeaderOffset: view.getUint32(at + 42, true),
    };
    applyZip64Extra(entry, view, at + 46 + nameLength, extraLength);
    entries.push(entry);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

function findEndOfCentralDirectory(view: DataView): number {
  const last = view.byteLength - 22;
  const first = Math.max(0, last - MAX16);
  for (let i = last; i >= first; i--) {
    if (view.getUint32(i, true) === EOCD) return i;
  }
  throw new ZipFormatError("it is not a zip archive (no end of central directory record)");
}

function applyZip64Extra(entry: ZipEntry, view: DataView, start: number, length: number): void {
  const needs = entry.size === MAX32 || entry.compressedSize === MAX32 ||
    entry.localHeaderOffset === MAX32;
  if (!needs) return;
  let at = start;
  while (at + 4 <= start + length) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      let field = at + 4;
      if (entry.size === MAX32) {
        entry.size = safeNumber(view.getBigUint64(field, true));
        field += 8;
      }
      if (entry.compressedSize === MAX32) {
        entry.compressedSize = safeNumber(view.getBigUint64(field, true));
        field += 8;
      }
      if (entry.localHeaderOffset === MAX32) {
        entry.localHeaderOffset = safeNumber(view.getBigUint64(field, true));
      }
      return;
    }
    at += 4 + size;
  }
  throw new ZipFormatError(`'${entry.name}' lacks its Zip64 extra field`);
}

function safeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new ZipBudgetError("the archive declares a size beyond any limit");
  }
  return Number(value);
}
