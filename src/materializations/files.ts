/**
 * Materialization files, content-addressed: a built Parquet file is stored
 * in the platform database under its sha256 (in chunks, so no single value
 * is large) and cached on every node at
 * `DATA_DIR/materializations/<package blob sha256>/<file sha256>.parquet`.
 * The per-archive folder is the only one the package's DuckDB may read
 * besides its own files (registered below with the engine's sandbox); it is
 * shared by packages with the same archive, so within it a query reads only
 * the files its own version was served (src/engine/duckdb/readable_files.ts).
 * @module
 */
import { createHash } from "node:crypto";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { mkdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { setPackageReadDirectories } from "../engine/duckdb/paths.ts";
import type { Db } from "../db/database.ts";
import { MissingChunkError, putChunkedFile, writeChunkedFile, type ChunkedKind } from "../db/chunked_files.ts";

// The DuckDB of a package extracted at `<DATA_DIR>/packages/<sha256>` may read
// `<DATA_DIR>/materializations/<sha256>` (only its own package's files).
setPackageReadDirectories((packageDir) => {
  if (basename(dirname(packageDir)) !== "packages" || !/^[0-9a-f]{64}$/.test(basename(packageDir))) return [];
  const dir = materializationDir(dirname(dirname(packageDir)), basename(packageDir));
  mkdirSync(dir, { recursive: true });
  return [dir];
});

/** The folder of one package archive's cached materializations, under DATA_DIR. */
function materializationDir(dataDir: string, blobSha256: string): string {
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

/** Materialization files in the chunked-file store. */
const FILES: ChunkedKind = { files: "materialization_files", chunks: "materialization_chunks", label: "materialization file" };

/**
 * Stores a file under its sha256 (no-op when stored already). Call it inside
 * the transaction that points a materialization at the file: the stored row
 * is locked (`FOR KEY SHARE`) so a concurrent orphan sweep cannot remove it.
 */
export async function putFile(tx: Db, path: string, file: { sha256: string; size: number }): Promise<void> {
  await putChunkedFile(tx, FILES, { path, sha256: file.sha256, size: file.size });
}

/**
 * Writes the stored file `sha256` to `target` (through a temporary file and a
 * rename, checking its hash); false when the database no longer has it (or
 * lost a chunk of it meanwhile).
 */
export async function fetchFile(db: Db, sha256: string, target: string): Promise<boolean> {
  const partial = `${target}.${crypto.randomUUID()}.tmp`;
  await mkdir(join(target, ".."), { recursive: true });
  try {
    if (!(await writeChunkedFile(db, FILES, { sha256, target: partial }))) return false;
    await rename(partial, target);
    return true;
  } catch (error) {
    if (error instanceof MissingChunkError) return false;
    throw error;
  } finally {
    await rm(partial, { force: true });
  }
}

/** Whether a file exists (the local cache check). */
export async function isFile(path: string): Promise<boolean> {
  return await stat(path).then((s) => s.isFile(), () => false);
}

/** Deletes stored files no materialization points at. */
export async function deleteOrphanFiles(db: Db): Promise<string[]> {
  const rows = await db<{ sha256: string }[]>`DELETE FROM materialization_files f
    WHERE NOT EXISTS (SELECT 1 FROM materializations m WHERE m.sha256 = f.sha256) RETURNING sha256`;
  return rows.map((r) => r.sha256);
}
