/**
 * Password hashing and verification (argon2id) with a bound on how many run at
 * once: a burst of sign-ins waits in a queue of `PASSWORD_HASH_QUEUE` behind
 * `PASSWORD_HASH_CONCURRENCY` running verifications, and a full queue answers
 * `429 RATE_LIMIT_EXCEEDED` at once, so a login flood cannot take every core.
 * @module
 */
import type { Config } from "../config.ts";
import { createSemaphore } from "../engine/query/semaphore.ts";
import type { PasswordHasher } from "../context.ts";
import { RateLimitedError } from "../errors.ts";

/** Settings of {@link createPasswordHasher}. */
export type PasswordSettings = Pick<Config, "passwordHashConcurrency" | "passwordHashQueue" | "passwordHashMemoryKib" | "passwordHashTimeCost">;

/** Creates the hasher of one app instance. */
export function createPasswordHasher(settings: PasswordSettings): PasswordHasher {
  const slots = createSemaphore(settings.passwordHashConcurrency);
  const options = { algorithm: "argon2id" as const, memoryCost: settings.passwordHashMemoryKib, timeCost: settings.passwordHashTimeCost };
  let dummy: Promise<string> | undefined;

  async function bounded<T>(work: () => Promise<T>): Promise<T> {
    if (slots.active >= settings.passwordHashConcurrency && slots.waiting >= settings.passwordHashQueue) {
      throw new RateLimitedError("too many sign-ins are being checked right now; retry in a second", 1);
    }
    const release = await slots.acquire();
    try {
      return await work();
    } finally {
      release();
    }
  }

  return {
    hash: (password) => bounded(() => Bun.password.hash(password, options)),
    async verify(password, hash) {
      dummy ??= Bun.password.hash("not-a-real-password", options);
      const against = hash ?? (await dummy);
      const ok = await bounded(() => Bun.password.verify(password || "-", against));
      return ok && Boolean(hash);
    },
    get load() {
      return { active: slots.active, waiting: slots.waiting };
    },
  };
}
