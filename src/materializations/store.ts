/**
 * SQL of materializations (sql/060_runs.sql, sql/120_materialization_files.sql):
 * one row per version and `#@ persist` source, pointing at the Parquet file
 * of its last successful build (content-addressed, see ./files.ts). A new
 * build replaces that pointer in one transaction, which is the atomic switch
 * queries observe; `location` is where every node caches the file under its
 * DATA_DIR (`materializations/<package sha256>/<file sha256>.parquet`).
 * @module
 */
import type { Db, Sql } from "../db/database.ts";
import { deleteOrphanFiles, putFile } from "./files.ts";

/** Which materialization: a source of a model of a version. */
export interface MaterializationKey {
  versionUuid: string;
  modelPath: string;
  sourceName: string;
}

/** A materialization as clients see it. */
export interface MaterializationView {
  id: string;
  sourceName: string;
  modelFilePath: string;
  connection: string;
  format: string;
  /** Path of the file relative to the service's DATA_DIR. */
  location: string;
  status: "building" | "built" | "failed" | "cancelled";
  rowCount: number | null;
  /** sha256 of the Parquet file served (null before the first build). */
  sha256: string | null;
  runId: string | null;
  builtAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Where a source's Parquet file goes, relative to DATA_DIR. */
function materializationLocation(key: MaterializationKey): string {
  const model = key.modelPath.replace(/\.malloy(nb)?$/, "").replace(/[^a-zA-Z0-9_.-]+/g, "_");
  return `materializations/${key.versionUuid}/${model}/${key.sourceName.replace(/[^a-zA-Z0-9_-]+/g, "_")}.parquet`;
}

/** A materialization row as {@link SELECT_VIEW} reads it; `rowCount` is a bigint (a string). */
interface MaterializationRecord extends Omit<MaterializationView, "rowCount" | "builtAt" | "createdAt" | "updatedAt"> {
  rowCount: string | number | null;
  builtAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const SELECT_VIEW = (db: Db) => db`
  SELECT id, source_name AS "sourceName", model_path AS "modelFilePath", connection, format, location, status,
         row_count AS "rowCount", sha256, run AS "runId", built_at AS "builtAt", created_at AS "createdAt", updated_at AS "updatedAt"
    FROM materializations`;

function toView(r: MaterializationRecord): MaterializationView {
  return {
    id: r.id,
    sourceName: r.sourceName,
    modelFilePath: r.modelFilePath,
    connection: r.connection,
    format: r.format,
    location: r.location,
    status: r.status,
    rowCount: r.rowCount === null ? null : Number(r.rowCount),
    sha256: r.sha256,
    runId: r.runId,
    builtAt: r.builtAt instanceof Date ? r.builtAt.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Marks a materialization `building` (a previous file stays until this build replaces it). */
export async function startMaterialization(db: Db, key: MaterializationKey, options: { connection: string }): Promise<void> {
  await db`INSERT INTO materializations (version, model_path, source_name, connection, location, status)
    VALUES (${key.versionUuid}, ${key.modelPath}, ${key.sourceName}, ${options.connection}, ${materializationLocation(key)}, 'building')
    ON CONFLICT (version, model_path, source_name) DO UPDATE SET status = 'building', connection = excluded.connection, updated_at = clock_timestamp()`;
}

/** A finished build: the written file and what it holds. */
export interface BuiltFile {
  runId: string;
  /** Absolute path of the written Parquet file (stored, then left to the caller). */
  path: string;
  sha256: string;
  size: number;
  /** Where nodes cache it, relative to DATA_DIR. */
  location: string;
  rowCount: number;
  columns: string[];
}

/**
 * Ends a build as `built`: stores the file (content-addressed) and points
 * the row at it, in one transaction; files no row points at any more are
 * deleted with it. Answers the hashes deleted (for the local caches).
 */
export async function completeMaterialization(sql: Sql, key: MaterializationKey, built: BuiltFile): Promise<string[]> {
  return await sql.begin(async (tx) => {
    await putFile(tx, built.path, built);
    await tx`UPDATE materializations SET status = 'built', row_count = ${built.rowCount}, run = ${built.runId},
               sha256 = ${built.sha256}, location = ${built.location}, columns = ${tx.json(built.columns)},
               built_at = clock_timestamp(), updated_at = clock_timestamp()
             WHERE version = ${key.versionUuid} AND model_path = ${key.modelPath} AND source_name = ${key.sourceName}`;
    return await deleteOrphanFiles(tx);
  });
}

/** Ends a build as `failed` (the last built file, if any, keeps serving). */
export async function failMaterialization(db: Db, key: MaterializationKey): Promise<void> {
  await db`UPDATE materializations SET status = CASE WHEN sha256 IS NULL THEN 'failed' ELSE 'built' END, updated_at = clock_timestamp()
           WHERE version = ${key.versionUuid} AND model_path = ${key.modelPath} AND source_name = ${key.sourceName}`;
}

/** What a query of a model may read: the served file of each built source. */
export interface ServedMaterialization {
  id: string;
  sourceName: string;
  sha256: string;
  columns: string[];
  connection: string;
  builtAt: string;
}

/** The built materializations of a version's model (one round trip per query). */
export async function servedMaterializations(db: Db, versionUuid: string, modelPath: string): Promise<ServedMaterialization[]> {
  const rows = await db<(Omit<ServedMaterialization, "columns" | "builtAt"> & { columns: string[] | null; builtAt: Date })[]>`
    SELECT id, source_name AS "sourceName", sha256, columns, connection, built_at AS "builtAt" FROM materializations
     WHERE version = ${versionUuid} AND model_path = ${modelPath} AND sha256 IS NOT NULL AND built_at IS NOT NULL
     ORDER BY source_name`;
  return rows.map((r) => ({
    id: r.id,
    sourceName: r.sourceName,
    sha256: r.sha256,
    columns: r.columns ?? [],
    connection: r.connection,
    builtAt: r.builtAt.toISOString(),
  }));
}

/** Materializations of a version, most recently changed first, keyset-paged on (updated_at, id). */
export async function listMaterializations(db: Db, versionUuid: string, page: { limit: number; before?: string }): Promise<MaterializationView[]> {
  const [at, id] = page.before ? page.before.split("|") : [null, null];
  const rows = await db<MaterializationRecord[]>`${SELECT_VIEW(db)} WHERE version = ${versionUuid}
      AND (${at}::timestamptz IS NULL OR (updated_at, id) < (${at}::timestamptz, ${id}::uuid))
    ORDER BY updated_at DESC, id DESC LIMIT ${page.limit + 1}`;
  return rows.map(toView);
}

/** Cursor key of a materialization in {@link listMaterializations}. */
export function materializationCursor(m: MaterializationView): string {
  return `${m.updatedAt}|${m.id}`;
}

/** One materialization of a version; null when absent. */
export async function findMaterialization(db: Db, versionUuid: string, id: string): Promise<MaterializationView | null> {
  const [r] = await db<MaterializationRecord[]>`${SELECT_VIEW(db)} WHERE version = ${versionUuid} AND id = ${id}`;
  return r ? toView(r) : null;
}
