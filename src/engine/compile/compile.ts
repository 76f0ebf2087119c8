/**
 * Compiling a package's models with a Malloy `Runtime` whose URL reader only
 * serves the files of the package archive. The translation itself runs in a
 * compile worker ({@link compileInWorker}), off the event loop; the reader and
 * the connections answer it from this thread.
 *
 * The folder `compile/`: this module, the worker pool and its protocol
 * (pool.ts, protocol.ts, worker.ts), the package-file URLs (package_url.ts),
 * the problem hints (data_path_hint.ts), warming Malloy (warmup.ts), the
 * metadata of a compiled model (metadata.ts) and the compiled-model LRU
 * (model_cache.ts).
 * @module
 */

import { resolve } from "node:path";
import { type Connection, type Model, Runtime, type URLReader } from "@malloydata/malloy";
import { ValidationError } from "../../errors.ts";
import type { PackageFiles } from "../zip/archive.ts";
import { compileInWorker, CompileTimeoutError, ModelDescribeError } from "./pool.ts";
import type { ModelDescriber } from "./protocol.ts";
import { openPackageDuckDB } from "../duckdb/sandbox.ts";
import type { PackageDuckDBOptions } from "../duckdb/connection.ts";
import { engineLimits } from "../duckdb/limits.ts";
import { guardBigQuery } from "../guards/bigquery_guard.ts";
import { guardDuckDB } from "../guards/duckdb_guard.ts";
import { guardMysql } from "../guards/mysql_guard.ts";
import { guardPostgres } from "../guards/postgres_guard.ts";
import { guardSnowflake } from "../guards/snowflake_guard.ts";
import { guardTrino } from "../guards/trino_guard.ts";
import { packageBaseUrl, packageFileOf, packageRelativePath } from "./package_url.ts";
import { explainDataPaths } from "./data_path_hint.ts";
import { formatProblems, type Problem, problemsOf, redactPath } from "../problems.ts";

/** Finds an environment connection (postgres, bigquery, ...) by name. */
export type LookupConnection = (
  name: string,
) => Promise<Connection | undefined> | Connection | undefined;

/** Options of {@link compilePackage} and {@link createPackageRuntime}. */
export interface CompileOptions {
  /** Environment connections other than the package's own `duckdb`. */
  lookupConnection?: LookupConnection;
  /** The package's `duckdb` connection; default {@link openPackageDuckDB}(pkgDir). */
  duckdb?: Connection;
  /** Options of the default `duckdb` connection. */
  duckdbOptions?: PackageDuckDBOptions;
  /** Longest one model's compile may take, ms; default `COMPILE_TIMEOUT_MS` ({@link setCompileLimits}). */
  timeoutMs?: number;
  /** Whose turn the compiles count toward in the worker queue (the environment); see compileInWorker. */
  key?: string;
  /**
   * A describer module ({@link ModelDescriber}) run on each model in the
   * compile worker; its answer is each model's `described`.
   */
  describe?: URL;
}

/** Options of {@link compileModel}. */
export interface CompileModelOptions {
  /** Longest the compile may take, ms; default `COMPILE_TIMEOUT_MS` ({@link setCompileLimits}). */
  timeoutMs?: number;
  /** Whose turn the compile counts toward in the worker queue (the environment); see compileInWorker. */
  key?: string;
}

/** A runtime bound to one package: its files, folder and connections. */
export interface PackageRuntime {
  runtime: Runtime;
  packageDir: string;
  /** The URL of the package folder (ends in `/`). */
  base: URL;
  /** The URL Malloy knows a package file by. */
  urlOf(path: string): URL;
  /** The package-relative path of a Malloy URL (the URL itself when outside). */
  fileOf(url: string): string;
}

/** One compiled model file. */
export interface CompiledModel {
  /** Package-relative path of the model file, e.g. `models/flights.malloy`. */
  path: string;
  model: Model;
  pkg: PackageRuntime;
  /** Length of the model definition's JSON, when the compile measured it. */
  bytes?: number;
  /** What the describer module answered (with {@link CompileOptions.describe}). */
  described?: unknown;
  /**
   * The model as the package's files define it, when `model` is a rewrite of
   * it (materializations served): access rules are read from this one.
   */
  defined?: Model;
  /**
   * The model files whose sources and queries a query may name, when the
   * package declares them (publisher.json `explores` with `queryableSources:
   * "declared"`); undefined: every file.
   */
  queryable?: (modelPath: string) => boolean;
}

/** Every compiled model of a package, by path. */
export interface CompiledPackage {
  packageDir: string;
  models: Map<string, CompiledModel>;
}

const MODEL_FILE = /\.malloy(nb)?$/;

/** True for files compiled as models (`.malloy`, `.malloynb`). */
function isModelFile(path: string): boolean {
  return MODEL_FILE.test(path);
}

/**
 * Creates the Malloy runtime of a package. Imports resolve inside the
 * archive only; connection `duckdb` (and the unnamed default) is the
 * package's sandboxed DuckDB, other names go to `options.lookupConnection`.
 */
export function createPackageRuntime(
  files: PackageFiles,
  packageDir: string,
  options: CompileOptions = {},
): PackageRuntime {
  const dir = resolve(packageDir);
  const base = packageBaseUrl(dir);
  const duckdb = options.duckdb ?? openPackageDuckDB(dir, options.duckdbOptions);
  const urlReader: URLReader = {
    readURL(url: URL) {
      const path = packageRelativePath(url, base);
      if (path === undefined) {
        return Promise.reject(
          new Error(`'${url.href}' is outside the package; imports must name files inside the package archive`),
        );
      }
      const bytes = files.get(path);
      if (bytes === undefined) {
        return Promise.reject(new Error(`'${path}' is not in the package archive`));
      }
      const text = new TextDecoder().decode(bytes);
      return Promise.resolve(path.endsWith(".malloynb") ? notebookToModel(text) : text);
    },
  };
  const connections = {
    async lookupConnection(name?: string): Promise<Connection> {
      if (name === undefined || name === "duckdb") return duckdb;
      const found = guardConnection(await options.lookupConnection?.(name));
      if (!found) {
        throw new Error(
          `connection '${name}' is not defined in this environment; create it in the environment's connections or use duckdb`,
        );
      }
      return found;
    },
  };
  return {
    runtime: new Runtime({ urlReader, connections }),
    packageDir: dir,
    base,
    urlOf: (path: string) => new URL(path.split("/").map(encodeURIComponent).join("/"), base),
    fileOf: (url: string) => packageFileOf(url, base),
  };
}

/**
 * Every environment connection a package uses passes through here: a
 * PostgreSQL connection runs each statement read-only, alone and checked by
 * the server's planner ({@link guardPostgres}), with the query timeout as its
 * statement timeout; a MySQL connection runs in a read-only session that
 * takes one statement at a time ({@link guardMysql}); an environment DuckDB
 * or MotherDuck connection has every statement checked by DuckDB's parser
 * ({@link guardDuckDB}); a BigQuery connection dry-runs every query and runs
 * it only when BigQuery calls it one SELECT ({@link guardBigQuery}); every
 * statement of a Snowflake connection carries `MULTI_STATEMENT_COUNT = 1`
 * ({@link guardSnowflake}); a Trino connection keeps no state between
 * requests and refuses any answer that is not a query's ({@link guardTrino}).
 */
function guardConnection(connection: Connection | undefined): Connection | undefined {
  if (!connection) return connection;
  guardDuckDB(connection);
  const limits = { statementTimeoutMs: () => engineLimits().statementTimeoutMs };
  guardMysql(connection, limits);
  guardBigQuery(connection);
  guardSnowflake(connection);
  guardTrino(connection);
  return guardPostgres(connection, limits);
}

/**
 * Compiles one model file of a package. Throws a `ValidationError` with
 * `details.problems` when it does not compile, and
 * {@link CompileTimeoutError} when it takes longer than the time limit.
 */
export async function compileModel(
  pkg: PackageRuntime,
  modelPath: string,
  options: CompileModelOptions = {},
): Promise<CompiledModel> {
  const result = await tryCompile(pkg, modelPath, options);
  if ("problems" in result) throw compileFailure(explainDataPaths(result.problems, pkg.packageDir), 1);
  return result;
}

/**
 * Compiles every `.malloy` and `.malloynb` file of a package, one after the
 * other. When any fails, throws a `ValidationError` whose `details.problems`
 * lists every problem of every file as `{ file, line, column, message }`; a
 * file that takes longer than the time limit is one such problem.
 */
export async function compilePackage(
  files: PackageFiles,
  packageDir: string,
  options: CompileOptions = {},
): Promise<CompiledPackage> {
  const pkg = createPackageRuntime(files, packageDir, options);
  const models = new Map<string, CompiledModel>();
  const problems: Problem[] = [];
  const paths = [...files.keys()].filter(isModelFile).sort();
  let failed = 0;
  for (const path of paths) {
    const result = await tryCompile(pkg, path, options).catch((error) => {
      if (!(error instanceof CompileTimeoutError)) throw error;
      return { problems: [{ file: path, message: `${error.message}; split the model or ask an administrator to raise the limit` }] };
    });
    if ("problems" in result) {
      failed++;
      problems.push(...result.problems);
    } else {
      models.set(path, result);
    }
  }
  if (problems.length > 0) throw compileFailure(explainDataPaths(problems, pkg.packageDir), failed);
  return { packageDir: pkg.packageDir, models };
}

/**
 * Turns a Malloy notebook into a model: the text of its `>>>malloy` cells,
 * every other line blanked so line numbers stay those of the notebook.
 */
export function notebookToModel(text: string): string {
  let malloy = false;
  return text
    .split("\n")
    .map((line) => {
      if (line.startsWith(">>>")) {
        malloy = line.trim() === ">>>malloy";
        return "";
      }
      return malloy ? line : "";
    })
    .join("\n");
}

/**
 * Compiles one file in a worker. Answers the model or its problems; throws
 * {@link CompileTimeoutError} (the caller decides how to report it). The
 * model is rebuilt on this thread when `model` is first read.
 */
async function tryCompile(
  pkg: PackageRuntime,
  path: string,
  options: { timeoutMs?: number; key?: string; describe?: URL },
): Promise<CompiledModel | { problems: Problem[] }> {
  try {
    const describe = options.describe ? { module: options.describe, base: pkg.base } : undefined;
    const compiled = await compileInWorker(pkg.runtime, pkg.urlOf(path), { timeoutMs: options.timeoutMs, key: options.key, describe });
    return {
      path,
      pkg,
      bytes: compiled.bytes,
      get model() {
        return compiled.model();
      },
      ...("described" in compiled ? { described: compiled.described } : {}),
    };
  } catch (error) {
    if (error instanceof CompileTimeoutError || error instanceof ModelDescribeError) throw error;
    const seen = new Set<string>();
    const problems = redactPath(problemsOf(error, pkg.fileOf), pkg.packageDir)
      .map((problem) => ({ ...problem, file: problem.file ?? path }))
      .filter((problem) => {
        const key = `${problem.file}:${problem.line}:${problem.column}:${problem.message}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
    return { problems };
  }
}

function compileFailure(problems: Problem[], files: number) {
  const shown = formatProblems(problems.slice(0, 5));
  const more = problems.length > 5 ? `\n... and ${problems.length - 5} more` : "";
  return new ValidationError(
    `${files === 1 ? "a model does" : `${files} models do`} not compile; fix these problems and publish again:\n${shown}${more}`,
    { problems },
  );
}

