/**
 * Least-recently-used maps that belong to an owner object: the entries of an
 * owner (a compiled model's definition, a prepared query) live only as long
 * as the owner does (a WeakMap holds them) and at most `max` of them are
 * kept per owner, the least recently used dropped first.
 * @module
 */

/** The per-owner LRU maps of {@link ownedLru}. */
export interface OwnedLru<O extends object, V> {
  /** The value of `key` under `owner`, marked as just used. */
  get(owner: O, key: string): V | undefined;
  /** Stores a value, dropping the least recently used one past the limit. */
  set(owner: O, key: string, value: V): void;
  /** Removes `key` when it still holds `value` (a failed entry, not its replacement). */
  deleteIf(owner: O, key: string, value: V): void;
  /** Removes every entry of `owner`; returns how many there were. */
  clear(owner: O): number;
}

/** Per-owner LRU maps of at most `max` entries each. */
export function ownedLru<O extends object, V>(max: number): OwnedLru<O, V> {
  const byOwner = new WeakMap<O, Map<string, V>>();
  return {
    get(owner, key) {
      const entries = byOwner.get(owner);
      if (!entries?.has(key)) return undefined;
      const value = entries.get(key) as V;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(owner, key, value) {
      let entries = byOwner.get(owner);
      if (!entries) {
        entries = new Map();
        byOwner.set(owner, entries);
      }
      entries.set(key, value);
      if (entries.size > max) entries.delete(entries.keys().next().value!);
    },
    deleteIf(owner, key, value) {
      const entries = byOwner.get(owner);
      if (entries?.get(key) === value) entries.delete(key);
    },
    clear(owner) {
      const size = byOwner.get(owner)?.size ?? 0;
      byOwner.delete(owner);
      return size;
    },
  };
}
