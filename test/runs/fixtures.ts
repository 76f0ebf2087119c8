/**
 * Packages of the run tests: flights over a CSV with `#@ persist` sources and
 * `#(index)` dimensions, a slow persist source, and a failing index.
 * @module
 */
import { DuckDBInstance } from "@duckdb/node-api";
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
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
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
