/**
 * SQL of packages and of their stored archives (content-addressed blobs).
 * @module
 */
import type { Db } from "../db/database.ts";
import { ValidationError } from "../errors.ts";
import { principalKey, type Principal } from "../access/principal.ts";
import { roleName } from "../access/roles.ts";
import { deleteOrphanBlobs } from "../archives/store.ts";
import { latestVersionOf } from "../versions/store.ts";
import { lockRunsBeforeDelete } from "../db/lock_order.ts";

/** A package as the API shows it. */
export interface PackageView {
  name: string;
  description: string;
  /** The latest version's id (`1.2.3`), `null` when none is unarchived. */
  latestVersion: string | null;
  createdAt: string;
  updatedAt: string;
  /** Index status of the latest version (`unknown` without one). */
  indexStatus: string;
  /** Environment of the package (in organization-wide lists). */
  environmentName?: string;
  /** The caller's role on the package: admin, modeler or viewer. */
  permission?: string | null;
  /** Other metadata of the `package` part of the last publish or PATCH. */
  metadata?: Record<string, unknown>;
}

/** A package row with ids and the caller's rank. */
export interface PackageRow extends PackageView {
  id: string;
  envId: string;
  rank: number;
}

/** A package as {@link withLatest} reads it (columns named as the fields). */
interface PackageRecord {
  id: string;
  envId: string;
  name: string;
  description: string;
  latestVersion: string | null;
  createdAt: Date;
  updatedAt: Date;
  indexStatus: string | null;
  environmentName: string;
  metadata: Record<string, unknown> | null;
  rank: number | null;
}

/** The row of a package; `environmentName` only for organization-wide lists. */
function toPackage(r: PackageRecord, options: { withEnvironment: boolean }): PackageRow {
  const rank = Number(r.rank ?? 0);
  return {
    id: r.id,
    envId: r.envId,
    name: r.name,
    description: r.description,
    latestVersion: r.latestVersion ?? null,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    indexStatus: r.indexStatus ?? "unknown",
    ...(options.withEnvironment && r.environmentName ? { environmentName: r.environmentName } : {}),
    metadata: r.metadata ?? {},
    permission: roleName("package", rank),
    rank,
  };
}

/** Strips ids and rank for responses. */
export function packageView(p: PackageRow): PackageView {
  const { id: _i, envId: _e, rank: _r, ...view } = p;
  return view;
}

function withLatest(db: Db, principal: Principal) {
  const p = principalKey(principal);
  return db`
    SELECT pk.id, pk.env_id AS "envId", pk.name, pk.description, lv.version_id AS "latestVersion",
           pk.created_at AS "createdAt", pk.updated_at AS "updatedAt", lv.index_status AS "indexStatus",
           e.name AS "environmentName", pk.metadata, effective_rank(${p.kind}, ${p.id}::uuid, 'package', pk.id) AS rank
      FROM packages pk JOIN environments e ON e.id = pk.env_id
      LEFT JOIN LATERAL (${latestVersionOf(db)}) lv ON true`;
}

/** A package of an environment by name with the caller's rank on it. */
export async function findPackage(db: Db, principal: Principal, where: { envId: string; name: string }): Promise<PackageRow | null> {
  const [r] = await db<PackageRecord[]>`SELECT * FROM (${withLatest(db, principal)}) x WHERE "envId" = ${where.envId} AND name = ${where.name}`;
  return r ? toPackage(r, { withEnvironment: false }) : null;
}

/** Packages of an environment the caller can read, by name, keyset-paged. */
export async function listPackages(db: Db, principal: Principal, page: { envId: string; limit: number; after?: string }): Promise<PackageRow[]> {
  const rows = await db<PackageRecord[]>`SELECT * FROM (${withLatest(db, principal)}) x
                         WHERE "envId" = ${page.envId} AND name > ${page.after ?? ""} AND rank >= 1
                         ORDER BY name LIMIT ${page.limit + 1}`;
  return rows.map((r) => toPackage(r, { withEnvironment: false }));
}

/** Packages of an organization where the caller's rank is at least `minRank`, by environment and name. */
export async function listOrganizationPackages(
  db: Db,
  principal: Principal,
  page: { orgId: string; minRank: number; limit: number; after?: string },
): Promise<PackageRow[]> {
  const rows = await db<PackageRecord[]>`SELECT x.* FROM (${withLatest(db, principal)}) x JOIN environments e ON e.id = x."envId"
                         WHERE e.org_id = ${page.orgId} AND x.rank >= ${page.minRank}
                           AND (x."environmentName" || '/' || x.name) > ${page.after ?? ""}
                         ORDER BY x."environmentName" || '/' || x.name LIMIT ${page.limit + 1}`;
  return rows.map((r) => toPackage(r, { withEnvironment: true }));
}

/** Creates the package row on first publish (no-op when it exists); returns its id and whether it was created. */
export async function ensurePackage(
  db: Db,
  pkg: { envId: string; name: string; description?: string; metadata: Record<string, unknown>; createdBy: string | null },
): Promise<{ id: string; created: boolean }> {
  checkDescription(pkg.description);
  const [size] = await db<{ n: number }[]>`SELECT octet_length(jsonb_strip_nulls(${db.json(pkg.metadata as never)}::jsonb)::text) AS n`;
  if (size!.n > MAX_METADATA_BYTES) throw metadataTooLarge(size!.n);
  const [created] = await db<{ id: string }[]>`
    INSERT INTO packages (env_id, name, description, metadata, created_by)
    VALUES (${pkg.envId}, ${pkg.name}, ${pkg.description ?? ""}, ${db.json(pkg.metadata as never)}, ${pkg.createdBy})
    ON CONFLICT (env_id, name) DO NOTHING RETURNING id`;
  if (created) {
    if (pkg.createdBy) {
      await db`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
               VALUES ('package', ${created.id}, 'user', ${pkg.createdBy}, 'admin') ON CONFLICT DO NOTHING`;
    }
    return { id: created.id, created: true };
  }
  const [r] = await db<{ id: string }[]>`SELECT id FROM packages WHERE env_id = ${pkg.envId} AND name = ${pkg.name}`;
  return { id: r!.id, created: false };
}

/**
 * Most bytes of a package's metadata (its JSON text, all fields together).
 * Each PATCH or publish adds fields to what is stored, and every package
 * listing carries it, so the sum is what must be bounded, not each body.
 */
const MAX_METADATA_BYTES = 64 * 1024;

/** Most characters of a package's description, however it arrives (PATCH, the `package` part, publisher.json). */
const MAX_DESCRIPTION_CHARS = 4000;

function checkDescription(description: string | undefined): void {
  if (description !== undefined && description.length > MAX_DESCRIPTION_CHARS) {
    throw new ValidationError(`package description has ${description.length} characters, more than the limit of ${MAX_DESCRIPTION_CHARS}; shorten it`);
  }
}

function metadataTooLarge(bytes: number): ValidationError {
  return new ValidationError(`package metadata would take ${bytes} bytes, more than the limit of ${MAX_METADATA_BYTES} bytes; ` +
    "remove fields (set them to null) or keep large documents in the package's files");
}

/**
 * Applies metadata changes: `description` and other fields (merged; null
 * removes one). 400 when the merged metadata would pass {@link MAX_METADATA_BYTES}
 * (checked in the same statement, so concurrent changes cannot add up past it).
 */
export async function updatePackage(db: Db, id: string, patch: { description?: string; metadata?: Record<string, unknown> }): Promise<void> {
  checkDescription(patch.description);
  const changes = db.json((patch.metadata ?? {}) as never);
  const updated = await db`UPDATE packages SET
             description = coalesce(${patch.description ?? null}, description),
             metadata = jsonb_strip_nulls(metadata || ${changes}),
             updated_at = now()
           WHERE id = ${id} AND octet_length(jsonb_strip_nulls(metadata || ${changes})::text) <= ${MAX_METADATA_BYTES}
           RETURNING id`;
  if (updated.length > 0) return;
  const [size] = await db<{ n: number }[]>`SELECT octet_length(jsonb_strip_nulls(metadata || ${changes})::text) AS n FROM packages WHERE id = ${id}`;
  if (size) throw metadataTooLarge(size.n);
}

/** Deletes a package with its versions and metadata, and archives no version uses any more. */
export async function deletePackage(db: Db, id: string): Promise<void> {
  await lockRunsBeforeDelete(db, { packageId: id });
  await db`DELETE FROM packages WHERE id = ${id}`;
  await deleteOrphanBlobs(db);
}
