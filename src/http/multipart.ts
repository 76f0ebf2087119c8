/**
 * A streaming reader of `multipart/form-data` bodies: each part's bytes go to
 * a sink as they arrive (a file part straight to disk), so a large upload is
 * never held in memory. Only a part's headers (at most 16 KiB) and the bytes
 * that may start the next boundary are buffered.
 * @module
 */
import { ApiError } from "./errors.ts";

/** The headers of one part. */
export interface PartInfo {
  /** The `name` of its Content-Disposition ("" when absent). */
  name: string;
  /** The `filename` when the part is a file (possibly ""). */
  filename?: string;
  /** Its Content-Type, when given. */
  contentType?: string;
}

/** Where the bytes of one part go. `write` may keep `bytes` only until it returns. */
export interface PartSink {
  write(bytes: Uint8Array): Promise<void> | void;
  end?(): Promise<void> | void;
}

/** The body is not a well-formed multipart form. */
export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MultipartError";
  }
}

const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

/** The boundary of a `multipart/form-data` Content-Type, or undefined. */
export function multipartBoundary(contentType: string | null): string | undefined {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType.trim())) return undefined;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

/**
 * Reads a multipart body, calling `onPart` for each part and handing its
 * bytes to the returned sink in order. Throws {@link MultipartError} for a
 * malformed body; errors of the stream (such as the upload limit) and of the
 * sinks pass unchanged.
 */
export async function readMultipart(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  onPart: (part: PartInfo) => PartSink | Promise<PartSink>,
): Promise<void> {
  const first = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const reader = body.getReader();
  let buf: Buffer = Buffer.alloc(0);
  const more = async (): Promise<boolean> => {
    let next: Awaited<ReturnType<typeof reader.read>>;
    try {
      next = await reader.read();
    } catch (error) {
      // the edge's upload limit (413) passes; a body that broke off is a bad request
      if (error instanceof ApiError) throw error;
      throw new MultipartError(`the body broke off (${error instanceof Error ? error.message : String(error)})`);
    }
    const { done, value } = next;
    if (done) return false;
    const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    return true;
  };
  const need = async (what: string) => {
    if (!(await more())) throw new MultipartError(`the body ends before ${what}`);
  };
  try {
    // preamble, up to the first boundary
    for (;;) {
      const at = buf.indexOf(first);
      if (at >= 0) {
        buf = buf.subarray(at + first.length);
        break;
      }
      if (buf.length > first.length) buf = Buffer.from(buf.subarray(buf.length - first.length));
      await need("its first boundary");
    }
    for (;;) {
      // after a boundary: "--" ends the form, else the rest of the line is padding
      while (buf.length < 2) await need("the end of a boundary line");
      if (buf[0] === 0x2d && buf[1] === 0x2d) return;
      let eol: number;
      while ((eol = buf.indexOf(CRLF)) < 0) {
        if (buf.length > 1024) throw new MultipartError("a boundary line is too long");
        await need("the end of a boundary line");
      }
      buf = buf.subarray(eol + 2);
      // headers
      let end: number;
      for (;;) {
        end = buf.subarray(0, 2).equals(CRLF) ? -2 : buf.indexOf(HEADER_END);
        if (end !== -1) break;
        if (buf.length > MAX_HEADER_BYTES) throw new MultipartError(`the headers of a part take more than ${MAX_HEADER_BYTES} bytes`);
        await need("the end of a part's headers");
      }
      const info = end === -2 ? { name: "" } : parseHeaders(buf.subarray(0, end).toString("utf8"));
      buf = buf.subarray(end === -2 ? 2 : end + 4);
      const sink = await onPart(info);
      // body, up to the next delimiter; keep the bytes that may start it
      for (;;) {
        const at = buf.indexOf(delimiter);
        if (at >= 0) {
          if (at > 0) await sink.write(buf.subarray(0, at));
          await sink.end?.();
          buf = buf.subarray(at + delimiter.length);
          break;
        }
        const keep = delimiter.length - 1;
        if (buf.length > keep) {
          await sink.write(buf.subarray(0, buf.length - keep));
          buf = Buffer.from(buf.subarray(buf.length - keep));
        }
        await need(`the end of part '${info.name}'`);
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

function parseHeaders(text: string): PartInfo {
  const info: PartInfo = { name: "" };
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (key === "content-type") info.contentType = value;
    if (key !== "content-disposition") continue;
    const name = param(value, "name");
    if (name !== undefined) info.name = name;
    const filename = param(value, "filename");
    if (filename !== undefined) info.filename = filename;
  }
  return info;
}

function param(value: string, key: string): string | undefined {
  const match = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, "i").exec(value);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, "$1") : match[2];
}
