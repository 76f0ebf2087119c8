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

/**
 * A log row as {@link listEntries} reads it: the bigint id comes as a string,
 * `boundAttributes` (jsonb) as text on drivers that do not parse it.
 */
interface LogRecord extends Omit<QueryLogView, "id" | "at" | "boundAttributes"> {
  id: string | number;
  at: Date;
  boundAttributes: string[] | string;
}

function toView(r: LogRecord): QueryLogView {
  return {
    id: String(r.id),
    at: r.at.toISOString(),
    principal: r.principal,
    via: r.via,
    environmentName: r.environmentName,
    packageName: r.packageName,
    versionId: r.versionId,
    modelPath: r.modelPath,
    query: r.query,
    queryName: r.queryName,
    sourceName: r.sourceName,
    boundAttributes: typeof r.boundAttributes === "string" ? JSON.parse(r.boundAttributes) : r.boundAttributes,
    rows: r.rows === null ? null : Number(r.rows),
    ms: Number(r.ms),
    status: r.status,
    error: r.error,
  };
}

/** The organization's entries, newest first (`limit + 1` rows). */
export async function listEntries(db: Db, orgId: string, options: ListOptions): Promise<QueryLogView[]> {
  const rows = await db<LogRecord[]>`
    SELECT id, at, principal, via, environment_name AS "environmentName", package_name AS "packageName",
           version_id AS "versionId", model_path AS "modelPath", query, query_name AS "queryName",
           source_name AS "sourceName", bound_attributes AS "boundAttributes", rows, ms, status, error
      FROM query_log
     WHERE org_id = ${orgId}
       AND (${options.before ?? null}::bigint IS NULL OR id < ${options.before ?? null}::bigint)
       AND (${options.principal ?? null}::text IS NULL OR principal = ${options.principal ?? null})
       AND (${options.packageName ?? null}::text IS NULL OR package_name = ${options.packageName ?? null})
       AND (${options.status ?? null}::text IS NULL OR status = ${options.status ?? null})
     ORDER BY id DESC
     LIMIT ${options.limit + 1}`;
  return rows.map(toView);
}

/** Deletes entries older than `days` days; answers how many. */
export async function pruneEntries(db: Db, days: number): Promise<number> {
  const result = await db`DELETE FROM query_log WHERE at < now() - make_interval(days => ${days})`;
  return result.count;
}
