/**
 * SQL of runs and their units (sql/060_runs.sql): insert, list, get, claim
 * with `FOR UPDATE SKIP LOCKED`, heartbeats, cancel, and the one transaction
 * that ends a run and settles what it leaves behind (index rows, the
 * version's `index_status` and `archive_status`).
 * @module
 */
import { ConflictError } from "../errors.ts";
import type { Db, Sql } from "../db/database.ts";
import type { PlannedUnit, RunScope } from "./plan.ts";
import { beginRetrying } from "../db/lock_order.ts";

/** States of a run. */
export type RunState = "queued" | "running" | "succeeded" | "failed" | "cancelled";
/** States of a unit. */
export type UnitState = "queued" | "running" | "succeeded" | "failed" | "cancelled" | "skipped";

/** A unit as clients see it. */
export interface UnitView {
  kind: "table" | "index";
  target: string;
  modelPath: string;
  state: UnitState;
  rowCount: number | null;
  valueCount: number | null;
  /** Index units: distinct values seen (`valueCount` of them are kept). */
  distinctCount: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
}

/** A run as clients see it. */
export interface RunView {
  id: string;
  versionId: string;
  state: RunState;
  /** True for a run without scope selectors. */
  full: boolean;
  scope: RunScope | null;
  cancelRequested: boolean;
  createdBy: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: string | null;
  units?: UnitView[];
}

/** The unit whose failure a failed run's `error` reports (its position, and what it built from). */
interface FailedUnit {
  position: number;
  target: string;
  modelPath: string;
  /** The source the unit builds from (sql/185_run_unit_source.sql). */
  sourceName: string;
}

/** A run row: the view plus ids, and the unit that made it fail (never shown as such). */
export interface RunRow extends RunView {
  packageId: string;
  versionUuid: string;
  priorIndexStatus: string | null;
  /** Null unless a unit's failure made the run fail (see sql/180_run_failed_unit.sql). */
  failedUnit: FailedUnit | null;
}

function iso(value: Date | null): string | null {
  return value instanceof Date ? value.toISOString() : null;
}

/** A run as {@link SELECT_RUN} reads it (columns named as the fields). */
interface RunRecord {
  id: string;
  packageId: string;
  versionUuid: string;
  priorIndexStatus: string | null;
  versionId: string;
  state: RunState;
  scope: RunScope | null;
  cancelRequested: boolean;
  createdBy: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  error: string | null;
  failedPosition: number | null;
  failedTarget: string | null;
  failedModelPath: string | null;
  failedSourceName: string | null;
}

function toRun(r: RunRecord): RunRow {
  return {
    id: r.id,
    packageId: r.packageId,
    versionUuid: r.versionUuid,
    priorIndexStatus: r.priorIndexStatus,
    versionId: r.versionId,
    state: r.state,
    full: r.scope === null,
    scope: r.scope,
    cancelRequested: r.cancelRequested,
    createdBy: r.createdBy,
    createdAt: iso(r.createdAt)!,
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    error: r.error,
    failedUnit: r.failedPosition === null
      ? null
      : { position: r.failedPosition, target: r.failedTarget!, modelPath: r.failedModelPath!, sourceName: r.failedSourceName! },
  };
}

/** A unit row: the view plus its position and the source it builds from (never shown as such). */
export type StoredUnit = UnitView & { position: number; sourceName: string };

/** A unit as {@link runUnits} reads it; the bigint counts come as strings. */
interface UnitRecord {
  position: number;
  kind: UnitView["kind"];
  target: string;
  modelPath: string;
  sourceName: string;
  state: UnitState;
  rowCount: string | number | null;
  valueCount: number | null;
  distinctCount: string | number | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  error: string | null;
}

function toUnit(r: UnitRecord): StoredUnit {
  return {
    position: r.position,
    sourceName: r.sourceName,
    kind: r.kind,
    target: r.target,
    modelPath: r.modelPath,
    state: r.state,
    rowCount: r.rowCount === null ? null : Number(r.rowCount),
    valueCount: r.valueCount === null ? null : Number(r.valueCount),
    distinctCount: r.distinctCount === null ? null : Number(r.distinctCount),
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    error: r.error,
  };
}

/** Strips ids for responses. */
export function runView(run: RunRow): RunView {
  const { packageId: _p, versionUuid: _v, priorIndexStatus: _i, failedUnit: _f, ...view } = run;
  return view;
}

/** Fields of a new run. */
export interface NewRun {
  packageId: string;
  versionUuid: string;
  scope?: RunScope;
  createdBy: string | null;
  units: PlannedUnit[];
  /** Whether the run (re)builds indexes (index units, or the retrieval index of a full run). */
  buildsIndexes: boolean;
}

/**
 * Inserts a queued run and its units; when it builds indexes, remembers the
 * version's index status and sets it `indexing`.
 */
export async function insertRun(db: Db, run: NewRun): Promise<string> {
  // When another run already set `indexing`, the status to come back to is the one it remembered.
  const [prior] = await db<{ index_status: string }[]>`SELECT CASE WHEN v.index_status <> 'indexing' THEN v.index_status
      ELSE coalesce((SELECT r.prior_index_status FROM runs r WHERE r.version = v.id AND r.state IN ('queued', 'running')
                        AND r.prior_index_status IS NOT NULL ORDER BY r.created_at LIMIT 1), 'unknown') END AS index_status
    FROM package_versions v WHERE v.id = ${run.versionUuid}`;
  const [r] = await db<{ id: string }[]>`
    INSERT INTO runs (package_id, version, scope, created_by, prior_index_status)
    VALUES (${run.packageId}, ${run.versionUuid}, ${run.scope ? db.json(run.scope as never) : null}, ${run.createdBy},
            ${run.buildsIndexes ? (prior?.index_status ?? null) : null})
    RETURNING id`;
  const id = r!.id;
  if (run.units.length > 0) {
    await db`INSERT INTO run_units (run, position, kind, target, model_path, source_name)
      SELECT ${id}, u.position, u.kind, u.target, u.model_path, u.source_name
        FROM unnest(${run.units.map((_, i) => i)}::int[], ${run.units.map((u) => u.kind)}::text[],
                    ${run.units.map((u) => u.target)}::text[], ${run.units.map((u) => u.modelPath)}::text[],
                    ${run.units.map((u) => u.sourceName)}::text[])
          AS u(position, kind, target, model_path, source_name)`;
  }
  if (run.buildsIndexes) {
    await db`UPDATE package_versions SET index_status = 'indexing', updated_at = clock_timestamp() WHERE id = ${run.versionUuid}`;
  }
  return id;
}

const SELECT_RUN = (db: Db) => db`
  SELECT r.id, r.package_id AS "packageId", r.version AS "versionUuid", r.prior_index_status AS "priorIndexStatus",
         v.version_id AS "versionId", r.state, r.scope, r.cancel_requested AS "cancelRequested",
         u.user_name AS "createdBy", r.created_at AS "createdAt", r.started_at AS "startedAt",
         r.finished_at AS "finishedAt", r.error, f.position AS "failedPosition",
         f.target AS "failedTarget", f.model_path AS "failedModelPath", f.source_name AS "failedSourceName"
    FROM runs r JOIN package_versions v ON v.id = r.version LEFT JOIN users u ON u.id = r.created_by
    LEFT JOIN run_units f ON f.run = r.id AND f.position = r.failed_unit`;

/** Runs of a package, most recent first, keyset-paged on (created_at, id). */
export async function listRuns(db: Db, packageId: string, page: { limit: number; before?: string }): Promise<RunRow[]> {
  const [at, id] = page.before ? page.before.split("|") : [null, null];
  const rows = await db<RunRecord[]>`${SELECT_RUN(db)}
     WHERE r.package_id = ${packageId}
       AND (${at}::timestamptz IS NULL OR (r.created_at, r.id) < (${at}::timestamptz, ${id}::uuid))
     ORDER BY r.created_at DESC, r.id DESC LIMIT ${page.limit + 1}`;
  return rows.map(toRun);
}

/** Cursor key of a run in {@link listRuns}. */
export function runCursor(run: RunRow): string {
  return `${run.createdAt}|${run.id}`;
}

/** One run (any package when `packageId` is null), or null. */
export async function findRun(db: Db, runId: string, options: { packageId?: string } = {}): Promise<RunRow | null> {
  const [r] = await db<RunRecord[]>`${SELECT_RUN(db)} WHERE r.id = ${runId}
    AND (${options.packageId ?? null}::uuid IS NULL OR r.package_id = ${options.packageId ?? null}::uuid)`;
  return r ? toRun(r) : null;
}

/** The units of a run, in order. */
export async function runUnits(db: Db, runId: string): Promise<StoredUnit[]> {
  return (await unitsOfRuns(db, [runId])).get(runId) ?? [];
}

/** The units of several runs (one statement), each run's in order; runs without units are absent. */
export async function unitsOfRuns(db: Db, runIds: readonly string[]): Promise<Map<string, StoredUnit[]>> {
  const out = new Map<string, StoredUnit[]>();
  if (runIds.length === 0) return out;
  const rows = await db<(UnitRecord & { run: string })[]>`
    SELECT run, position, kind, target, model_path AS "modelPath", source_name AS "sourceName", state, row_count AS "rowCount", value_count AS "valueCount",
           distinct_count AS "distinctCount", started_at AS "startedAt", finished_at AS "finishedAt", error
      FROM run_units WHERE run = ANY(${[...runIds]}::uuid[]) ORDER BY run, position`;
  for (const { run, ...unit } of rows) {
    let list = out.get(run);
    if (!list) out.set(run, list = []);
    list.push(toUnit(unit));
  }
  return out;
}

/** Whether a run of the version is queued or running. */
export async function runInFlight(db: Db, versionUuid: string): Promise<boolean> {
  const [r] = await db`SELECT 1 FROM runs WHERE version = ${versionUuid} AND state IN ('queued', 'running') LIMIT 1`;
  return Boolean(r);
}

/**
 * Cancels a run: a queued one at once (`cancelled`), a running one by
 * setting the flag its worker checks. 409 once it has ended.
 */
export async function requestCancel(sql: Sql, runId: string): Promise<RunState> {
  return await sql.begin(async (tx) => {
    const [r] = await tx<{ state: RunState }[]>`SELECT state FROM runs WHERE id = ${runId} FOR UPDATE`;
    const state = r?.state;
    if (state === "queued") {
      await tx`UPDATE runs SET state = 'cancelled', cancel_requested = true, finished_at = clock_timestamp(),
                 error = 'cancelled before it started' WHERE id = ${runId}`;
      await tx`UPDATE run_units SET state = 'cancelled' WHERE run = ${runId}`;
      await restoreIndexStatus(tx, runId);
      return "cancelled";
    }
    if (state === "running") {
      await tx`UPDATE runs SET cancel_requested = true WHERE id = ${runId}`;
      return "running";
    }
    throw new ConflictError(`run ${runId} already ended (${state}); only a queued or running run can be cancelled`);
  });
}

/** Puts back the index status a cancelled-before-start run had set `indexing`. */
async function restoreIndexStatus(tx: Db, runId: string): Promise<void> {
  await tx`UPDATE package_versions v SET index_status = r.prior_index_status, updated_at = clock_timestamp()
             FROM runs r WHERE r.id = ${runId} AND v.id = r.version AND r.prior_index_status IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM runs o WHERE o.version = r.version AND o.id <> r.id AND o.state IN ('queued', 'running')
                                AND o.prior_index_status IS NOT NULL)`;
}

/**
 * Claims the oldest queued run whose version has no running run, for node
 * `node`; null when there is none. Runs of one version never run at once.
 */
export async function claimRun(sql: Sql, node: string): Promise<string | null> {
  return await sql.begin(async (tx) => {
    const [r] = await tx<{ id: string; version: string }[]>`SELECT r.id, r.version FROM runs r
      WHERE r.state = 'queued' AND NOT EXISTS (SELECT 1 FROM runs o WHERE o.version = r.version AND o.state = 'running')
      ORDER BY r.created_at, r.id LIMIT 1 FOR UPDATE OF r SKIP LOCKED`;
    if (!r) return null;
    // Serializes claims of one version's runs across nodes, then checks again.
    await tx`SELECT 1 FROM package_versions WHERE id = ${r.version} FOR UPDATE`;
    const [busy] = await tx`SELECT 1 FROM runs WHERE version = ${r.version} AND state = 'running'`;
    if (busy) return null;
    await tx`UPDATE runs SET state = 'running', claimed_by = ${node}, started_at = clock_timestamp(),
               heartbeat_at = clock_timestamp() WHERE id = ${r.id}`;
    // An earlier run may have ended and settled the status meanwhile: this one indexes now.
    await tx`UPDATE package_versions v SET index_status = 'indexing', updated_at = clock_timestamp()
               FROM runs r WHERE r.id = ${r.id} AND v.id = r.version AND r.prior_index_status IS NOT NULL
                AND v.index_status <> 'indexing'`;
    return r.id;
  });
}

/** Running runs whose node stopped sending heartbeats for `staleMs`. */
export async function staleRuns(db: Db, staleMs: number): Promise<string[]> {
  const rows = await db<{ id: string }[]>`SELECT id FROM runs WHERE state = 'running'
    AND heartbeat_at < clock_timestamp() - make_interval(secs => ${staleMs / 1000})`;
  return rows.map((r) => r.id);
}

/** Records a heartbeat; answers whether cancel was requested (null when the run is gone). */
export async function heartbeat(db: Db, runId: string): Promise<{ cancelRequested: boolean } | null> {
  const [r] = await db<{ cancelRequested: boolean }[]>`
    UPDATE runs SET heartbeat_at = clock_timestamp() WHERE id = ${runId} RETURNING cancel_requested AS "cancelRequested"`;
  return r ? { cancelRequested: r.cancelRequested } : null;
}

/** Marks a unit running. */
export async function startUnit(db: Db, runId: string, position: number): Promise<void> {
  await db`UPDATE run_units SET state = 'running', started_at = clock_timestamp() WHERE run = ${runId} AND position = ${position}`;
}

/** Ends a unit: `succeeded` with its count, or `failed` / `cancelled` with an error. */
export async function endUnit(
  db: Db,
  unit: { runId: string; position: number },
  outcome: { state: UnitState; rowCount?: number; valueCount?: number; distinctCount?: number; error?: string },
): Promise<void> {
  await db`UPDATE run_units SET state = ${outcome.state}, finished_at = clock_timestamp(),
             row_count = ${outcome.rowCount ?? null}, value_count = ${outcome.valueCount ?? null},
             distinct_count = ${outcome.distinctCount ?? null}, error = ${outcome.error ?? null}
           WHERE run = ${unit.runId} AND position = ${unit.position}`;
}

/** How a run ended. */
export interface RunOutcome {
  state: "succeeded" | "failed" | "cancelled";
  error?: string;
  /** A failed run: the position of the unit whose failure `error` reports (absent when no unit's failure is reported). */
  failedUnit?: number;
  /** How many `#(index)` dimensions the version has (to tell whether all are built). */
  indexedDimensions: number;
}

/**
 * Ends a run in one transaction: its state (with, for a failed run, the unit
 * whose failure its error reports, in the same statement), its unfinished units, index and
 * materialization rows it left `building`, and the version: a failed run
 * sets, when it built indexes, its index status `failed` (the version stays
 * queryable and serves what did build); otherwise the index status is `indexed` when every
 * indexed dimension is built, else what it was before the run. A full run
 * that succeeds takes a version out of `error_state`.
 */
export async function finishRun(sql: Sql, runId: string, outcome: RunOutcome): Promise<void> {
  await beginRetrying(sql, async (tx) => {
    const [r] = await tx<{ version: string; scope: RunScope | null; prior: string | null }[]>`
      UPDATE runs SET state = ${outcome.state}, finished_at = clock_timestamp(), error = ${outcome.error ?? null},
                      failed_unit = ${outcome.state === "failed" ? (outcome.failedUnit ?? null) : null}
       WHERE id = ${runId} AND state = 'running' RETURNING version, scope, prior_index_status AS prior`;
    if (!r) return;
    const version = r.version;
    const ending = outcome.state === "succeeded" ? "failed" : outcome.state;
    await tx`UPDATE run_units SET state = ${ending}, finished_at = clock_timestamp(),
               error = coalesce(error, ${outcome.error ?? null}) WHERE run = ${runId} AND state = 'running'`;
    await tx`UPDATE run_units SET state = ${outcome.state === "cancelled" ? "cancelled" : "skipped"}
               WHERE run = ${runId} AND state = 'queued'`;
    for (const table of ["indexes", "materializations"]) {
      await tx`UPDATE ${tx(table)} SET status = CASE WHEN built_at IS NULL THEN ${ending} ELSE 'built' END,
                 updated_at = clock_timestamp() WHERE version = ${version} AND status = 'building'`;
    }
    const prior = r.prior;
    if (outcome.state === "failed") {
      // A failed unit does not take the version offline: what did build serves.
      await tx`UPDATE package_versions SET index_status = CASE WHEN ${prior}::text IS NULL THEN index_status ELSE 'failed' END,
                 updated_at = clock_timestamp() WHERE id = ${version}`;
      return;
    }
    if (prior !== null) {
      const [b] = await tx<{ n: number }[]>`SELECT count(*)::int AS n FROM indexes WHERE version = ${version} AND status = 'built'`;
      const all = Number(b!.n) >= outcome.indexedDimensions && (outcome.state === "succeeded" || prior === "indexed");
      await tx`UPDATE package_versions SET index_status = ${all ? "indexed" : prior}, updated_at = clock_timestamp() WHERE id = ${version}`;
    }
    if (outcome.state === "succeeded" && r.scope === null) {
      await tx`UPDATE package_versions SET archive_status = 'unarchive', updated_at = clock_timestamp()
                WHERE id = ${version} AND archive_status = 'error_state'`;
    }
  });
}
