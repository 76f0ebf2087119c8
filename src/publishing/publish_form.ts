/**
 * The publish form: reading a multipart publish request (the `package` and
 * `version` JSON parts, the zip streamed to a temporary upload file with its
 * hashes, `md5Hash`) before anything is stored, and the folder of upload files.
 * @module
 */
import { createHash } from "node:crypto";
import { type FileHandle, mkdir, open, readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { gcHint } from "../engine/mod.ts";
import { ValidationError } from "../errors.ts";
import { MultipartError, multipartBoundary, type PartSink, readMultipart } from "../http/multipart.ts";
import { SEMVER_PATTERN } from "../http/params.ts";

/** An uploaded archive: a temporary file in `DATA_DIR/uploads` and its hashes. */
export interface UploadedArchive {
  path: string;
  size: number;
  /** Hex sha256 of the file (the key it is stored and extracted under). */
  sha256: string;
}

/** The parts of a publish request, checked. */
export interface PublishForm {
  /** The `package` part: `description` and other metadata. */
  packageMeta: Record<string, unknown>;
  versionId: string;
  pinLatest: boolean;
  /** The archive, received to a file (a request), or ... */
  archive?: UploadedArchive;
  /** ... its bytes (the watcher and the demo: small archives built in memory). */
  zip?: Uint8Array;
}

/** A form read from a request: its archive is a temporary file, removed by `dispose`. */
export interface ReceivedPublishForm extends PublishForm {
  archive: UploadedArchive;
  /** Removes the temporary file (call it when the publish is over, whatever its outcome). */
  dispose(): Promise<void>;
}

const FORM_HELP = "send multipart/form-data with parts package (JSON), version (JSON {\"id\": \"1.0.0\"}), packageFile (the zip) and md5Hash (hex md5 of the zip)";

/** Most bytes kept of a part other than `packageFile` (JSON parts, md5Hash). */
const MAX_FIELD_BYTES = 1_000_000;

/** A part other than `packageFile`, as received. */
interface FieldPart {
  text: string | undefined;
  isFile: boolean;
}

function jsonPart(fields: Map<string, FieldPart>, part: string, options: { required: boolean }): Record<string, unknown> | undefined {
  const value = fields.get(part);
  if (value === undefined) {
    if (options.required) throw new ValidationError(`part '${part}' is missing; ${FORM_HELP}`);
    return undefined;
  }
  // text, or a file part (`curl -F 'package=@package.json;type=application/json'`) of at most 1 MB
  let parsed: unknown;
  try {
    parsed = value.text === undefined ? undefined : JSON.parse(value.text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new ValidationError(`part '${part}' must be a JSON object (as text or as an application/json file part), e.g. ${part === "version" ? '{"id": "1.0.0"}' : '{"description": "..."}'}`);
  }
  return parsed as Record<string, unknown>;
}

/** Collects a part of at most {@link MAX_FIELD_BYTES} (text `undefined` past it). */
function fieldSink(fields: Map<string, FieldPart>, name: string, isFile: boolean): PartSink {
  const parts: Uint8Array[] = [];
  let size = 0;
  return {
    write(bytes) {
      size += bytes.length;
      if (size <= MAX_FIELD_BYTES) parts.push(bytes.slice());
    },
    end() {
      if (fields.has(name)) return; // the first of a repeated part counts, as FormData.get
      fields.set(name, { text: size <= MAX_FIELD_BYTES ? Buffer.concat(parts).toString("utf8") : undefined, isFile });
    },
  };
}

/**
 * Reads and checks the multipart form of a publish (400 naming the part that
 * is wrong). The body is streamed: `packageFile` goes straight to a temporary
 * file in `uploadDir` (hashed on the way), other parts are kept up to 1 MB
 * each, so memory stays small whatever the upload's size (the edge caps the
 * body at MAX_UPLOAD_BYTES, 413). The file is removed when the form is
 * refused, and by `dispose()` after the publish.
 */
export async function readPublishForm(request: Request, options: { packageName: string; uploadDir: string }): Promise<ReceivedPublishForm> {
  const boundary = multipartBoundary(request.headers.get("content-type"));
  if (!boundary || !request.body) throw new ValidationError(`request body is not a readable multipart form; ${FORM_HELP}`);
  await mkdir(options.uploadDir, { recursive: true });
  const path = join(options.uploadDir, `${crypto.randomUUID()}.zip`);
  const dispose = () => rm(path, { force: true });
  let handle: FileHandle | undefined;
  try {
    const fields = new Map<string, FieldPart>();
    let archive: { size: number; sha256: string; md5: string } | undefined;
    const discard: PartSink = { write() {} };
    await readMultipart(request.body, boundary, async (part) => {
      if (part.name !== "packageFile" || part.filename === undefined) return fieldSink(fields, part.name, part.filename !== undefined);
      if (archive || fields.has("packageFile")) return discard;
      const file = await open(path, "wx", 0o600);
      handle = file;
      const md5 = new Bun.CryptoHasher("md5");
      const sha = createHash("sha256");
      const moved = gcHint();
      let size = 0;
      return {
        async write(bytes) {
          md5.update(bytes);
          sha.update(bytes);
          size += bytes.length;
          moved(bytes.length);
          let done = 0;
          while (done < bytes.length) done += (await file.write(bytes, done, bytes.length - done)).bytesWritten;
        },
        async end() {
          handle = undefined;
          await file.close();
          archive = { size, sha256: sha.digest("hex"), md5: md5.digest("hex") };
        },
      };
    }).catch((error) => {
      if (error instanceof MultipartError) throw new ValidationError(`request body is not a readable multipart form (${error.message}); ${FORM_HELP}`);
      throw error;
    });
    const packageMeta = jsonPart(fields, "package", { required: false }) ?? {};
    if (packageMeta.name !== undefined && packageMeta.name !== options.packageName) {
      throw new ValidationError(`package.name '${String(packageMeta.name)}' differs from the package '${options.packageName}' of the path; leave it out or make them equal`);
    }
    if (packageMeta.description !== undefined && typeof packageMeta.description !== "string") {
      throw new ValidationError("package.description must be a string");
    }
    const version = jsonPart(fields, "version", { required: true })!;
    const id = version.id;
    if (typeof id !== "string" || !new RegExp(SEMVER_PATTERN).test(id)) {
      throw new ValidationError(`version.id '${String(id ?? "")}' must be three dot-separated integers, e.g. 1.0.0`);
    }
    if (version.pinLatest !== undefined && typeof version.pinLatest !== "boolean") {
      throw new ValidationError("version.pinLatest must be true or false");
    }
    if (!archive) {
      if (fields.has("packageFile")) throw new ValidationError("part 'packageFile' must be a file (the zip), not a text field");
      throw new ValidationError(`part 'packageFile' is missing; ${FORM_HELP}`);
    }
    const md5 = fields.get("md5Hash");
    if (md5 === undefined) throw new ValidationError(`part 'md5Hash' is missing; ${FORM_HELP}`);
    const expected = md5.text?.trim().toLowerCase();
    if (md5.isFile || expected === undefined || !/^[0-9a-f]{32}$/.test(expected)) {
      throw new ValidationError("part 'md5Hash' must be the 32 hex digits of the md5 of packageFile");
    }
    if (archive.md5 !== expected) {
      throw new ValidationError(`md5Hash ${expected} does not match packageFile (its md5 is ${archive.md5}); the upload was damaged or the hash is of another file`);
    }
    return {
      packageMeta,
      versionId: id,
      pinLatest: version.pinLatest !== false,
      archive: { path, size: archive.size, sha256: archive.sha256 },
      dispose,
    };
  } catch (error) {
    // the body broke off (or went over MAX_UPLOAD_BYTES) in the middle of the file
    await handle?.close().catch(() => {});
    await dispose();
    throw error;
  }
}

/** The folder of upload files of a data directory. */
export function uploadDirOf(dataDir: string): string {
  return join(dataDir, "uploads");
}

/**
 * Removes upload files older than `olderThanMs` (default an hour) from an
 * upload folder: those a crash left behind (every request removes its own).
 * Returns how many went.
 */
export async function removeStaleUploads(uploadDir: string, olderThanMs = 3_600_000): Promise<number> {
  const names = await readdir(uploadDir).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names) {
    if (!/^[0-9a-f-]{36}\.zip$/.test(name)) continue;
    const path = join(uploadDir, name);
    const info = await stat(path).catch(() => undefined);
    if (!info || Date.now() - info.mtimeMs < olderThanMs) continue;
    await rm(path, { force: true });
    removed++;
  }
  return removed;
}
