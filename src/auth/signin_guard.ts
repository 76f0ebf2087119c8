/**
 * Attempt limits of sign-ins (`POST /auth/token`, the OAuth sign-in form,
 * invite redemption): failures are counted per account and per client address
 * in a window of `LOGIN_FAILURE_WINDOW_SECONDS`; once an account has
 * `LOGIN_MAX_FAILURES_ACCOUNT` failures, or an address
 * `LOGIN_MAX_FAILURES_ADDRESS`, every further attempt (even with the right
 * password) answers `429 RATE_LIMIT_EXCEEDED` with `Retry-After` until the
 * window ends. The counters live in the database, so every node sharing it
 * and a restart see the same counts.
 * @module
 */
import type { Config } from "../config.ts";
import type { Db } from "../db/database.ts";
import type { SigninGuard, SigninKeys } from "../context.ts";
import { RateLimitedError } from "../errors.ts";


/** The keys of an attempt: the user's id when the login names one, else the login text. */
export function signinKeys(options: { userId?: string | null; login: string; address?: string }): SigninKeys {
  return {
    account: options.userId ? `account:${options.userId}` : `login:${options.login.trim().toLowerCase()}`,
    address: `address:${options.address ?? "unknown"}`,
  };
}

/** Creates the guard of one app instance. */
export function createSigninGuard(
  sql: Db,
  config: Pick<Config, "loginMaxFailuresAccount" | "loginMaxFailuresAddress" | "loginWindowSeconds">,
): SigninGuard {
  const windowS = config.loginWindowSeconds;
  let failuresSinceSweep = 0;
  return {
    async check(keys) {
      const rows = await sql`
        SELECT key, failures, ceil(extract(epoch FROM window_start + make_interval(secs => ${windowS}) - now()))::int AS remaining
          FROM signin_failures
         WHERE key IN (${keys.account}, ${keys.address}) AND window_start > now() - make_interval(secs => ${windowS})`;
      for (const r of rows) {
        const max = r.key === keys.address ? config.loginMaxFailuresAddress : config.loginMaxFailuresAccount;
        if ((r.failures as number) >= max) {
          const retryAfter = Math.max(1, r.remaining as number);
          const what = r.key === keys.address ? "from this address" : "for this account";
          throw new RateLimitedError(`too many failed sign-ins ${what}; retry in ${retryAfter} s`, retryAfter);
        }
      }
    },
    async fail(keys) {
      for (const key of [keys.account, keys.address]) {
        await sql`
          INSERT INTO signin_failures (key, window_start, failures) VALUES (${key}, now(), 1)
          ON CONFLICT (key) DO UPDATE SET
            failures = CASE WHEN signin_failures.window_start <= now() - make_interval(secs => ${windowS}) THEN 1
                            ELSE signin_failures.failures + 1 END,
            window_start = CASE WHEN signin_failures.window_start <= now() - make_interval(secs => ${windowS}) THEN now()
                                ELSE signin_failures.window_start END`;
      }
      if (++failuresSinceSweep >= 100) {
        failuresSinceSweep = 0;
        await sql`DELETE FROM signin_failures WHERE window_start < now() - make_interval(secs => ${windowS})`;
      }
    },
    async succeed(keys) {
      await sql`DELETE FROM signin_failures WHERE key = ${keys.account}`;
    },
  };
}
