/**
 * The engine: package archives, their sandboxed DuckDB, model compilation,
 * metadata, queries and a compiled-model cache. No HTTP, no database.
 * @module
 */

export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_ENTRIES,
  inspectArchive,
  type PackageFiles,
  readArchive,
  type ReadArchiveOptions,
} from "./archive.ts";
export {
  type ExtractArchiveOptions,
  extractArchive,
  extractArchiveFile,
  readModelFiles,
  removeExtracted,
  sha256Hex,
} from "./extract.ts";
export {
  absoluteTablePath,
  closeAllPackageDuckDB,
  closePackageDuckDB,
  defaultMemoryLimit,
  type EngineLimits,
  engineLimits,
  openPackageDuckDB,
  openSession,
  PackageDuckDBConnection,
  type PackageDuckDBOptions,
  parseSize,
  type Session,
  setEngineLimits,
} from "./duckdb_sandbox.ts";
export { gcHint } from "./memory.ts";
export { checkDuckDBSql, type CheckedSql, NOT_ALLOWED_PREFIX } from "./sql_guard.ts";
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
  type CompileOptions,
  createPackageRuntime,
  type LookupConnection,
  notebookToModel,
  type PackageRuntime,
} from "./compile.ts";
export { warmMalloy } from "./warmup.ts";
export { ownedLru } from "./owned_lru.ts";
export {
  type FieldMetadata,
  type FieldType,
  type JoinMetadata,
  type ModelMetadata,
  modelMetadata,
  type ModelMetadataOptions,
  type NamedQueryMetadata,
  type SourceMetadata,
} from "./metadata.ts";
export {
  type ColumnSchema,
  DEFAULT_ROW_LIMIT,
  DEFAULT_TIMEOUT_MS,
  jsonSafe,
  type QueryResponse,
  runQuery,
  type RunQueryOptions,
  setQueryConcurrency,
} from "./query.ts";
export { formatProblems, type Problem, problemsOf, QueryError, redactPath } from "./problems.ts";
export { createSemaphore, type Release, type Semaphore } from "./semaphore.ts";
export {
  approximateModelBytes,
  createModelCache,
  type ModelCache,
  type ModelCacheOptions,
} from "./model_cache.ts";
