/**
 * The engine: package archives, their sandboxed DuckDB, model compilation,
 * metadata, queries and a compiled-model cache. No HTTP, no database.
 * @module
 */

export {
  inspectArchive,
  type PackageFiles,
  readArchive,
  type ReadArchiveOptions,
} from "./archive.ts";
export {
  extractArchive,
  extractArchiveFile,
  readModelFiles,
  removeExtracted,
  sha256Hex,
} from "./extract.ts";
export { closeAllPackageDuckDB, closePackageDuckDB, openPackageDuckDB, releaseIdlePackageDuckDB } from "./duckdb_sandbox.ts";
export { PackageDuckDBConnection } from "./duckdb_connection.ts";
export { engineLimits, setEngineLimits } from "./duckdb_limits.ts";
export { absoluteTablePath } from "./duckdb_paths.ts";
export { openSession } from "./duckdb_session.ts";
export { gcHint } from "./memory.ts";
export { checkDuckDBSql } from "./guards/sql_guard.ts";
export { withReadableFiles } from "./readable_files.ts";
export {
  closeCompileWorkers,
  compileLimits,
  CompileTimeoutError,
  compileWorkerStats,
  setCompileLimits,
  warmCompileWorkers,
} from "./compile_pool.ts";
export {
  type CompiledModel,
  type CompiledPackage,
  compileModel,
  compilePackage,
  createPackageRuntime,
  type LookupConnection,
  notebookToModel,
  type PackageRuntime,
} from "./compile.ts";
export { malloyWarming, warmMalloy } from "./warmup.ts";
export { ownedLru } from "./owned_lru.ts";
export {
  type ModelMetadata,
  modelMetadata,
  type SourceMetadata,
} from "./metadata.ts";
export {
  type ColumnSchema,
  type GivenInput,
  forgetCompiledQueries,
  jsonSafe,
  queryWithGivens,
  runQuery,
  type RunQueryOptions,
} from "./query.ts";
export { type Problem, QueryError } from "./problems.ts";
export { createSemaphore, type Semaphore } from "./semaphore.ts";
export {
  approximateModelBytes,
  createModelCache,
  type ModelCache,
} from "./model_cache.ts";
