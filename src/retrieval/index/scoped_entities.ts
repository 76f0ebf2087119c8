/**
 * What a retrieval request may search: the latest unarchived version of each
 * package in scope that the caller can read (`effective_rank(...) >= 1`,
 * sql/002_access.sql), and the entity records of those versions.
 *
 * Records are read from `entity_embeddings` once per version and index state
 * and kept in a small per-process cache (versions are immutable; the key
 * includes the version's `updated_at`, which every index status change
 * bumps). A version not indexed yet is searched lexically from its stored
 * model metadata.
 *
 * @module
 */
import type { Db } from "../../db/database.ts";
import type { ModelMetadata } from "../../engine/compile/metadata.ts";
import { principalKey, type Principal } from "../../access/principal.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import { findOrganization } from "../../organizations/store.ts";
import { latestVersionOf } from "../../versions/store.ts";
import { entitiesFromMetadata, type EntityRecord, type LexicalTerms } from "./entity_text.ts";
import type { IndexedValue } from "./indexed_values.ts";
import { loadLexicon } from "../text/lexicon.ts";
import { vectorFromSql } from "./vector_index.ts";
import { retrievalAccess, type VersionAccess } from "../../rls/visibility.ts";

/** A search scope, as the MCP tool's arguments name it. */
export interface SearchScope {
  environment_name?: string;
  package_name?: string;
  model_uri?: string;
  source_name?: string;
}

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

/**
 * Checks the scope chain: environment_name, then package_name, then
 * model_uri, then source_name. A ValidationError names the broken rule.
 */
export function checkScope(scope: SearchScope): void {
  const given = (v: string | undefined) => v !== undefined && v !== "";
  if (given(scope.package_name) && !given(scope.environment_name)) {
    throw new ValidationError("package_name requires environment_name (scope chain: environment_name, package_name, model_uri, source_name); add environment_name or drop package_name");
  }
  if (given(scope.model_uri) && !(given(scope.environment_name) && given(scope.package_name))) {
    throw new ValidationError("model_uri requires environment_name and package_name (scope chain: environment_name, package_name, model_uri, source_name); add them or drop model_uri");
  }
  if (given(scope.source_name) && !(given(scope.environment_name) && given(scope.package_name) && given(scope.model_uri))) {
    throw new ValidationError("source_name requires environment_name, package_name and model_uri (scope chain: environment_name, package_name, model_uri, source_name); add them or drop source_name");
  }
}

/** A row of {@link scopedVersions}: the latest version of a readable package. */
interface ScopedRow {
  versionUuid: string;
  indexStatus: string;
  versionId: string;
  updatedAt: Date;
  packageId: string;
  packageName: string;
  environmentName: string;
}

/**
 * The versions the caller may search in `organization` within `scope`
 * (optionally only packages shared with `workspace`). A NotFoundError when the
 * organization, or a named environment or package, does not exist or is not
 * readable by the caller.
 */
export async function scopedVersions(
  db: Db,
  principal: Principal,
  where: { organization: string; scope: SearchScope; workspace?: string },
): Promise<ScopedVersion[]> {
  const p = principalKey(principal);
  const env = where.scope.environment_name || null;
  const pkg = where.scope.package_name || null;
  const ws = where.workspace || null;
  const rows = await db<ScopedRow[]>`
    SELECT v.id AS "versionUuid", v.version_id AS "versionId", v.updated_at AS "updatedAt", v.index_status AS "indexStatus", pk.id AS "packageId",
           pk.name AS "packageName", e.name AS "environmentName"
      FROM organizations o
      JOIN environments e ON e.org_id = o.id
      JOIN packages pk ON pk.env_id = e.id
      JOIN LATERAL (${latestVersionOf(db)}) v ON true
     WHERE o.name = ${where.organization}
       AND (${env}::text IS NULL OR e.name = ${env})
       AND (${pkg}::text IS NULL OR pk.name = ${pkg})
       AND (${ws}::text IS NULL OR EXISTS (
             SELECT 1 FROM grants g JOIN workspaces w ON w.id = g.principal_id
              WHERE g.principal_kind = 'workspace' AND g.resource_kind = 'package' AND g.resource_id = pk.id
                AND NOT g.pending AND w.org_id = o.id AND w.name = ${ws}))
       AND effective_rank(${p.kind}, ${p.id}::uuid, 'package', pk.id) >= 1
     ORDER BY e.name, pk.name`;
  if (rows.length === 0) await explainEmpty(db, principal, where);
  const access = await retrievalAccess(db, principal, rows.map((r) => r.versionUuid));
  return rows.map(({ updatedAt, ...r }) => ({
    ...r,
    stamp: updatedAt.toISOString(),
    ...(access.has(r.versionUuid) ? { access: access.get(r.versionUuid) } : {}),
  }));
}

/** Throws the NotFoundError that says what was not found, when something named is missing or unreadable. */
async function explainEmpty(db: Db, principal: Principal, where: { organization: string; scope: SearchScope; workspace?: string }): Promise<void> {
  const p = principalKey(principal);
  const org = await findOrganization(db, where.organization, principal);
  if (!org || org.rank < 1) throw new NotFoundError(`organization '${where.organization}' not found`);
  const { environment_name: env, package_name: pkg } = where.scope;
  if (pkg) throw new NotFoundError(`package '${pkg}' not found in environment '${env}' of organization '${where.organization}', it has no unarchived version, or you cannot read it`);
  if (env) {
    const [e] = await db`SELECT id FROM environments WHERE org_id = ${org.id} AND name = ${env}
                          AND effective_rank(${p.kind}, ${p.id}::uuid, 'environment', id) >= 1`;
    if (!e) throw new NotFoundError(`environment '${env}' not found in organization '${where.organization}'`);
  }
}

interface CacheEntry {
  stamp: string;
  records: StoredEntity[];
}

const CACHE_LIMIT = 256;
const cache = new Map<string, CacheEntry>();

/**
 * The entity records of the scoped versions, restricted to `model_uri` and
 * `source_name` when given. Record ids are `model_entities` ids (what the
 * vector search returns). The array may be shared with later calls: do not
 * modify it.
 */
export async function scopedEntities(db: Db, versions: readonly ScopedVersion[], scope: SearchScope = {}): Promise<StoredEntity[]> {
  const out: StoredEntity[] = [];
  const stale = versions.filter((v) => cache.get(v.versionUuid)?.stamp !== v.stamp);
  if (stale.length > 0) await loadVersions(db, stale);
  // One version, unfiltered: the cached array itself (read-only), so what ranking memoizes per array is reused.
  if (versions.length === 1 && !scope.model_uri && !scope.source_name && !versions[0]!.access) {
    const entry = cache.get(versions[0]!.versionUuid);
    if (entry) return entry.records;
  }
  // The same versions and scope as a recent call: the same array (ranking memoizes per array).
  // What the caller may see is part of the key: two callers with different access never share an array.
  const key = JSON.stringify([versions.map((v) => `${v.versionUuid}@${v.stamp}${accessKey(v.access)}`), scope.model_uri ?? "", scope.source_name ?? ""]);
  const combined = combinedCache.get(key);
  if (combined) {
    combinedCache.delete(key);
    combinedCache.set(key, combined);
    return combined;
  }
  for (const v of versions) {
    const entry = cache.get(v.versionUuid);
    if (!entry) continue;
    cache.delete(v.versionUuid);
    cache.set(v.versionUuid, entry);
    for (const r of entry.records) {
      if (scope.model_uri && r.modelPath !== scope.model_uri) continue;
      if (scope.source_name && r.sourceName !== scope.source_name) continue;
      const key = `${r.modelPath}#${r.sourceName}`;
      // row-level security: sources the caller may not query are hidden, bound sources show no values
      if (v.access?.hidden.has(key)) continue;
      // and named queries that reach such a source, whatever source they start from
      if (r.kind === "query" && v.access?.hiddenQueries.has(`${r.modelPath}#${r.name}`)) continue;
      if (r.values && v.access?.noValues.has(key)) {
        const { values: _v, indexedValues: _i, ...bare } = r;
        out.push(bare);
        continue;
      }
      out.push(r);
    }
  }
  combinedCache.set(key, out);
  while (combinedCache.size > COMBINED_LIMIT) combinedCache.delete(combinedCache.keys().next().value!);
  return out;
}

/** The part of a cache key that says what a caller may not see of a version. */
function accessKey(access: VersionAccess | undefined): string {
  if (!access) return "";
  return `:hidden=${[...access.hidden].sort().join(",")};noValues=${[...access.noValues].sort().join(",")};queries=${[...access.hiddenQueries].sort().join(",")}`;
}

const COMBINED_LIMIT = 32;
const combinedCache = new Map<string, StoredEntity[]>();

/** An indexed entity as {@link loadVersions} reads it (the vector as pgvector text). */
interface EntityRow {
  id: string;
  version: string;
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

async function loadVersions(db: Db, versions: readonly ScopedVersion[]): Promise<void> {
  const uuids = versions.map((v) => v.versionUuid);
  const rows = await db<EntityRow[]>`
    SELECT me.id, me.version, me.model_path AS "modelPath", me.kind, me.field_type AS "fieldType", me.path, me.source_name AS "sourceName",
           me.data_type AS "dataType", me.description, ee.text, ee.lexical_terms AS "lexicalTerms",
           ee.indexed_values AS "indexedValues", ee.model, ee.embedding::text AS embedding
      FROM model_entities me JOIN entity_embeddings ee ON ee.entity_id = me.id
     WHERE me.version = ANY(${uuids}::uuid[])`;
  const byVersion = new Map<string, StoredEntity[]>();
  for (const v of versions) byVersion.set(v.versionUuid, []);
  const origin = new Map(versions.map((v) => [v.versionUuid, { environmentName: v.environmentName, packageName: v.packageName, versionId: v.versionId }]));
  for (const r of rows) {
    const values = r.indexedValues;
    const kind = r.kind;
    const vector = vectorFromSql(r.embedding);
    byVersion.get(r.version)!.push({
      id: r.id,
      kind,
      name: r.path,
      sourceName: r.sourceName ?? "",
      modelPath: r.modelPath,
      fieldType: kind === "dimension" && r.fieldType === "column" ? "column" : kind,
      dataType: r.dataType ?? kind,
      ...(r.description ? { description: r.description } : {}),
      text: r.text,
      lexicalTerms: r.lexicalTerms,
      ...(values && values.length > 0 ? { values: values.map((v) => v.value), indexedValues: values } : {}),
      ...(vector && r.model ? { vector, vectorModel: r.model } : {}),
      origin: origin.get(r.version)!,
    });
  }
  // Versions not indexed yet: lexical records from their stored metadata.
  const unindexed = versions.filter((v) => byVersion.get(v.versionUuid)!.length === 0);
  if (unindexed.length > 0) await fromMetadata(db, unindexed, byVersion, origin);
  for (const v of versions) {
    cache.set(v.versionUuid, { stamp: v.stamp, records: byVersion.get(v.versionUuid)! });
    while (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  }
}

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
