/**
 * Keyset paging: `?limit=` (default 100, max 1000) and an opaque `?cursor=`;
 * when more remain the response carries `Link: <...>; rel="next"`. A cursor
 * is the sort key of the last row, base64url, signed with an HMAC-SHA256 of
 * the service's secret: a cursor the service did not make (edited, truncated,
 * from another deployment) is `400 INVALID_CURSOR` before any query runs.
 * @module
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ApiError } from "./errors.ts";

let cursorKey: Uint8Array = randomBytes(32);

/** Sets the key cursors are signed with (the service's JWT secret, so every node of a deployment accepts them). */
export function setCursorSecret(secret: string): void {
  cursorKey = createHmac("sha256", secret).update("cursor-signing-key").digest();
}

function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64url");
}

function signature(payload: string): Uint8Array {
  return createHmac("sha256", cursorKey).update(payload).digest().subarray(0, 16);
}

function invalidCursor(): ApiError {
  return new ApiError("INVALID_CURSOR", "cursor is not valid; use the value from the Link rel=next header of the previous page");
}

/** Default page size. */
export const DEFAULT_LIMIT = 100;

/** Encodes (and signs) the sort key of the last row of a page. */
function encodeCursor(key: string): string {
  const payload = base64url(new TextEncoder().encode(key));
  return `${payload}.${base64url(signature(payload))}`;
}

/** Decodes a cursor: `400 INVALID_CURSOR` unless {@link encodeCursor} of this deployment made it. */
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const match = /^([A-Za-z0-9_-]{1,700})\.([A-Za-z0-9_-]{22})$/.exec(cursor);
  if (!match) throw invalidCursor();
  const given = Buffer.from(match[2]!, "base64url");
  const expected = signature(match[1]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidCursor();
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.from(match[1]!, "base64url"));
  } catch {
    throw invalidCursor();
  }
}

/** Options of {@link pageResponse}. */
export interface PageOptions<R> {
  limit: number;
  /** Sort key of a row, encoded into the next cursor. */
  key: (row: R) => string;
  set: { headers: Record<string, string | number> };
}

/**
 * Given `limit + 1` rows fetched, returns the page and sets the `Link` header
 * when a next page exists.
 */
export function pageResponse<R>(request: Request, rows: R[], options: PageOptions<R>): R[] {
  if (rows.length <= options.limit) return rows;
  const page = rows.slice(0, options.limit);
  const url = new URL(request.url);
  url.searchParams.set("cursor", encodeCursor(options.key(page[page.length - 1] as R)));
  url.searchParams.set("limit", String(options.limit));
  options.set.headers["link"] = `<${url.pathname}${url.search}>; rel="next"`;
  return page;
}
