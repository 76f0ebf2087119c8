/**
 * The engine: package archives, their sandboxed DuckDB, model compilation,
 * metadata, queries and a compiled-model cache. No HTTP, no database.
 *
 * Its folders, each described in the module doc of its main file:
 * - `zip/` (archive.ts): reading and extracting package archives under the publish policy.
 * - `duckdb/` (sandbox.ts): a package's locked-down DuckDB, its limits, paths and idle instances.
 * - `guards/` (sql_guard.ts): the statement checks of every connection kind.
 * - `compile/` (compile.ts): compiling models in workers, their metadata and the compiled-model cache.
 * - `query/` (query.ts): running a query of a compiled model, its caches and concurrency.
 * - `materialize/` (parquet_writer.ts): writing a source as a Parquet file.
 *
 * `problems.ts` (Malloy problems, the engine's typed errors) and `memory.ts`
 * are shared by all of them. Code outside the engine imports this module.
 * @module
 */

export {
  inspectArchive,
  type PackageFiles,
  readArchive,
  type ReadArchiveOptions,
} from "./zip/archive.ts";
export {
  extractArchive,
  extractArchiveFile,
  readModelFiles,
  removeExtracted,
  sha256Hex,
} from "./zip/extract.ts";
export { closeAllPackageDuckDB, closePackageDuckDB, openPackageDuckDB, releaseIdlePackageDuckDB } from "./duckdb/sandbox.ts";
export { PackageDuckDBConnection } from "./duckdb/connection.ts";
export { engineLimits, setEngineLimits } from "./duckdb/limits.ts";
export { absoluteTablePath } from "./duckdb/paths.ts";
export { openSession } from "./duckdb/session.ts";
export { gcHint } from "./memory.ts";
export { checkDuckDBSql } from "./guards/sql_guard.ts";
export { withReadableFiles } from "./duckdb/readable_files.ts";
export {
  closeCompileWorkers,
  compileLimits,
  CompileTimeoutError,
  compileWorkerStats,
  setCompileLimits,
  warmCompileWorkers,
} from "./compile/pool.ts";
export {
  type CompiledModel,
  type CompiledPackage,
  compileModel,
  compilePackage,
  createPackageRuntime,
  type LookupConnection,
  notebookToModel,
  type PackageRuntime,
} from "./compile/compile.ts";
export { malloyWarming, warmMalloy } from "./compile/warmup.ts";
export { ownedLru } from "./query/owned_lru.ts";
export {
  type ModelMetadata,
  modelMetadata,
  type SourceMetadata,
} from "./compile/metadata.ts";
export { jsonSafe, runQuery } from "./query/query.ts";
export type { ColumnSchema, RunQueryOptions } from "./query/options.ts";
export { forgetCompiledQueries, type GivenInput, queryWithGivens } from "./query/prepare.ts";
export { type Problem, QueryError } from "./problems.ts";
export { createSemaphore, type Semaphore } from "./query/semaphore.ts";
export {
  approximateModelBytes,
  createModelCache,
  type ModelCache,
} from "./compile/model_cache.ts";
