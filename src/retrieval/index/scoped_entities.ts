/**
 * What a retrieval request may search: the latest unarchived version of each
 * package in scope that the caller can read (`effective_rank(...) >= 1`,
 * sql/002_access.sql, computed for all of an organization's packages at once
 * by `readable_packages`, sql/197_readable_packages.sql), and the entity
 * records of those versions.
 *
 * Records are read from `entity_embeddings` once per version and index state
 * and kept in a per-process cache that follows use (entity_cache.ts). A
 * version not indexed yet is searched lexically from its stored model
 * metadata.
 *
 * @module
 */
import type { Db } from "../../db/database.ts";
import { principalKey, type Principal } from "../../access/principal.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import { findOrganization } from "../../organizations/store.ts";
import { latestVersionOf } from "../../versions/store.ts";
import { combinedRecords, keepCombined, type ScopedVersion, type StoredEntity, versionRecords } from "./entity_cache.ts";
import { retrievalAccess, type VersionAccess } from "../../rls/visibility.ts";

export type { ScopedVersion, StoredEntity };

/** A search scope, as the MCP tool's arguments name it. */
export interface SearchScope {
  environment_name?: string;
  package_name?: string;
  model_uri?: string;
  source_name?: string;
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
      -- the caller's readable packages in one statement (sql/197_readable_packages.sql), not effective_rank per package
      JOIN readable_packages(${p.kind}, ${p.id}::uuid, o.id) r ON r.package_id = pk.id
      JOIN LATERAL (${latestVersionOf(db)}) v ON true
     WHERE o.name = ${where.organization}
       AND (${env}::text IS NULL OR e.name = ${env})
       AND (${pkg}::text IS NULL OR pk.name = ${pkg})
       AND (${ws}::text IS NULL OR EXISTS (
             SELECT 1 FROM grants g JOIN workspaces w ON w.id = g.principal_id
              WHERE g.principal_kind = 'workspace' AND g.resource_kind = 'package' AND g.resource_id = pk.id
                AND NOT g.pending AND w.org_id = o.id AND w.name = ${ws}))
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

/**
 * The entity records of the scoped versions, restricted to `model_uri` and
 * `source_name` when given. Record ids are `model_entities` ids (what the
 * vector search returns). The array may be shared with later calls: do not
 * modify it.
 */
export async function scopedEntities(db: Db, versions: readonly ScopedVersion[], scope: SearchScope = {}): Promise<StoredEntity[]> {
  const recordsOf = await versionRecords(db, versions);
  // One version, unfiltered: the cached array itself (read-only), so what ranking memoizes per array is reused.
  if (versions.length === 1 && !scope.model_uri && !scope.source_name && !versions[0]!.access) {
    const records = recordsOf.get(versions[0]!.versionUuid);
    if (records) return records;
  }
  // The same versions and scope as a recent call: the same array (ranking memoizes per array).
  // What the caller may see is part of the key: two callers with different access never share an array.
  const key = JSON.stringify([versions.map((v) => `${v.versionUuid}@${v.stamp}${accessKey(v.access)}`), scope.model_uri ?? "", scope.source_name ?? ""]);
  const combined = combinedRecords(key);
  if (combined) return combined;
  const out: StoredEntity[] = [];
  for (const v of versions) {
    const records = recordsOf.get(v.versionUuid);
    if (!records) continue;
    for (const r of records) {
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
  keepCombined(key, out, versions.map((v) => v.versionUuid));
  return out;
}

/** The part of a cache key that says what a caller may not see of a version. */
function accessKey(access: VersionAccess | undefined): string {
  if (!access) return "";
  return `:hidden=${[...access.hidden].sort().join(",")};noValues=${[...access.noValues].sort().join(",")};queries=${[...access.hiddenQueries].sort().join(",")}`;
}
