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
 *
 * A lock order covers the paths we know; {@link beginRetrying} covers the
 * rest: a transaction PostgreSQL ended as a deadlock victim (40P01) or as a
 * serialization failure (40001) changed nothing, so it is run again.
 * @module
 */
import type { Db, Sql } from "./database.ts";

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

/** SQLSTATEs of a transaction that was rolled back whole and may simply be run again. */
const RETRYABLE = new Set(["40P01", "40001"]);

/**
 * Runs `work` in one transaction; when PostgreSQL ends it as a deadlock victim
 * or a serialization failure (nothing of it was written), runs it again, up to
 * `attempts` times in all, after a short random pause.
 */
export async function beginRetrying<T>(sql: Sql, work: (tx: Db) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await sql.begin((tx) => work(tx))) as T;
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code;
      if (attempt >= attempts || typeof code !== "string" || !RETRYABLE.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt));
    }
  }
}
