/**
 * What the units of a run do: a table unit writes its `#@ persist` source as
 * a Parquet file, stores it content-addressed in the platform database and
 * switches the source's materialization to it (src/materializations/); an index unit computes the
 * distinct values of its `#(index)` dimension and commits them with its index
 * row, reading what queries read (the materializations built so far, so an
 * index of a persisted source holds the values of its materialization, see
 * src/materializations/serve.ts); the retrieval step of a full run re-embeds the version's entities with
 * the built values (src/retrieval/index/indexer.ts) and the values of
 * low-cardinality string dimensions without `#(index)` (auto_values.ts).
 * @module
 */
import { mkdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { writeSourceParquet } from "../engine/materialize/parquet_writer.ts";
import { type ModelMetadata, withReadableFiles } from "../engine/mod.ts";
import type { AppContext } from "../context.ts";
import { builtIndexValues, completeIndexBuild, failIndexBuild, type IndexKey, startIndexBuild } from "../indexes/store.ts";
import { cachedLocation, hashFile, isFile } from "../materializations/files.ts";
import { retireFiles, serveMaterializations } from "../materializations/serve.ts";
import {
  completeMaterialization,
  failMaterialization,
  type MaterializationKey,
  startMaterialization,
} from "../materializations/store.ts";
import { compiledModelFor, type ModelTarget } from "../archives/compiled_models.ts";
import { autoIndexValues } from "../retrieval/index/auto_values.ts";
import { distinctValueCount, indexValuesLimit } from "../indexes/values.ts";
import { dimensionValues, type IndexedValue } from "../retrieval/index/indexed_values.ts";
import { indexVersion } from "../retrieval/index/indexer.ts";
import type { PlannedUnit } from "./plan.ts";

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

/**
 * Materializes one `#@ persist` source of any connection; returns its row
 * count. The file is written under a temporary name, stored, and only then
 * does the source's materialization point at it (queries switch atomically).
 */
export async function runTableUnit(ctx: AppContext, job: { scope: UnitScope; unit: PlannedUnit }): Promise<{ rowCount: number }> {
  const { scope, unit } = job;
  const key: MaterializationKey = { versionUuid: scope.version.versionUuid, modelPath: unit.modelPath, sourceName: unit.sourceName };
  const source = scope.models.find((m) => m.modelPath === unit.modelPath)?.sources.find((s) => s.name === unit.sourceName);
  await startMaterialization(ctx.sql, key, { connection: source?.connection ?? "duckdb" });
  const written = join(ctx.config.dataDir, "materializations", "building", `${crypto.randomUUID()}.parquet`);
  try {
    const compiled = await compiledModelFor(ctx, { ...scope.version, modelPath: unit.modelPath });
    const result = await writeSourceParquet(compiled, { sourceName: unit.sourceName, outFile: written, signal: unitSignal(ctx, scope) });
    if (scope.signal.aborted) throw scope.signal.reason;
    const file = await hashFile(written);
    const location = cachedLocation(scope.version.blobSha256, file.sha256);
    const target = join(ctx.config.dataDir, location);
    if (!(await isFile(target))) {
      await mkdir(dirname(target), { recursive: true });
      await rename(written, target);
    }
    const deleted = await completeMaterialization(ctx.sql, key, {
      runId: scope.runId,
      path: target,
      ...file,
      location,
      rowCount: result.rowCount,
      columns: result.columns,
    });
    retireFiles(ctx, deleted);
    return { rowCount: result.rowCount };
  } catch (error) {
    // On cancel the run's end puts the row back (built if an older file stands).
    if (!scope.signal.aborted) await failMaterialization(ctx.sql, key);
    throw error;
  } finally {
    await rm(written, { force: true });
  }
}

/**
 * Builds one `#(index)` dimension's values: the `#(index_values) N` most
 * frequent (default 1,000); returns how many it kept and how many distinct
 * values it saw.
 */
export async function runIndexUnit(ctx: AppContext, job: { scope: UnitScope; unit: PlannedUnit }): Promise<{ valueCount: number; distinctCount: number }> {
  const { scope, unit } = job;
  const key: IndexKey = { versionUuid: scope.version.versionUuid, modelPath: unit.modelPath, sourceName: unit.sourceName, dimension: unit.path! };
  await startIndexBuild(ctx.sql, key);
  try {
    const compiled = await compiledModelFor(ctx, { ...scope.version, modelPath: unit.modelPath });
    const dimension = { sourceName: unit.sourceName, path: unit.path! };
    const maxValues = indexValuesLimit(compiled, dimension);
    const timing = { timeoutMs: ctx.config.runUnitTimeoutMs, signal: scope.signal };
    // The values queries see: a persisted source (or one built on it) reads its materialization.
    const served = await serveMaterializations(ctx, compiled, scope.version);
    let values: IndexedValue[];
    let distinctCount: number;
    try {
      ({ values, distinctCount } = await withReadableFiles(served.readable, async () => {
        const found = await dimensionValues(served.compiled, dimension, { maxValues, ...timing });
        return { values: found, distinctCount: found.length < maxValues ? found.length : await distinctValueCount(served.compiled, dimension, timing) };
      }));
    } finally {
      served.release();
    }
    if (scope.signal.aborted) throw scope.signal.reason;
    await completeIndexBuild(ctx.sql, key, { runId: scope.runId, values, distinctCount });
    return { valueCount: values.length, distinctCount };
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

/** Values of low-cardinality string dimensions without `#(index)` (src/retrieval/index/auto_values.ts); failures are logged, never fail the run. */
async function automaticValues(ctx: AppContext, scope: UnitScope, built: ReadonlyMap<string, IndexedValue[]>): Promise<Map<string, IndexedValue[]>> {
  // Like index units, they read the materializations (pinned until the step ends).
  const releases: Array<() => void> = [];
  // the step's queries read, outside the package folder, the built files of the models it served (only this version's)
  const readable = new Set<string>();
  const servedFor = async (modelPath: string) => {
    const served = await serveMaterializations(ctx, await compiledModelFor(ctx, { ...scope.version, modelPath }), scope.version);
    releases.push(served.release);
    for (const file of served.readable) readable.add(file);
    return served.compiled;
  };
  try {
    return await withReadableFiles(readable, () => autoIndexValues(servedFor, scope.models, {
      built,
      timeoutMs: ctx.config.runUnitTimeoutMs,
      signal: scope.signal,
      onError: (key, error) => ctx.log({ level: "warn", event: "auto_index_failed", runId: scope.runId, target: key, error: error instanceof Error ? error.message : String(error) }),
    }));
  } finally {
    for (const release of releases) release();
  }
}
