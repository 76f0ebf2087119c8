/**
 * Serving materializations to queries (the hook of src/query/service.ts).
 *
 * For each query: one read of the model's built materializations (the
 * atomic switch is that row, see ./store.ts), the files fetched into this
 * node's cache by hash when missing (./files.ts), and the compiled model
 * rewritten to read them (./rewrite.ts; cached per set of files). The files
 * a query reads are pinned until it ends: a file that a newer build
 * replaced is deleted from this node's cache only once no query uses it, so
 * a query running during a rebuild reads the old file or the new one, never
 * a half-written one (new files are only served once complete and stored).
 * @module
 */
import { readdir, rm } from "node:fs/promises";
import { resolve } from "node:path";
import type { CompiledModel } from "../engine/compile/compile.ts";
import type { AppContext } from "../context.ts";
import { cachedLocation, deleteOrphanFiles, fetchFile, isFile } from "./files.ts";
import { rewriteModel } from "./rewrite.ts";
import { type ServedMaterialization, servedMaterializations } from "./store.ts";

/** What a query reads; see {@link serveMaterializations}. */
export interface ServedModel {
  /** The model to run the query against. */
  compiled: CompiledModel;
  /** `metadata.materialization` of a query whose SQL is `sql` (the first materialization it reads), if any. */
  materializationFor(sql: string): { id: string; builtAt: string } | undefined;
  /** `text` (the query's SQL) with this node's cache folder left out of file paths. */
  redact(text: string): string;
  /** Unpins the files (call when the query ended). */
  release(): void;
  /**
   * The built files the query may read (absolute paths): run it within
   * `withReadableFiles(readable, ...)` (src/engine/duckdb/readable_files.ts), or
   * DuckDB reads nothing outside the package folder.
   */
  readable: ReadonlySet<string>;
}

interface NodeFiles {
  /** Queries reading each local file (absolute path). */
  pins: Map<string, number>;
  /** Local files replaced by a newer build, deleted when unpinned. */
  retired: Set<string>;
  /** The file each materialization (id) served last on this node. */
  current: Map<string, string>;
  /** Fetches in flight, by path. */
  fetching: Map<string, Promise<boolean>>;
  /** Rewritten models, per compiled model and set of files. */
  models: WeakMap<CompiledModel, Map<string, Promise<CompiledModel>>>;
}

const nodes = new WeakMap<AppContext, NodeFiles>();

function nodeOf(ctx: AppContext): NodeFiles {
  let node = nodes.get(ctx);
  if (!node) {
    node = { pins: new Map(), retired: new Set(), current: new Map(), fetching: new Map(), models: new WeakMap() };
    nodes.set(ctx, node);
  }
  return node;
}

function pathOf(ctx: AppContext, blobSha256: string, sha256: string): string {
  return resolve(ctx.config.dataDir, cachedLocation(blobSha256, sha256));
}

async function removeIfUnused(node: NodeFiles, path: string): Promise<void> {
  if ((node.pins.get(path) ?? 0) > 0 || !node.retired.has(path)) return;
  node.retired.delete(path);
  await rm(path, { force: true });
}

/**
 * Forgets files deleted from the database (a newer build replaced them): their
 * local copies go once no query of this node reads them.
 */
export function retireFiles(ctx: AppContext, sha256s: readonly string[]): void {
  if (sha256s.length === 0) return;
  const node = nodeOf(ctx);
  const wanted = new Set(sha256s);
  for (const [id, path] of node.current) {
    const sha = path.slice(path.lastIndexOf("/") + 1).replace(/\.parquet$/, "");
    if (!wanted.has(sha)) continue;
    node.current.delete(id);
    node.retired.add(path);
    void removeIfUnused(node, path);
  }
}

async function ensureLocal(ctx: AppContext, node: NodeFiles, m: ServedMaterialization, path: string): Promise<boolean> {
  if (await isFile(path)) return true;
  let pending = node.fetching.get(path);
  if (!pending) {
    pending = fetchFile(ctx.sql, m.sha256, path);
    node.fetching.set(path, pending);
    pending.finally(() => node.fetching.delete(path)).catch(() => {});
  }
  return await pending;
}

/**
 * The model a query of `compiled` (version `target`) runs against: with
 * every built materialization of the model substituted for its `#@ persist`
 * source, or `compiled` itself before the first build. Files are pinned
 * until {@link ServedModel.release}. `target.hasBuilt: false` (the caller read
 * in its own statement that none is built) skips the lookup.
 */
export async function serveMaterializations(
  ctx: AppContext,
  compiled: CompiledModel,
  target: { versionUuid: string; blobSha256: string; hasBuilt?: boolean },
): Promise<ServedModel> {
  const node = nodeOf(ctx);
  let built = target.hasBuilt === false ? [] : await servedMaterializations(ctx.sql, target.versionUuid, compiled.path);
  if (built.length === 0) return { compiled, materializationFor: () => undefined, redact: (text) => text, release: () => {}, readable: new Set() };
  const folder = `${resolve(ctx.config.dataDir, "materializations", target.blobSha256)}/`;
  let local: Array<ServedMaterialization & { path: string }> = [];
  const pinned: string[] = [];
  const release = () => {
    for (const path of pinned.splice(0)) {
      node.pins.set(path, (node.pins.get(path) ?? 1) - 1);
      if (node.pins.get(path) === 0) node.pins.delete(path);
      void removeIfUnused(node, path);
    }
  };
  try {
    // A file deleted between the read and the fetch was replaced: read again (twice at most).
    for (let attempt = 0; attempt < 3; attempt++) {
      local = built.map((m) => ({ ...m, path: pathOf(ctx, target.blobSha256, m.sha256) }));
      for (const m of local) {
        pinned.push(m.path);
        node.pins.set(m.path, (node.pins.get(m.path) ?? 0) + 1);
      }
      const present = await Promise.all(local.map((m) => ensureLocal(ctx, node, m, m.path)));
      if (present.every(Boolean)) break;
      release();
      local = [];
      built = await servedMaterializations(ctx.sql, target.versionUuid, compiled.path);
    }
    for (const m of local) {
      const previous = node.current.get(m.id);
      if (previous !== undefined && previous !== m.path) {
        node.retired.add(previous);
        void removeIfUnused(node, previous);
      }
      node.current.set(m.id, m.path);
    }
    const servedModel = local.length === 0 ? compiled : await rewritten(node, compiled, local);
    return {
      compiled: servedModel,
      materializationFor(sql: string) {
        const m = local.find((l) => sql.includes(l.path.replace(/'/g, "''")));
        return m ? { id: m.id, builtAt: m.builtAt } : undefined;
      },
      redact: (text) => text.split(folder.replace(/'/g, "''")).join("materializations/"),
      release,
      readable: new Set(local.map((m) => resolve(m.path))),
    };
  } catch (error) {
    release();
    throw error;
  }
}

async function rewritten(node: NodeFiles, compiled: CompiledModel, local: Array<ServedMaterialization & { path: string }>): Promise<CompiledModel> {
  let perModel = node.models.get(compiled);
  if (!perModel) {
    perModel = new Map();
    node.models.set(compiled, perModel);
  }
  const key = local.map((m) => `${m.sourceName}:${m.sha256}`).join("|");
  let pending = perModel.get(key);
  if (!pending) {
    pending = (async () => {
      const { modelDef, used } = rewriteModel(compiled.model._modelDef, local.map((m) => ({ sourceName: m.sourceName, path: m.path, columns: m.columns })));
      if (used.size === 0) return compiled;
      const model = await compiled.pkg.runtime._loadModelFromModelDef(modelDef).getModel();
      return { ...compiled, model, defined: compiled.defined ?? compiled.model };
    })();
    // Keep the models of the last few file sets only.
    if (perModel.size >= 4) perModel.delete(perModel.keys().next().value!);
    perModel.set(key, pending);
    pending.catch(() => perModel.delete(key));
  }
  return await pending;
}

/**
 * Deletes stored files no materialization points at any more (their version
 * or package was deleted) and, on this node, cached files the database no
 * longer has and no query reads. Run now and then by the run worker.
 */
export async function sweepMaterializationFiles(ctx: AppContext): Promise<void> {
  const node = nodeOf(ctx);
  await deleteOrphanFiles(ctx.sql);
  const root = resolve(ctx.config.dataDir, "materializations");
  const entries = await readdir(root, { recursive: true }).catch(() => [] as string[]);
  const local = entries.filter((e) => /^[0-9a-f]{64}\/[0-9a-f]{64}\.parquet$/.test(e));
  if (local.length === 0) return;
  const shas = [...new Set(local.map((e) => e.slice(65, 129)))];
  const rows = await ctx.sql`SELECT sha256 FROM materialization_files WHERE sha256 = ANY(${shas}::text[])`;
  const kept = new Set(rows.map((r) => r.sha256 as string));
  for (const entry of local) {
    if (kept.has(entry.slice(65, 129))) continue;
    const path = resolve(root, entry);
    node.retired.add(path);
    await removeIfUnused(node, path);
  }
}
