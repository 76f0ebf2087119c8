/**
 * Content-addressed files in the platform database, in chunks of 4 MiB, so no
 * single value is large and no process holds a whole file in memory: package
 * archives (`package_blobs`/`package_blob_chunks`, sql/130_package_blob_chunks.sql)
 * and materialization files (`materialization_files`/`materialization_chunks`,
 * sql/120_materialization_files.sql) share this one store. Each kind has a row
 * table (`sha256`, `size`, `chunks`) and a chunk table (`sha256`, `seq`, `data`).
 * @module
 */
import { createHash } from "node:crypto";
import { open } from "node:fs/promises";
import type { Db } from "./database.ts";
import { gcHint } from "../engine/memory.ts";

/** Bytes per stored chunk. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

/** One kind of chunked file: its two tables and how messages name a file of it. */
export interface ChunkedKind {
  files: "package_blobs" | "materialization_files";
  chunks: "package_blob_chunks" | "materialization_chunks";
  /** e.g. `archive`, `materialization file`. */
  label: string;
}

/** A stored file: its size and number of chunks. */
export interface StoredFile {
  sha256: string;
  size: number;
  chunks: number;
}

/** A chunk of a stored file is gone (the file was deleted while it was read). */
export class MissingChunkError extends Error {
  override name = "MissingChunkError";
}

/** A stored file's bytes do not match its sha256 or size: the database copy is damaged. */
export class DamagedFileError extends Error {
  override name = "DamagedFileError";
}

/**
 * Stores the file at `path` under its sha256, one chunk at a time (no-op when
 * stored already, unless `rewrite`: then its chunks are replaced, repairing a
 * damaged copy). Call it inside the transaction that points a row at the
 * file: the stored row is locked (`FOR KEY SHARE`) so a concurrent orphan
 * sweep cannot remove it, and a rolled-back transaction stores nothing.
 */
export async function putChunkedFile(tx: Db, kind: ChunkedKind, file: { path: string; sha256: string; size: number; rewrite?: boolean }): Promise<void> {
  const [known] = await tx`SELECT 1 FROM ${tx(kind.files)} WHERE sha256 = ${file.sha256} FOR ${file.rewrite ? tx`UPDATE` : tx`KEY SHARE`}`;
  const chunks = Math.max(1, Math.ceil(file.size / CHUNK_BYTES));
  if (known && !file.rewrite) return;
  if (known) {
    await tx`DELETE FROM ${tx(kind.chunks)} WHERE sha256 = ${file.sha256}`;
    await tx`UPDATE ${tx(kind.files)} SET size = ${file.size}, chunks = ${chunks} WHERE sha256 = ${file.sha256}`;
  } else {
    const [inserted] = await tx`INSERT INTO ${tx(kind.files)} (sha256, size, chunks)
      VALUES (${file.sha256}, ${file.size}, ${chunks}) ON CONFLICT (sha256) DO NOTHING RETURNING sha256`;
    if (!inserted) return;
  }
  const handle = await open(file.path, "r");
  const moved = gcHint(CHUNK_BYTES);
  try {
    for (let seq = 0; seq < chunks; seq++) {
      // a Buffer is sent as bytea about a third faster than a plain Uint8Array by postgres.js
      const buffer = Buffer.alloc(Math.max(0, Math.min(CHUNK_BYTES, file.size - seq * CHUNK_BYTES)));
      let done = 0;
      while (done < buffer.length) {
        const { bytesRead } = await handle.read(buffer, done, buffer.length - done, seq * CHUNK_BYTES + done);
        if (bytesRead === 0) throw new Error(`the ${kind.label} file ${file.path} is shorter than ${file.size} bytes`);
        done += bytesRead;
      }
      await tx`INSERT INTO ${tx(kind.chunks)} (sha256, seq, data) VALUES (${file.sha256}, ${seq}, ${buffer as never})`;
      moved(buffer.length);
    }
  } finally {
    await handle.close();
  }
}

/** The stored file with this sha256, or `null`. */
export async function findChunkedFile(db: Db, kind: ChunkedKind, sha256: string): Promise<StoredFile | null> {
  const [r] = await db<{ size: string | number; chunks: number }[]>`SELECT size, chunks FROM ${db(kind.files)} WHERE sha256 = ${sha256}`;
  return r ? { sha256, size: Number(r.size), chunks: Number(r.chunks) } : null;
}

/** The bytes of a stored file, one chunk at a time, in order ({@link MissingChunkError} when one is gone). */
export async function* fileChunks(db: Db, kind: ChunkedKind, file: StoredFile): AsyncGenerator<Uint8Array> {
  const moved = gcHint(CHUNK_BYTES);
  for (let seq = 0; seq < file.chunks; seq++) {
    const [chunk] = await db<{ data: Uint8Array }[]>`SELECT data FROM ${db(kind.chunks)} WHERE sha256 = ${file.sha256} AND seq = ${seq}`;
    if (!chunk) throw new MissingChunkError(`chunk ${seq} of the ${kind.label} ${file.sha256} is missing from the database`);
    moved(chunk.data.byteLength);
    yield new Uint8Array(chunk.data.buffer, chunk.data.byteOffset, chunk.data.byteLength);
  }
}

/**
 * Writes a stored file to `target` (created here, `0600`; it must not exist)
 * chunk by chunk, checking its sha256 and size (DamagedFileError when they
 * differ); false when the database does not have it. The caller removes
 * `target` when this throws.
 */
export async function writeChunkedFile(db: Db, kind: ChunkedKind, where: { sha256: string; target: string }): Promise<boolean> {
  const file = await findChunkedFile(db, kind, where.sha256);
  if (!file) return false;
  const handle = await open(where.target, "wx", 0o600);
  const hash = createHash("sha256");
  let size = 0;
  try {
    for await (const chunk of fileChunks(db, kind, file)) {
      hash.update(chunk);
      size += chunk.length;
      let done = 0;
      while (done < chunk.length) done += (await handle.write(chunk, done, chunk.length - done)).bytesWritten;
    }
  } finally {
    await handle.close();
  }
  if (size !== file.size || hash.digest("hex") !== where.sha256) {
    throw new DamagedFileError(`the ${kind.label} ${where.sha256} is damaged in the database (its size or hash differs)`);
  }
  return true;
}
