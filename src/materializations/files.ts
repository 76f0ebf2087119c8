/**
 * Materialization files, content-addressed: a built Parquet file is stored
 * in the platform database under its sha256 (in chunks, so no single value
 * is large) and cached on every node at
 * `DATA_DIR/materializations/<package blob sha256>/<file sha256>.parquet`.
 * The per-package folder is the only one the package's DuckDB may read
 * besides its own files (registered below with the engine's sandbox), so a
 * package never sees another package's files.
 * @module
 */
import { createHash } from "node:crypto";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import { mkdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { setPackageReadDirectories } from "../engine/duckdb_sandbox.ts";
import type { Db } from "../db/database.ts";

// The DuckDB of a package extracted at `<DATA_DIR>/packages/<sha256>` may read
// `<DATA_DIR>/materializations/<sha256>` (only its own package's files).
setPackageReadDirectories((packageDir) => {
  if (basename(dirname(packageDir)) !== "packages" || !/^[0-9a-f]{64}$/.test(basename(packageDir))) return [];
  const dir = materializationDir(dirname(dirname(packageDir)), basename(packageDir));
  mkdirSync(dir, { recursive: true });
  return [dir];
});

/** Bytes per stored chunk. */
export const CHUNK_BYTES = 4 * 1024 * 1024;

/** The folder of one package archive's cached materializations, under DATA_DIR. */
export function materializationDir(dataDir: string, blobSha256: string): string {
  return resolve(dataDir, "materializations", blobSha256);
}

/** Where a file is cached on this node, relative to DATA_DIR. */
export function cachedLocation(blobSha256: string, fileSha256: string): string {
  return `materializations/${blobSha256}/${fileSha256}.parquet`;
}

/** sha256 (hex) and size of a file, read in chunks. */
export async function hashFile(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of Bun.file(path).stream()) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest("hex"), size };
}

/**
 * Stores a file under its sha256 (no-op when stored already). Call it inside
 * the transaction that points a materialization at the file: the stored row
 * is locked (`FOR KEY SHARE`) so a concurrent orphan sweep cannot remove it.
 */
export async function putFile(tx: Db, path: string, file: { sha256: string; size: number }): Promise<void> {
  const [known] = await tx`SELECT 1 FROM materialization_files WHERE sha256 = ${file.sha256} FOR KEY SHARE`;
  if (known) return;
  const chunks = Math.max(1, Math.ceil(file.size / CHUNK_BYTES));
  const [inserted] = await tx`INSERT INTO materialization_files (sha256, size, chunks)
    VALUES (${file.sha256}, ${file.size}, ${chunks}) ON CONFLICT (sha256) DO NOTHING RETURNING sha256`;
  if (!inserted) return;
  const handle = await open(path, "r");
  try {
    for (let seq = 0; seq < chunks; seq++) {
      const buffer = new Uint8Array(Math.max(0, Math.min(CHUNK_BYTES, file.size - seq * CHUNK_BYTES)));
      await handle.read(buffer, 0, buffer.length, seq * CHUNK_BYTES);
      // a Buffer is sent as bytea about a third faster than a plain Uint8Array by postgres.js
      const data = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
      await tx`INSERT INTO materialization_chunks (sha256, seq, data) VALUES (${file.sha256}, ${seq}, ${data as never})`;
    }
  } finally {
    await handle.close();
  }
}

/**
 * Writes the stored file `sha256` to `target` (through a temporary file and a
 * rename, checking its hash); false when the database no longer has it.
 */
export async function fetchFile(db: Db, sha256: string, target: string): Promise<boolean> {
  const [file] = await db`SELECT chunks FROM materialization_files WHERE sha256 = ${sha256}`;
  if (!file) return false;
  const partial = `${target}.${crypto.randomUUID()}.tmp`;
  await mkdir(join(target, ".."), { recursive: true });
  const handle = await open(partial, "w");
  const hash = createHash("sha256");
  try {
    for (let seq = 0; seq < Number(file.chunks); seq++) {
      const [chunk] = await db`SELECT data FROM materialization_chunks WHERE sha256 = ${sha256} AND seq = ${seq}`;
      if (!chunk) return false;
      const bytes = chunk.data as Uint8Array;
      hash.update(bytes);
      await handle.write(bytes);
    }
    await handle.close();
    if (hash.digest("hex") !== sha256) throw new Error(`materialization file ${sha256} is damaged in the database (its hash differs)`);
    await rename(partial, target);
    return true;
  } finally {
    await handle.close().catch(() => {});
    await rm(partial, { force: true });
  }
}

/** Whether a file exists (the local cache check). */
export async function isFile(path: string): Promise<boolean> {
  return await stat(path).then((s) => s.isFile(), () => false);
}

/** Deletes stored files no materialization points at. */
export async function deleteOrphanFiles(db: Db): Promise<string[]> {
  const rows = await db`DELETE FROM materialization_files f
    WHERE NOT EXISTS (SELECT 1 FROM materializations m WHERE m.sha256 = f.sha256) RETURNING sha256`;
  return rows.map((r) => r.sha256 as string);
}
