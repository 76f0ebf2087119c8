/**
 * Enumerates the connection entities of an environment: the tables and
 * columns of its connections, and the data files of its packages.
 *
 * - postgres: `information_schema.columns` outside the system schemas, run
 *   through the Malloy connection's `runSQL`. Malloy's Postgres `runSQL`
 *   expects every row as one JSON column named `row` (it returns
 *   `rows[i].row`, so plain SQL gives `undefined` rows); the query is
 *   therefore wrapped in `SELECT row_to_json(q) AS row FROM (...) q`.
 * - duckdb (environment connections): `information_schema.columns`.
 * - package files (`.csv`, `.tsv`, `.parquet`, `.json`, `.jsonl`, `.ndjson`)
 *   (`publisher.json` excepted) of the latest version of each package the caller can read:
 *   `DESCRIBE SELECT * FROM '<absolute path>'` on the package's sandboxed
 *   DuckDB connection (`duckdb`, the name models use for package files).
 *   A version with `#(authorize)` or `#(bind)` sources lists its files only
 *   to the package's modelers and admins (those who may download its zip and
 *   query its connections directly): to others, a file's columns would
 *   describe data a rule keeps from them. The package is then reported in
 *   `skipped` (connection `duckdb`, with `package_name`).
 *
 * Other connection types are reported in `skipped` rather than guessed at;
 * a connection that fails is reported in `errors` and does not fail the rest.
 * @module
 */
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import type { Connection } from "@malloydata/malloy";
import { environmentConnection, listConnections, type ConnectionRow } from "../../connections/store.ts";
import { openPackageDuckDB } from "../../engine/duckdb/sandbox.ts";
import { MODEL } from "../../access/roles.ts";
import type { AppContext } from "../../context.ts";
import type { Principal } from "../../access/principal.ts";
import { listPackages } from "../../packages/store.ts";
import { extractedVersionDir } from "../../archives/compiled_models.ts";
import { hideServerPaths } from "../../http/server_paths.ts";
import { versionRestricted } from "../../rls/visibility.ts";
import { latestVersion } from "../../versions/store.ts";

/** A table (or data file) and its columns, before matching. */
export interface RawTable {
  /** Connection name (`duckdb` for package files). */
  connection: string;
  connection_type: string;
  /** `schema.table`, or the file's path inside the package. */
  table: string;
  /** Package of a data file. */
  package_name?: string;
  version_id?: string;
  columns: { name: string; type: string }[];
}

/** What the enumeration found, plus what it could not read. */
export interface Enumeration {
  tables: RawTable[];
  skipped: { connection: string; type: string; package_name?: string; reason: string }[];
  errors: { connection?: string; package_name?: string; message: string }[];
}

/** What to enumerate. */
export interface EnumerateScope {
  envId: string;
  /** Only this connection (`duckdb` means the package files). */
  connectionName?: string;
  /** Only this package's files (and no connection unless `connectionName` names one). */
  packageName?: string;
  /**
   * Whether the caller reads why a connection failed (an environment admin,
   * as for a connection check: `readsConnectionErrors`); others get
   * `connection failed` and the reason goes to the server log.
   */
  connectionReasons: boolean;
}

const DATA_FILE = /\.(csv|tsv|parquet|json|jsonl|ndjson)$/i;
const MAX_COLUMNS = 50_000;
const MAX_FILES = 200;

const PG_COLUMNS = `SELECT row_to_json(q) AS row FROM (
  SELECT c.table_schema, c.table_name, c.column_name, c.data_type, c.ordinal_position
    FROM information_schema.columns c
   WHERE c.table_schema NOT IN ('pg_catalog', 'information_schema') AND c.table_schema NOT LIKE 'pg\\_%'
   ORDER BY c.table_schema, c.table_name, c.ordinal_position
   LIMIT ${MAX_COLUMNS}) q`;

const DUCKDB_COLUMNS = `SELECT table_schema, table_name, column_name, data_type
  FROM information_schema.columns
 WHERE table_schema NOT IN ('information_schema', 'pg_catalog')
 ORDER BY table_schema, table_name, ordinal_position
 LIMIT ${MAX_COLUMNS}`;

/** Groups `information_schema.columns` rows by `schema.table`. */
function groupColumns(connection: ConnectionRow, rows: Record<string, unknown>[]): RawTable[] {
  const tables = new Map<string, RawTable>();
  for (const r of rows) {
    if (!r) continue;
    const table = `${r.table_schema}.${r.table_name}`;
    let entry = tables.get(table);
    if (!entry) {
      entry = { connection: connection.name, connection_type: connection.type, table, columns: [] };
      tables.set(table, entry);
    }
    entry.columns.push({ name: String(r.column_name), type: String(r.data_type).toLowerCase() });
  }
  return [...tables.values()];
}

async function connectionTables(connection: ConnectionRow, malloy: Connection): Promise<RawTable[]> {
  const sql = connection.type === "postgres" ? PG_COLUMNS : DUCKDB_COLUMNS;
  const result = await malloy.runSQL(sql, { rowLimit: MAX_COLUMNS });
  return groupColumns(connection, result.rows as Record<string, unknown>[]);
}

async function dataFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && DATA_FILE.test(e.name) && e.name !== "publisher.json")
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort()
    .slice(0, MAX_FILES);
}

async function packageTables(ctx: AppContext, principal: Principal, scope: EnumerateScope, out: Enumeration): Promise<void> {
  const packages = (await listPackages(ctx.sql, principal, { envId: scope.envId, limit: 1000 }))
    .filter((p) => scope.packageName === undefined || p.name === scope.packageName);
  for (const pkg of packages) {
    const version = await latestVersion(ctx.sql, pkg.id);
    if (!version) continue;
    if (pkg.rank < MODEL && (await versionRestricted(ctx.sql, version.uuid))) {
      out.skipped.push({
        connection: "duckdb", type: "duckdb", package_name: pkg.name,
        reason: `version ${version.id} of package '${pkg.name}' has sources restricted by #(authorize) or #(bind); its data files are listed to package modelers and admins`,
      });
      continue;
    }
    try {
      const dir = await extractedVersionDir(ctx, { versionId: version.id, blobSha256: version.blobSha256, packageName: pkg.name });
      const duck = openPackageDuckDB(dir);
      for (const file of await dataFiles(dir)) {
        const path = join(dir, file).replace(/'/g, "''");
        try {
          const described = await duck.runSQL(`DESCRIBE SELECT * FROM '${path}'`);
          out.tables.push({
            connection: "duckdb",
            connection_type: "duckdb",
            table: file,
            package_name: pkg.name,
            version_id: version.id,
            columns: (described.rows as Record<string, unknown>[]).map((r) => ({ name: String(r.column_name), type: String(r.column_type).toLowerCase() })),
          });
        } catch (error) {
          out.errors.push({ package_name: pkg.name, message: `${file}: ${reason(error)}` });
        }
      }
    } catch (error) {
      out.errors.push({ package_name: pkg.name, message: reason(error) });
    }
  }
}

/**
 * The first line of an error as an answer may carry it: this answer is a
 * success, which the response scrub of error answers (app.ts) never visits,
 * so server paths are rewritten here (a package's files by their package path).
 */
function reason(error: unknown): string {
  return hideServerPaths((error instanceof Error ? error.message : String(error)).split("\n")[0]!).slice(0, 300);
}

/**
 * The tables and columns of an environment's connections and of its
 * packages' data files (latest versions the principal can read).
 */
export async function enumerateEntities(ctx: AppContext, principal: Principal, scope: EnumerateScope): Promise<Enumeration> {
  const out: Enumeration = { tables: [], skipped: [], errors: [] };
  const wantsConnections = scope.packageName === undefined || (scope.connectionName !== undefined && scope.connectionName !== "duckdb");
  if (wantsConnections) {
    const rows = (await listConnections(ctx.sql, scope.envId, { limit: 1000 }))
      .filter((c) => scope.connectionName === undefined || c.name === scope.connectionName);
    const keys = { secretKey: ctx.config.secretKey, dataDir: ctx.config.dataDir };
    for (const row of rows) {
      if (row.type !== "postgres" && row.type !== "duckdb") {
        out.skipped.push({ connection: row.name, type: row.type, reason: `listing ${row.type} connections is not supported yet` });
        continue;
      }
      try {
        const malloy = await environmentConnection(ctx.sql, { envId: scope.envId, name: row.name }, keys);
        if (malloy) out.tables.push(...await connectionTables(row, malloy));
      } catch (error) {
        if (scope.connectionReasons) out.errors.push({ connection: row.name, message: reason(error) });
        else {
          ctx.log({ level: "warn", event: "connection_entities_failed", connection: row.name, envId: scope.envId, type: row.type, reason: reason(error) });
          out.errors.push({ connection: row.name, message: `connection failed: connection '${row.name}' could not be listed; an administrator can read the reason in the server log` });
        }
      }
    }
  }
  if (scope.connectionName === undefined || scope.connectionName === "duckdb") await packageTables(ctx, principal, scope, out);
  return out;
}
