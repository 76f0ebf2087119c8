/**
 * Publishing a package version: the multipart form, its checks (md5, semver,
 * archive policy and limits, every model compiles) and the one transaction
 * that stores the archive, the version and its model metadata. A refused
 * publish stores nothing.
 * @module
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { Db, Sql } from "../db/database.ts";
import {
  closePackageDuckDB,
  compilePackage,
  extractArchive,
  fileText,
  type LookupConnection,
  type ModelMetadata,
  modelMetadata,
  readArchive,
  removeExtracted,
  sha256Hex,
} from "../engine/mod.ts";
import type { PackageFiles } from "../engine/archive.ts";
import { ApiError, badRequest, conflict } from "../http/errors.ts";
import { SEMVER_PATTERN } from "../http/params.ts";
import { insertModelMetadata } from "../models/store.ts";
import { checkAccessAnnotations, withAccess } from "../rls/publish_check.ts";
import { insertVersion, type VersionRow } from "../versions/store.ts";
import { ensurePackage, putBlob, updatePackage } from "./store.ts";

/** The parts of a publish request, checked. */
export interface PublishForm {
  /** The `package` part: `description` and other metadata. */
  packageMeta: Record<string, unknown>;
  versionId: string;
  pinLatest: boolean;
  zip: Uint8Array;
}

const FORM_HELP = "send multipart/form-data with parts package (JSON), version (JSON {\"id\": \"1.0.0\"}), packageFile (the zip) and md5Hash (hex md5 of the zip)";

async function jsonPart(form: FormData, part: string, options: { required: boolean }): Promise<Record<string, unknown> | undefined> {
  const value = form.get(part);
  if (value === null) {
    if (options.required) throw badRequest(`part '${part}' is missing; ${FORM_HELP}`);
    return undefined;
  }
  // text, or a file part (`curl -F 'package=@package.json;type=application/json'`) of at most 1 MB
  const text = typeof value === "string" ? value : value.size <= 1_000_000 ? await value.text() : undefined;
  let parsed: unknown;
  try {
    parsed = text === undefined ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw badRequest(`part '${part}' must be a JSON object (as text or as an application/json file part), e.g. ${part === "version" ? '{"id": "1.0.0"}' : '{"description": "..."}'}`);
  }
  return parsed as Record<string, unknown>;
}

/** Reads and checks the multipart form of a publish (400 naming the part that is wrong). */
export async function readPublishForm(request: Request, options: { packageName: string }): Promise<PublishForm> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw badRequest(`request body is not a readable multipart form; ${FORM_HELP}`);
  }
  const packageMeta = (await jsonPart(form, "package", { required: false })) ?? {};
  if (packageMeta.name !== undefined && packageMeta.name !== options.packageName) {
    throw badRequest(`package.name '${String(packageMeta.name)}' differs from the package '${options.packageName}' of the path; leave it out or make them equal`);
  }
  if (packageMeta.description !== undefined && typeof packageMeta.description !== "string") {
    throw badRequest("package.description must be a string");
  }
  const version = (await jsonPart(form, "version", { required: true }))!;
  const id = version.id;
  if (typeof id !== "string" || !new RegExp(SEMVER_PATTERN).test(id)) {
    throw badRequest(`version.id '${String(id ?? "")}' must be three dot-separated integers, e.g. 1.0.0`);
  }
  if (version.pinLatest !== undefined && typeof version.pinLatest !== "boolean") {
    throw badRequest("version.pinLatest must be true or false");
  }
  const file = form.get("packageFile");
  if (file === null) throw badRequest(`part 'packageFile' is missing; ${FORM_HELP}`);
  if (typeof file === "string") throw badRequest("part 'packageFile' must be a file (the zip), not a text field");
  const md5 = form.get("md5Hash");
  if (md5 === null) throw badRequest(`part 'md5Hash' is missing; ${FORM_HELP}`);
  if (typeof md5 !== "string" || !/^[0-9a-fA-F]{32}$/.test(md5.trim())) {
    throw badRequest("part 'md5Hash' must be the 32 hex digits of the md5 of packageFile");
  }
  const zip = new Uint8Array(await file.arrayBuffer());
  // Web Crypto has no MD5; Bun's hasher is the one non-standard call here.
  const actual = new Bun.CryptoHasher("md5").update(zip).digest("hex");
  if (actual !== md5.trim().toLowerCase()) {
    throw badRequest(`md5Hash ${md5.trim().toLowerCase()} does not match packageFile (its md5 is ${actual}); the upload was damaged or the hash is of another file`);
  }
  return { packageMeta, versionId: id, pinLatest: version.pinLatest !== false, zip };
}

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
  /** Longest one model's compile may take, ms (`COMPILE_TIMEOUT_MS`); past it the model is a problem. */
  compileTimeoutMs?: number;
}

/** What a publish stored. */
export interface Published {
  packageId: string;
  version: VersionRow;
  models: ModelMetadata[];
  packageDir: string;
  /** Notebooks that do not compile (published, not queryable), with their failing cells. */
  failedNotebooks?: NotebookReport[];
}

async function exists(path: string): Promise<boolean> {
  return await stat(path).then(() => true, () => false);
}

async function versionTaken(db: Db, target: PublishTarget, versionId: string): Promise<boolean> {
  const [r] = await db`SELECT 1 FROM package_versions v JOIN packages p ON p.id = v.package_id
                        WHERE p.env_id = ${target.envId} AND p.name = ${target.packageName} AND v.version_id = ${versionId}`;
  return !!r;
}

function duplicate(target: PublishTarget, versionId: string): ApiError {
  return conflict(`version ${versionId} of package '${target.packageName}' already exists; publish a new version id (versions are immutable)`);
}

/**
 * Checks, compiles and stores one version. Throws 400/413 (refused, nothing
 * stored) or 409 (the version id exists, also when a concurrent publish of the
 * same id won).
 */
export async function publishVersion(db: Sql, request: { target: PublishTarget; form: PublishForm }, options: PublishOptions): Promise<Published> {
  const { target, form } = request;
  if (await versionTaken(db, target, form.versionId)) throw duplicate(target, form.versionId);
  const files = readArchive(form.zip, { maxBytes: options.maxBytes, maxCompressionRatio: options.maxCompressionRatio });
  let publisher: Record<string, unknown> = {};
  try {
    publisher = JSON.parse(fileText(files, "publisher.json") ?? "{}");
  } catch {
    publisher = {};
  }
  const sha = await sha256Hex(form.zip);
  const hadDir = await exists(join(options.cacheDir, sha));
  const packageDir = await extractArchive(form.zip, { cacheDir: options.cacheDir, files, sha256: sha });
  let models: ModelMetadata[];
  let notebooks: NotebookReport[] = [];
  try {
    const compiled = await compileTolerantOfNotebooks(files, packageDir, options);
    notebooks = compiled.notebooks;
    await checkAccessAnnotations(db, target.envId, compiled.models.values());
    models = [...compiled.models.values()].map((m) => withAccess(modelMetadata(m), m));
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
      await putBlob(tx, sha, form.zip);
      const version = await insertVersion(tx, {
        packageId: pkg.id,
        versionId: form.versionId,
        blobSha256: sha,
        manifest: { package: form.packageMeta, publisher, ...(notebooks.length > 0 ? { failedNotebooks: notebooks } : {}) },
        createdBy: target.createdBy,
      }, { pinLatest: form.pinLatest });
      await insertModelMetadata(tx, { version: version.uuid, packageId: pkg.id, envId: target.envId }, models);
      return { packageId: pkg.id, version, models, packageDir, ...(notebooks.length > 0 ? { failedNotebooks: notebooks } : {}) };
    }) as Published;
  } catch (error) {
    if ((error as { code?: string }).code === "23505") throw duplicate(target, form.versionId);
    throw error;
  }
}

/** The archives (sha256) the versions of some packages use; read before deleting them. */
export async function archivesOf(db: Db, where: { packageId?: string; envId?: string; orgId?: string }): Promise<string[]> {
  const rows = await db`
    SELECT DISTINCT v.blob_sha256 AS sha FROM package_versions v JOIN packages p ON p.id = v.package_id
    JOIN environments e ON e.id = p.env_id
    WHERE (${where.packageId ?? null}::uuid IS NULL OR p.id = ${where.packageId ?? null}::uuid)
      AND (${where.envId ?? null}::uuid IS NULL OR e.id = ${where.envId ?? null}::uuid)
      AND (${where.orgId ?? null}::uuid IS NULL OR e.org_id = ${where.orgId ?? null}::uuid)`;
  return rows.map((r) => r.sha as string);
}

/**
 * After a delete committed: removes the extracted folder (`<cacheDir>/<sha>`)
 * of each of these archives that no version refers to any more (an archive
 * shared with another package stays). Returns how many folders went.
 */
export async function removeUnusedExtractions(db: Db, cacheDir: string, shas: string[]): Promise<number> {
  if (shas.length === 0) return 0;
  const used = new Set(
    (await db`SELECT DISTINCT blob_sha256 AS sha FROM package_versions WHERE blob_sha256 IN ${db(shas)}`).map((r) => r.sha as string),
  );
  let removed = 0;
  for (const sha of shas) {
    if (used.has(sha) || !/^[0-9a-f]{64}$/.test(sha)) continue;
    const dir = join(cacheDir, sha);
    if (!(await exists(dir))) continue;
    await closePackageDuckDB(dir);
    await removeExtracted(dir);
    removed++;
  }
  return removed;
}

/** A notebook that does not compile: published anyway (not queryable), its failing cells marked. */
export interface NotebookReport {
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
async function compileTolerantOfNotebooks(files: PackageFiles, packageDir: string, options: PublishOptions) {
  try {
    return { ...(await compilePackage(files, packageDir, { lookupConnection: options.lookupConnection, timeoutMs: options.compileTimeoutMs })), notebooks: [] as NotebookReport[] };
  } catch (error) {
    const problems = (error instanceof ApiError ? error.details.problems : undefined) as { file?: string; line?: number; column?: number; message?: string }[] | undefined;
    if (!problems?.length || !problems.every((p) => typeof p.file === "string" && p.file.endsWith(".malloynb") && files.has(p.file))) throw error;
    const failing = new Set(problems.map((p) => p.file!));
    const rest: PackageFiles = new Map([...files].filter(([path]) => !failing.has(path)));
    const compiled = await compilePackage(rest, packageDir, { lookupConnection: options.lookupConnection, timeoutMs: options.compileTimeoutMs });
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
