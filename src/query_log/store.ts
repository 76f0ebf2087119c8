/**
 * SQL of the query log (sql/090_query_log.sql): batched inserts, the
 * organization's listing (newest first, keyset cursor on the id) and pruning.
 * @module
 */
import type { Db } from "../db/database.ts";

/** How a query arrived. */
export type QueryVia = "rest" | "mcp" | "app";

/** How a query ended: answered, failed, refused by access rules, or out of time. */
export type QueryStatus = "ok" | "error" | "refused" | "timeout";

/** One query, as recorded. */
export interface QueryLogEntry {
  orgId: string;
  at: Date;
  /** `user:<name>` or `group:<name>`. */
  principal: string;
  via: QueryVia;
  environmentName: string;
  packageName: string;
  versionId?: string;
  modelPath: string;
  query?: string;
  queryName?: string;
  sourceName?: string;
  boundAttributes: string[];
  rows?: number;
  ms: number;
  status: QueryStatus;
  error?: string;
}

/** A log row as `GET /organizations/{org}/query-log` shows it. */
export interface QueryLogView {
  id: string;
  at: string;
  principal: string;
  via: QueryVia;
  environmentName: string;
  packageName: string;
  versionId: string | null;
  modelPath: string;
  query: string | null;
  queryName: string | null;
  sourceName: string | null;
  boundAttributes: string[];
  rows: number | null;
  ms: number;
  status: QueryStatus;
  error: string | null;
}

/** Longest query text or error kept in a row. */
const MAX_TEXT = 10_000;

function clip(text: string | undefined): string | null {
  if (text === undefined) return null;
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;
}

/** Inserts entries in one statement. */
export async function insertEntries(db: Db, entries: readonly QueryLogEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((e) => ({
    org_id: e.orgId,
    at: e.at,
    principal: e.principal,
    via: e.via,
    environment_name: e.environmentName,
    package_name: e.packageName,
    version_id: e.versionId ?? null,
    model_path: e.modelPath,
    query: clip(e.query),
    query_name: e.queryName ?? null,
    source_name: e.sourceName ?? null,
    bound_attributes: JSON.stringify(e.boundAttributes),
    rows: e.rows ?? null,
    ms: Math.round(e.ms * 10) / 10,
    status: e.status,
    error: clip(e.error),
  }));
  await db`INSERT INTO query_log ${db(rows)}`;
}

/** Filters and page of {@link listEntries}. */
export interface ListOptions {
  limit: number;
  /** Id of the last row of the previous page. */
  before?: string;
  principal?: string;
  packageName?: string;
  status?: string;
}

/** The organization's entries, newest first (`limit + 1` rows). */
export async function listEntries(db: Db, orgId: string, options: ListOptions): Promise<QueryLogView[]> {
  const rows = await db`
    SELECT id, at, principal, via, environment_name, package_name, version_id, model_path, query, query_name,
           source_name, bound_attributes, rows, ms, status, error
      FROM query_log
     WHERE org_id = ${orgId}
       AND (${options.before ?? null}::bigint IS NULL OR id < ${options.before ?? null}::bigint)
       AND (${options.principal ?? null}::text IS NULL OR principal = ${options.principal ?? null})
       AND (${options.packageName ?? null}::text IS NULL OR package_name = ${options.packageName ?? null})
       AND (${options.status ?? null}::text IS NULL OR status = ${options.status ?? null})
     ORDER BY id DESC
     LIMIT ${options.limit + 1}`;
  return rows.map((r) => ({
    id: String(r.id),
    at: (r.at as Date).toISOString(),
    principal: r.principal as string,
    via: r.via as QueryVia,
    environmentName: r.environment_name as string,
    packageName: r.package_name as string,
    versionId: r.version_id as string | null,
    modelPath: r.model_path as string,
    query: r.query as string | null,
    queryName: r.query_name as string | null,
    sourceName: r.source_name as string | null,
    boundAttributes: (typeof r.bound_attributes === "string" ? JSON.parse(r.bound_attributes) : r.bound_attributes) as string[],
    rows: r.rows === null ? null : Number(r.rows),
    ms: Number(r.ms),
    status: r.status as QueryStatus,
    error: r.error as string | null,
  }));
}

/** Deletes entries older than `days` days; answers how many. */
export async function pruneEntries(db: Db, days: number): Promise<number> {
  const result = await db`DELETE FROM query_log WHERE at < now() - make_interval(days => ${days})`;
  return result.count;
}
