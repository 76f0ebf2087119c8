/**
 * SQL of indexes (sql/060_runs.sql): one row per version and `#(index)`
 * dimension, holding its last build. A build is `building` while its run
 * computes it and becomes `built` in the same transaction that writes its
 * values where retrieval reads them (`entity_embeddings.indexed_values`).
 * @module
 */
import type { Db, Sql } from "../db/database.ts";
import type { IndexedValue } from "../retrieval/index/indexed_values.ts";

/** Which index: a dimension of a source of a model of a version. */
export interface IndexKey {
  versionUuid: string;
  modelPath: string;
  sourceName: string;
  /** Dimension path inside the source, e.g. `carrier` or `carriers.nickname`. */
  dimension: string;
}

/** An index as clients see it. */
export interface IndexView {
  id: string;
  modelPath: string;
  sourceName: string;
  dimension: string;
  status: "building" | "built" | "failed" | "cancelled";
  valueCount: number | null;
  /** Distinct values the dimension had at the build (`valueCount` of them kept). */
  distinctCount: number | null;
  runId: string | null;
  builtAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** The values of the last build, most frequent first (single index only). */
  values?: IndexedValue[];
}

/** An index row as {@link indexColumns} reads it; `distinctCount` is a bigint (a string). */
interface IndexRecord extends Omit<IndexView, "distinctCount" | "builtAt" | "createdAt" | "updatedAt" | "values"> {
  distinctCount: string | number | null;
  builtAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  values: IndexedValue[] | null;
}

/** The columns of {@link IndexRecord} (table `indexes`). */
function indexColumns(db: Db) {
  return db`id, model_path AS "modelPath", source_name AS "sourceName", dimension, status, value_count AS "valueCount",
            distinct_count AS "distinctCount", run AS "runId", built_at AS "builtAt", created_at AS "createdAt",
            updated_at AS "updatedAt", indexed_values AS "values"`;
}

function toView(r: IndexRecord, withValues: boolean): IndexView {
  return {
    id: r.id,
    modelPath: r.modelPath,
    sourceName: r.sourceName,
    dimension: r.dimension,
    status: r.status,
    valueCount: r.valueCount === null ? null : Number(r.valueCount),
    distinctCount: r.distinctCount === null ? null : Number(r.distinctCount),
    runId: r.runId,
    builtAt: r.builtAt instanceof Date ? r.builtAt.toISOString() : null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    ...(withValues ? { values: r.values ?? [] } : {}),
  };
}

/** Marks an index `building` (a previous build's values stay until this one completes). */
export async function startIndexBuild(db: Db, key: IndexKey): Promise<void> {
  await db`INSERT INTO indexes (version, model_path, source_name, dimension, status)
    VALUES (${key.versionUuid}, ${key.modelPath}, ${key.sourceName}, ${key.dimension}, 'building')
    ON CONFLICT (version, model_path, source_name, dimension)
    DO UPDATE SET status = 'building', updated_at = clock_timestamp()`;
}

/**
 * Completes a build in one transaction: the index row `built` with its
 * values, and the dimension's `entity_embeddings.indexed_values`.
 */
export async function completeIndexBuild(
  sql: Sql,
  key: IndexKey,
  build: { runId: string; values: IndexedValue[]; distinctCount?: number },
): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`UPDATE indexes SET status = 'built', value_count = ${build.values.length}, indexed_values = ${tx.json(build.values as never)},
               distinct_count = ${build.distinctCount ?? null},
               run = ${build.runId}, built_at = clock_timestamp(), updated_at = clock_timestamp()
             WHERE version = ${key.versionUuid} AND model_path = ${key.modelPath} AND source_name = ${key.sourceName}
               AND dimension = ${key.dimension}`;
    await tx`UPDATE entity_embeddings e SET indexed_values = ${tx.json(build.values as never)}
               FROM model_entities m
              WHERE m.id = e.entity_id AND m.version = ${key.versionUuid} AND m.model_path = ${key.modelPath}
                AND m.source_name = ${key.sourceName} AND m.kind = 'dimension' AND m.path = ${key.dimension}`;
  });
}

/** Marks a build failed. */
export async function failIndexBuild(db: Db, key: IndexKey): Promise<void> {
  await db`UPDATE indexes SET status = 'failed', updated_at = clock_timestamp()
    WHERE version = ${key.versionUuid} AND model_path = ${key.modelPath} AND source_name = ${key.sourceName} AND dimension = ${key.dimension}`;
}

/**
 * Values of every built index of a version, keyed `modelPath#source.dimension`
 * (the key the retrieval indexer takes).
 */
export async function builtIndexValues(db: Db, versionUuid: string): Promise<Map<string, IndexedValue[]>> {
  const rows = await db<{ key: string; values: IndexedValue[] | null }[]>`
    SELECT model_path || '#' || source_name || '.' || dimension AS "key", indexed_values AS "values" FROM indexes
     WHERE version = ${versionUuid} AND built_at IS NOT NULL`;
  return new Map(rows.map((r) => [r.key, r.values ?? []]));
}

/** Indexes of a version, most recently changed first, keyset-paged on (updated_at, id). */
export async function listIndexes(db: Db, versionUuid: string, page: { limit: number; before?: string }): Promise<IndexView[]> {
  const [at, id] = page.before ? page.before.split("|") : [null, null];
  const rows = await db<IndexRecord[]>`SELECT ${indexColumns(db)} FROM indexes WHERE version = ${versionUuid}
      AND (${at}::timestamptz IS NULL OR (updated_at, id) < (${at}::timestamptz, ${id}::uuid))
    ORDER BY updated_at DESC, id DESC LIMIT ${page.limit + 1}`;
  return rows.map((r) => toView(r, false));
}

/** Cursor key of an index in {@link listIndexes}. */
export function indexCursor(index: IndexView): string {
  return `${index.updatedAt}|${index.id}`;
}

/** One index of a version, with its values; null when absent. */
export async function findIndex(db: Db, versionUuid: string, indexId: string): Promise<IndexView | null> {
  const [r] = await db<IndexRecord[]>`SELECT ${indexColumns(db)} FROM indexes WHERE version = ${versionUuid} AND id = ${indexId}`;
  return r ? toView(r, true) : null;
}
