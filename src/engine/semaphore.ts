/**
 * A counting semaphore whose waiters can give up through an `AbortSignal`.
 * @module
 */

/** Releases a slot taken with {@link Semaphore.acquire}; calling it twice is harmless. */
type Release = () => void;

/** A bound on how many tasks run at once. */
export interface Semaphore {
  /** Waits for a free slot; rejects with the signal's reason when it aborts first. */
  acquire(signal?: AbortSignal): Promise<Release>;
  /** Slots in use. */
  readonly active: number;
  /** Callers waiting for a slot. */
  readonly waiting: number;
}

/** Creates a semaphore with `max` slots (at least 1). */
export function createSemaphore(max: number): Semaphore {
  const limit = Math.max(1, Math.floor(max));
  let active = 0;
  const queue: Array<() => void> = [];

  function grant(): Release {
    active++;
    let released = false;
    return function release() {
      if (released) return;
      released = true;
      active--;
      const next = queue.shift();
      if (next) next();
    };
  }

  function acquire(signal?: AbortSignal): Promise<Release> {
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (active < limit) return Promise.resolve(grant());
    return new Promise<Release>((resolve, reject) => {
      function onAbort() {
        const index = queue.indexOf(wake);
        if (index >= 0) queue.splice(index, 1);
        reject(abortReason(signal!));
      }
      function wake() {
        signal?.removeEventListener("abort", onAbort);
        resolve(grant());
      }
      queue.push(wake);
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
