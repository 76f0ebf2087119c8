/**
 * Per-principal token buckets: `RATE_LIMIT_PER_MINUTE` requests a minute with
 * bursts up to that number; over it, `429 RATE_LIMIT_EXCEEDED` with `Retry-After`.
 * @module
 */
import type { FailureCounter, RateLimiter } from "../context.ts";
import { ApiError } from "./errors.ts";

interface Bucket {
  tokens: number;
  at: number;
}

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Clock in milliseconds (tests). */
  now?: () => number;
  /** Buckets kept before idle ones are swept. */
  maxBuckets?: number;
}

/** Creates a limiter allowing `perMinute` requests a minute per key (0 disables it). */
export function createRateLimiter(perMinute: number, options: RateLimiterOptions = {}): RateLimiter {
  const now = options.now ?? (() => performance.now());
  const maxBuckets = options.maxBuckets ?? 100_000;
  const buckets = new Map<string, Bucket>();
  const perMs = perMinute / 60_000;

  function sweep(t: number): void {
    for (const [key, b] of buckets) {
      if (b.tokens + (t - b.at) * perMs >= perMinute) buckets.delete(key);
    }
  }

  return {
    take(key: string, count = 1): void {
      if (perMinute <= 0) return;
      const t = now();
      let b = buckets.get(key);
      if (!b) {
        if (buckets.size >= maxBuckets) sweep(t);
        b = { tokens: perMinute, at: t };
        buckets.set(key, b);
      }
      b.tokens = Math.min(perMinute, b.tokens + (t - b.at) * perMs);
      b.at = t;
      // a request that needs more than the burst waits for a full bucket
      const need = Math.min(count, perMinute);
      if (b.tokens < need) {
        const retryAfter = Math.max(1, Math.ceil((need - b.tokens) / perMs / 1000));
        throw new ApiError("RATE_LIMIT_EXCEEDED", `rate limit of ${perMinute} requests per minute exceeded; retry in ${retryAfter} s`, {
          headers: { "Retry-After": String(retryAfter) },
        });
      }
      b.tokens -= need;
    },
  };
}


/** Creates a counter allowing `max` failures per key per `windowMs` (default one minute). */
export function createFailureCounter(max: number, options: RateLimiterOptions & { windowMs?: number } = {}): FailureCounter {
  const now = options.now ?? (() => performance.now());
  const windowMs = options.windowMs ?? 60_000;
  const maxKeys = options.maxBuckets ?? 100_000;
  const windows = new Map<string, { start: number; failures: number }>();
  function current(key: string, t: number) {
    const w = windows.get(key);
    if (w && t - w.start < windowMs) return w;
    if (w) windows.delete(key);
    return undefined;
  }
  return {
    check(key) {
      const t = now();
      const w = current(key, t);
      if (w && w.failures >= max) {
        const retryAfter = Math.max(1, Math.ceil((w.start + windowMs - t) / 1000));
        throw new ApiError("RATE_LIMIT_EXCEEDED", `too many failed authentications from this address; retry in ${retryAfter} s`, {
          headers: { "Retry-After": String(retryAfter) },
        });
      }
    },
    fail(key) {
      const t = now();
      const w = current(key, t);
      if (w) {
        w.failures++;
        return;
      }
      if (windows.size >= maxKeys) {
        for (const [k, v] of windows) if (t - v.start >= windowMs) windows.delete(k);
        if (windows.size >= maxKeys) windows.delete(windows.keys().next().value!);
      }
      windows.set(key, { start: t, failures: 1 });
    },
  };
}
