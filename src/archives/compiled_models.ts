/**
 * Compiled models of package versions for queries, per node: the version's
 * archive extracted once into the read-only cache directory keyed by its
 * sha256, and an LRU cache of compiled models keyed by version uuid and
 * model path (bounded by count and approximate bytes; cold compiles and warm
 * hits logged through `ctx.log`).
 *
 * It sits with the archives it extracts, below query, runs, retrieval and
 * the package, version and environment routes, which compile through it or
 * evict through {@link evictVersions}; it imports none of them.
 * @module
 */
import { readFile, stat } from "node:fs/promises";
import { declaredModels } from "../models/curation.ts";
import { join } from "node:path";
import { connectionLookup } from "../connections/store.ts";
import {
  approximateModelBytes,
  type CompiledModel,
  compileModel,
  CompileTimeoutError,
  createModelCache,
  createPackageRuntime,
  type ModelCache,
  type PackageFiles,
  QueryError,
  readModelFiles,
} from "../engine/mod.ts";
import type { AppContext } from "../context.ts";
import { NotFoundError } from "../errors.ts";
import { extractionDir, extractStoredArchive } from "./store.ts";

/** The per-node state of one app context. */
interface NodeModels {
  cache: ModelCache<CompiledModel>;
  /** Extractions in flight, by sha256. */
  extracting: Map<string, Promise<string>>;
}

const perContext = new WeakMap<AppContext, NodeModels>();

function nodeModels(ctx: AppContext): NodeModels {
  let state = perContext.get(ctx);
  if (!state) {
    state = {
      cache: createModelCache<CompiledModel>({
        maxEntries: ctx.config.modelCacheEntries,
        maxBytes: ctx.config.modelCacheBytes,
        sizeOf: approximateModelBytes,
        log: (event) => ctx.log({ level: "info", ...event }),
      }),
      extracting: new Map(),
    };
    perContext.set(ctx, state);
  }
  return state;
}

/** The compiled-model cache of a context (one per app, shared by REST and MCP). */
export function modelCacheOf(ctx: AppContext): ModelCache<CompiledModel> {
  return nodeModels(ctx).cache;
}

/** Drops the compiled models of these versions (row uuids), e.g. when they are archived or deleted. */
export function evictVersions(ctx: AppContext, versionUuids: Iterable<string>): void {
  const cache = perContext.get(ctx)?.cache;
  if (!cache) return;
  for (const uuid of versionUuids) cache.deleteVersion(uuid);
}

/** What {@link compiledModelFor} compiles. */
export interface ModelTarget {
  /** Version row uuid (the cache key). */
  versionUuid: string;
  /** Version id for messages, e.g. `1.0.0`. */
  versionId: string;
  blobSha256: string;
  envId: string;
  packageName: string;
  modelPath: string;
}

/**
 * The compiled model of a version's model file: from the cache, or extracted
 * (once per node) and compiled. A NotFoundError when the version has no such model file.
 */
export async function compiledModelFor(ctx: AppContext, target: ModelTarget): Promise<CompiledModel> {
  const state = nodeModels(ctx);
  return await state.cache.get({ versionId: target.versionUuid, modelPath: target.modelPath }, async () => {
    const dir = await extracted(ctx, state, target);
    const isFile = await stat(join(dir, target.modelPath)).then((s) => s.isFile(), () => false);
    const publisher = await readFile(join(dir, "publisher.json"), "utf8").then((text) => JSON.parse(text) as unknown, () => null);
    if (!isFile || declaredModels(publisher)?.(target.modelPath) === false) {
      throw new NotFoundError(`model '${target.modelPath}' not found in version ${target.versionId} of package '${target.packageName}'; list its models with GET .../packages/${target.packageName}/models`);
    }
    const keys = { secretKey: ctx.config.secretKey, dataDir: ctx.config.dataDir };
    const pkg = createPackageRuntime(await modelFiles(dir), dir, { lookupConnection: connectionLookup(ctx.sql, target.envId, keys) });
    // The compile runs in a worker; past COMPILE_TIMEOUT_MS the worker is terminated and the
    // query answers `timeout` (nothing is cached; the next query tries again).
    const declared = declaredModels(publisher);
    const compiled = await compileModel(pkg, target.modelPath, { timeoutMs: ctx.config.compileTimeoutMs, key: target.envId }).catch((error) => {
      if (!(error instanceof CompileTimeoutError)) throw error;
      throw new QueryError("timeout", `model '${target.modelPath}' of version ${target.versionId} did not compile within ${error.timeoutMs} ms (COMPILE_TIMEOUT_MS); split the model or ask an administrator to raise the limit`);
    });
    // a curated package: its queries may name only what its declared model files define
    if (declared) compiled.queryable = declared;
    return compiled;
  });
}

/**
 * Puts models a publish just compiled (by model path, limited to what a
 * curated package declares, as {@link compiledModelFor} does) in the cache of
 * the version, so its first run and first queries compile nothing again.
 */
export function rememberCompiledModels(ctx: AppContext, versionUuid: string, compiled: ReadonlyMap<string, CompiledModel>): void {
  const cache = nodeModels(ctx).cache;
  for (const [modelPath, model] of compiled) {
    cache.get({ versionId: versionUuid, modelPath }, () => Promise.resolve(model)).catch(() => {});
  }
}

/**
 * The folder where a version's archive is extracted on this node (extracting
 * it on first use), for reading its data files.
 */
export async function extractedVersionDir(ctx: AppContext, target: Pick<ModelTarget, "versionId" | "blobSha256" | "packageName">): Promise<string> {
  return await extracted(ctx, nodeModels(ctx), target);
}

/** The extracted folder of the version's archive, extracting it on first use on this node. */
async function extracted(ctx: AppContext, state: NodeModels, target: Pick<ModelTarget, "versionId" | "blobSha256" | "packageName">): Promise<string> {
  const sha = target.blobSha256;
  const dir = join(extractionDir(ctx.config), sha);
  if (await stat(dir).then((s) => s.isDirectory(), () => false)) return dir;
  let pending = state.extracting.get(sha);
  if (!pending) {
    pending = (async () => {
      const dir = await extractStoredArchive(ctx.sql, sha, { cacheDir: extractionDir(ctx.config), read: { maxBytes: ctx.config.maxPackageBytes } });
      if (!dir) throw new NotFoundError(`the archive of version ${target.versionId} of package '${target.packageName}' is missing; publish the version again`);
      return dir;
    })();
    state.extracting.set(sha, pending);
    pending.finally(() => state.extracting.delete(sha)).catch(() => {});
  }
  return await pending;
}

/** The model files (`.malloy`, `.malloynb`) of an extracted package: all the URL reader serves. */
async function modelFiles(dir: string): Promise<PackageFiles> {
  return await readModelFiles(dir);
}

/** Row uuids of the versions of a package or of every package of an environment (read before deleting them, to evict after). */
export async function versionUuidsOf(ctx: AppContext, where: { packageId: string } | { envId: string }): Promise<string[]> {
  const rows = "packageId" in where
    ? await ctx.sql`SELECT id FROM package_versions WHERE package_id = ${where.packageId}`
    : await ctx.sql`SELECT v.id FROM package_versions v JOIN packages p ON p.id = v.package_id WHERE p.env_id = ${where.envId}`;
  return rows.map((r) => r.id as string);
}
