/**
 * Run progress on the package event stream, so the console, the CLI and
 * in-package apps follow a run without polling: `run_started`
 * `{ runId, versionId, unitsTotal }`, `run_progress` `{ runId, versionId,
 * unitsDone, unitsTotal }` after each unit, `run_finished` `{ runId,
 * versionId, state }` and, when the run left the version `indexed`,
 * `indexed` `{ runId, versionId }`. The events name no source, dimension or
 * error (a unit's target or error may quote a source a viewer of the package
 * may not see; the run's API applies those rules), only counts and states.
 * @module
 */
import type { Db } from "../db/database.ts";
import { emitPackageEvent, type PackageKey } from "../events/hub.ts";
import type { AppContext } from "../context.ts";

/** The package stream and version a run's events are about. */
export interface RunTarget {
  pkg: PackageKey;
  runId: string;
  versionId: string;
}

/** Stores `run_started` (fire and forget: a failed event never fails the run). */
export function runStarted(ctx: AppContext, target: RunTarget, unitsTotal: number): Promise<unknown> {
  return emitPackageEvent(ctx, target.pkg, { event: "run_started", data: { runId: target.runId, versionId: target.versionId, unitsTotal } });
}

/** Stores `run_progress` after a unit ended (whatever its state). */
export function runProgress(ctx: AppContext, target: RunTarget, progress: { unitsDone: number; unitsTotal: number }): Promise<unknown> {
  return emitPackageEvent(ctx, target.pkg, {
    event: "run_progress",
    data: { runId: target.runId, versionId: target.versionId, unitsDone: progress.unitsDone, unitsTotal: progress.unitsTotal },
  });
}

/**
 * Stores `run_finished` with the run's final state as committed, then
 * `indexed` when the version's index status is `indexed` after it.
 */
export async function runFinished(ctx: AppContext, target: RunTarget, versionUuid: string): Promise<void> {
  const ended = await endedState(ctx.sql, target.runId, versionUuid).catch(() => null);
  if (!ended) return;
  await emitPackageEvent(ctx, target.pkg, { event: "run_finished", data: { runId: target.runId, versionId: target.versionId, state: ended.state } });
  if (ended.indexStatus === "indexed" && ended.state === "succeeded") {
    await emitPackageEvent(ctx, target.pkg, { event: "indexed", data: { runId: target.runId, versionId: target.versionId } });
  }
}

/** The package stream and version id of a run (for a run that ends outside the worker: a cancel before it started). */
export async function runTargetOf(db: Db, runId: string): Promise<RunTarget | null> {
  const [r] = await db<{ envId: string; name: string; versionId: string }[]>`
    SELECT p.env_id AS "envId", p.name, v.version_id AS "versionId" FROM runs r
      JOIN packages p ON p.id = r.package_id JOIN package_versions v ON v.id = r.version WHERE r.id = ${runId}`;
  return r ? { pkg: { envId: r.envId, packageName: r.name }, runId, versionId: r.versionId } : null;
}

async function endedState(db: Db, runId: string, versionUuid: string): Promise<{ state: string; indexStatus: string } | null> {
  const [r] = await db<{ state: string; indexStatus: string }[]>`
    SELECT r.state, v.index_status AS "indexStatus" FROM runs r JOIN package_versions v ON v.id = ${versionUuid} WHERE r.id = ${runId}`;
  return r && ["succeeded", "failed", "cancelled"].includes(r.state) ? r : null;
}
