/**
 * The in-process run worker of a node: claims queued runs (any node may, see
 * {@link claimRun}), up to `RUN_CONCURRENCY` at a time, heartbeats while it executes one, runs its units in
 * order (table units, then index units, then for a full run the retrieval
 * index), checks cancel between units and, through an `AbortSignal` fed by
 * the heartbeat, inside them, and commits every state change. Before each
 * claim, runs whose node stopped heartbeating are failed.
 * @module
 */
import type { CompiledModel, ModelMetadata } from "../engine/mod.ts";
import type { AppContext } from "../context.ts";
import { sweepMaterializationFiles } from "../materializations/serve.ts";
import { evictVersions, rememberCompiledModels } from "../archives/compiled_models.ts";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import { allUnits, planUnits, type RunScope, versionModels } from "./plan.ts";
import {
  claimRun,
  endUnit,
  findRun,
  finishRun,
  heartbeat,
  insertRun,
  type RunOutcome,
  runUnits,
  staleRuns,
  startUnit,
} from "./store.ts";
import { runIndexUnit, runRetrievalStep, runTableUnit, type UnitScope } from "./units.ts";
import { type RunTarget, runFinished, runProgress, runStarted, runTargetOf } from "./progress.ts";

interface WorkerState {
  poll?: ReturnType<typeof setInterval>;
  draining?: Promise<void>;
  stopped: boolean;
  /** Abort controllers of the runs this node executes, by run id. */
  local: Map<string, AbortController>;
  /** Someone asked to look for runs while a drain was under way. */
  kickAgain?: boolean;
  /** The runs this node executes now (at most `RUN_CONCURRENCY`). */
  inflight: Set<Promise<void>>;
  /** The last drain failed because the platform database was unreachable (logged once per outage). */
  databaseDown?: boolean;
  /** When this node last swept materialization files (ms since epoch). */
  sweptAt?: number;
}

const workers = new WeakMap<AppContext, WorkerState>();

function stateOf(ctx: AppContext): WorkerState {
  let state = workers.get(ctx);
  if (!state) {
    state = { stopped: false, local: new Map(), inflight: new Set() };
    workers.set(ctx, state);
  }
  return state;
}

/**
 * Starts polling for queued runs (every `RUN_POLL_MS`) and claims one now. A
 * node with `RUN_WORKER=false` claims none (other nodes build its runs); it
 * only sweeps its cache of materialization files.
 */
export function startWorker(ctx: AppContext): void {
  const state = stateOf(ctx);
  state.stopped = false;
  state.poll ??= setInterval(() => kickWorker(ctx), ctx.config.runPollMs);
  kickWorker(ctx);
}

/** Stops polling and waits for the runs this node is executing, if any. */
export async function stopWorker(ctx: AppContext): Promise<void> {
  const state = stateOf(ctx);
  state.stopped = true;
  if (state.poll) clearInterval(state.poll);
  state.poll = undefined;
  await state.draining;
  await Promise.all(state.inflight);
}

/** Makes the worker look for queued runs now (no-op while it is busy). */
function kickWorker(ctx: AppContext): void {
  const state = stateOf(ctx);
  if (state.stopped) return;
  if (state.draining) {
    state.kickAgain = true;
    return;
  }
  state.kickAgain = false;
  state.draining = drain(ctx, state)
    .then(() => {
      if (state.databaseDown) {
        state.databaseDown = false;
        ctx.log({ level: "info", event: "run_worker_reconnected" });
      }
    })
    .catch((error) => {
      // The database went away: keep polling (every RUN_POLL_MS) and log the outage once.
      if (isDatabaseUnavailable(error)) {
        if (!state.databaseDown) ctx.log({ level: "warn", event: "run_worker_database_unavailable", error: message(error) });
        state.databaseDown = true;
        return;
      }
      ctx.log({ level: "error", event: "run_worker_failed", error: message(error) });
    })
    .finally(() => {
      state.draining = undefined;
      // a run ended while this drain was deciding: look again for queued runs
      if (state.kickAgain) kickWorker(ctx);
    });
}

/**
 * Resolves when no run is queued and this node executes none (tests,
 * shutdown). Throws after `timeoutMs` (default 120 s).
 */
export async function waitForRuns(ctx: AppContext, options: { timeoutMs?: number } = {}): Promise<void> {
  const state = stateOf(ctx);
  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    kickWorker(ctx);
    await state.draining;
    const [left] = await ctx.sql`SELECT count(*)::int AS n FROM runs WHERE state = 'queued'`;
    if (Number(left!.n) === 0 && state.local.size === 0 && state.inflight.size === 0) return;
    await Bun.sleep(20);
  }
  throw new Error("runs did not finish in time; see GET .../runs for their state");
}

/** Aborts a run this node executes (cancel); false when it runs elsewhere. */
export function abortLocalRun(ctx: AppContext, runId: string): boolean {
  const controller = stateOf(ctx).local.get(runId);
  controller?.abort("cancelled");
  return Boolean(controller);
}

/** What {@link enqueueRun} queues. */
export interface EnqueueRun {
  packageId: string;
  versionUuid: string;
  /** Absent: a full run. */
  scope?: RunScope;
  createdBy: string | null;
  /** The version's model metadata when the caller holds it (a publish); read from the database otherwise. */
  models?: readonly ModelMetadata[];
  /** The version's models as a publish compiled them, by path: the run's units use them instead of compiling again. */
  compiled?: ReadonlyMap<string, CompiledModel>;
}

/**
 * Plans (a ValidationError for unknown source or dimension names) and queues a run, then
 * wakes the worker. Returns the run id.
 */
export async function enqueueRun(ctx: AppContext, request: EnqueueRun): Promise<string> {
  const { models: known, compiled, ...run } = request;
  const models = known ?? await versionModels(ctx.sql, run.versionUuid);
  const units = planUnits(models, run.scope);
  const buildsIndexes = run.scope === undefined || units.some((u) => u.kind === "index");
  const id = await ctx.sql.begin((tx) => insertRun(tx, { ...run, units, buildsIndexes }));
  if (compiled) rememberCompiledModels(ctx, run.versionUuid, compiled);
  kickWorker(ctx);
  return id;
}

/** How often a node sweeps materialization files of deleted versions. */
const SWEEP_EVERY_MS = 60_000;

async function drain(ctx: AppContext, state: WorkerState): Promise<void> {
  if (Date.now() - (state.sweptAt ?? 0) >= SWEEP_EVERY_MS) {
    state.sweptAt = Date.now();
    await sweepMaterializationFiles(ctx).catch((error) =>
      ctx.log({ level: "warn", event: "materialization_sweep_failed", error: message(error) })
    );
  }
  if (!ctx.config.runWorker) return;
  while (!state.stopped) {
    for (const id of await staleRuns(ctx.sql, ctx.config.runStaleAfterMs)) {
      // a run this node executes is alive whatever its heartbeat says (a busy event loop delays it)
      if (state.local.has(id)) continue;
      const run = await findRun(ctx.sql, id);
      if (!run) continue;
      const indexedDimensions = allUnits(await versionModels(ctx.sql, run.versionUuid)).filter((u) => u.kind === "index").length;
      await finishRun(ctx.sql, id, {
        state: "failed",
        error: "the node running this run stopped (no heartbeat); nothing it left half-built is marked built; start a new run",
        indexedDimensions,
      });
      evictVersions(ctx, [run.versionUuid]);
      ctx.log({ level: "warn", event: "run_abandoned", runId: id });
      const abandoned = await runTargetOf(ctx.sql, id);
      if (abandoned) await runFinished(ctx, abandoned, run.versionUuid);
    }
    // Up to RUN_CONCURRENCY runs at once, so one large model does not hold every other package's run.
    if (state.inflight.size >= ctx.config.runConcurrency) return;
    const id = await claimRun(ctx.sql, ctx.id);
    if (!id) return;
    const running: Promise<void> = executeRun(ctx, state, id)
      .catch((error) => ctx.log({ level: "error", event: "run_worker_failed", runId: id, error: message(error) }))
      .finally(() => {
        state.inflight.delete(running);
        // a run leaves much garbage (compiles, scans, embeddings): give it back now, not when Bun gets to it
        Bun.gc(true);
        kickWorker(ctx);
      });
    state.inflight.add(running);
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function executeRun(ctx: AppContext, state: WorkerState, runId: string): Promise<void> {
  const run = await findRun(ctx.sql, runId);
  if (!run) return;
  const controller = new AbortController();
  state.local.set(runId, controller);
  const beat = setInterval(async () => {
    const hb = await heartbeat(ctx.sql, runId).catch(() => undefined);
    if (hb === null) controller.abort("gone");
    else if (hb?.cancelRequested) controller.abort("cancelled");
  }, ctx.config.runHeartbeatMs);
  const started = performance.now();
  let outcome: RunOutcome = { state: "succeeded", indexedDimensions: 0 };
  let target: RunTarget | undefined;
  try {
    const [v] = await ctx.sql`SELECT v.version_id, v.blob_sha256, p.env_id, p.name FROM package_versions v
                                JOIN packages p ON p.id = v.package_id WHERE v.id = ${run.versionUuid}`;
    if (!v) return;
    const models = await versionModels(ctx.sql, run.versionUuid);
    const planned = allUnits(models);
    outcome.indexedDimensions = planned.filter((u) => u.kind === "index").length;
    const scope: UnitScope = {
      runId,
      version: { versionUuid: run.versionUuid, versionId: v.version_id, blobSha256: v.blob_sha256, envId: v.env_id, packageName: v.name },
      models,
      signal: controller.signal,
    };
    ctx.log({ level: "info", event: "run_started", runId, package: v.name, version: v.version_id });
    target = { pkg: { envId: v.env_id, packageName: v.name }, runId, versionId: v.version_id };
    outcome = await runUnitsOf(ctx, { scope, controller, full: run.full, indexedDimensions: outcome.indexedDimensions, target });
  } catch (error) {
    outcome = { ...outcome, state: "failed", error: `the run failed: ${message(error)}` };
  } finally {
    clearInterval(beat);
    state.local.delete(runId);
    await settleRun(ctx, state, runId, outcome);
    ctx.log({ level: "info", event: "run_finished", runId, ...(target ? { package: target.pkg.packageName, version: target.versionId } : {}), state: outcome.state, ms: Math.round(performance.now() - started) });
    if (target) await runFinished(ctx, target, run.versionUuid);
  }
}

/**
 * Ends a run. While the platform database cannot be reached the ending is
 * tried again (pauses from 0.25 s doubling to 5 s) until `RUN_STALE_AFTER_MS`
 * has passed or the worker stops, so a run that ended during an outage is
 * recorded as it ended, not left `running` until a claim fails it as stale.
 */
async function settleRun(ctx: AppContext, state: WorkerState, runId: string, outcome: RunOutcome): Promise<void> {
  const deadline = Date.now() + ctx.config.runStaleAfterMs;
  for (let pause = 250; ; pause = Math.min(pause * 2, 5000)) {
    try {
      await finishRun(ctx.sql, runId, outcome);
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error) || state.stopped || Date.now() + pause > deadline) {
        ctx.log({ level: "error", event: "run_finish_failed", runId, error: message(error) });
        return;
      }
      await Bun.sleep(pause);
    }
  }
}

async function cancelRequested(ctx: AppContext, runId: string, controller: AbortController): Promise<boolean> {
  if (controller.signal.aborted) return true;
  const hb = await heartbeat(ctx.sql, runId);
  if (hb === null) controller.abort("gone");
  else if (hb.cancelRequested) controller.abort("cancelled");
  return controller.signal.aborted;
}

async function runUnitsOf(
  ctx: AppContext,
  job: { scope: UnitScope; controller: AbortController; full: boolean; indexedDimensions: number; target: RunTarget },
): Promise<RunOutcome> {
  const { scope, controller, indexedDimensions } = job;
  const runId = scope.runId;
  const cancelled: RunOutcome = { state: "cancelled", error: "cancelled on request", indexedDimensions };
  const units = await runUnits(ctx.sql, runId);
  const unitsTotal = units.length;
  let unitsDone = 0;
  await runStarted(ctx, job.target, unitsTotal);
  const planned = allUnits(scope.models);
  let indexUnits = 0;
  /** What failed, in order; `unit` is the position of a failed unit (the retrieval step has none). */
  const failures: Array<{ text: string; unit?: number }> = [];
  for (const unit of units) {
    if (await cancelRequested(ctx, runId, controller)) return cancelled;
    const plan = planned.find((p) => p.kind === unit.kind && p.target === unit.target && p.modelPath === unit.modelPath);
    await startUnit(ctx.sql, runId, unit.position);
    try {
      if (!plan) throw new Error(`${unit.kind} '${unit.target}' is no longer in the version's models`);
      if (plan.kind === "table") {
        const { rowCount } = await runTableUnit(ctx, { scope, unit: plan });
        await endUnit(ctx.sql, { runId, position: unit.position }, { state: "succeeded", rowCount });
      } else {
        indexUnits++;
        const { valueCount, distinctCount } = await runIndexUnit(ctx, { scope, unit: plan });
        await endUnit(ctx.sql, { runId, position: unit.position }, { state: "succeeded", valueCount, distinctCount });
      }
    } catch (error) {
      if (controller.signal.aborted) {
        await endUnit(ctx.sql, { runId, position: unit.position }, { state: "cancelled", error: "cancelled on request" });
        return cancelled;
      }
      const text = `${unit.kind} unit '${unit.target}' (${unit.modelPath}) failed: ${message(error)}`;
      await endUnit(ctx.sql, { runId, position: unit.position }, { state: "failed", error: text });
      // The other units still build: what did build serves, the run ends failed.
      failures.push({ text, unit: unit.position });
    }
    await runProgress(ctx, job.target, { unitsDone: ++unitsDone, unitsTotal });
  }
  const [embedded] = await ctx.sql`SELECT 1 FROM entity_embeddings WHERE version = ${scope.version.versionUuid} LIMIT 1`;
  if (job.full || (indexUnits > 0 && !embedded)) {
    if (await cancelRequested(ctx, runId, controller)) return cancelled;
    try {
      await runRetrievalStep(ctx, scope);
    } catch (error) {
      failures.push({ text: `building the retrieval index failed: ${message(error)}` });
    }
  }
  if (failures.length > 0) {
    const more = failures.length > 1 ? ` (and ${failures.length - 1} more failed unit${failures.length > 2 ? "s" : ""}, see units)` : "";
    // The run's error is the first failure's: the unit recorded with it decides who may read it (src/runs/routes.ts).
    return { state: "failed", error: `${failures[0]!.text}${more}`, failedUnit: failures[0]!.unit, indexedDimensions };
  }
  return { state: "succeeded", indexedDimensions };
}
