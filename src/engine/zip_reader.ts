/**
 * A small, defensive reader of the zip central directory.
 *
 * fflate's `unzipSync` filter sees neither the external attributes (needed to
 * spot symbolic links) nor the real inflated size, so the archive policy in
 * `archive.ts` reads the central directory here first, checks every entry,
 * and only then inflates entries one by one with a byte budget.
 * @module
 */

import { open } from "node:fs/promises";
import { Inflate } from "fflate";

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

/** Why a zip could not be read; `archive.ts` turns it into a 400. */
export class ZipFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZipFormatError";
  }
}

/** The inflated size of an entry went over its budget. */
export class ZipBudgetError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ZipBudgetError";
  }
}

/** The archive declares more entries than allowed. */
export class ZipEntryCountError extends Error {
  readonly count: number;
  constructor(count: number) {
    super(`the archive has ${count} entries`);
    this.name = "ZipEntryCountError";
    this.count = count;
  }
}

const EOCD = 0x06054b50;
const EOCD64 = 0x06064b50;
const EOCD64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
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

/** Random access to a zip archive (a file on disk, read piece by piece). */
export interface ZipSource {
  /** Size of the archive in bytes. */
  readonly size: number;
  /** Reads `length` bytes at `offset` (fewer at the end of the archive). */
  read(offset: number, length: number): Promise<Uint8Array>;
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

/**
 * Inflates one entry, refusing to produce more than `limit` bytes (the
 * smaller of its declared size and what is left of the archive's budget).
 */
export function inflateEntry(
  zip: Uint8Array,
  entry: ZipEntry,
  options: { limit: number },
): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > zip.byteLength || view.getUint32(at, true) !== LOCAL) {
    throw new ZipFormatError(`the local header of '${entry.name}' is damaged`);
  }
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > zip.byteLength) throw new ZipFormatError(`'${entry.name}' is truncated`);
  const data = zip.subarray(start, end);
  if (entry.method === 0) {
    if (data.length > options.limit) throw new ZipBudgetError(`'${entry.name}' is too large`);
    return data.slice();
  }
  if (entry.method !== 8) {
    throw new ZipFormatError(
      `'${entry.name}' uses compression method ${entry.method}; only stored and deflate are supported`,
    );
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const inflater = new Inflate((chunk) => {
    total += chunk.length;
    if (total > options.limit) {
      throw new ZipBudgetError(`'${entry.name}' inflates to more than ${options.limit} bytes`);
    }
    chunks.push(chunk);
  });
  // small input steps: one step of deflate output is at most ~1032 times its input,
  // so a lying header is caught after a few MiB, not after the whole bomb inflated
  const step = 4 * 1024;
  try {
    for (let i = 0; i < data.length; i += step) {
      inflater.push(data.subarray(i, Math.min(i + step, data.length)), i + step >= data.length);
    }
    if (data.length === 0) inflater.push(new Uint8Array(0), true);
  } catch (error) {
    if (error instanceof ZipBudgetError) throw error;
    throw new ZipFormatError(`'${entry.name}' could not be inflated: ${(error as Error).message}`);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** A zip file on disk as a {@link ZipSource}; close it when done. */
export async function openZipFile(path: string): Promise<ZipSource & { close(): Promise<void> }> {
  const handle = await open(path, "r");
  const size = (await handle.stat()).size;
  return {
    size,
    async read(offset: number, length: number): Promise<Uint8Array> {
      const buffer = new Uint8Array(Math.max(0, Math.min(length, size - offset)));
      let done = 0;
      while (done < buffer.length) {
        const { bytesRead } = await handle.read(buffer, done, buffer.length - done, offset + done);
        if (bytesRead === 0) break;
        done += bytesRead;
      }
      return done === buffer.length ? buffer : buffer.subarray(0, done);
    },
    close: () => handle.close(),
  };
}

/** Compressed bytes read from the archive at a time. */
const READ_BYTES = 64 * 1024;
/** Inflated bytes gathered before they are handed to the sink. */
const FLUSH_BYTES = 1024 * 1024;

/**
 * Inflates one entry of an archive on disk piece by piece, handing the
 * inflated bytes to `sink` (in pieces of about 1 MiB) and refusing to produce
 * more than `limit` bytes: memory stays a few MiB whatever the entry's size,
 * and a header that lies is caught after one small inflate step. Returns the
 * number of bytes inflated.
 */
export async function inflateEntryFrom(
  source: ZipSource,
  entry: ZipEntry,
  options: { limit: number; sink: (bytes: Uint8Array) => Promise<void> | void },
): Promise<number> {
  const header = await source.read(entry.localHeaderOffset, 30);
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength);
  if (header.length < 30 || view.getUint32(0, true) !== LOCAL) {
    throw new ZipFormatError(`the local header of '${entry.name}' is damaged`);
  }
  const start = entry.localHeaderOffset + 30 + view.getUint16(26, true) + view.getUint16(28, true);
  const end = start + entry.compressedSize;
  if (end > source.size) throw new ZipFormatError(`'${entry.name}' is truncated`);
  if (entry.method !== 0 && entry.method !== 8) {
    throw new ZipFormatError(
      `'${entry.name}' uses compression method ${entry.method}; only stored and deflate are supported`,
    );
  }
  let total = 0;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const take = (chunk: Uint8Array) => {
    total += chunk.length;
    if (total > options.limit) {
      throw new ZipBudgetError(`'${entry.name}' inflates to more than ${options.limit} bytes`);
    }
    pending.push(chunk);
    pendingBytes += chunk.length;
  };
  const flush = async () => {
    if (pendingBytes === 0) return;
    const bytes = pending.length === 1 ? pending[0]! : concat(pending, pendingBytes);
    pending = [];
    pendingBytes = 0;
    await options.sink(bytes);
  };
  const inflater = entry.method === 8 ? new Inflate((chunk) => take(chunk)) : undefined;
  // small input steps: one step of deflate output is at most ~1032 times its input (4 MiB)
  const step = 4 * 1024;
  try {
    for (let at = start; at < end; at += READ_BYTES) {
      const data = await source.read(at, Math.min(READ_BYTES, end - at));
      if (data.length === 0) throw new ZipFormatError(`'${entry.name}' is truncated`);
      if (!inflater) {
        take(data);
      } else {
        for (let i = 0; i < data.length; i += step) {
          const last = at + i + step >= end;
          inflater.push(data.subarray(i, Math.min(i + step, data.length)), last);
          if (pendingBytes >= FLUSH_BYTES) await flush();
        }
      }
      if (pendingBytes >= FLUSH_BYTES) await flush();
    }
    if (inflater && start === end) inflater.push(new Uint8Array(0), true);
  } catch (error) {
    // fflate's errors carry a numeric code; others (the sink's, the disk's) pass unchanged
    if (typeof (error as { code?: unknown }).code !== "number") throw error;
    throw new ZipFormatError(`'${entry.name}' could not be inflated: ${(error as Error).message}`);
  }
  await flush();
  return total;
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
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
