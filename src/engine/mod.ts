/**
 * The engine: package archives, their sandboxed DuckDB, model compilation,
 * metadata, queries and a compiled-model cache. No HTTP, no database.
 * @module
 */

export {
  DEFAULT_MAX_BYTES,
  DEFAULT_MAX_ENTRIES,
  fileText,
  inspectArchive,
  MAX_MODEL_FILE_BYTES,
  type PackageFiles,
  readArchive,
  type ReadArchiveOptions,
  unpackArchive,
} from "./archive.ts";
export {
  type ExtractArchiveFileOptions,
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
export { GC_HINT_BYTES, gcHint } from "./memory.ts";
export { checkDuckDBSql, type CheckedSql, NOT_ALLOWED_PREFIX } from "./sql_guard.ts";
export {
  closeCompileWorkers,
  type CompileLimits,
  compileLimits,
  CompileTimeoutError,
  compileWorkerStats,
  type CompileWorkerStats,
  defaultCompileWorkers,
  setCompileLimits,
  warmCompileWorkers,
} from "./compile_pool.ts";
export {
  type CompiledModel,
  type CompiledPackage,
  compileModel,
  type CompileModelOptions,
  compilePackage,
  type CompileOptions,
  createPackageRuntime,
  isModelFile,
  type LookupConnection,
  notebookToModel,
  type PackageRuntime,
} from "./compile.ts";
export { warmMalloy } from "./warmup.ts";
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
