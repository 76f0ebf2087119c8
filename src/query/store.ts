/**
 * SQL of the query path: everything a query needs to know about its target
 * in one round trip (organization -> environment -> package -> the caller's
 * rank on it -> the version to run -> whether it has built
 * materializations -> the caller's attribute values the query will need),
 * read from one snapshot. Nothing is
 * cached here; the query runner (service.ts) keeps answers under the
 * generation of http/auth_cache.ts, which every table read here feeds
 * (sql/145, sql/160), so a revoked grant or an archived version counts on the
 * next query.
 * @module
 */
import type { Db } from "../db/database.ts";
import { principalKey, type Principal } from "../access/principal.ts";
import { latestVersionOf, type ArchiveStatus } from "../versions/store.ts";
import { decideRows, type EffectiveValue, effectiveRowsQuery, type Row } from "../attributes/effective.ts";

/** The version a query would run on. */
export interface TargetVersion {
  /** Row id (uuid): the compiled-model cache key. */
  uuid: string;
  /** Version id, e.g. `1.0.0`. */
  id: string;
  blobSha256: string;
  archiveStatus: ArchiveStatus;
  /** Whether any materialization of the version is built (read in the same statement). */
  hasMaterializations: boolean;
}

/** The package a query names, the caller's rank on it and the version to run. */
export interface QueryTarget {
  /** The organization of the package. */
  orgId: string;
  packageId: string;
  envId: string;
  packageName: string;
  /** The caller's effective rank on the package (0..3). */
  rank: number;
  /** The named version (any state), or the latest unarchived one; `null` when there is none. */
  version: TargetVersion | null;
  /** The caller's effective values of the attributes {@link TargetNames.attributes} named, read in the same statement. */
  effective?: EffectiveValue[];
}

/** Names of a query's target: `versionId` absent means the latest unarchived version. */
export interface TargetNames {
  org: string;
  env: string;
  pkg: string;
  versionId?: string;
  /**
   * Attributes whose effective values for the caller to read in the same
   * statement (those the same query needed last time), so a `#(bind)` query
   * needs no statement of its own.
   */
  attributes?: string[];
  /** The caller's rank on the package when already known (a cached decision): `effective_rank` is then not called. */
  rank?: number;
}

/** The row of {@link findQueryTarget}: the version columns are null when there is no version to run. */
interface TargetRecord {
  orgId: string;
  packageId: string;
  envId: string;
  packageName: string;
  rank: number | null;
  versionUuid: string | null;
  versionId: string;
  blobSha256: string;
  archiveStatus: ArchiveStatus;
  hasMaterializations: boolean | null;
  effective: Row[] | null;
}

/**
 * The package `org/env/pkg` with the caller's rank and the version a query
 * runs on, in one statement. `null` when the organization, environment or
 * package does not exist. The latest version is chosen by `latestVersionOf`
 * (versions/store.ts): the package's pinned latest when unarchived, else the
 * newest unarchived one.
 */
export async function findQueryTarget(db: Db, principal: Principal, names: TargetNames): Promise<QueryTarget | null> {
  const p = principalKey(principal);
  const which = names.versionId === undefined ? db`v.archive_status = 'unarchive'` : db`v.version_id = ${names.versionId}`;
  const attributes = names.attributes ?? [];
  const effective = attributes.length > 0
    ? db`(SELECT coalesce(jsonb_agg(to_jsonb(x)), '[]'::jsonb) FROM (${effectiveRowsQuery(db, p, { org: db`o.id`, names: attributes })}) x)`
    : db`NULL::jsonb`;
  const [r] = await db<TargetRecord[]>`
    SELECT o.id AS "orgId", pk.id AS "packageId", pk.env_id AS "envId", pk.name AS "packageName",
           ${names.rank === undefined ? db`effective_rank(${p.kind}, ${p.id}::uuid, 'package', pk.id)` : db`${names.rank}::int`} AS rank,
           v.id AS "versionUuid", v.version_id AS "versionId", v.blob_sha256 AS "blobSha256", v.archive_status AS "archiveStatus",
           EXISTS (SELECT 1 FROM materializations m
                    WHERE m.version = v.id AND m.sha256 IS NOT NULL AND m.built_at IS NOT NULL) AS "hasMaterializations",
           ${effective} AS effective
      FROM organizations o
      JOIN environments e ON e.org_id = o.id AND e.name = ${names.env}
      JOIN packages pk ON pk.env_id = e.id AND pk.name = ${names.pkg}
      LEFT JOIN LATERAL (${latestVersionOf(db, which)}) v ON true
     WHERE o.name = ${names.org}`;
  if (!r) return null;
  return {
    orgId: r.orgId,
    packageId: r.packageId,
    envId: r.envId,
    packageName: r.packageName,
    rank: Number(r.rank ?? 0),
    ...(r.effective ? { effective: decideRows(r.effective, p) } : {}),
    version: r.versionUuid
      ? {
        uuid: r.versionUuid,
        id: r.versionId,
        blobSha256: r.blobSha256,
        archiveStatus: r.archiveStatus,
        hasMaterializations: r.hasMaterializations === true,
      }
      : null,
  };
}

/**
 * The caller's rank on a workspace (by name, in the organization of the
 * target's environment) and whether the workspace was given the target's
 * package; `null` when there is no such workspace.
 */
export async function workspaceAccess(
  db: Db,
  principal: Principal,
  where: { target: Pick<QueryTarget, "packageId" | "envId">; workspace: string },
): Promise<{ rank: number; hasPackage: boolean } | null> {
  const p = principalKey(principal);
  const [row] = await db<{ rank: number | null; hasPackage: boolean }[]>`
    SELECT effective_rank(${p.kind}, ${p.id}::uuid, 'workspace', w.id) AS rank,
           EXISTS (SELECT 1 FROM grants g WHERE g.resource_kind = 'package' AND g.resource_id = ${where.target.packageId}
                      AND g.principal_kind = 'workspace' AND g.principal_id = w.id) AS "hasPackage"
      FROM workspaces w JOIN environments e ON e.org_id = w.org_id
     WHERE e.id = ${where.target.envId} AND w.name = ${where.workspace}`;
  return row ? { rank: Number(row.rank ?? 0), hasPackage: row.hasPackage } : null;
}
