/**
 * Which units a run has: one table unit per `#@ persist` source and one index
 * unit per `#(index)` dimension of the version's models (from the metadata
 * stored at publish), all of them for a full run, the selected ones for a
 * scoped run.
 * @module
 */
import type { Db } from "../db/database.ts";
import type { ModelMetadata } from "../engine/mod.ts";
import { ValidationError } from "../errors.ts";

/** Scope selectors of a run; absent for a full run. */
export interface RunScope {
  sources?: string[];
  dimensions?: string[];
}

/** One unit of a planned run. */
export interface PlannedUnit {
  kind: "table" | "index";
  /** table: the source name; index: `source.dimension.path`. */
  target: string;
  modelPath: string;
  sourceName: string;
  /** Dimension path inside the source (index units). */
  path?: string;
}

/** The models' metadata of a version, by model path order. */
export async function versionModels(db: Db, versionUuid: string): Promise<ModelMetadata[]> {
  const rows = await db`SELECT metadata FROM version_models WHERE version = ${versionUuid} ORDER BY model_path`;
  return rows.map((r) => r.metadata as ModelMetadata);
}

/** Every unit of a full run: persist sources first, then indexed dimensions. */
export function allUnits(models: readonly ModelMetadata[]): PlannedUnit[] {
  const tables: PlannedUnit[] = [];
  const indexes: PlannedUnit[] = [];
  for (const model of models) {
    for (const source of model.sources) {
      if (source.persist) tables.push({ kind: "table", target: source.name, modelPath: model.modelPath, sourceName: source.name });
      // a bound source (#(bind)) shows no indexed values to anyone: nothing to build
      const bound = ((source as { access?: { bindings: unknown[] } }).access?.bindings.length ?? 0) > 0;
      for (const dim of source.dimensions) {
        if (!dim.indexed || bound) continue;
        indexes.push({ kind: "index", target: `${source.name}.${dim.path}`, modelPath: model.modelPath, sourceName: source.name, path: dim.path });
      }
    }
  }
  return [...tables, ...indexes];
}

function names(list: string[]): string {
  return list.length === 0 ? "(none)" : list.map((n) => `'${n}'`).join(", ");
}

/**
 * The units of a run over these models: all of them without a scope,
 * otherwise the named sources and dimensions (a ValidationError for a name
 * the version does not have, or for a scope that selects nothing).
 */
export function planUnits(models: readonly ModelMetadata[], scope?: RunScope): PlannedUnit[] {
  const all = allUnits(models);
  if (!scope) return all;
  const sources = scope.sources ?? [];
  const dimensions = scope.dimensions ?? [];
  if (sources.length === 0 && dimensions.length === 0) {
    throw new ValidationError("a scoped run must name at least one source or dimension; send {} for a full run");
  }
  const tables = all.filter((u) => u.kind === "table");
  const indexes = all.filter((u) => u.kind === "index");
  const unknownSources = sources.filter((s) => !tables.some((u) => u.target === s));
  if (unknownSources.length > 0) {
    throw new ValidationError(`sources ${names(unknownSources)} are not #@ persist sources of this version; its persist sources are ${names(tables.map((u) => u.target))}`);
  }
  const unknownDims = dimensions.filter((d) => !indexes.some((u) => u.target === d));
  if (unknownDims.length > 0) {
    throw new ValidationError(`dimensions ${names(unknownDims)} are not #(index) dimensions of this version; name them source.dimension, one of ${names(indexes.map((u) => u.target))}`);
  }
  return [
    ...tables.filter((u) => sources.includes(u.target)),
    ...indexes.filter((u) => dimensions.includes(u.target)),
  ];
}
