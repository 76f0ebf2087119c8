/**
 * What every route plugin receives: the database, the configuration and the
 * per-process services.
 * @module
 */
import type { Config } from "../config.ts";
import type { Sql } from "../db/database.ts";
import type { RateLimiter } from "./rate_limit.ts";
import type { IdentityServices } from "../auth/identity.ts";

/** Shared services of one app instance. */
export interface AppContext {
  /** Distinguishes app instances (plugin de-duplication seed). */
  id: string;
  sql: Sql;
  config: Config;
  /** `embedded` (PGlite) or `server`. */
  dbKind: "embedded" | "server";
  jwtSecret: string;
  limiter: RateLimiter;
  /** Password hashing bound, sign-in and authentication failure counters. */
  identity: IdentityServices;
  startedAt: Date;
  /** Writes one structured log line. */
  log(line: Record<string, unknown>): void;
}

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
