/**
 * Random access to a zip archive ({@link ZipSource}) and the one kind this
 * platform reads from: a file on disk, read piece by piece.
 * @module
 */

import { open } from "node:fs/promises";

/** Random access to a zip archive (a file on disk, read piece by piece). */
export interface ZipSource {
  /** Size of the archive in bytes. */
  readonly size: number;
  /** Reads `length` bytes at `offset` (fewer at the end of the archive). */
  read(offset: number, length: number): Promise<Uint8Array>;
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
