/**
 * SQL of materializations (sql/060_runs.sql): one row per version and
 * `#@ persist` source, holding its last build. The Parquet file lives at
 * `DATA_DIR/<location>` (`materializations/<version uuid>/<model>/<source>.parquet`),
 * outside the read-only extracted package folder.
 * @module
 */
import type { Db } from "../db/database.ts";

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
  runId: string | null;
  builtAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Where a source's Parquet file goes, relative to DATA_DIR. */
export function materializationLocation(key: MaterializationKey): string {
  const model = key.modelPath.replace(/\.malloy(nb)?$/, "").replace(/[^a-zA-Z0-9_.-]+/g, "_");
  return `materializations/${key.versionUuid}/${model}/${key.sourceName.replace(/[^a-zA-Z0-9_-]+/g, "_")}.parquet`;
}

function toView(r: Record<string, unknown>): MaterializationView {
  return {
    id: r.id as string,
    sourceName: r.source_name as string,
    modelFilePath: r.model_path as string,
    connection: r.connection as string,
    format: r.format as string,
    location: r.location as string,
    status: r.status as MaterializationView["status"],
    rowCount: r.row_count === null ? null : Number(r.row_count),
    runId: (r.run as string | null) ?? null,
    builtAt: r.built_at instanceof Date ? r.built_at.toISOString() : null,
    createdAt: (r.created_at as Date).toISOString(),
    updatedAt: (r.updated_at as Date).toISOString(),
  };
}

/** Marks a materialization `building` (a previous file stays until this build replaces it). */
export async function startMaterialization(db: Db, key: MaterializationKey, options: { connection: string }): Promise<void> {
  await db`INSERT INTO materializations (version, model_path, source_name, connection, location, status)
    VALUES (${key.versionUuid}, ${key.modelPath}, ${key.sourceName}, ${options.connection}, ${materializationLocation(key)}, 'building')
    ON CONFLICT (version, model_path, source_name) DO UPDATE SET status = 'building', updated_at = clock_timestamp()`;
}

/** Ends a build: `built` with its row count, or `failed`. */
export async function endMaterialization(
  db: Db,
  key: MaterializationKey,
  outcome: { status: "built" | "failed"; runId: string; rowCount?: number },
): Promise<void> {
  if (outcome.status === "built") {
    await db`UPDATE materializations SET status = 'built', row_count = ${outcome.rowCount ?? 0}, run = ${outcome.runId},
               built_at = clock_timestamp(), updated_at = clock_timestamp()
             WHERE version = ${key.versionUuid} AND model_path = ${key.modelPath} AND source_name = ${key.sourceName}`;
  } else {
    await db`UPDATE materializations SET status = 'failed', updated_at = clock_timestamp()
             WHERE version = ${key.versionUuid} AND model_path = ${key.modelPath} AND source_name = ${key.sourceName}`;
  }
}

/** Materializations of a version, most recently changed first, keyset-paged on (updated_at, id). */
export async function listMaterializations(db: Db, versionUuid: string, page: { limit: number; before?: string }): Promise<MaterializationView[]> {
  const [at, id] = page.before ? page.before.split("|") : [null, null];
  const rows = await db`SELECT * FROM materializations WHERE version = ${versionUuid}
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
  const [r] = await db`SELECT * FROM materializations WHERE version = ${versionUuid} AND id = ${id}`;
  return r ? toView(r) : null;
}
