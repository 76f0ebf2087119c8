/**
 * A counting semaphore whose waiters can give up through an `AbortSignal`,
 * with an optional share per key (the query runner's key is the
 * organization): one key holds at most `perKey` of the slots, and a freed
 * slot goes to the waiter whose key holds the fewest (the oldest of those),
 * so one tenant's slow queries cannot take every slot of a node and others
 * are served in turn rather than behind its whole queue.
 * @module
 */

/** Releases a slot taken with {@link Semaphore.acquire}; calling it twice is harmless. */
export type Release = () => void;

/** A bound on how many tasks run at once. */
export interface Semaphore {
  /** Waits for a free slot (within `key`'s share); rejects with the signal's reason when it aborts first. */
  acquire(signal?: AbortSignal, key?: string): Promise<Release>;
  /** Slots in use. */
  readonly active: number;
  /** Callers waiting for a slot. */
  readonly waiting: number;
}

/** Options of {@link createSemaphore}. */
export interface SemaphoreOptions {
  /** Most slots one key holds at once (default: all of them). */
  perKey?: number;
}

interface Waiter {
  key: string;
  wake: () => void;
}

/** Creates a semaphore with `max` slots (at least 1). */
export function createSemaphore(max: number, options: SemaphoreOptions = {}): Semaphore {
  const limit = Math.max(1, Math.floor(max));
  const perKey = Math.max(1, Math.min(limit, Math.floor(options.perKey ?? limit)));
  let active = 0;
  const byKey = new Map<string, number>();
  const queue: Waiter[] = [];
  const held = (key: string) => byKey.get(key) ?? 0;

  function grant(key: string): Release {
    active++;
    byKey.set(key, held(key) + 1);
    let released = false;
    return function release() {
      if (released) return;
      released = true;
      active--;
      const left = held(key) - 1;
      if (left > 0) byKey.set(key, left);
      else byKey.delete(key);
      next()?.wake();
    };
  }

  /** Removes and answers the waiter to serve now: within its key's share, the key holding fewest, oldest first. */
  function next(): Waiter | undefined {
    if (active >= limit) return undefined;
    let best = -1;
    for (let i = 0; i < queue.length; i++) {
      const count = held(queue[i]!.key);
      if (count >= perKey) continue;
      if (best < 0 || count < held(queue[best]!.key)) best = i;
    }
    return best < 0 ? undefined : queue.splice(best, 1)[0];
  }

  function acquire(signal?: AbortSignal, key = ""): Promise<Release> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (active < limit && held(key) < perKey) return Promise.resolve(grant(key));
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        key,
        wake() {
          signal?.removeEventListener("abort", onAbort);
          resolve(grant(key));
        },
      };
      function onAbort() {
        const index = queue.indexOf(waiter);
        if (index >= 0) queue.splice(index, 1);
        reject(abortReason(signal!));
      }
      queue.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  return {
    acquire,
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
  };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted", "AbortError");
}
