/**
 * The per-process cache of `get_context`'s entity records, per version:
 * read from `entity_embeddings` once per version and index state (versions
 * are immutable; the key includes the version's `updated_at`, which every
 * index status change bumps), forgotten when no search read them during
 * `IDLE_RELEASE_MS` (the memory governor calls {@link releaseIdleEntities}),
 * and bounded by a budget (a quarter of `MEMORY_BUDGET`, set by the service).
 * Also the arrays that combine several versions' records for one scope.
 *
 * @module
 */
import type { Db } from "../../db/database.ts";
import type { ModelMetadata } from "../../engine/compile/metadata.ts";
import { entitiesFromMetadata, type EntityRecord, type LexicalTerms } from "./entity_text.ts";
import type { IndexedValue } from "./indexed_values.ts";
import { loadLexicon } from "../text/lexicon.ts";
import { vectorFromSql } from "./vector_index.ts";
import type { VersionAccess } from "../../rls/visibility.ts";

/** A version in scope. */
export interface ScopedVersion {
  versionUuid: string;
  versionId: string;
  packageId: string;
  packageName: string;
  environmentName: string;
  stamp: string;
  /** The version's `indexStatus`: `unknown`, `indexing`, `indexed` or `failed`. */
  indexStatus: string;
  /** What the caller may not see of this version's sources (`#(authorize)`, `#(bind)`); absent when nothing. */
  access?: VersionAccess;
}

/** An entity record with its stored indexed values (with counts). */
export interface StoredEntity extends EntityRecord {
  indexedValues?: IndexedValue[];
  /** The stored embedding (unit length), read once per version, and the model that made it. */
  vector?: Float32Array;
  vectorModel?: string;
}

interface CacheEntry {
  stamp: string;
  records: StoredEntity[];
  /** Approximate bytes the records hold ({@link recordBytes}). */
  bytes: number;
  /** When a search last read the entry (`performance.now()`). */
  usedAt: number;
}

/**
 * Bytes the cached records of all versions may hold (approximately), unless
 * one search needs more: least recently used versions go first. The service
 * sets it from `MEMORY_BUDGET` ({@link setEntityCacheBudget}).
 */
let budgetBytes = 256 * 1024 ** 2;
let cachedBytes = 0;
const cache = new Map<string, CacheEntry>();

/** A combined array of several versions' records (or a filtered one), and what it was built from. */
interface CombinedEntry {
  records: StoredEntity[];
  versions: readonly string[];
  usedAt: number;
}

const COMBINED_LIMIT = 32;
const combinedCache = new Map<string, CombinedEntry>();

/**
 * The records of `versions` by version uuid: cached ones, and the others read
 * now (then least recently used versions go while the cache is over its
 * budget, never those asked for here).
 */
export async function versionRecords(db: Db, versions: readonly ScopedVersion[]): Promise<Map<string, StoredEntity[]>> {
  const now = performance.now();
  const recordsOf = new Map<string, StoredEntity[]>();
  const stale: ScopedVersion[] = [];
  for (const v of versions) {
    const entry = cache.get(v.versionUuid);
    if (entry?.stamp !== v.stamp) {
      stale.push(v);
      continue;
    }
    entry.usedAt = now;
    // most recently used last: the budget evicts from the front
    cache.delete(v.versionUuid);
    cache.set(v.versionUuid, entry);
    recordsOf.set(v.versionUuid, entry.records);
  }
  if (stale.length > 0) {
    for (const [uuid, records] of await loadVersions(db, stale)) recordsOf.set(uuid, records);
    keepWithinBudget(new Set(versions.map((v) => v.versionUuid)));
  }
  return recordsOf;
}

/** The combined array kept under `key` by {@link keepCombined}, if still kept. */
export function combinedRecords(key: string): StoredEntity[] | undefined {
  const combined = combinedCache.get(key);
  if (!combined) return undefined;
  combinedCache.delete(key);
  combined.usedAt = performance.now();
  combinedCache.set(key, combined);
  return combined.records;
}

/** Keeps a combined array of the records of `versions` (the most recent {@link COMBINED_LIMIT}). */
export function keepCombined(key: string, records: StoredEntity[], versions: readonly string[]): void {
  combinedCache.set(key, { records, versions, usedAt: performance.now() });
  while (combinedCache.size > COMBINED_LIMIT) combinedCache.delete(combinedCache.keys().next().value!);
}

/** Evicts least recently used versions (not those of the current search) while the cache is over its budget. */
function keepWithinBudget(current: ReadonlySet<string>): void {
  if (cachedBytes <= budgetBytes) return;
  const gone = new Set<string>();
  for (const [uuid, entry] of cache) {
    if (cachedBytes <= budgetBytes) break;
    if (current.has(uuid)) continue;
    cache.delete(uuid);
    cachedBytes -= entry.bytes;
    gone.add(uuid);
  }
  forgetCombined((c) => c.versions.some((v) => gone.has(v)));
}

function forgetCombined(drop: (entry: CombinedEntry) => boolean): number {
  let n = 0;
  for (const [key, entry] of combinedCache) {
    if (drop(entry)) {
      combinedCache.delete(key);
      n++;
    }
  }
  return n;
}

/**
 * Sets the bytes the entity records of all versions may hold (approximately);
 * evicts least recently used versions now when over it.
 */
export function setEntityCacheBudget(bytes: number): void {
  budgetBytes = Math.max(0, bytes);
  keepWithinBudget(new Set());
}

/**
 * Forgets the records of versions no search read during `idleMs` (all of
 * them with 0), and the combined arrays built from them or not read since.
 * Answers how many versions it forgot. The next search reads them again.
 */
export function releaseIdleEntities(idleMs: number): number {
  const before = performance.now() - idleMs;
  const gone = new Set<string>();
  for (const [uuid, entry] of cache) {
    if (entry.usedAt > before) continue;
    cache.delete(uuid);
    cachedBytes -= entry.bytes;
    gone.add(uuid);
  }
  forgetCombined((c) => c.usedAt <= before || c.versions.some((v) => gone.has(v)));
  return gone.size;
}

/** What the entity cache holds now: versions, records, approximate bytes (tests, the benchmark). */
export function entityCacheSize(): { versions: number; entities: number; bytes: number } {
  let entities = 0;
  for (const entry of cache.values()) entities += entry.records.length;
  return { versions: cache.size, entities, bytes: cachedBytes };
}

/** An indexed entity as {@link loadVersions} reads it (the vector as pgvector text). */
interface EntityRow {
  id: string;
  modelPath: string;
  kind: EntityRecord["kind"];
  fieldType: string | null;
  path: string;
  sourceName: string | null;
  dataType: string | null;
  description: string | null;
  text: string;
  lexicalTerms: LexicalTerms;
  indexedValues: IndexedValue[] | null;
  model: string | null;
  embedding: string | null;
}

/**
 * Reads the records of `versions` (one statement per version), caches
 * them and answers them by version. Strings repeated across records (model
 * paths, source names, lexical terms, values) are shared, and the vectors of
 * a version sit in one buffer.
 */
async function loadVersions(db: Db, versions: readonly ScopedVersion[]): Promise<Map<string, StoredEntity[]>> {
  const byVersion = new Map<string, StoredEntity[]>();
  const intern = interner();
  for (const v of versions) {
    const origin = { environmentName: v.environmentName, packageName: v.packageName, versionId: v.versionId };
    const records: StoredEntity[] = [];
    const vectors: Array<Float32Array | undefined> = [];
    // one statement per version: a result of every version at once would grow the embedded database's memory for good
    const rows = await db<EntityRow[]>`
      SELECT me.id, me.model_path AS "modelPath", me.kind, me.field_type AS "fieldType", me.path, me.source_name AS "sourceName",
             me.data_type AS "dataType", me.description, ee.text, ee.lexical_terms AS "lexicalTerms",
             ee.indexed_values AS "indexedValues", ee.model, ee.embedding::text AS embedding
        FROM model_entities me JOIN entity_embeddings ee ON ee.entity_id = me.id
       WHERE me.version = ${v.versionUuid}`;
    for (const r of rows) {
      records.push(storedEntity(r, origin, intern));
      vectors.push(r.model ? vectorFromSql(r.embedding) : undefined);
    }
    packVectors(records, vectors);
    byVersion.set(v.versionUuid, records);
  }
  // Versions not indexed yet: lexical records from their stored metadata.
  const unindexed = versions.filter((v) => byVersion.get(v.versionUuid)!.length === 0);
  if (unindexed.length > 0) {
    const origin = new Map(versions.map((v) => [v.versionUuid, { environmentName: v.environmentName, packageName: v.packageName, versionId: v.versionId }]));
    await fromMetadata(db, unindexed, byVersion, origin);
  }
  const now = performance.now();
  for (const v of versions) {
    const records = byVersion.get(v.versionUuid)!;
    const old = cache.get(v.versionUuid);
    if (old) cachedBytes -= old.bytes;
    cache.delete(v.versionUuid);
    const bytes = records.reduce((sum, r) => sum + recordBytes(r), 0);
    cache.set(v.versionUuid, { stamp: v.stamp, records, bytes, usedAt: now });
    cachedBytes += bytes;
  }
  return byVersion;
}

/** A record of a row; `intern` shares equal strings between records. */
function storedEntity(r: EntityRow, origin: NonNullable<EntityRecord["origin"]>, intern: (s: string) => string): StoredEntity {
  const values = r.indexedValues;
  const kind = intern(r.kind) as EntityRecord["kind"];
  const terms = r.lexicalTerms;
  const lexicalTerms = { ...terms } as LexicalTerms;
  for (const k of Object.keys(terms) as Array<keyof LexicalTerms>) {
    const list = terms[k];
    if (Array.isArray(list)) (lexicalTerms as unknown as Record<string, string[]>)[k] = list.map(intern);
  }
  const indexedValues = values && values.length > 0 ? values.map((x) => ({ ...x, value: intern(x.value) })) : undefined;
  return {
    id: r.id,
    kind,
    name: intern(r.path),
    sourceName: intern(r.sourceName ?? ""),
    modelPath: intern(r.modelPath),
    fieldType: kind === "dimension" && r.fieldType === "column" ? "column" : kind,
    dataType: intern(r.dataType ?? kind),
    ...(r.description ? { description: intern(r.description) } : {}),
    text: r.text,
    lexicalTerms,
    ...(indexedValues ? { values: indexedValues.map((x) => x.value), indexedValues } : {}),
    ...(r.model ? { vectorModel: intern(r.model) } : {}),
    origin,
  };
}

/** The vectors of a version's records as views of one buffer (one allocation instead of one per record). */
function packVectors(records: StoredEntity[], vectors: ReadonlyArray<Float32Array | undefined>): void {
  let floats = 0;
  for (const v of vectors) floats += v?.length ?? 0;
  const buffer = new Float32Array(floats);
  let at = 0;
  vectors.forEach((v, i) => {
    if (!v) {
      delete records[i]!.vectorModel;
      return;
    }
    buffer.set(v, at);
    records[i]!.vector = buffer.subarray(at, at + v.length);
    at += v.length;
  });
}

/** A function that answers one instance of each equal string it is given. */
function interner(): (s: string) => string {
  const seen = new Map<string, string>();
  return (s) => {
    const known = seen.get(s);
    if (known !== undefined) return known;
    seen.set(s, s);
    return s;
  };
}

/**
 * Approximate bytes a record keeps alive: its object and strings, its
 * vector, and what ranking derives from it (word sets, postings; about as
 * much as its own strings). Shared strings are counted in every record: an
 * overestimate.
 */
function recordBytes(r: StoredEntity): number {
  let chars = r.id.length + r.name.length + r.text.length + (r.description?.length ?? 0);
  let items = 0;
  for (const list of Object.values(r.lexicalTerms)) {
    if (!Array.isArray(list)) continue;
    items += list.length;
    for (const t of list) chars += (t as string).length;
  }
  for (const v of r.values ?? []) chars += v.length;
  items += (r.values?.length ?? 0) * 2;
  return RECORD_OVERHEAD + 2 * chars * 2 + items * 48 + (r.vector?.byteLength ?? 0) + 32;
}

/** Bytes of a record's object, its word sets and its places in the ranking's postings, beyond its strings. */
const RECORD_OVERHEAD = 1_200;

async function fromMetadata(
  db: Db,
  versions: readonly ScopedVersion[],
  into: Map<string, StoredEntity[]>,
  origin: Map<string, EntityRecord["origin"]>,
): Promise<void> {
  const uuids = versions.map((v) => v.versionUuid);
  const models = await db<{ version: string; metadata: ModelMetadata }[]>`
    SELECT version, metadata FROM version_models WHERE version = ANY(${uuids}::uuid[])`;
  const ids = await db<{ id: string; key: string }[]>`
    SELECT id, version || '|' || model_path || '#' || coalesce(source_name, '') || '/' || kind || ':' || path AS "key"
      FROM model_entities WHERE version = ANY(${uuids}::uuid[])`;
  const idOf = new Map(ids.map((r) => [r.key, r.id]));
  const lexicon = loadLexicon();
  for (const m of models) {
    for (const record of entitiesFromMetadata(m.metadata, {}, { lexicon })) {
      const id = idOf.get(`${m.version}|${record.id}`);
      if (id) into.get(m.version)!.push({ ...record, id, origin: origin.get(m.version) });
    }
  }
}
