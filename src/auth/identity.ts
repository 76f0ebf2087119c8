/**
 * The per-app services of sign-in: the bounded password hasher, the sign-in
 * failure counters and the per-address counter of failed authentications.
 * @module
 */
import type { Config } from "../config.ts";
import type { Db } from "../db/database.ts";
import { createFailureCounter, type FailureCounter } from "../http/rate_limit.ts";
import { createPasswordHasher, type PasswordHasher } from "./passwords.ts";
import { createSigninGuard, type SigninGuard } from "./signin_guard.ts";

/** Sign-in services of one app instance. */
export interface IdentityServices {
  passwords: PasswordHasher;
  signin: SigninGuard;
  /** Invalid Bearer tokens and API keys per client address (`AUTH_MAX_FAILURES_PER_MINUTE`). */
  authFailures: FailureCounter;
}

/** Creates the sign-in services from the configuration. */
export function createIdentityServices(sql: Db, config: Config): IdentityServices {
  return {
    passwords: createPasswordHasher(config),
    signin: createSigninGuard(sql, config),
    authFailures: createFailureCounter(config.authMaxFailuresPerMinute),
  };
}
