/**
 * The request edge: one decoding step before routing. The path is decoded
 * once and refused (`400 INVALID_PATH`) when it holds a dot segment in any
 * encoding, a backslash, NUL or another control character, an unpaired
 * surrogate or invalid UTF-8, or something a second decoding would change;
 * query strings get the same checks (`400 VALIDATION_ERROR`). Bodies are
 * capped (Content-Length, then a streamed count: `413`), JSON bodies are
 * scanned linearly for nesting deeper than {@link MAX_JSON_DEPTH}, NUL and
 * unpaired surrogates before anything parses them, and a PATCH body must be
 * a JSON object. No handler runs for a refused request. Whether a request
 * carries JSON text ({@link carriesJson}) is kept for the body check of the
 * routes (json_body.ts), which refuses malformed and non-object bodies.
 * @module
 */
import { ApiError } from "./errors.ts";
import { rawTarget } from "./raw_server.ts";

/** Deepest nesting of arrays and objects a JSON body may have. */
const MAX_JSON_DEPTH = 64;

/** Limits of {@link guardRequest}. */
export interface EdgeLimits {
  /** Most bytes of a JSON (or any non-upload) body (`MAX_BODY_BYTES`). */
  maxBodyBytes: number;
  /** Most bytes of an upload body: multipart, zip, octet-stream (`MAX_UPLOAD_BYTES`). */
  maxUploadBytes: number;
}

/** Reads `MAX_BODY_BYTES` (default 2 MiB: a 1 MiB document and its JSON) and `MAX_UPLOAD_BYTES` (default 256 MiB). */
export function edgeLimits(env: Record<string, string | undefined> = process.env): EdgeLimits {
  return {
    maxBodyBytes: positive(env.MAX_BODY_BYTES, 2 * 1024 * 1024, "MAX_BODY_BYTES"),
    maxUploadBytes: positive(env.MAX_UPLOAD_BYTES, 256 * 1024 * 1024, "MAX_UPLOAD_BYTES"),
  };
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === "") return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got '${value}'`);
  return n;
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function invalidPath(message: string): ApiError {
  return new ApiError("INVALID_PATH", `request path ${message}; send each segment percent-encoded once, without '.' or '..' segments`);
}

/** Decodes `%XX` escapes once into bytes, then UTF-8 (fatal); null when an escape or the UTF-8 is broken. */
function percentDecode(text: string): string | null {
  if (!text.includes("%")) return text;
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25) {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return null;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c < 0x80) {
      bytes.push(c);
    } else {
      // A raw non-ASCII character (the URL parser normally escapes these): keep its UTF-8 bytes.
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) i++;
      for (const b of new TextEncoder().encode(String.fromCodePoint(cp))) bytes.push(b);
    }
  }
  try {
    return utf8.decode(new Uint8Array(bytes));
  } catch {
    return null;
  }
}

/** What is wrong with a decoded text (control character, NUL, replacement of an unpaired surrogate), or null. */
function badCharacter(text: string, allowWhitespace: boolean): string | null {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0) return "contains NUL";
    if ((c < 0x20 || (c >= 0x7f && c <= 0x9f)) && !(allowWhitespace && (c === 0x09 || c === 0x0a || c === 0x0d))) {
      return "contains a control character";
    }
    if (c === 0xfffd) return "contains U+FFFD (an unpaired surrogate or invalid byte)";
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return "contains an unpaired surrogate";
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return "contains an unpaired surrogate";
  }
  return null;
}

/** The path and query of a request URL as received, without normalizing. */
function splitTarget(url: string): { path: string; query: string } {
  const afterAuthority = url.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/, "");
  const hash = afterAuthority.indexOf("#");
  const target = hash === -1 ? afterAuthority : afterAuthority.slice(0, hash);
  const q = target.indexOf("?");
  return q === -1 ? { path: target, query: "" } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

/**
 * Checks a request path (raw, as received): throws `400 INVALID_PATH` unless
 * one decoding gives valid UTF-8 without control characters, backslashes,
 * `.`/`..` segments, or escapes that a second decoding would turn into any
 * of these (double encoding). Returns the decoded path.
 */
export function checkPath(raw: string): string {
  if (raw.includes("\\")) throw invalidPath("contains a backslash");
  const decoded = percentDecode(raw);
  if (decoded === null) throw invalidPath("is not valid percent-encoded UTF-8 (overlong or broken sequences are refused)");
  const bad = badCharacter(decoded, false);
  if (bad) throw invalidPath(bad);
  if (decoded.includes("\\")) throw invalidPath("contains an encoded backslash");
  for (const segment of decoded.split("/")) {
    if (segment === "." || segment === "..") throw invalidPath("contains a '.' or '..' segment");
  }
  if (/%[0-9a-fA-F]{2}/.test(decoded)) {
    // Whatever decodes it again (a router, a proxy, a file system call) must see nothing new.
    const twice = percentDecode(decoded);
    if (twice === null || twice !== decoded.replace(/%25/g, "%")) {
      throw invalidPath("is encoded more than once (a '%' escape survives one decoding)");
    }
  }
  return decoded;
}

/** Checks a query string: each name and value decodes to valid UTF-8 without NUL or control characters (tab and newlines allowed in values). */
function checkQuery(raw: string): void {
  if (!raw) return;
  for (const pair of raw.split("&")) {
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const name = percentDecode((eq === -1 ? pair : pair.slice(0, eq)).replaceAll("+", " "));
    const value = eq === -1 ? "" : percentDecode(pair.slice(eq + 1).replaceAll("+", " "));
    if (name === null || value === null) {
      throw new ApiError("VALIDATION_ERROR", "query string is not valid percent-encoded UTF-8");
    }
    const bad = badCharacter(name, false) ?? badCharacter(value, true);
    if (bad) throw new ApiError("VALIDATION_ERROR", `query parameter '${name.slice(0, 40)}' ${bad}`);
  }
}

/**
 * Scans JSON text once, left to right, without building anything: throws
 * `400` when arrays and objects nest deeper than `maxDepth`, or a string
 * holds NUL (`\u0000`) or an unpaired surrogate escape. Syntax errors are
 * left to the parser.
 */
function scanJson(text: string, maxDepth = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x22) inString = false;
      else if (c === 0) throw new ApiError("VALIDATION_ERROR", "request body: a JSON string contains NUL");
      else if (c === 0x5c) {
        const next = text.charCodeAt(i + 1);
        if (next === 0x75) {
          const unit = parseInt(text.slice(i + 2, i + 6), 16);
          if (unit === 0) throw new ApiError("VALIDATION_ERROR", "request body: a JSON string contains NUL (\\u0000)");
          if (unit >= 0xd800 && unit <= 0xdbff) {
            const low = text.slice(i + 6, i + 8) === "\\u" ? parseInt(text.slice(i + 8, i + 12), 16) : NaN;
            if (!(low >= 0xdc00 && low <= 0xdfff)) throw unpaired();
            i += 11;
            continue;
          }
          if (unit >= 0xdc00 && unit <= 0xdfff) throw unpaired();
          i += 5;
        } else i++;
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const next = text.charCodeAt(i + 1);
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
        else throw unpaired();
      } else if (c === 0xfffd) {
        throw new ApiError("VALIDATION_ERROR", "request body: a JSON string contains U+FFFD (invalid UTF-8 or an unpaired surrogate)");
      }
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) {
        throw new ApiError("VALIDATION_ERROR", `request body nests arrays and objects deeper than ${maxDepth} levels`);
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
}

function unpaired(): ApiError {
  return new ApiError("VALIDATION_ERROR", "request body: a JSON string contains an unpaired surrogate");
}

function tooLarge(limit: number): ApiError {
  return new ApiError("VALIDATION_ERROR", `request body is larger than ${limit} bytes, the limit of this route`, { status: 413 });
}

/** Whether a content type is an upload (multipart, zip, octet-stream) rather than a document. */
function isUpload(contentType: string): boolean {
  return /^(multipart\/|application\/(zip|x-zip-compressed|octet-stream))/i.test(contentType);
}

/** Reads at most `limit` bytes of a body; 413 past it, whatever Content-Length said. */
async function readCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** A body stream that errors (and marks the request) once more than `limit` bytes passed. */
function cappedStream(body: ReadableStream<Uint8Array>, limit: number, onExceeded: () => void): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > limit) {
          onExceeded();
          controller.error(tooLarge(limit));
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

const exceeded = new WeakSet<Request>();

/** Whether an upload body was cut at its limit while a handler read it (the error handler answers 413). */
export function bodyExceeded(request: Request): boolean {
  return exceeded.has(request);
}

const jsonRequests = new WeakSet<Request>();

/** Whether the edge passed this request with a JSON body that is not blank. */
export function carriesJson(request: Request): boolean {
  return jsonRequests.has(request);
}

/**
 * Runs every edge check on a request before routing. Returns the request to
 * route: the same one, or a copy whose body was read (JSON and other small
 * bodies) or wrapped in a counting stream (uploads). Throws an
 * {@link ApiError} for a refused request.
 */
export async function guardRequest(request: Request, limits: EdgeLimits): Promise<Request> {
  // The target as the client sent it when the server kept it (raw_server.ts), else the URL (already normalized).
  const { path, query } = splitTarget(rawTarget(request) ?? request.url);
  checkPath(path);
  checkQuery(query);
  if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS" || !request.body) return request;
  const contentType = request.headers.get("content-type") ?? "";
  const upload = isUpload(contentType);
  const limit = upload ? limits.maxUploadBytes : limits.maxBodyBytes;
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const init = { method: request.method, headers: request.headers, signal: request.signal };
  if (upload) {
    let copy: Request | undefined;
    const body = cappedStream(request.body, limit, () => copy && exceeded.add(copy));
    copy = new Request(request.url, { ...init, body, duplex: "half" } as RequestInit);
    return copy;
  }
  const bytes = await readCapped(request.body, limit);
  let json = false;
  let blank = false;
  if (/json/i.test(contentType) || request.method === "PATCH") {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      throw new ApiError("VALIDATION_ERROR", "request body is not valid UTF-8");
    }
    scanJson(text);
    json = text.trim() !== "";
    blank = !json;
    if (request.method === "PATCH") {
      let value: unknown;
      try {
        value = text.trim() === "" ? undefined : JSON.parse(text);
      } catch {
        throw new ApiError("VALIDATION_ERROR", "request body is not valid JSON");
      }
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        throw new ApiError("VALIDATION_ERROR", "a PATCH body must be a JSON object with the fields to change");
      }
    }
  }
  // blank JSON text is no body (a client that sends the content type on every request, as curl with a header list does)
  const copy = new Request(request.url, blank ? init : { ...init, body: bytes });
  if (json) jsonRequests.add(copy);
  return copy;
}
