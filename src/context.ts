/**
 * The application context: what every capability receives from the
 * composition root (src/app.ts): the database, the configuration and the
 * per-process services, described here by their interfaces. It sits below
 * every domain folder and below `src/http/`: it imports neither, so any
 * module may take an {@link AppContext} without climbing the layers.
 * @module
 */
import type { JWTPayload } from "jose";
import type { Principal } from "./access/principal.ts";
import type { Config } from "./config.ts";
import type { Sql } from "./db/database.ts";

/** A limiter holding one bucket per key, in this process (src/http/rate_limit.ts). */
export interface RateLimiter {
  /**
   * Takes `count` tokens (default 1) for the key, or none and throws 429 when
   * fewer are left (a request of several messages is refused whole).
   */
  take(key: string, count?: number): void;
}

/** Counts failures per key in a one-minute window (invalid Bearer tokens and API keys per client address). */
export interface FailureCounter {
  /** Throws 429 with `Retry-After` when the key already has the maximum of failures in its window. */
  check(key: string): void;
  /** Counts one failure. */
  fail(key: string): void;
}

/** Hashes and verifies passwords within the concurrency bound (src/auth/passwords.ts). */
export interface PasswordHasher {
  /** The argon2id hash of a password (new users, password changes). */
  hash(password: string): Promise<string>;
  /**
   * Whether `password` matches `hash`; without a hash (unknown user, no password)
   * a dummy hash is verified so both paths cost the same, and the answer is false.
   */
  verify(password: string, hash: string | null | undefined): Promise<boolean>;
  /** Verifications running and waiting (benchmarks, tests). */
  readonly load: { active: number; waiting: number };
}

/** The two counters a sign-in attempt touches. */
export interface SigninKeys {
  /** `account:<user id>` for an existing user, else `login:<what was typed, lower case>`. */
  account: string;
  /** `address:<client address>`. */
  address: string;
}

/** Checks and counts sign-in failures (src/auth/signin_guard.ts). */
export interface SigninGuard {
  /** Throws 429 (with `Retry-After`) when the account or the address is locked. */
  check(keys: SigninKeys): Promise<void>;
  /** Counts one failure on both keys. */
  fail(keys: SigninKeys): Promise<void>;
  /** A successful sign-in clears the account's counter (the address keeps its count). */
  succeed(keys: SigninKeys): Promise<void>;
}

/** Sign-in services of one app instance (made by src/auth/identity.ts). */
export interface IdentityServices {
  passwords: PasswordHasher;
  signin: SigninGuard;
  /** Invalid Bearer tokens and API keys per client address (`AUTH_MAX_FAILURES_PER_MINUTE`). */
  authFailures: FailureCounter;
}

/** Signs and verifies our own access tokens (the `@elysiajs/jwt` decorator). */
export interface TokenSigner {
  sign(payload: Record<string, string | number>): Promise<string>;
  verify(token?: string, options?: { algorithms?: string[] }): Promise<false | JWTPayload>;
}

/** What an {@link Authenticator} is given besides the request. */
export interface AuthenticateOptions {
  signer: TokenSigner;
  /** Counts failed credentials of the client address (the request's first check; a re-check counts nothing). */
  failures?: FailureCounter;
  address?: string;
  /** `performance.now()` from which cached decisions must be fresh (see src/http/auth_cache.ts). */
  since: number;
}

/**
 * One way of finding a request's caller: its principal, `null` when the
 * request carries no credential of this kind, or a thrown 401/403 for a
 * credential of this kind that does not (or no longer does) authenticate.
 */
type Authenticator = (request: Request, options: AuthenticateOptions) => Promise<Principal | null>;

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
  /**
   * Who a request's caller is, asked in order (the first principal wins);
   * the composition root lists them (app credentials, then access tokens and API keys).
   */
  authenticators: readonly Authenticator[];
  startedAt: Date;
  /** Writes one structured log line. */
  log(line: Record<string, unknown>): void;
}
