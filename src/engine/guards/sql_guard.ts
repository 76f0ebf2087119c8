/**
 * The gate every DuckDB statement passes before it runs: DuckDB's own parser
 * decides what the text is, not a pattern over the text.
 *
 * A dedicated parse-only DuckDB instance (no file access, nothing attached)
 * runs `json_serialize_sql(?)` on the statement, the text bound as a
 * parameter. DuckDB serializes SELECT statements only (CTEs, `DESCRIBE` and
 * `SUMMARIZE` of a query included); anything else (`COPY`, `ATTACH`,
 * `INSTALL`, `LOAD`, `CREATE`, `SET`, `PRAGMA`, `EXPORT`, ...) is refused,
 * and so is text holding more than one statement. The serialized tree is then
 * walked, whatever the spelling, casing, comments or nesting of the text:
 * - functions that read the environment or the configuration (`getenv`,
 *   `current_setting`, `duckdb_*`, `pragma_*`, `set_variable`, ...) are refused;
 * - table functions other than the file readers and a few generators
 *   (`range`, `generate_series`, `unnest`, `json_each`, ...) are refused, so
 *   `query('...')`, `sqlite_attach`, `duckdb_settings()` cannot run;
 * - every file a reader or a replacement scan (`FROM 'data/t.csv'`) names must
 *   be a string constant inside the package folder: relative paths resolve
 *   against the package (as Malloy Publisher does) and are rewritten to
 *   absolute paths in the text DuckDB runs; `..` segments, `~`, URLs and
 *   paths outside the package are refused.
 *
 * A refusal throws a {@link QueryError} of kind `not_allowed`.
 * @module
 */

import { isAbsolute, resolve } from "node:path";
import { type DuckDBConnection, DuckDBInstance, type DuckDBPreparedStatement } from "@duckdb/node-api";
import { QueryError } from "../problems.ts";

/** Functions that read the environment, settings or the catalog of the engine. */
const DENIED_FUNCTIONS = new Set([
  "getenv",
  "current_setting",
  "set_variable",
  "write_log",
  "query",
  "query_table",
  "which_secret",
  "load_extension",
  "install_extension",
]);
const DENIED_PREFIX = /^(duckdb_|pragma_|sqlite_|postgres_|mysql_|iceberg_|delta_|ducklake_)/;

/** Table functions that read files: their first argument is a path or a list of paths. */
const FILE_READERS = new Set([
  "read_csv",
  "read_csv_auto",
  "read_parquet",
  "parquet_scan",
  "read_json",
  "read_json_auto",
  "read_json_objects",
  "read_json_objects_auto",
  "read_ndjson",
  "read_ndjson_auto",
  "read_ndjson_objects",
  "read_text",
  "read_blob",
  "glob",
  "sniff_csv",
  "parquet_metadata",
  "parquet_schema",
  "parquet_file_metadata",
  "parquet_kv_metadata",
]);

/** Table functions that generate rows from their arguments only. */
const GENERATORS = new Set(["range", "generate_series", "unnest", "json_each", "json_tree", "repeat_row"]);

const FILE_LIKE = /[/\\*?]|\.(csv|tsv|txt|parquet|json|jsonl|ndjson|gz|zst|arrow|xlsx)$/i;
const URL_SCHEME = /^[a-zA-Z][a-zA-Z0-9+.-]*:/;
/** Characters DuckDB expands in a file path (`*`, `**`, `?`, `[...]`, and `{...}` for safety). */
const GLOB = /[*?[\]{}]/;
const NO_LOCATION = 2 ** 53;

/** A statement that passed the gate, with package-relative paths made absolute. */
export interface CheckedSql {
  /** The text to run (paths rewritten). */
  sql: string;
  /**
   * Absolute paths it reads outside the package folder (in the other read
   * directories): allowed only for a query given them (src/engine/duckdb/readable_files.ts).
   */
  outside: string[];
  /**
   * Whether a kept prepared statement of it holds nothing big: it reads no
   * file but Parquet. A kept statement of a CSV scan pins the reader's buffer
   * (30.5 MiB each, measured), so sixteen kept statements held half a
   * gigabyte of the session's memory limit and a small query failed with
   * "Out of Memory"; such statements are kept within a budget (../duckdb/session.ts).
   */
  keepable: boolean;
}

/** Files whose kept statements hold nothing big (a Parquet scan pins 0.25 MiB; a CSV scan its 30.5 MiB buffer). */
const KEEPABLE_READERS = new Set(["read_parquet", "parquet_scan"]);
const PARQUET_FILE = /\.parquet$/i;

/** Options of {@link checkDuckDBSql}. */
export interface DuckDBGuardOptions {
  /** The package folder: relative paths resolve against it. */
  packageDir: string;
  /** Every folder files may be read from (default: the package folder only). */
  readDirectories?: readonly string[];
}

let parser: Promise<{ connection: DuckDBConnection; serializer: DuckDBPreparedStatement }> | undefined;
let queue: Promise<unknown> = Promise.resolve();

async function openParser(): Promise<{ connection: DuckDBConnection; serializer: DuckDBPreparedStatement }> {
  const instance = await DuckDBInstance.create(":memory:", {
    autoload_known_extensions: "false",
    autoinstall_known_extensions: "false",
    allow_community_extensions: "false",
    enable_external_access: "false",
    threads: "1",
    memory_limit: "64MB",
  });
  const connection = await instance.connect();
  await connection.run("LOAD json");
  await connection.run("SET lock_configuration=true");
  return { connection, serializer: await connection.prepare("SELECT json_serialize_sql($1::VARCHAR) AS tree") };
}

/** DuckDB's serialized parse tree of `sql` (one parse at a time on the shared parse-only connection). */
async function serialize(sql: string): Promise<{ count: number; tree: Record<string, unknown> }> {
  parser ??= openParser();
  const { connection, serializer } = await parser;
  const task = queue.then(async () => {
    const extracted = await connection.extractStatements(sql);
    serializer.bindVarchar(1, sql);
    const reader = await serializer.runAndReadAll();
    const text = String(reader.getRowObjectsJson()[0]?.tree ?? "{}");
    return { count: extracted.count, tree: JSON.parse(text) as Record<string, unknown> };
  });
  queue = task.catch(() => {});
  return await task;
}

/** How many statements DuckDB's parser finds in `sql`. */
export async function countStatements(sql: string): Promise<number> {
  return (await serialize(sql)).count;
}

/** How every refusal's message starts (Malloy reports schema-lookup refusals as compile problems). */
export const NOT_ALLOWED_PREFIX = "query not allowed: ";

/** The `not_allowed` refusal. */
export function notAllowed(reason: string): QueryError {
  return new QueryError("not_allowed", `${NOT_ALLOWED_PREFIX}${reason}`);
}

/**
 * Checks one statement with DuckDB's parser and returns the text to run.
 * Throws a `not_allowed` {@link QueryError} for anything but exactly one
 * read-only SELECT over the package's own files, and a plain `Error` with
 * DuckDB's message for a syntax error.
 */
export async function checkDuckDBSql(sql: string, options: DuckDBGuardOptions): Promise<CheckedSql> {
  let parsed: { count: number; tree: Record<string, unknown> };
  try {
    parsed = await serialize(sql);
  } catch (error) {
    throw new Error((error as Error).message);
  }
  if (parsed.count !== 1) {
    throw notAllowed(`the SQL holds ${parsed.count} statements; a query is exactly one SELECT statement`);
  }
  const tree = parsed.tree;
  if (tree.error === true) {
    if (tree.error_type === "parser") throw new Error(`Parser Error: ${String(tree.error_message)}`);
    throw notAllowed("only a SELECT statement (a WITH ... SELECT included) may run; COPY, ATTACH, INSTALL, LOAD, CREATE, SET, PRAGMA and other statements are refused");
  }
  const statements = tree.statements;
  if (!Array.isArray(statements) || statements.length !== 1) {
    throw notAllowed("a query is exactly one SELECT statement");
  }
  const edits: Edit[] = [];
  const outside: string[] = [];
  const packageDir = resolve(options.packageDir);
  const readDirectories = (options.readDirectories ?? [packageDir]).map((d) => resolve(d));
  const state: WalkState = { packageDir, readDirectories, edits, outside, keepable: true };
  walk(statements[0], state);
  return { sql: applyEdits(sql, edits), outside, keepable: state.keepable };
}

interface Edit {
  /** Byte offset of the quoted literal in the UTF-8 text. */
  at: number;
  /** The value the parser saw there. */
  value: string;
  /** The absolute path to put in its place. */
  path: string;
}

interface WalkState {
  packageDir: string;
  readDirectories: string[];
  edits: Edit[];
  /** Absolute paths read outside the package folder. */
  outside: string[];
  /** No file read but Parquet so far. */
  keepable: boolean;
}

function walk(node: unknown, state: WalkState): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, state);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const object = node as Record<string, unknown>;
  if (object.class === "FUNCTION" && typeof object.function_name === "string") {
    checkFunctionName(object.function_name);
  }
  if (object.type === "TABLE_FUNCTION") {
    checkTableFunction(object.function as Record<string, unknown> | undefined, state);
  }
  if (object.type === "BASE_TABLE" && typeof object.table_name === "string") {
    checkBaseTable(object, state);
  }
  for (const value of Object.values(object)) walk(value, state);
}

/** Refuses functions that read the environment or settings, whatever their schema. */
function checkFunctionName(rawName: string): void {
  const name = rawName.toLowerCase();
  if (DENIED_FUNCTIONS.has(name) || DENIED_PREFIX.test(name)) {
    throw notAllowed(`function ${name}() reads the engine's environment or settings and is refused`);
  }
}

function checkTableFunction(fn: Record<string, unknown> | undefined, state: WalkState): void {
  const name = String(fn?.function_name ?? "").toLowerCase();
  if (GENERATORS.has(name)) return;
  if (!KEEPABLE_READERS.has(name)) state.keepable = false;
  if (!FILE_READERS.has(name)) {
    throw notAllowed(`table function ${name}() is refused; read the package's files with read_csv, read_parquet, read_json or a path in FROM`);
  }
  const children = Array.isArray(fn?.children) ? fn.children as Record<string, unknown>[] : [];
  const first = children[0];
  const constants = first?.class === "FUNCTION" && String(first.function_name).toLowerCase() === "list_value"
    ? (first.children as Record<string, unknown>[])
    : [first];
  if (constants.length === 0) throw notAllowed(`${name}() needs a file path`);
  for (const constant of constants) {
    const value = constant?.value as { type?: { id?: string }; is_null?: boolean; value?: unknown } | undefined;
    if (constant?.type !== "VALUE_CONSTANT" || value?.type?.id !== "VARCHAR" || typeof value.value !== "string") {
      throw notAllowed(`the file path of ${name}() must be a string constant (or a list of them) naming a file of the package`);
    }
    addPathEdit(value.value, constant.query_location, state);
  }
}

function checkBaseTable(table: Record<string, unknown>, state: WalkState): void {
  const name = table.table_name as string;
  if (DENIED_PREFIX.test(name.toLowerCase()) && !FILE_LIKE.test(name)) {
    throw notAllowed(`table ${name} describes the engine and is refused`);
  }
  if (String(table.catalog_name ?? "") !== "" || String(table.schema_name ?? "") !== "") return;
  if (!FILE_LIKE.test(name)) return;
  if (!PARQUET_FILE.test(name)) state.keepable = false;
  addPathEdit(name, table.query_location, state);
}

/** Refuses a path outside the package; records the rewrite of a relative one. */
function addPathEdit(path: string, location: unknown, state: WalkState): void {
  if (path.includes("\u0000") || path.startsWith("~") || URL_SCHEME.test(path) || path.includes("\\")) {
    throw notAllowed(`'${path}' is not a file of the package; only the package's own files can be read`);
  }
  if (path.split("/").some((segment) => segment === "..")) {
    throw notAllowed(`'${path}' contains '..'; name files by their path inside the package`);
  }
  const absolute = isAbsolute(path) ? resolve(path) : resolve(state.packageDir, path);
  if (!state.readDirectories.some((dir) => absolute === dir || absolute.startsWith(`${dir}/`))) {
    throw notAllowed(`'${path}' is outside the package; only the package's own files can be read`);
  }
  // The other readable folders (a package's built materializations) are shared by every package with the same
  // archive, whatever its organization: there only exact file names, as the platform writes them, never a pattern.
  if (absolute !== state.packageDir && !absolute.startsWith(`${state.packageDir}/`)) {
    if (GLOB.test(path)) {
      throw notAllowed(`'${path}' names files outside the package folder by a pattern; read the package's own files, or query its persisted sources by name`);
    }
    state.outside.push(absolute);
  }
  if (absolute === path) return;
  if (typeof location !== "number" || location >= NO_LOCATION) {
    throw notAllowed(`the path '${path}' could not be located in the SQL text; write it as a quoted string`);
  }
  state.edits.push({ at: location, value: path, path: absolute });
}

/** Replaces each recorded literal (checked to be the quoted value the parser saw) by the absolute path. */
function applyEdits(sql: string, edits: Edit[]): string {
  if (edits.length === 0) return sql;
  const bytes = Buffer.from(sql, "utf8");
  const parts: Buffer[] = [];
  let cursor = 0;
  const sorted = [...edits].sort((a, b) => a.at - b.at);
  for (const edit of sorted) {
    if (edit.at < cursor) throw notAllowed(`the path '${edit.value}' appears in an unexpected place`);
    const literal = quotedAt(bytes, edit.at);
    if (!literal || literal.value !== edit.value) {
      throw notAllowed(`the path '${edit.value}' must be written as a plain quoted string ('...' or "...")`);
    }
    parts.push(bytes.subarray(cursor, edit.at));
    const quote = literal.quote;
    parts.push(Buffer.from(`${quote}${edit.path.split(quote).join(quote + quote)}${quote}`, "utf8"));
    cursor = literal.end;
  }
  parts.push(bytes.subarray(cursor));
  return Buffer.concat(parts).toString("utf8");
}

/** The single- or double-quoted literal starting at byte `at`: its decoded value and end offset. */
function quotedAt(bytes: Buffer, at: number): { value: string; end: number; quote: string } | undefined {
  const quote = bytes[at];
  if (quote !== 0x27 && quote !== 0x22) return undefined;
  let i = at + 1;
  const out: number[] = [];
  while (i < bytes.length) {
    if (bytes[i] === quote) {
      if (bytes[i + 1] === quote) {
        out.push(quote);
        i += 2;
        continue;
      }
      return { value: Buffer.from(out).toString("utf8"), end: i + 1, quote: String.fromCharCode(quote) };
    }
    out.push(bytes[i]);
    i++;
  }
  return undefined;
}
