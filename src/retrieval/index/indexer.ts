/**
 * Indexing pipeline of `get_context`: after a publish commits, a version's
 * entities get their text, lexical terms, indexed values and embeddings in
 * `entity_embeddings` (sql/040_retrieval.sql).
 *
 * `index_status` goes `indexing` -> `indexed`, or `failed` (error logged);
 * the published version is never touched otherwise. Jobs of one app run one
 * after another in the background ({@link scheduleIndexing});
 * {@link indexVersion} runs one now (tests, re-index). On start,
 * {@link resumeIndexing} re-indexes versions a crash left `indexing` and
 * versions embedded by another model than the active one or with texts
 * built another way (an older {@link ENTITY_TEXT_FORMAT}).
 *
 * @module
 */
import { type ModelMetadata, readModelFiles } from "../../engine/mod.ts";
import type { AppContext } from "../../context.ts";
import { connectionLookup } from "../../connections/store.ts";
import { extractionDir, extractStoredArchive } from "../../archives/store.ts";
import { setIndexStatus } from "../../versions/store.ts";
import { getEmbedder } from "../embedding/embedder.ts";
import { embedEntities, entityVectorKey } from "./entity_vectors.ts";
import { ENTITY_TEXT_FORMAT, entitiesFromMetadata, type EntityRecord } from "./entity_text.ts";
import { computeIndexedValues, type IndexedValue } from "./indexed_values.ts";
import { loadLexicon } from "../text/lexicon.ts";
import { vectorLiteral } from "./vector_index.ts";

/** What one indexing run did. */
export interface IndexReport {
  versionUuid: string;
  entities: number;
  /** Texts sent to the model (the others reused a vector with the same model and text, or had none). */
  embedded: number;
  /** Vectors reused by content hash. */
  reused: number;
  /** Embedding model, `null` when none was available (lexical only). */
  model: string | null;
  /** Indexed dimensions with values. */
  valueDimensions: number;
}

/** Options of {@link indexVersion}. */
export interface IndexVersionOptions {
  /** Runs after the status is `indexing`, before anything is computed (tests observe the state here). */
  beforeWork?: () => Promise<void> | void;
  /** Values kept per `#(index)` dimension; default 100. */
  maxValues?: number;
  /**
   * Indexed values already computed (e.g. by a run), keyed
   * `modelPath#sourceName.fieldPath`; when given, no value query runs.
   */
  values?: ReadonlyMap<string, IndexedValue[]>;
  /**
   * Whether this call sets `index_status` (default true). A run sets it
   * itself from its units (src/runs/worker.ts) and passes false.
   */
  manageStatus?: boolean;
}

/** Stable key of an entity, the same from metadata and from `model_entities` rows. */
function entityKey(modelPath: string, sourceName: string | null, kind: string, path: string): string {
  return `${modelPath}#${sourceName ?? ""}/${kind}:${path}`;
}

/** Hex SHA-256 of a text's UTF-8 bytes (synchronous: a run hashes every entity text, 15 times faster than `crypto.subtle`). */
function sha256(text: string): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}

/**
 * Indexes one version now. Sets `index_status` to `indexing`, then `indexed`;
 * on error sets `failed`, logs it and rethrows.
 *
 * @example
 * await indexVersion(ctx, published.version.uuid);
 */
export async function indexVersion(ctx: AppContext, versionUuid: string, options: IndexVersionOptions = {}): Promise<IndexReport> {
  const manage = options.manageStatus !== false;
  if (manage) await setIndexStatus(ctx.sql, versionUuid, "indexing");
  try {
    await options.beforeWork?.();
    const report = await buildIndex(ctx, versionUuid, options);
    if (manage) await setIndexStatus(ctx.sql, versionUuid, "indexed");
    ctx.log({ level: "info", event: "version_indexed", ...report });
    return report;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // a version deleted while it was indexed is not a failure: its rows went with it
    const [exists] = await ctx.sql`SELECT 1 FROM package_versions WHERE id = ${versionUuid}`.catch(() => [true]);
    if (!exists) {
      ctx.log({ level: "info", event: "version_index_abandoned", versionUuid, reason: "the version was deleted while it was indexed" });
      throw error;
    }
    ctx.log({ level: "error", event: "version_index_failed", versionUuid, error: message });
    if (manage) await setIndexStatus(ctx.sql, versionUuid, "failed").catch(() => {});
    throw error;
  }
}

async function buildIndex(ctx: AppContext, versionUuid: string, options: IndexVersionOptions): Promise<IndexReport> {
  const [version] = await ctx.sql`SELECT v.blob_sha256, p.env_id FROM package_versions v JOIN packages p ON p.id = v.package_id
                                    WHERE v.id = ${versionUuid}`;
  if (!version) throw new Error(`version ${versionUuid} does not exist (deleted while waiting to be indexed?)`);
  const models = (await ctx.sql`SELECT metadata FROM version_models WHERE version = ${versionUuid} ORDER BY model_path`)
    .map((r) => r.metadata as ModelMetadata);
  const rows = await ctx.sql`SELECT id, model_path, source_name, kind, path FROM model_entities WHERE version = ${versionUuid}`;
  const ids = new Map(rows.map((r) => [entityKey(r.model_path, r.source_name, r.kind, r.path), r.id as string]));

  const values = options.values ?? await versionValues(ctx, { sha: version.blob_sha256 as string, envId: version.env_id as string }, models, options);
  const lexicon = loadLexicon();
  const records: Array<{ id: string; record: EntityRecord; values?: IndexedValue[] }> = [];
  for (const meta of models) {
    const strings: Record<string, string[]> = {};
    for (const [key, list] of values) {
      if (key.startsWith(`${meta.modelPath}#`)) strings[key.slice(meta.modelPath.length + 1)] = list.map((v) => v.value);
    }
    for (const record of entitiesFromMetadata(meta, {}, { values: strings, lexicon })) {
      const id = ids.get(entityKey(meta.modelPath, record.sourceName, record.kind, record.name));
      if (!id) continue;
      records.push({ id, record, values: values.get(`${meta.modelPath}#${record.sourceName}.${record.name}`) });
    }
  }

  // Vectors take in a dimension's values, except in a bound source (`#(bind)`): no caller sees those values.
  const bound = new Set(models.flatMap((m) => m.sources
    .filter((s) => ((s as { access?: { bindings: unknown[] } }).access?.bindings.length ?? 0) > 0)
    .map((s) => `${m.modelPath}#${s.name}`)));
  const forVector = records.map(({ record }) => (record.values && bound.has(`${record.modelPath}#${record.sourceName}`)
    ? { ...record, values: undefined } : record));
  const embedder = await getEmbedder();
  const hashes = forVector.map((r) => sha256(entityVectorKey(r)));
  const vectors: (string | null)[] = records.map(() => null);
  let embedded = 0;
  let reused = 0;
  if (embedder) {
    const known = new Map<string, string>();
    const found = await ctx.sql`SELECT DISTINCT ON (content_hash) content_hash, embedding::text AS embedding FROM entity_embeddings
                                 WHERE model = ${embedder.model} AND content_hash = ANY(${[...new Set(hashes)]}::text[])`;
    for (const r of found) known.set(r.content_hash as string, r.embedding as string);
    const missing = records.map((_, i) => i).filter((i) => !known.has(hashes[i]!));
    const fresh = new Set(missing);
    for (let start = 0; start < missing.length; start += 256) {
      const batch = missing.slice(start, start + 256);
      const out = await embedEntities(embedder, batch.map((i) => forVector[i]!));
      batch.forEach((i, j) => {
        const v = out[j];
        if (v) known.set(hashes[i]!, vectorLiteral(v));
      });
      embedded += batch.length;
    }
    records.forEach((_, i) => {
      vectors[i] = known.get(hashes[i]!) ?? null;
      if (vectors[i] !== null && !fresh.has(i)) reused++;
    });
  }
  const model = embedder?.model ?? null;
  await ctx.sql.begin(async (tx) => {
    await tx`DELETE FROM entity_embeddings WHERE version = ${versionUuid}`;
    for (let start = 0; start < records.length; start += 500) {
      const part = records.slice(start, start + 500).map((r, j) => ({ ...r, hash: hashes[start + j]!, vector: vectors[start + j] ?? null }));
      await tx`
        INSERT INTO entity_embeddings (entity_id, version, text, lexical_terms, indexed_values, model, content_hash, embedding, text_format)
        SELECT u.id, ${versionUuid}, u.text, u.terms::jsonb, u.vals::jsonb,
               CASE WHEN u.vec IS NULL THEN NULL ELSE ${model}::text END, u.hash, u.vec::vector, ${ENTITY_TEXT_FORMAT}::int
          FROM unnest(${part.map((r) => r.id)}::uuid[], ${part.map((r) => r.record.text)}::text[],
                      ${part.map((r) => JSON.stringify(r.record.lexicalTerms))}::text[],
                      ${part.map((r) => (r.values ? JSON.stringify(r.values) : null))}::text[],
                      ${part.map((r) => r.hash)}::text[], ${part.map((r) => r.vector)}::text[])
            AS u(id, text, terms, vals, hash, vec)`;
    }
  });
  return { versionUuid, entities: records.length, embedded, reused, model, valueDimensions: values.size };
}

async function versionValues(
  ctx: AppContext,
  version: { sha: string; envId: string },
  models: ModelMetadata[],
  options: IndexVersionOptions,
): Promise<Map<string, IndexedValue[]>> {
  if (!models.some((m) => m.sources.some((s) => s.dimensions.some((d) => d.indexed)))) return new Map();
  const packageDir = await extractStoredArchive(ctx.sql, version.sha, { cacheDir: extractionDir(ctx.config), read: { maxBytes: ctx.config.maxPackageBytes } });
  if (!packageDir) throw new Error(`the archive ${version.sha} of the version is missing; publish the version again`);
  const files = await readModelFiles(packageDir);
  const keys = { secretKey: ctx.config.secretKey, dataDir: ctx.config.dataDir };
  return await computeIndexedValues({ files, packageDir }, models, {
    lookupConnection: connectionLookup(ctx.sql, version.envId, keys),
    maxValues: options.maxValues,
    onError: (key, error) => ctx.log({ level: "warn", event: "indexed_values_failed", dimension: key, error: error instanceof Error ? error.message : String(error) }),
  });
}

const queues = new WeakMap<AppContext, Promise<void>>();

/**
 * Queues indexing of a version in the background (one job at a time per
 * app). Failures are logged and recorded as `failed`, never thrown.
 */
function scheduleIndexing(ctx: AppContext, versionUuid: string): void {
  const tail = queues.get(ctx) ?? Promise.resolve();
  const next = tail.then(() => indexVersion(ctx, versionUuid)).then(() => {}, () => {});
  queues.set(ctx, next);
}

/** Resolves when every queued indexing job of the app has finished. */
export async function waitForIndexing(ctx: AppContext): Promise<void> {
  let seen: Promise<void> | undefined;
  while (queues.get(ctx) !== seen) {
    seen = queues.get(ctx);
    await seen;
  }
}

/**
 * Queues re-indexing of versions left `indexing` by a crash and of versions
 * whose vectors were made by another model than the active one (or none,
 * when a model is now available). Returns how many were queued.
 */
export async function resumeIndexing(ctx: AppContext): Promise<number> {
  // A version `indexing` because a run builds it is the run's business (a
  // crashed run is failed by the next claim), not a crashed indexing job.
  const stale = await ctx.sql`SELECT v.id FROM package_versions v WHERE v.index_status = 'indexing'
                                AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.version = v.id AND r.state IN ('queued', 'running'))`;
  const ids = new Set(stale.map((r) => r.id as string));
  const [any] = await ctx.sql`SELECT 1 FROM entity_embeddings LIMIT 1`;
  if (any) {
    const model = (await getEmbedder())?.model ?? null;
    // One pass over the index: texts built another way than this code builds them (ENTITY_TEXT_FORMAT);
    // with a model, vectors of another model, or a version indexed while no model was available.
    const redo = await ctx.sql`SELECT version FROM entity_embeddings GROUP BY version
                                HAVING bool_or(text_format <> ${ENTITY_TEXT_FORMAT})
                                    OR (${model}::text IS NOT NULL AND (bool_or(model <> ${model}) OR count(model) = 0))`;
    for (const r of redo) ids.add(r.version as string);
  }
  const busy = await ctx.sql`SELECT DISTINCT version FROM runs WHERE state IN ('queued', 'running')`;
  for (const r of busy) ids.delete(r.version as string);
  for (const id of ids) scheduleIndexing(ctx, id);
  return ids.size;
}

