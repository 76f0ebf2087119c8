/**
 * Package archives in the platform database, in chunks: stored from the
 * upload's temporary file and read back one chunk at a time, so no process
 * holds a whole archive in memory (`sql/130_package_blob_chunks.sql`).
 * @module
 */
import { createHash } from "node:crypto";
import { mkdir, open, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Db } from "../db/database.ts";
import { extractArchiveFile, gcHint, type ReadArchiveOptions } from "../engine/mod.ts";

/** Bytes per stored chunk (as materialization files). */
const ARCHIVE_CHUNK_BYTES = 4 * 1024 * 1024;

/** A stored archive: its size and number of chunks. */
export interface StoredArchive {
  sha256: string;
  size: number;
  chunks: number;
}

/**
 * Stores the archive file at `path` under its sha256, 4 MiB at a time (no-op
 * when stored already). Call it inside the transaction that inserts the
 * version: the stored row is locked (`FOR KEY SHARE`) so a concurrent orphan
 * sweep cannot remove it, and a refused publish stores nothing.
 */
export async function putArchive(tx: Db, path: string, archive: { sha256: string; size: number }): Promise<void> {
  const [known] = await tx`SELECT 1 FROM package_blobs WHERE sha256 = ${archive.sha256} FOR KEY SHARE`;
  if (known) return;
  const chunks = Math.max(1, Math.ceil(archive.size / ARCHIVE_CHUNK_BYTES));
  const [inserted] = await tx`INSERT INTO package_blobs (sha256, size, chunks)
    VALUES (${archive.sha256}, ${archive.size}, ${chunks}) ON CONFLICT (sha256) DO NOTHING RETURNING sha256`;
  if (!inserted) return;
  const handle = await open(path, "r");
  const moved = gcHint(ARCHIVE_CHUNK_BYTES);
  try {
    for (let seq = 0; seq < chunks; seq++) {
      const buffer = Buffer.alloc(Math.max(0, Math.min(ARCHIVE_CHUNK_BYTES, archive.size - seq * ARCHIVE_CHUNK_BYTES)));
      let done = 0;
      while (done < buffer.length) {
        const { bytesRead } = await handle.read(buffer, done, buffer.length - done, seq * ARCHIVE_CHUNK_BYTES + done);
        if (bytesRead === 0) throw new Error(`the archive file ${path} is shorter than ${archive.size} bytes`);
        done += bytesRead;
      }
      await tx`INSERT INTO package_blob_chunks (sha256, seq, data) VALUES (${archive.sha256}, ${seq}, ${buffer as never})`;
      moved(buffer.length);
    }
  } finally {
    await handle.close();
  }
}

/** The stored archive with this sha256, or `null`. */
export async function findArchive(db: Db, sha256: string): Promise<StoredArchive | null> {
  const [r] = await db`SELECT size, chunks FROM package_blobs WHERE sha256 = ${sha256}`;
  return r ? { sha256, size: Number(r.size), chunks: Number(r.chunks) } : null;
}

/** The bytes of a stored archive, one chunk (at most 4 MiB) at a time, in order. */
export async function* archiveChunks(db: Db, archive: StoredArchive): AsyncGenerator<Uint8Array> {
  const moved = gcHint(ARCHIVE_CHUNK_BYTES);
  for (let seq = 0; seq < archive.chunks; seq++) {
    const [chunk] = await db`SELECT data FROM package_blob_chunks WHERE sha256 = ${archive.sha256} AND seq = ${seq}`;
    if (!chunk) throw new Error(`chunk ${seq} of the archive ${archive.sha256} is missing from the database`);
    const data = chunk.data as Uint8Array;
    moved(data.byteLength);
    yield new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  }
}

/**
 * Writes a stored archive to `target` chunk by chunk, checking its sha256
 * and size; false when the database does not have it.
 */
async function writeArchiveFile(db: Db, sha256: string, target: string): Promise<boolean> {
  const archive = await findArchive(db, sha256);
  if (!archive) return false;
  const handle = await open(target, "wx", 0o600);
  const hash = createHash("sha256");
  let size = 0;
  try {
    for await (const chunk of archiveChunks(db, archive)) {
      hash.update(chunk);
      size += chunk.length;
      let done = 0;
      while (done < chunk.length) done += (await handle.write(chunk, done, chunk.length - done)).bytesWritten;
    }
  } finally {
    await handle.close();
  }
  if (size !== archive.size || hash.digest("hex") !== sha256) {
    throw new Error(`the archive ${sha256} is damaged in the database (its size or hash differs)`);
  }
  return true;
}

/**
 * The folder `<cacheDir>/<sha256>` of a stored archive, extracted on first
 * use on this node (another node's publish, or after DATA_DIR was lost): the
 * archive is streamed from the database into a temporary file, then unpacked
 * from it entry by entry. `null` when the database does not have the archive.
 */
export async function extractStoredArchive(
  db: Db,
  sha256: string,
  options: { cacheDir: string; read?: ReadArchiveOptions },
): Promise<string | null> {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`'${sha256}' is not a hex sha256`);
  const cacheDir = resolve(options.cacheDir);
  const target = join(cacheDir, sha256);
  if (await stat(target).then((s) => s.isDirectory(), () => false)) return target;
  await mkdir(cacheDir, { recursive: true });
  const zipPath = join(cacheDir, `.tmp-${sha256}-${crypto.randomUUID()}.zip`);
  try {
    if (!(await writeArchiveFile(db, sha256, zipPath))) return null;
    return await extractArchiveFile(zipPath, { cacheDir, sha256, read: options.read });
  } finally {
    await rm(zipPath, { force: true });
  }
}
