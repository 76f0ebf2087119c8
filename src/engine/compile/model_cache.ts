/**
 * An LRU cache of compiled models keyed by version id and model path,
 * bounded by entry count and, optionally, by approximate bytes. Concurrent
 * misses for one key share a single compile. Each cold compile and each warm
 * hit is logged as one JSON line.
 * @module
 */

/** Options of {@link createModelCache}. */
export interface ModelCacheOptions<T> {
  /** Most cached models. Default 100. */
  maxEntries?: number;
  /** Most approximate bytes (needs `sizeOf`). Default unbounded. */
  maxBytes?: number;
  /** Approximate bytes of a cached value. */
  sizeOf?: (value: T) => number;
  /** Receives one object per event; default `console.log(JSON.stringify(event))`. */
  log?: (event: Record<string, unknown>) => void;
}

/** A compiled-model cache; see {@link createModelCache}. */
export interface ModelCache<T> {
  /**
   * The cached model, or the result of `load()` (cached) on a miss.
   * A failing load is not cached.
   */
  get(key: { versionId: string; modelPath: string }, load: () => Promise<T>): Promise<T>;
  /** Drops every model of a version (e.g. when it is archived or deleted). */
  deleteVersion(versionId: string): void;
  /** Drops everything. */
  clear(): void;
  /** Cached models not asked for during the last `idleMs`, least recently used first. */
  idle(idleMs: number): T[];
  /** Drops the least recently used models until at most `entries` remain (loads in flight stay). */
  trim(entries: number): number;
  /** Cached models. */
  readonly size: number;
  /** Approximate bytes of the cached models (0 without `sizeOf`). */
  readonly bytes: number;
}

interface Slot<T> {
  versionId: string;
  /** When the model was last asked for (ms since epoch). */
  usedAt: number;
  value?: T;
  pending?: Promise<T>;
  bytes: number;
}

/** Creates an LRU cache of compiled models. */
export function createModelCache<T>(options: ModelCacheOptions<T> = {}): ModelCache<T> {
  const maxEntries = Math.max(1, options.maxEntries ?? 100);
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const log = options.log ?? ((event) => console.log(JSON.stringify(event)));
  const slots = new Map<string, Slot<T>>();
  let bytes = 0;

  function evict(): void {
    for (const [key, slot] of slots) {
      if (slots.size <= maxEntries && bytes <= maxBytes) return;
      if (slot.pending) continue;
      slots.delete(key);
      bytes -= slot.bytes;
    }
  }

  async function get(
    key: { versionId: string; modelPath: string },
    load: () => Promise<T>,
  ): Promise<T> {
    const id = `${key.versionId}\u0000${key.modelPath}`;
    const started = performance.now();
    const found = slots.get(id);
    if (found) {
      slots.delete(id);
      slots.set(id, found);
      found.usedAt = Date.now();
      const value = found.value ?? await found.pending!;
      log({ event: "model_cache", phase: "warm", ...key, ms: elapsed(started) });
      return value;
    }
    const slot: Slot<T> = { versionId: key.versionId, bytes: 0, usedAt: Date.now() };
    slot.pending = load();
    slots.set(id, slot);
    try {
      const value = await slot.pending;
      slot.value = value;
      slot.pending = undefined;
      slot.bytes = options.sizeOf?.(value) ?? 0;
      bytes += slot.bytes;
      log({ event: "model_cache", phase: "cold", ...key, ms: elapsed(started), bytes: slot.bytes });
      evict();
      return value;
    } catch (error) {
      if (slots.get(id) === slot) slots.delete(id);
      throw error;
    }
  }

  return {
    get,
    deleteVersion(versionId: string) {
      for (const [id, slot] of slots) {
        if (slot.versionId === versionId) {
          slots.delete(id);
          bytes -= slot.bytes;
        }
      }
    },
    clear() {
      slots.clear();
      bytes = 0;
    },
    idle(idleMs: number) {
      const before = Date.now() - idleMs;
      return [...slots.values()].filter((slot) => slot.usedAt <= before && slot.value !== undefined).map((slot) => slot.value!);
    },
    trim(entries: number) {
      let dropped = 0;
      for (const [id, slot] of slots) {
        if (slots.size <= entries) break;
        if (slot.pending) continue;
        slots.delete(id);
        bytes -= slot.bytes;
        dropped++;
      }
      return dropped;
    },
    get size() {
      return slots.size;
    },
    get bytes() {
      return bytes;
    },
  };
}

/**
 * Rough bytes of a compiled model: the length of its JSON model definition
 * (as the compile worker measured it, else measured here).
 */
export function approximateModelBytes(value: { model: { _modelDef: unknown }; bytes?: number }): number {
  if (value.bytes !== undefined) return value.bytes;
  try {
    return JSON.stringify(value.model._modelDef).length;
  } catch {
    return 0;
  }
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}
