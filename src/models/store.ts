/**
 * SQL of the model metadata of a version: one `version_models` row per model
 * file (its whole metadata) and one `model_entities` row per source,
 * dimension, measure, view and named query (what retrieval searches).
 * @module
 */
import type { Db } from "../db/database.ts";
import type { ModelMetadata } from "../engine/mod.ts";

/** An entity row of a model, as {@link modelEntities} makes it. */
interface ModelEntity {
  modelPath: string;
  kind: "source" | "dimension" | "measure" | "view" | "query";
  name: string;
  /** Dotted path from the source (`carriers.nickname`); the name for sources and queries. */
  path: string;
  sourceName: string | null;
  fieldType: string | null;
  dataType: string | null;
  description: string | null;
  indexed: boolean;
}

/** The entity rows of one model's metadata. */
function modelEntities(meta: ModelMetadata): ModelEntity[] {
  const out: ModelEntity[] = [];
  const base = { modelPath: meta.modelPath };
  for (const source of meta.sources) {
    out.push({
      ...base, kind: "source", name: source.name, path: source.name, sourceName: source.name,
      fieldType: "source", dataType: null, description: source.description ?? null, indexed: false,
    });
    for (const field of [...source.dimensions, ...source.measures, ...source.views]) {
      out.push({
        ...base, kind: field.fieldType, name: field.name, path: field.path, sourceName: source.name,
        fieldType: field.column && field.fieldType === "dimension" ? "column" : field.fieldType, dataType: field.dataType, description: field.description ?? null, indexed: field.indexed,
      });
    }
  }
  for (const query of meta.queries) {
    out.push({
      ...base, kind: "query", name: query.name, path: query.name, sourceName: query.sourceName ?? null,
      fieldType: "query", dataType: null, description: query.description ?? null, indexed: false,
    });
  }
  return out;
}

/**
 * Rows per `INSERT` of entity rows: small, so that no single statement holds
 * the event loop for long: the embedded database runs on this thread, where
 * a 500-row statement took 30-60 ms on a loaded 2-core host, 100 rows 5-20 ms.
 */
const ENTITY_BATCH = 100;

/** Stores the metadata and entity rows of a version's models (caller's transaction). */
export async function insertModelMetadata(
  db: Db,
  where: { version: string; packageId: string; envId: string },
  models: ModelMetadata[],
): Promise<number> {
  let entities = 0;
  for (const meta of models) {
    await db`INSERT INTO version_models (version, model_path, metadata)
             VALUES (${where.version}, ${meta.modelPath}, ${db.json(meta as never)})`;
    const rows = modelEntities(meta).map((e) => ({
      version: where.version,
      package_id: where.packageId,
      env_id: where.envId,
      model_path: e.modelPath,
      kind: e.kind,
      name: e.name,
      path: e.path,
      source_name: e.sourceName,
      field_type: e.fieldType,
      data_type: e.dataType,
      description: e.description,
      indexed: e.indexed,
    }));
    for (let i = 0; i < rows.length; i += ENTITY_BATCH) {
      await db`INSERT INTO model_entities ${db(rows.slice(i, i + ENTITY_BATCH))}`;
    }
    entities += rows.length;
  }
  return entities;
}

/** A model of a version in a list. */
export interface ModelListItem {
  path: string;
  description?: string;
  sources: string[];
  queries: string[];
}

/** The models of a version, by path. */
export async function listModels(db: Db, version: string): Promise<ModelListItem[]> {
  const rows = await db`SELECT model_path, metadata FROM version_models WHERE version = ${version} ORDER BY model_path`;
  return rows.map((r) => {
    const meta = r.metadata as ModelMetadata;
    return {
      path: r.model_path as string,
      ...(meta.description ? { description: meta.description } : {}),
      sources: meta.sources.map((s) => s.name),
      queries: meta.queries.map((q) => q.name),
    };
  });
}

/** The stored metadata of one model of a version, or `null`. */
export async function findModel(db: Db, version: string, modelPath: string): Promise<ModelMetadata | null> {
  const [r] = await db`SELECT metadata FROM version_models WHERE version = ${version} AND model_path = ${modelPath}`;
  return r ? (r.metadata as ModelMetadata) : null;
}
