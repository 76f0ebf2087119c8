/**
 * What the units of a run do: a table unit writes its `#@ persist` source as
 * Parquet under `DATA_DIR/materializations/`; an index unit computes the
 * distinct values of its `#(index)` dimension and commits them with its index
 * row; the retrieval step of a full run re-embeds the version's entities with
 * the built values (src/retrieval/indexer.ts) and the values of
 * low-cardinality string dimensions without `#(index)` (auto_values.ts).
 * @module
 */
import { join } from "node:path";
import { writeSourceParquet } from "../engine/parquet_writer.ts";
import type { ModelMetadata } from "../engine/mod.ts";
import type { AppContext } from "../http/context.ts";
import { builtIndexValues, completeIndexBuild, failIndexBuild, type IndexKey, startIndexBuild } from "../indexes/store.ts";
import {
  endMaterialization,
  type MaterializationKey,
  materializationLocation,
  startMaterialization,
} from "../materializations/store.ts";
import { compiledModelFor, type ModelTarget } from "../query/models.ts";
import { autoIndexValues } from "../retrieval/auto_values.ts";
import { dimensionValues, type IndexedValue } from "../retrieval/indexed_values.ts";
import { indexVersion } from "../retrieval/indexer.ts";
import type { PlannedUnit } from "./plan.ts";

/** Values kept per `#(index)` dimension (the retrieval indexer's default). */
const MAX_VALUES = 100;

/** What every unit of one run works on. */
export interface UnitScope {
  runId: string;
  /** The version (everything of a model target but its path). */
  version: Omit<ModelTarget, "modelPath">;
  models: readonly ModelMetadata[];
  /** Aborts on cancel (reason: "cancelled") or when the run's row is gone. */
  signal: AbortSignal;
}

function unitSignal(ctx: AppContext, scope: UnitScope): AbortSignal {
  return AbortSignal.any([scope.signal, AbortSignal.timeout(ctx.config.runUnitTimeoutMs)]);
}

/** Materializes one `#@ persist` source; returns its row count. */
export async function runTableUnit(ctx: AppContext, job: { scope: UnitScope; unit: PlannedUnit }): Promise<{ rowCount: number }> {
  const { scope, unit } = job;
  const key: MaterializationKey = { versionUuid: scope.version.versionUuid, modelPath: unit.modelPath, sourceName: unit.sourceName };
  const source = scope.models.find((m) => m.modelPath === unit.modelPath)?.sources.find((s) => s.name === unit.sourceName);
  await startMaterialization(ctx.sql, key, { connection: source?.connection ?? "duckdb" });
  try {
    const compiled = await compiledModelFor(ctx, { ...scope.version, modelPath: unit.modelPath });
    const written = await writeSourceParquet(compiled, {
      sourceName: unit.sourceName,
      outFile: join(ctx.config.dataDir, materializationLocation(key)),
      signal: unitSignal(ctx, scope),
    });
    await endMaterialization(ctx.sql, key, { status: "built", runId: scope.runId, rowCount: written.rowCount });
    return { rowCount: written.rowCount };
  } catch (error) {
    // On cancel the run's end puts the row back (built if an older file stands).
    if (!scope.signal.aborted) await endMaterialization(ctx.sql, key, { status: "failed", runId: scope.runId });
    throw error;
  }
}

/** Builds one `#(index)` dimension's values; returns how many it kept. */
export async function runIndexUnit(ctx: AppContext, job: { scope: UnitScope; unit: PlannedUnit }): Promise<{ valueCount: number }> {
  const { scope, unit } = job;
  const key: IndexKey = { versionUuid: scope.version.versionUuid, modelPath: unit.modelPath, sourceName: unit.sourceName, dimension: unit.path! };
  await startIndexBuild(ctx.sql, key);
  try {
    const compiled = await compiledModelFor(ctx, { ...scope.version, modelPath: unit.modelPath });
    const values = await dimensionValues(compiled, { sourceName: unit.sourceName, path: unit.path! }, {
      maxValues: MAX_VALUES,
      timeoutMs: ctx.config.runUnitTimeoutMs,
      signal: scope.signal,
    });
    if (scope.signal.aborted) throw scope.signal.reason;
    await completeIndexBuild(ctx.sql, key, { runId: scope.runId, values });
    return { valueCount: values.length };
  } catch (error) {
    if (!scope.signal.aborted) await failIndexBuild(ctx.sql, key);
    throw error;
  }
}

/**
 * The retrieval index of the version (entity texts, lexical terms, embeddings)
 * with the values of its built indexes; the run sets the index status.
 */
export async function runRetrievalStep(ctx: AppContext, scope: UnitScope): Promise<void> {
  const values = await builtIndexValues(ctx.sql, scope.version.versionUuid);
  for (const [key, list] of await automaticValues(ctx, scope, values)) values.set(key, list);
  await indexVersion(ctx, scope.version.versionUuid, { values, manageStatus: false });
}

/** Values of low-cardinality string dimensions without `#(index)` (src/retrieval/auto_values.ts); failures are logged, never fail the run. */
async function automaticValues(ctx: AppContext, scope: UnitScope, built: ReadonlyMap<string, IndexedValue[]>): Promise<Map<string, IndexedValue[]>> {
  return await autoIndexValues((modelPath) => compiledModelFor(ctx, { ...scope.version, modelPath }), scope.models, {
    built,
    timeoutMs: ctx.config.runUnitTimeoutMs,
    signal: scope.signal,
    onError: (key, error) => ctx.log({ level: "warn", event: "auto_index_failed", runId: scope.runId, target: key, error: error instanceof Error ? error.message : String(error) }),
  });
}
