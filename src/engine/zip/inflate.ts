/**
 * Inflating one entry of a zip archive with a byte budget: from an archive in
 * memory ({@link inflateEntry}) or piece by piece from one on disk
 * ({@link inflateEntryFrom}). The entry comes from the central directory
 * (./directory.ts); its local header is read here.
 * @module
 */

import { Inflate } from "fflate";
import type { ZipEntry } from "./directory.ts";
import { ZipBudgetError, ZipFormatError } from "./errors.ts";
import type { ZipSource } from "./source.ts";

/** Signature of a local file header. */
const LOCAL = 0x04034b50;

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
  return concat(chunks, total);
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

/** The parts, `size` bytes in all, joined in one new array. */
function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
