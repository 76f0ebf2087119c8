/**
 * The query slots of a node: a key (an organization) holds at most its share,
 * and a freed slot goes to the waiting key that holds the fewest.
 */
import { describe, expect, test } from "bun:test";
import { createSemaphore, type Release } from "../../src/engine/query/semaphore.ts";

/** Whether a promise has settled after pending callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true), () => (done = true));
  await Bun.sleep(0);
  return done;
}

describe("semaphore shares", () => {
  test("one key holds at most perKey slots; another key gets a free slot at once", async () => {
    const slots = createSemaphore(4, { perKey: 3 });
    const a = await Promise.all([slots.acquire(undefined, "a"), slots.acquire(undefined, "a"), slots.acquire(undefined, "a")]);
    const fourthOfA = slots.acquire(undefined, "a");
    expect(await settled(fourthOfA)).toBe(false);
    expect([slots.active, slots.waiting]).toEqual([3, 1]);
    // the slot a may not take is b's
    const b = await slots.acquire(undefined, "b");
    expect(slots.active).toBe(4);
    // a slot of a frees: a's waiter takes it (a is back under its share)
    a[0]!();
    expect(await settled(fourthOfA)).toBe(true);
    b();
    for (const release of a.slice(1)) release();
    (await fourthOfA)();
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
  });

  test("a freed slot goes to the waiting key holding the fewest, not to the longest queue", async () => {
    const slots = createSemaphore(2, { perKey: 2 });
    const held = [await slots.acquire(undefined, "a"), await slots.acquire(undefined, "a")];
    const order: string[] = [];
    const waiters: Promise<Release>[] = [];
    for (const key of ["a", "a", "a", "b", "c"]) {
      waiters.push(slots.acquire(undefined, key).then((release) => {
        order.push(key);
        return release;
      }));
    }
    // a slot of a frees: b (holding none) goes before a's three waiting queries
    held[0]!();
    await Bun.sleep(0);
    expect(order).toEqual(["b"]);
    // b's slot frees: a holds one, c none: c goes next
    (await waiters[3]!)();
    await Bun.sleep(0);
    expect(order).toEqual(["b", "c"]);
    // then a's queries, oldest first, as slots free
    held[1]!();
    (await waiters[4]!)();
    await Bun.sleep(0);
    expect(order).toEqual(["b", "c", "a", "a"]);
    for (const release of await Promise.all(waiters.slice(0, 2))) release();
    await Bun.sleep(0);
    (await waiters[2]!)();
    expect(order).toEqual(["b", "c", "a", "a", "a"]);
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
  });

  test("without keys it is a plain counting semaphore; an aborted waiter leaves the queue", async () => {
    const slots = createSemaphore(1);
    const first = await slots.acquire();
    const stop = new AbortController();
    const second = slots.acquire(stop.signal);
    stop.abort(new Error("gave up"));
    expect(second).rejects.toThrow("gave up");
    const third = slots.acquire();
    first();
    (await third)();
    expect([slots.active, slots.waiting]).toEqual([0, 0]);
  });
});
