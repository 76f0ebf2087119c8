/**
 * Keyset paging: `?limit=` (default 100, max 1000) and an opaque `?cursor=`;
 * when more remain the response carries `Link: <...>; rel="next"`.
 * @module
 */
import { badRequest } from "./errors.ts";

/** Default page size. */
export const DEFAULT_LIMIT = 100;

/** Encodes the sort key of the last row of a page. */
export function encodeCursor(key: string): string {
  return btoa(key).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");
}

/** Decodes a cursor (400 when it was not made by {@link encodeCursor}). */
export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  try {
    return atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
  } catch {
    throw badRequest("cursor is not valid; use the value from the Link rel=next header");
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
