/**
 * Packages of the run tests: flights over a CSV with `#@ persist` sources and
 * `#(index)` dimensions, a slow persist source, and a failing index.
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { appendFile, chmod } from "node:fs/promises";
import { join } from "node:path";
import { bytes, FLIGHTS_CSV } from "../fixtures/engine_package.ts";
import { API, type World } from "../packages/helpers.ts";
import type { TestResponse } from "../helpers/service.ts";

/** The flights model with two persist sources and two indexed dimensions. */
export const RUNS_MODEL = `source: flights is duckdb.table('data/flights.csv') extend {
  #(index)
  dimension: carrier_code is carrier

  #(index)
  dimension: origin_code is origin

  measure: flight_count is count()
}

#@ persist
source: carrier_stats is flights -> { group_by: carrier; aggregate: flight_count }

#@ persist
source: long_flights is flights extend { where: distance > 2000 }
`;

/** Files of a package whose model is `model` (default {@link RUNS_MODEL}). */
export function runsPackage(model = RUNS_MODEL): Map<string, Uint8Array> {
  return new Map([
    ["publisher.json", bytes(JSON.stringify({ name: "runs", description: "runs fixture" }))],
    ["models/flights.malloy", bytes(model)],
    ["data/flights.csv", bytes(FLIGHTS_CSV)],
  ]);
}

/** A model whose persist source takes long to write (billions of generated rows). */
export const SLOW_MODEL = `${RUNS_MODEL}
#@ persist
source: big is duckdb.sql("SELECT range AS n, md5(range::VARCHAR) AS h FROM range(5000000000)")
`;

/** A model whose `#(index)` dimension fails at run time (a string cast to a number). */
export const BROKEN_INDEX_MODEL = `source: flights is duckdb.table('data/flights.csv') extend {
  #(index)
  dimension: carrier_code is carrier

  #(index)
  dimension: broken is origin::number
}
`;

/** `P` of a package in acme/prod. */
export function pkgPath(pkg: string): string {
  return `${API}/organizations/acme/environments/prod/packages/${pkg}`;
}

/** Polls a run until it ends (or `until` holds); returns its last body. */
export async function waitRun(
  w: World,
  path: string,
  options: { token: string; until?: (run: Record<string, unknown>) => boolean; timeoutMs?: number },
): Promise<TestResponse["body"]> {
  const until = options.until ?? ((run) => ["succeeded", "failed", "cancelled"].includes(run.state as string));
  const deadline = Date.now() + (options.timeoutMs ?? 240_000);
  while (Date.now() < deadline) {
    const r = await w.s.call("GET", path, { token: options.token });
    if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    if (until(r.body)) return r.body;
    await Bun.sleep(25);
  }
  throw new Error(`run at ${path} did not reach the expected state in time`);
}

/** Rows of a Parquet file under DATA_DIR, read by an unrestricted in-memory DuckDB. */
export async function parquetRows(w: World, location: string): Promise<number> {
  const instance = await DuckDBInstance.create(":memory:", { autoinstall_known_extensions: "false", autoload_known_extensions: "false" });
  const connection = await instance.connect();
  try {
    const reader = await connection.runAndReadAll(`SELECT count(*) AS n FROM '${join(w.dataDir, location).replace(/'/g, "''")}'`);
    return Number(reader.getRowObjects()[0]!.n);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/**
 * A model whose `#@ persist` sources are read directly, through `extend`,
 * joined, in a named query and inside SQL sources (`%{ source }` and
 * `%{ query }`) (the serving tests).
 */
export const SERVE_MODEL = `source: flights is duckdb.table('data/flights.csv') extend {
  #(index)
  #(index_values) 2
  dimension: carrier_code is carrier

  #(index)
  dimension: origin_code is origin

  measure: flight_count is count()
}

#@ persist
source: carrier_stats is flights -> { group_by: carrier; aggregate: flight_count }

#@ persist
source: long_flights is flights extend { where: distance > 2000 }

source: long_more is long_flights extend {
  dimension: twice is distance * 2
  measure: total_distance is distance.sum()
}

source: joined is duckdb.table('data/flights.csv') extend {
  join_one: cs is carrier_stats on carrier = cs.carrier
}

query: long_count is long_flights -> { aggregate: n is count() }

source: via_sql is duckdb.sql("""SELECT carrier, flight_count FROM %{ carrier_stats } AS s""")

source: via_query is duckdb.sql("""SELECT count(*) AS n FROM %{ long_flights -> { select: * } } AS l""")
`;

/** Rows appended to the package's CSV after a build (a new carrier, one long flight). */
export const EXTRA_ROWS = "ZZ,BOS,SEA,2496,2024-02-01\nZZ,SEA,BOS,2496,2024-02-02\n";

/**
 * Appends rows to the CSV of a version's extracted package on this node: the
 * data a definition reads changes, a materialization does not.
 */
export async function appendToExtractedCsv(w: World, pkg: string, rows: string): Promise<void> {
  const [v] = await w.s.service.db.sql`SELECT v.blob_sha256 FROM package_versions v JOIN packages p ON p.id = v.package_id WHERE p.name = ${pkg}`;
  const dir = join(w.dataDir, "packages", v!.blob_sha256 as string, "data");
  const file = join(dir, "flights.csv");
  await chmod(dir, 0o755);
  await chmod(file, 0o644);
  await appendFile(file, rows);
}

/** Settings of tests that use the local PostgreSQL server as a warehouse connection. */
export const WAREHOUSE_ENV: Record<string, string> = { ALLOWED_CONNECTION_HOSTS: "127.0.0.1" };

/** Where the warehouse is: WAREHOUSE_URL, else TEST_DATABASE_URL's server, else the local one on 127.0.0.1:5432. */
export function warehouseUrl(): URL {
  return new URL(process.env.WAREHOUSE_URL || process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres");
}
