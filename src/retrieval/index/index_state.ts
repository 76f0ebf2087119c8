/**
 * Whether a `get_context` scope is fully indexed, so an answer says when it
 * comes from half an index: `indexing` (with progress: versions indexed, the
 * units of their runs done), `index_failed` (with the reason), `not_indexed`
 * (a version no run has indexed: `INDEX_ON_PUBLISH=false`), or `ready`.
 *
 * A failed run's error may quote rows of the source its unit was built from,
 * so the reason carries it only when the caller may read that source's values
 * (the runs API's rule): not for an `#(authorize)` source outside the
 * caller's groups, nor a `#(bind)` source.
 *
 * @module
 */
import type { Db } from "../../db/database.ts";
import type { ScopedVersion } from "./scoped_entities.ts";

/** The index state of a scope, as the `get_context` answer carries it. */
export interface IndexState {
  status: "ready" | "indexing" | "index_failed" | "not_indexed";
  /** While `indexing`: how far the scope's versions are. */
  progress?: {
    versions_indexed: number;
    versions_total: number;
    /** Units (tables, indexes) of the running or queued runs, done and in all. */
    units_done: number;
    units_total: number;
    /** The versions not indexed yet: `environment/package@version`. */
    indexing: string[];
  };
  /** Why the scope is not fully indexed (failed or never indexed versions), and what to do. */
  reason?: string;
}

/** Versions named in a reason at most. */
const NAMED = 5;

/** A version as a reader names it. */
function label(v: ScopedVersion): string {
  return `${v.environmentName}/${v.packageName}@${v.versionId}`;
}

/**
 * The index state of `versions` (what the caller may search). Reads runs
 * only when some version is not indexed.
 *
 * @example
 * const state = await scopeIndexState(sql, versions); // { status: "ready" }
 */
export async function scopeIndexState(db: Db, versions: readonly ScopedVersion[]): Promise<IndexState> {
  const notIndexed = versions.filter((v) => v.indexStatus !== "indexed");
  if (notIndexed.length === 0) return { status: "ready" };
  const uuids = notIndexed.map((v) => v.versionUuid);
  const active = await db<{ version: string; done: number; total: number }[]>`
    SELECT r.version, count(u.position) FILTER (WHERE u.state NOT IN ('queued', 'running'))::int AS done, count(u.position)::int AS total
      FROM runs r LEFT JOIN run_units u ON u.run = r.id
     WHERE r.version = ANY(${uuids}::uuid[]) AND r.state IN ('queued', 'running')
     GROUP BY r.id, r.version`;
  const running = new Map<string, { done: number; total: number }>();
  for (const r of active) {
    const seen = running.get(r.version) ?? { done: 0, total: 0 };
    running.set(r.version, { done: seen.done + r.done, total: seen.total + r.total });
  }
  const indexing = notIndexed.filter((v) => v.indexStatus === "indexing" || running.has(v.versionUuid));
  const failed = notIndexed.filter((v) => v.indexStatus === "failed" && !running.has(v.versionUuid));
  const never = notIndexed.filter((v) => v.indexStatus === "unknown" && !running.has(v.versionUuid));
  const reasons: string[] = [];
  if (failed.length > 0) reasons.push(await failureReason(db, failed));
  if (never.length > 0) {
    reasons.push(`${never.slice(0, NAMED).map(label).join(", ")}${never.length > NAMED ? ` and ${never.length - NAMED} more` : ""} ${never.length === 1 ? "has" : "have"} not been indexed (no run built ${never.length === 1 ? "it" : "them"}; start one with POST .../versions/{versionId}/runs): searched by names and docs only, without indexed values`);
  }
  const reason = reasons.length > 0 ? { reason: reasons.join("; ") } : {};
  if (indexing.length > 0) {
    let done = 0;
    let total = 0;
    for (const v of indexing) {
      done += running.get(v.versionUuid)?.done ?? 0;
      total += running.get(v.versionUuid)?.total ?? 0;
    }
    return {
      status: "indexing",
      progress: {
        versions_indexed: versions.length - notIndexed.length,
        versions_total: versions.length,
        units_done: done,
        units_total: total,
        indexing: indexing.map(label),
      },
      ...reason,
    };
  }
  return { status: failed.length > 0 ? "index_failed" : "not_indexed", ...reason };
}

/** What failed in the latest failed run of each version, as far as the caller may read it. */
async function failureReason(db: Db, failed: readonly ScopedVersion[]): Promise<string> {
  const rows = await db<{ version: string; error: string | null; target: string | null; modelPath: string | null; sourceName: string | null }[]>`
    SELECT DISTINCT ON (r.version) r.version, r.error, f.target, f.model_path AS "modelPath", f.source_name AS "sourceName"
      FROM runs r LEFT JOIN run_units f ON f.run = r.id AND f.position = r.failed_unit
     WHERE r.version = ANY(${failed.map((v) => v.versionUuid)}::uuid[]) AND r.state = 'failed'
     ORDER BY r.version, r.created_at DESC`;
  const byVersion = new Map(rows.map((r) => [r.version, r]));
  const parts = failed.slice(0, NAMED).map((v) => {
    const run = byVersion.get(v.versionUuid);
    if (!run) return `${label(v)} failed to index`;
    const key = run.modelPath !== null && run.sourceName !== null ? `${run.modelPath}#${run.sourceName}` : null;
    const withheld = key !== null && (v.access?.hidden.has(key) || v.access?.noValues.has(key));
    if (withheld) return `${label(v)} failed to index: a unit built from a source you may not query failed (its error is not shown to you)`;
    return `${label(v)} failed to index${run.error ? `: ${run.error}` : ""}`;
  });
  if (failed.length > NAMED) parts.push(`and ${failed.length - NAMED} more`);
  return `${parts.join("; ")}. Answers use what was built (the other indexes serve); start a new run of the version once the cause is fixed`;
}
