/**
 * The per-app services of sign-in: the bounded password hasher, the sign-in
 * failure counters and the per-address counter of failed authentications.
 * @module
 */
import type { Config } from "../config.ts";
import type { Db } from "../db/database.ts";
import type { IdentityServices } from "../context.ts";
import { createFailureCounter } from "../http/rate_limit.ts";
import { createPasswordHasher } from "./passwords.ts";
import { createSigninGuard } from "./signin_guard.ts";

/** Creates the sign-in services from the configuration. */
export function createIdentityServices(sql: Db, config: Config): IdentityServices {
  return {
    passwords: createPasswordHasher(config),
    signin: createSigninGuard(sql, config),
    authFailures: createFailureCounter(config.authMaxFailuresPerMinute),
  };
}
