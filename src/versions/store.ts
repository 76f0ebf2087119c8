/**
 * SQL of package versions: insert, list, get, status changes and the one rule
 * that says which version is a package's latest.
 *
 * Latest: the version the package points at (`packages.latest_version`, set by
 * every publish unless `pinLatest` is false) when it is unarchived; otherwise
 * the newest unarchived version; `null` when every version is archived or in
 * `error_state`.
 * @module
 */
import type { Db } from "../db/database.ts";

/** Archive states of a version. */
export type ArchiveStatus = "archive" | "unarchive" | "error_state";
/** Index states of a version. */
export type IndexStatus = "unknown" | "indexing" | "indexed" | "failed";

/** The seed's Version. */
export interface VersionView {
  id: string;
  createdAt: string;
  updatedAt: string;
  archiveStatus: ArchiveStatus;
  indexStatus: IndexStatus;
  /** Whether this is the package's latest version now. */
  isLatest?: boolean;
}

/** A version row: the view plus ids and the archive's sha256. */
export interface VersionRow extends VersionView {
  /** Row id (uuid): what model caches, entities and runs key on. */
  uuid: string;
  packageId: string;
  blobSha256: string;
}

/**
 * The one latest-version rule, as a lateral subquery over `package_versions v`
 * for the package row aliased `pk` in the enclosing query: the package's pinned
 * latest version when it is unarchived, else the newest unarchived one. `where`
 * replaces the unarchived filter (a query naming its version picks that one).
 * Use as `LEFT JOIN LATERAL (${latestVersionOf(db)}) lv ON true`.
 */
export function latestVersionOf(db: Db, where = db`v.archive_status = 'unarchive'`) {
  return db`SELECT v.* FROM package_versions v WHERE v.package_id = pk.id AND ${where}
             ORDER BY (v.id = pk.latest_version) DESC NULLS LAST, v.created_at DESC, v.id LIMIT 1`;
}

/** The SQL expression (a subquery) of a package's latest version row id. */
function latestOf(db: Db, packageId: string) {
  return db`(SELECT lv.id FROM packages pk CROSS JOIN LATERAL (${latestVersionOf(db)}) lv WHERE pk.id = ${packageId})`;
}

/** A version row as {@link versionColumns} reads it; `isLatest` only where the query computes it. */
interface VersionRecord extends Omit<VersionRow, "createdAt" | "updatedAt"> {
  createdAt: Date;
  updatedAt: Date;
}

/** The columns of {@link VersionRecord}, from the version row aliased `v`. */
function versionColumns(db: Db) {
  return db`v.id AS uuid, v.package_id AS "packageId", v.blob_sha256 AS "blobSha256", v.version_id AS id,
            v.created_at AS "createdAt", v.updated_at AS "updatedAt", v.archive_status AS "archiveStatus",
            v.index_status AS "indexStatus"`;
}

function toVersion(r: VersionRecord): VersionRow {
  return {
    uuid: r.uuid,
    packageId: r.packageId,
    blobSha256: r.blobSha256,
    id: r.id,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    archiveStatus: r.archiveStatus,
    indexStatus: r.indexStatus,
    ...(r.isLatest === undefined ? {} : { isLatest: r.isLatest }),
  };
}

/** Strips ids for responses. */
export function versionView(v: VersionRow): VersionView {
  const { uuid: _u, packageId: _p, blobSha256: _b, ...view } = v;
  return view;
}

/** Versions of a package, newest first, keyset-paged on (created_at, id). */
export async function listVersions(db: Db, packageId: string, page: { limit: number; before?: string }): Promise<VersionRow[]> {
  const [at, id] = page.before ? page.before.split("|") : [null, null];
  const rows = await db<VersionRecord[]>`
    SELECT ${versionColumns(db)}, coalesce(v.id = ${latestOf(db, packageId)}, false) AS "isLatest" FROM package_versions v
     WHERE v.package_id = ${packageId}
       AND (${at}::timestamptz IS NULL OR (v.created_at, v.id) < (${at}::timestamptz, ${id}::uuid))
     ORDER BY v.created_at DESC, v.id DESC LIMIT ${page.limit + 1}`;
  return rows.map(toVersion);
}

/** Cursor key of a version in {@link listVersions}. */
export function versionCursor(v: VersionRow): string {
  return `${v.createdAt}|${v.uuid}`;
}

/** One version of a package by its id (`1.2.3`), any state. */
export async function findVersion(db: Db, packageId: string, versionId: string): Promise<VersionRow | null> {
  const [r] = await db<VersionRecord[]>`SELECT ${versionColumns(db)}, coalesce(v.id = ${latestOf(db, packageId)}, false) AS "isLatest" FROM package_versions v
                        WHERE v.package_id = ${packageId} AND v.version_id = ${versionId}`;
  return r ? toVersion(r) : null;
}

/** The package's latest version (see the module notes), or `null`. */
export async function latestVersion(db: Db, packageId: string): Promise<VersionRow | null> {
  const [r] = await db<VersionRecord[]>`SELECT ${versionColumns(db)}, true AS "isLatest" FROM package_versions v WHERE v.id = ${latestOf(db, packageId)}`;
  return r ? toVersion(r) : null;
}

/**
 * The version a request names (`versionId`), or the latest one when it names
 * none. `null` when there is no such version.
 */
export async function resolveVersion(db: Db, packageId: string, versionId?: string): Promise<VersionRow | null> {
  return versionId ? await findVersion(db, packageId, versionId) : await latestVersion(db, packageId);
}

/** Fields of a new version. */
export interface NewVersion {
  packageId: string;
  versionId: string;
  blobSha256: string;
  manifest: Record<string, unknown>;
  createdBy: string | null;
}

/**
 * Inserts a version (a duplicate id raises the unique violation 23505) and,
 * unless `pinLatest` is false, points the package's latest at it.
 */
export async function insertVersion(db: Db, v: NewVersion, options: { pinLatest?: boolean } = {}): Promise<VersionRow> {
  const [r] = await db<VersionRecord[]>`
    INSERT INTO package_versions AS v (package_id, version_id, blob_sha256, manifest, created_by)
    VALUES (${v.packageId}, ${v.versionId}, ${v.blobSha256}, ${db.json(v.manifest as never)}, ${v.createdBy})
    RETURNING ${versionColumns(db)}`;
  if (options.pinLatest !== false) {
    await db`UPDATE packages SET latest_version = ${r!.uuid}, updated_at = now() WHERE id = ${v.packageId}`;
  } else {
    await db`UPDATE packages SET updated_at = now() WHERE id = ${v.packageId}`;
  }
  return toVersion(r!);
}

/** Sets a version's archive status. */
export async function setArchiveStatus(db: Db, uuid: string, status: ArchiveStatus): Promise<void> {
  await db`UPDATE package_versions SET archive_status = ${status}, updated_at = clock_timestamp() WHERE id = ${uuid}`;
}

/** Sets a version's index status (for the runs engine). */
export async function setIndexStatus(db: Db, uuid: string, status: IndexStatus): Promise<void> {
  await db`UPDATE package_versions SET index_status = ${status}, updated_at = clock_timestamp() WHERE id = ${uuid}`;
}

/** How many unarchived versions a package has. */
export async function unarchivedCount(db: Db, packageId: string): Promise<number> {
  const [r] = await db<{ n: number }[]>`SELECT count(*)::int AS n FROM package_versions WHERE package_id = ${packageId} AND archive_status = 'unarchive'`;
  return Number(r!.n);
}
