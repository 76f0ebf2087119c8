/**
 * Publishing a package version: its checks (md5, semver, archive policy and
 * limits, every model compiles) and the one transaction that stores the
 * archive, the version and its model metadata (the form is read by
 * ./publish_form.ts). A refused publish stores nothing.
 * @module
 */
import { declaredModels } from "../models/curation.ts";
import { mkdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Db, Sql } from "../db/database.ts";
import {
  closePackageDuckDB,
  type CompiledModel,
  compilePackage,
  extractArchiveFile,
  inspectArchive,
  type LookupConnection,
  type ModelMetadata,
  readModelFiles,
  removeExtracted,
  sha256Hex,
} from "../engine/mod.ts";
import type { PackageFiles } from "../engine/zip/archive.ts";
import { ConflictError } from "../errors.ts";
import { insertModelMetadata } from "../models/store.ts";
import { accessWarnings, checkAccessAnnotations } from "../rls/publish_check.ts";
import { DESCRIBE_MODEL, type PublishedModelFacts } from "./describe_model.ts";
import { insertVersion, type VersionRow } from "../versions/store.ts";
import { putArchive } from "../archives/store.ts";
import { type PublishForm, type UploadedArchive, uploadDirOf } from "./publish_form.ts";
import { ensurePackage, updatePackage } from "../packages/store.ts";

/** Where and by whom a version is published. */
export interface PublishTarget {
  envId: string;
  packageName: string;
  createdBy: string | null;
}

/** Settings of {@link publishVersion}. */
export interface PublishOptions {
  /** Folder of extracted packages (`DATA_DIR/packages`). */
  cacheDir: string;
  /** Most uncompressed bytes of an archive. */
  maxBytes: number;
  /** Most uncompressed bytes per compressed byte of one entry (default 100). */
  maxCompressionRatio?: number;
  /** The environment's connections by name. */
  lookupConnection?: LookupConnection;
  /** Folder of temporary upload files (default `uploads` next to `cacheDir`, i.e. `DATA_DIR/uploads`). */
  uploadDir?: string;
  /** Longest one model's compile may take, ms (`COMPILE_TIMEOUT_MS`); past it the model is a problem. */
  compileTimeoutMs?: number;
}

/** What a publish stored. */
export interface Published {
  packageId: string;
  version: VersionRow;
  models: ModelMetadata[];
  packageDir: string;
  /**
   * The published model files as this publish compiled them, by path (the
   * version's first run uses them instead of compiling them again).
   */
  compiled: ReadonlyMap<string, CompiledModel>;
  /** Notebooks that do not compile (published, not queryable), with their failing cells. */
  failedNotebooks?: NotebookReport[];
  /** Access gates a request decides (rls/publish_check.ts `accessWarnings`), as `{ message }`. */
  accessWarnings?: { message: string }[];
}

async function exists(path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false);
}

async function versionTaken(db: Db, target: PublishTarget, versionId: string): Promise<boolean> {
  const [r] = await db`SELECT 1 FROM package_versions v JOIN packages p ON p.id = v.package_id
                        WHERE p.env_id = ${target.envId} AND p.name = ${target.packageName} AND v.version_id = ${versionId}`;
  return !!r;
}

function duplicate(target: PublishTarget, versionId: string): ConflictError {
  return new ConflictError(`version ${versionId} of package '${target.packageName}' already exists; publish a new version id (versions are immutable)`);
}

/**
 * Checks, compiles and stores one version. Throws 400/413 (refused, nothing
 * stored) or 409 (the version id exists, also when a concurrent publish of the
 * same id won).
 */
export async function publishVersion(db: Sql, request: { target: PublishTarget; form: PublishForm }, options: PublishOptions): Promise<Published> {
  const { target, form } = request;
  if (await versionTaken(db, target, form.versionId)) throw duplicate(target, form.versionId);
  if (form.archive) return await publishArchive(db, target, form, form.archive, options);
  if (!form.zip) throw new Error("a publish form needs its archive (a file or bytes)");
  const uploadDir = options.uploadDir ?? uploadDirOf(dirname(options.cacheDir));
  await mkdir(uploadDir, { recursive: true });
  const path = join(uploadDir, `${crypto.randomUUID()}.zip`);
  try {
    await writeFile(path, form.zip, { mode: 0o600 });
    const archive = { path, size: form.zip.length, sha256: await sha256Hex(form.zip) };
    return await publishArchive(db, target, form, archive, options);
  } finally {
    await rm(path, { force: true });
  }
}

/**
 * The publish of an archive file: checked and unpacked entry by entry into
 * `<cacheDir>/<sha256>` (memory stays a few MiB; only model texts are read
 * into memory, for compilation), then stored in chunks in the transaction
 * that inserts the version.
 */
async function publishArchive(db: Sql, target: PublishTarget, form: PublishForm, archive: UploadedArchive, options: PublishOptions): Promise<Published> {
  const sha = archive.sha256;
  const limits = { maxBytes: options.maxBytes, maxCompressionRatio: options.maxCompressionRatio };
  const hadDir = await exists(join(options.cacheDir, sha));
  // an extracted folder is reused, but the archive still passes today's checks
  if (hadDir) await inspectArchive(archive.path, limits);
  const packageDir = await extractArchiveFile(archive.path, { cacheDir: options.cacheDir, sha256: sha, read: limits });
  let models: ModelMetadata[];
  let compiledModels: Map<string, CompiledModel>;
  let notebooks: NotebookReport[] = [];
  let publisher: Record<string, unknown> = {};
  let warnings: { message: string }[] = [];
  try {
    try {
      publisher = JSON.parse(await readFile(join(packageDir, "publisher.json"), "utf8"));
    } catch {
      publisher = {};
    }
    const files = await readModelFiles(packageDir);
    const compiled = await compileTolerantOfNotebooks(files, packageDir, options, target.envId);
    notebooks = compiled.notebooks;
    // metadata and access facts were computed in the compile worker (describe_model.ts)
    const facts = [...compiled.models.values()].map((m) => m.described as PublishedModelFacts);
    const access = facts.map((f) => ({ path: f.metadata.modelPath, sources: f.access }));
    await checkAccessAnnotations(db, target.envId, access);
    warnings = (await accessWarnings(db, target.envId, access)).map((message) => ({ message }));
    // a package that declares its queryable models (publisher.json explores) publishes only those as models
    const declared = declaredModels(publisher);
    models = facts.map((f) => f.metadata).filter((m) => !declared || declared(m.modelPath));
    // as a query compiles them (src/archives/compiled_models.ts): the declared files, each limited to what they declare
    compiledModels = new Map([...compiled.models].filter(([path]) => !declared || declared(path)));
    for (const m of compiledModels.values()) {
      delete m.described; // read above; not kept with the model
      if (declared) m.queryable = declared;
    }
  } catch (error) {
    if (!hadDir) {
      const [stored] = await db`SELECT 1 FROM package_blobs WHERE sha256 = ${sha}`;
      if (!stored) {
        await closePackageDuckDB(packageDir);
        await removeExtracted(packageDir).catch(() => {});
      }
    }
    throw error;
  }
  const description = typeof form.packageMeta.description === "string"
    ? form.packageMeta.description
    : typeof publisher.description === "string" ? publisher.description : undefined;
  const { name: _n, description: _d, ...metadata } = form.packageMeta;
  try {
    return await db.begin(async (tx) => {
      const pkg = await ensurePackage(tx, { envId: target.envId, name: target.packageName, description, metadata, createdBy: target.createdBy });
      if (!pkg.created && Object.keys(form.packageMeta).length > 0) {
        await updatePackage(tx, pkg.id, { description: form.packageMeta.description as string | undefined, metadata });
      }
      await putArchive(tx, archive.path, archive);
      const version = await insertVersion(tx, {
        packageId: pkg.id,
        versionId: form.versionId,
        blobSha256: sha,
        manifest: {
          package: form.packageMeta,
          publisher,
          ...(notebooks.length > 0 ? { failedNotebooks: notebooks } : {}),
          ...(warnings.length > 0 ? { accessWarnings: warnings } : {}),
        },
        createdBy: target.createdBy,
      }, { pinLatest: form.pinLatest });
      await insertModelMetadata(tx, { version: version.uuid, packageId: pkg.id, envId: target.envId }, models);
      return { packageId: pkg.id, version, models, packageDir, compiled: compiledModels,
        ...(notebooks.length > 0 ? { failedNotebooks: notebooks } : {}),
        ...(warnings.length > 0 ? { accessWarnings: warnings } : {}),
      };
    }) as Published;
  } catch (error) {
    if ((error as { code?: string }).code === "23505") throw duplicate(target, form.versionId);
    throw error;
  }
}

/** A compile problem as the engine's refusal lists it. */
interface CompileProblem {
  file?: string;
  line?: number;
  column?: number;
  message?: string;
}

/** The problems of the engine's compile refusal (its `details.problems`), `undefined` for any other failure. */
function compileProblems(error: unknown): CompileProblem[] | undefined {
  return (error as { details?: { problems?: CompileProblem[] } } | null | undefined)?.details?.problems;
}

/** A notebook that does not compile: published anyway (not queryable), its failing cells marked. */
interface NotebookReport {
  file: string;
  /** Failing cells: 0-based index among the notebook's cells, with their problems. */
  cells: { cell: number; problems: { line: number; column: number; message: string }[] }[];
}

/** The cell (0-based, counting `>>>` markers) of a notebook line (1-based). */
function cellOfLine(text: string, line: number): number {
  const lines = text.split("\n");
  let cell = -1;
  for (let i = 0; i < Math.min(line, lines.length); i++) if (lines[i]!.startsWith(">>>")) cell++;
  return Math.max(cell, 0);
}

/**
 * Compiles the package; when only `.malloynb` notebooks fail, compiles it again
 * without them and reports their failing cells (a failing notebook does not
 * refuse a package whose models compile, as Publisher does). Failing models
 * still refuse the package.
 */
async function compileTolerantOfNotebooks(files: PackageFiles, packageDir: string, options: PublishOptions, key: string) {
  try {
    return { ...(await compilePackage(files, packageDir, { lookupConnection: options.lookupConnection, timeoutMs: options.compileTimeoutMs, key, describe: DESCRIBE_MODEL })), notebooks: [] as NotebookReport[] };
  } catch (error) {
    const problems = compileProblems(error);
    if (!problems?.length || !problems.every((p) => typeof p.file === "string" && p.file.endsWith(".malloynb") && files.has(p.file))) throw error;
    const failing = new Set(problems.map((p) => p.file!));
    const rest: PackageFiles = new Map([...files].filter(([path]) => !failing.has(path)));
    const compiled = await compilePackage(rest, packageDir, { lookupConnection: options.lookupConnection, timeoutMs: options.compileTimeoutMs, key, describe: DESCRIBE_MODEL });
    const notebooks = [...failing].sort().map((file) => {
      const text = new TextDecoder().decode(files.get(file)!);
      const cells = new Map<number, NotebookReport["cells"][number]>();
      for (const p of problems.filter((q) => q.file === file)) {
        const cell = cellOfLine(text, p.line ?? 1);
        if (!cells.has(cell)) cells.set(cell, { cell, problems: [] });
        cells.get(cell)!.problems.push({ line: p.line ?? 0, column: p.column ?? 0, message: p.message ?? "" });
      }
      return { file, cells: [...cells.values()].sort((a, b) => a.cell - b.cell) };
    });
    return { ...compiled, notebooks };
  }
}
