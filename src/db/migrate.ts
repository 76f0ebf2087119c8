/**
 * Applies the numbered SQL files of `sql/` once each, in order, inside one
 * transaction that holds an advisory lock, so concurrent starts migrate once.
 * @module
 */
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import type { Sql } from "./database.ts";

/** Directory of the numbered migrations. */
export const MIGRATIONS_DIR = join(import.meta.dir, "..", "..", "sql");

/** Arbitrary constant identifying this service's migration lock. */
const LOCK_KEY = 727_001;

/** Options of {@link migrate}. */
export interface MigrateOptions {
  dir?: string;
}

/** Applies pending migrations; returns the names it applied. */
export async function migrate(sql: Sql, options: MigrateOptions = {}): Promise<string[]> {
  const dir = options.dir ?? MIGRATIONS_DIR;
  const files = (await readdir(dir)).filter((f) => /^\d+_.*\.sql$/.test(f)).sort();
  return await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${LOCK_KEY})`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
    const done = new Set((await tx`SELECT name FROM schema_migrations`).map((r) => r.name as string));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.unsafe(await Bun.file(join(dir, file)).text());
      await tx`INSERT INTO schema_migrations (name) VALUES (${file})`;
      applied.push(file);
    }
    return applied;
  });
}
