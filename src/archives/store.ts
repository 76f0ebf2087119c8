/**
 * Package archives in the platform database, in chunks (the chunked-file
 * store of `src/db/chunked_files.ts`): stored from the upload's temporary
 * file and read back one chunk at a time, so no process holds a whole archive
 * in memory (`sql/130_package_blob_chunks.sql`); extracted once per node into
 * `DATA_DIR/packages/<sha256>`, and removed (rows and extracted folders) when
 * no version refers to them any more. Below packages, environments,
 * organizations, apps and query, which all read or clean up archives here.
 * @module
 */
import { mkdir, rm, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Db } from "../db/database.ts";
import { DamagedFileError, fileChunks, findChunkedFile, putChunkedFile, writeChunkedFile, type ChunkedKind, type StoredFile } from "../db/chunked_files.ts";
import { ConflictError } from "../errors.ts";
import { closePackageDuckDB, extractArchiveFile, type ReadArchiveOptions, removeExtracted } from "../engine/mod.ts";

/** Directory of extracted package archives (`DATA_DIR/packages`), one folder per archive sha256. */
export function extractionDir(config: { dataDir: string }): string {
  return join(config.dataDir, "packages");
}

/** Package archives in the chunked-file store. */
const ARCHIVES: ChunkedKind = { files: "package_blobs", chunks: "package_blob_chunks", label: "archive" };

/** A stored archive: its size and number of chunks. */
export type StoredArchive = StoredFile;

/**
 * Stores the archive file at `path` under its sha256, 4 MiB at a time (no-op
 * when stored already). Call it inside the transaction that inserts the
 * version: the stored row is locked (`FOR KEY SHARE`) so a concurrent orphan
 * sweep cannot remove it, and a refused publish stores nothing. When versions
 * of this archive are in `error_state` (their copy was found damaged), its
 * chunks are written again and those versions return to `unarchive`.
 */
export async function putArchive(tx: Db, path: string, archive: { sha256: string; size: number }): Promise<void> {
  // the same bytes published again repair a copy found damaged: its versions serve again
  const [damaged] = await tx`SELECT 1 FROM package_versions WHERE blob_sha256 = ${archive.sha256} AND archive_status = 'error_state' LIMIT 1`;
  await putChunkedFile(tx, ARCHIVES, { path, sha256: archive.sha256, size: archive.size, rewrite: damaged !== undefined });
  if (damaged) {
    await tx`UPDATE package_versions SET archive_status = 'unarchive', updated_at = clock_timestamp()
              WHERE blob_sha256 = ${archive.sha256} AND archive_status = 'error_state'`;
  }
}

/** The stored archive with this sha256, or `null`. */
export async function findArchive(db: Db, sha256: string): Promise<StoredArchive | null> {
  return await findChunkedFile(db, ARCHIVES, sha256);
}

/** The bytes of a stored archive, one chunk (at most 4 MiB) at a time, in order. */
export function archiveChunks(db: Db, archive: StoredArchive): AsyncGenerator<Uint8Array> {
  return fileChunks(db, ARCHIVES, archive);
}

/**
 * Puts every version stored as archive `sha256` in `archiveStatus`
 * `error_state`: it cannot be served (its archive is damaged), and
 * `PATCH .../versions/{versionId}` cannot unarchive it.
 */
async function markUnservable(db: Db, sha256: string): Promise<void> {
  await db`UPDATE package_versions SET archive_status = 'error_state', updated_at = clock_timestamp()
            WHERE blob_sha256 = ${sha256} AND archive_status <> 'error_state'`;
}

/**
 * The folder `<cacheDir>/<sha256>` of a stored archive, extracted on first
 * use on this node (another node's publish, or after DATA_DIR was lost): the
 * archive is streamed from the database into a temporary file, then unpacked
 * from it entry by entry. `null` when the database does not have the archive.
 * An archive whose bytes no longer match its sha256 puts its versions in
 * `error_state` and is a ConflictError saying so.
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
    const written = await writeChunkedFile(db, ARCHIVES, { sha256, target: zipPath }).catch(async (error) => {
      if (!(error instanceof DamagedFileError)) throw error;
      await markUnservable(db, sha256);
      throw new ConflictError(
        "the version's archive is damaged in the platform database (its bytes no longer match the sha256 recorded at publish), so the version is now in archiveStatus error_state and cannot be served; publish the package again as a new version",
      );
    });
    if (!written) return null;
    return await extractArchiveFile(zipPath, { cacheDir, sha256, read: options.read });
  } finally {
    await rm(zipPath, { force: true });
  }
}

/** Removes stored archives that no version refers to. */
export async function deleteOrphanBlobs(db: Db): Promise<number> {
  const rows = await db`
    DELETE FROM package_blobs b WHERE NOT EXISTS (SELECT 1 FROM package_versions v WHERE v.blob_sha256 = b.sha256)
    RETURNING sha256`;
  return rows.length;
}

/** The archives (sha256) the versions of some packages use; read before deleting them. */
export async function archivesOf(db: Db, where: { packageId?: string; envId?: string; orgId?: string }): Promise<string[]> {
  const rows = await db`
    SELECT DISTINCT v.blob_sha256 AS sha FROM package_versions v JOIN packages p ON p.id = v.package_id
    JOIN environments e ON e.id = p.env_id
    WHERE (${where.packageId ?? null}::uuid IS NULL OR p.id = ${where.packageId ?? null}::uuid)
      AND (${where.envId ?? null}::uuid IS NULL OR e.id = ${where.envId ?? null}::uuid)
      AND (${where.orgId ?? null}::uuid IS NULL OR e.org_id = ${where.orgId ?? null}::uuid)`;
  return rows.map((r) => r.sha as string);
}

/**
 * After a delete committed: removes the extracted folder (`<cacheDir>/<sha>`)
 * of each of these archives that no version refers to any more (an archive
 * shared with another package stays). Returns how many folders went.
 */
export async function removeUnusedExtractions(db: Db, cacheDir: string, shas: string[]): Promise<number> {
  if (shas.length === 0) return 0;
  const used = new Set(
    (await db`SELECT DISTINCT blob_sha256 AS sha FROM package_versions WHERE blob_sha256 IN ${db(shas)}`).map((r) => r.sha as string),
  );
  let removed = 0;
  for (const sha of shas) {
    if (used.has(sha) || !/^[0-9a-f]{64}$/.test(sha)) continue;
    const dir = join(cacheDir, sha);
    if (!(await stat(dir).then(() => true, () => false))) continue;
    await closePackageDuckDB(dir);
    await removeExtracted(dir);
    removed++;
  }
  return removed;
}
