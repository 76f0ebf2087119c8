/**
 * Per-request facts (request id, start, principal, route, client address)
 * that the edge records and the logger reads after the response.
 * @module
 */

/** Per-request facts the logger reads after the response. */
export interface RequestMeta {
  id: string;
  start: number;
  principal?: string;
  route?: string;
  address?: string;
  /** The body is JSON text that is not blank (the edge read it): a parser that found nothing means it is malformed. */
  jsonBody?: boolean;
}

const metas = new WeakMap<Request, RequestMeta>();

/** Facts recorded for a request (request id, principal, route). */
export function requestMeta(request: Request): RequestMeta | undefined {
  return metas.get(request);
}

/** Starts recording facts of a request. */
export function beginRequest(request: Request, address?: string): RequestMeta {
  const meta: RequestMeta = { id: crypto.randomUUID(), start: performance.now(), address };
  metas.set(request, meta);
  return meta;
}
