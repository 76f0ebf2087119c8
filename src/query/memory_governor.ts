/**
 * Memory that follows use: a node keeps for a package version only what its
 * recent queries need. Every sweep (a quarter of `IDLE_RELEASE_MS`, at most
 * 15 s):
 *
 * - package DuckDB connections unused for `IDLE_RELEASE_MS` close their idle
 *   instances (and the prepared statements those hold) and forget their
 *   checked statements;
 * - compiled models not asked for during `IDLE_RELEASE_MS` drop their
 *   compiled queries (the model itself, a few MiB, stays: the first query
 *   after a pause compiles its text, not the model);
 * - the other caches given to {@link startMemoryGovernor} (the entity
 *   records `get_context` searches, wired by the service) forget what was
 *   not read during `IDLE_RELEASE_MS`;
 * - when the process's resident memory is over `MEMORY_BUDGET`, every idle
 *   instance closes, every model not used in the last sweep drops its
 *   compiled queries, the least recently used half of the models goes and
 *   the other caches forget what was not read in the last sweep;
 * - after anything was released, a full garbage collection gives the memory
 *   back (Bun collects lazily: without it the freed pages stay resident).
 *
 * Isolation is unchanged: nothing here shares an instance or a cache entry
 * between packages; it only closes and forgets.
 * @module
 */
import { forgetCompiledQueries, releaseIdlePackageDuckDB } from "../engine/mod.ts";
import type { AppContext } from "../context.ts";
import { modelCacheOf } from "../archives/compiled_models.ts";

/** Longest pause between two sweeps, ms. */
const MAX_SWEEP_MS = 15_000;

const governors = new WeakMap<AppContext, ReturnType<typeof setInterval>>();

/** What one sweep released. */
interface Released {
  instances: number;
  queries: number;
  models: number;
  /** Entries the other caches forgot. */
  cached: number;
}

/** Another cache the sweeps release: forgets what nobody read during `idleMs` and answers how many entries went. */
export type IdleRelease = (idleMs: number) => number;

const otherCaches = new WeakMap<AppContext, readonly IdleRelease[]>();

/**
 * One sweep now: releases what went idle, and more when the resident memory
 * is over the budget. Answers what it released.
 */
export async function releaseIdleMemory(ctx: AppContext, options: { rssBytes?: number } = {}): Promise<Released> {
  const idleMs = ctx.config.idleReleaseMs;
  const cache = modelCacheOf(ctx);
  const rss = options.rssBytes ?? process.memoryUsage.rss();
  const over = rss > ctx.config.memoryBudget;
  const released: Released = { instances: await releaseIdlePackageDuckDB(over ? 0 : idleMs), queries: 0, models: 0, cached: 0 };
  for (const compiled of cache.idle(over ? sweepMs(ctx) : idleMs)) released.queries += forgetCompiledQueries(compiled.model._modelDef);
  if (over) released.models = cache.trim(Math.floor(cache.size / 2));
  for (const release of otherCaches.get(ctx) ?? []) released.cached += release(over ? sweepMs(ctx) : idleMs);
  if (released.instances + released.queries + released.models + released.cached > 0 || over) {
    Bun.gc(true);
    if (over) {
      ctx.log({ level: "warn", event: "memory_over_budget", rssMiB: mib(rss), budgetMiB: mib(ctx.config.memoryBudget), afterMiB: mib(process.memoryUsage.rss()), ...released });
    }
  }
  return released;
}

/**
 * Starts the sweeps of this context (idempotent); {@link stopMemoryGovernor}
 * ends them. `caches` are released with the rest, also by
 * {@link releaseIdleMemory} calls after a stop.
 */
export function startMemoryGovernor(ctx: AppContext, caches: readonly IdleRelease[] = []): void {
  if (governors.has(ctx)) return;
  otherCaches.set(ctx, caches);
  let sweeping = false;
  const timer = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    releaseIdleMemory(ctx)
      .catch((error) => ctx.log({ level: "warn", event: "memory_sweep_failed", error: error instanceof Error ? error.message : String(error) }))
      .finally(() => {
        sweeping = false;
      });
  }, sweepMs(ctx));
  (timer as { unref?: () => void }).unref?.();
  governors.set(ctx, timer);
}

/** Stops the sweeps of this context. */
export function stopMemoryGovernor(ctx: AppContext): void {
  clearInterval(governors.get(ctx));
  governors.delete(ctx);
}

function sweepMs(ctx: AppContext): number {
  return Math.max(250, Math.min(MAX_SWEEP_MS, Math.floor(ctx.config.idleReleaseMs / 4)));
}

function mib(bytes: number): number {
  return Math.round(bytes / 1024 / 1024);
}
