/**
 * SQL of environments, and the lookup every environment-scoped route starts with.
 * @module
 */
import { ForbiddenError, NotFoundError } from "../errors.ts";
import type { Db } from "../db/database.ts";
import { principalKey, type Principal } from "../access/principal.ts";
import { roleName } from "../access/roles.ts";
import { lockRunsBeforeDelete } from "../db/lock_order.ts";
import { deleteOrphanBlobs } from "../archives/store.ts";

/** An environment as the API shows it. */
export interface EnvironmentView {
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
  /** The caller's role here: admin, modeler or viewer. */
  permission?: string | null;
}

/** An environment row with its ids and the caller's rank. */
export interface EnvironmentRow extends EnvironmentView {
  id: string;
  orgId: string;
  rank: number;
}

/** An environment as {@link envColumns} reads it, with the caller's rank where the query computes it. */
interface EnvironmentRecord {
  id: string;
  orgId: string;
  name: string;
  description: string;
  createdAt: Date;
  updatedAt: Date;
  rank?: number | null;
}

/** The columns of {@link EnvironmentRecord} but `rank`, from the environment row aliased `e`. */
function envColumns(db: Db) {
  return db`e.id, e.org_id AS "orgId", e.name, e.description, e.created_at AS "createdAt", e.updated_at AS "updatedAt"`;
}

function toEnv(r: EnvironmentRecord): EnvironmentRow {
  const rank = Number(r.rank ?? 0);
  return {
    id: r.id,
    orgId: r.orgId,
    name: r.name,
    description: r.description,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
    permission: roleName("environment", rank),
    rank,
  };
}

/** Strips ids and rank for responses. */
export function environmentView(e: EnvironmentRow): EnvironmentView {
  return { name: e.name, description: e.description, createdAt: e.createdAt, updatedAt: e.updatedAt, permission: e.permission };
}

/** Finds an environment of an organization by name with the caller's rank on it. */
async function findEnvironment(db: Db, principal: Principal, where: { orgId: string; name: string }): Promise<EnvironmentRow | null> {
  const p = principalKey(principal);
  const [r] = await db<EnvironmentRecord[]>`
    SELECT ${envColumns(db)}, effective_rank(${p.kind}, ${p.id}::uuid, 'environment', e.id) AS rank
      FROM environments e WHERE e.org_id = ${where.orgId} AND e.name = ${where.name}`;
  return r ? toEnv(r) : null;
}

/** Options of {@link requireEnvironment}. */
export interface RequireEnvironmentOptions {
  /** Rank the operation needs (1 read, 2 modeler, 3 admin). */
  need: number;
  /**
   * Treat the environment as visible when the caller can read any package in
   * it (a package grant without an environment grant).
   */
  visibleThroughPackages?: boolean;
}

/**
 * The environment `{org}/{env}` when the caller may act on it: 404 when it does
 * not exist or is invisible, 403 when visible but the rank is too low.
 */
export async function requireEnvironment(
  db: Db,
  principal: Principal,
  where: { orgId: string; name: string } & RequireEnvironmentOptions,
): Promise<EnvironmentRow> {
  const env = await findEnvironment(db, principal, where);
  let visible = !!env && env.rank >= 1;
  let throughPackages = false;
  if (env && !visible && where.visibleThroughPackages) {
    const p = principalKey(principal);
    const [r] = await db`SELECT 1 FROM packages pk WHERE pk.env_id = ${env.id}
      AND effective_rank(${p.kind}, ${p.id}::uuid, 'package', pk.id) >= 1 LIMIT 1`;
    visible = throughPackages = !!r;
  }
  if (!env || !visible) throw new NotFoundError(`environment '${where.name}' not found`);
  if (env.rank < where.need && !(throughPackages && where.need <= 1)) {
    throw new ForbiddenError(
      `environment '${where.name}': this operation needs the ${roleName("environment", where.need)} role; you have ${env.permission ?? "no role"}`,
    );
  }
  return env;
}

/** Environments of an organization the caller can read, by name, keyset-paged. */
export async function listEnvironments(db: Db, principal: Principal, page: { orgId: string; limit: number; after?: string }): Promise<EnvironmentRow[]> {
  const p = principalKey(principal);
  const rows = await db<EnvironmentRecord[]>`
    SELECT * FROM (
      SELECT ${envColumns(db)}, effective_rank(${p.kind}, ${p.id}::uuid, 'environment', e.id) AS rank
        FROM environments e WHERE e.org_id = ${page.orgId} AND e.name > ${page.after ?? ""}) x
     WHERE rank >= 1 ORDER BY name LIMIT ${page.limit + 1}`;
  return rows.map(toEnv);
}

/** Every environment the caller can read, in any organization, by organization and name (`/status`). */
export async function readableEnvironments(db: Db, principal: Principal): Promise<{ organizationName: string; name: string }[]> {
  const p = principalKey(principal);
  return await db<{ organizationName: string; name: string }[]>`
    SELECT o.name AS "organizationName", e.name FROM environments e JOIN organizations o ON o.id = e.org_id
     WHERE effective_rank(${p.kind}, ${p.id}::uuid, 'environment', e.id) >= 1
     ORDER BY o.name, e.name`;
}

/** Inserts an environment; a creating user becomes its admin (caller's transaction). */
export async function insertEnvironment(
  db: Db,
  env: { orgId: string; name: string; description?: string },
  options: { creatorUserId?: string | null } = {},
): Promise<EnvironmentRow> {
  const [r] = await db<EnvironmentRecord[]>`
    INSERT INTO environments AS e (org_id, name, description) VALUES (${env.orgId}, ${env.name}, ${env.description ?? ""})
    RETURNING ${envColumns(db)}, 3 AS rank`;
  if (options.creatorUserId) {
    await db`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
             VALUES ('environment', ${r!.id}, 'user', ${options.creatorUserId}, 'admin')`;
  }
  return toEnv(r!);
}

/** Applies a partial update (only provided fields change). */
export async function updateEnvironment(db: Db, env: EnvironmentRow, patch: { description?: string }): Promise<EnvironmentRow> {
  const [r] = await db<EnvironmentRecord[]>`
    UPDATE environments AS e SET description = coalesce(${patch.description ?? null}, description), updated_at = now()
     WHERE e.id = ${env.id} RETURNING ${envColumns(db)}`;
  return { ...toEnv(r!), rank: env.rank, permission: env.permission };
}

/**
 * Deletes an environment with its packages, versions, connections (cascades)
 * and the archives no version refers to any more. Run in one transaction.
 */
export async function deleteEnvironment(db: Db, envId: string): Promise<void> {
  await lockRunsBeforeDelete(db, { envId });
  await db`DELETE FROM environments WHERE id = ${envId}`;
  await deleteOrphanBlobs(db);
}

