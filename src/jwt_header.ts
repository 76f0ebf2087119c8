/**
 * The protected header (`alg`, `typ`) of a compact JWT, as jose's
 * `decodeProtectedHeader` reads it, remembered by its header segment: a
 * request's `Authorization` is asked "is this an app token, an OAuth access
 * token, which algorithm?" by several authenticators, and the few header
 * segments in use (one per kind of token) are decoded once instead of on
 * each question of each request. The key is the header segment only (public,
 * no secret is kept); at most {@link MAX_HEADERS} are remembered.
 * @module
 */
import { decodeProtectedHeader, type ProtectedHeaderParameters } from "jose";

/** Header segments remembered (most recently added last). */
const MAX_HEADERS = 64;
const known = new Map<string, Readonly<ProtectedHeaderParameters>>();

/** Dots in `token`, counting up to 5. */
function dots(token: string): number {
  let n = 0;
  for (let at = token.indexOf("."); at >= 0 && n < 5; at = token.indexOf(".", at + 1)) n++;
  return n;
}

/**
 * The protected header of a compact JWS or JWE (3 or 5 segments); throws
 * what `decodeProtectedHeader` throws for anything else.
 */
export function protectedHeaderOf(token: string): Readonly<ProtectedHeaderParameters> {
  const end = token.indexOf(".");
  const segment = end > 0 ? token.slice(0, end) : undefined;
  const hit = segment === undefined ? undefined : known.get(segment);
  const parts = dots(token) + 1;
  if (hit && (parts === 3 || parts === 5)) return hit;
  const header = Object.freeze(decodeProtectedHeader(token));
  if (segment !== undefined) {
    if (known.size >= MAX_HEADERS) known.delete(known.keys().next().value!);
    known.set(segment, header);
  }
  return header;
}
