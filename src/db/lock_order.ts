/**
 * The order in which transactions lock the rows of a package's build queue,
 * so that two of them never wait on each other (a deadlock, which PostgreSQL
 * ends by failing one of them).
 *
 * Writers of a run lock its `runs` row before the version's
 * `package_versions` row (claimRun, finishRun and requestCancel in
 * src/runs/store.ts). A delete of a package, an environment or an
 * organization reaches both tables through cascades whose order is the
 * order of the foreign-key triggers, versions first; so it locks the runs it
 * will delete first, in one order (by id), and only then deletes.
 * @module
 */
import type { Db } from "./database.ts";

/** What a delete removes: one package, every package of an environment, or of an organization. */
export type DeleteScope = { packageId: string } | { envId: string } | { orgId: string };

/**
 * Locks, in a transaction about to delete `scope`, the runs it will delete
 * (ordered by id), before the cascade locks their versions.
 */
export async function lockRunsBeforeDelete(tx: Db, scope: DeleteScope): Promise<void> {
  if ("packageId" in scope) {
    await tx`SELECT id FROM runs WHERE package_id = ${scope.packageId} ORDER BY id FOR UPDATE`;
  } else if ("envId" in scope) {
    await tx`SELECT r.id FROM runs r JOIN packages p ON p.id = r.package_id
              WHERE p.env_id = ${scope.envId} ORDER BY r.id FOR UPDATE OF r`;
  } else {
    await tx`SELECT r.id FROM runs r JOIN packages p ON p.id = r.package_id JOIN environments e ON e.id = p.env_id
              WHERE e.org_id = ${scope.orgId} ORDER BY r.id FOR UPDATE OF r`;
  }
}
