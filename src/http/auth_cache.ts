/**
 * Caches of authentication and access decisions (a verified access token or
 * API key, an organization with the caller's rank on it), and when they are
 * stale.
 *
 * Every statement that writes a table these decisions read (users,
 * organizations, groups, group_members, group_tokens, grants; and what the
 * query runner's cached targets read: package versions, materializations,
 * attributes and their values) adds a row to `auth_changes` in its own
 * transaction (triggers: sql/145_auth_changes.sql, sql/160_query_target_changes.sql),
 * whichever node, script or client wrote it. Before a request uses a cached
 * decision it learns the state of that table (`epoch:count`) from a check that
 * started after the request arrived, so a change committed before the request
 * was sent is always seen, also one made by another process on the same
 * database. Concurrent requests share one check (the next one to start, once
 * the requests of the current turn of the event loop have joined it), so
 * under load one round trip serves many requests. A new state drops every
 * cached decision of the database; a decision read while the state changed is
 * stored under the old generation and never served.
 *
 * On the embedded database of this process no check is needed: every client
 * reaches it through this process, which reads each commit's notification of
 * an auth change before the writer is answered ({@link onLocalAuthChange}),
 * and drops the cached decisions there and then.
 * @module
 */
import { onLocalAuthChange, type Sql } from "../db/database.ts";

/** Longest a decision is kept even without a change (a backstop; changes drop it at once). */
const MAX_AGE_MS = 60_000;
/** Rows of `auth_changes` past which a check prunes them (and bumps the epoch). */
const PRUNE_AT = 1000;
/** Entries per cache. */
const MAX_ENTRIES = 10_000;

interface Entry<V> {
  value: V;
  generation: number;
  /** `Date.now()` past which the entry is not served. */
  until: number;
}

interface State {
  generation: number;
  /** `epoch:count` the last check saw. */
  seen?: string;
  /** `performance.now()` at which the last completed check started. */
  checkedAt: number;
  inflight?: { start: number; done: Promise<number> };
  next?: Promise<number>;
  pruning: boolean;
  /** Changes are reported in-process (the embedded database): no check is run. */
  local: boolean;
  /** Changes reported in-process since the last prune. */
  localChanges: number;
  caches: Map<string, DecisionCache<unknown>>;
  entries: Set<Map<string, Entry<unknown>>>;
}

const states = new WeakMap<Sql, State>();

function stateOf(sql: Sql): State {
  let state = states.get(sql);
  if (!state) {
    const fresh: State = { generation: 0, checkedAt: -Infinity, pruning: false, local: false, localChanges: 0, caches: new Map(), entries: new Set() };
    fresh.local = onLocalAuthChange(sql, () => {
      newGeneration(fresh);
      if (++fresh.localChanges > PRUNE_AT) {
        fresh.localChanges = 0;
        void prune(sql, fresh);
      }
    });
    states.set(sql, fresh);
    state = fresh;
  }
  return state;
}

function newGeneration(state: State): void {
  state.generation++;
  for (const entries of state.entries) entries.clear();
}

async function prune(sql: Sql, state: State): Promise<void> {
  if (state.pruning) return;
  state.pruning = true;
  try {
    await sql.begin(async (tx) => {
      await tx`DELETE FROM auth_changes`;
      await tx`UPDATE auth_epoch SET epoch = epoch + 1`;
    });
  } catch {
    // the next check prunes again
  } finally {
    state.pruning = false;
  }
}

function startCheck(sql: Sql, state: State): Promise<number> {
  const start = performance.now();
  const check: { start: number; done?: Promise<number> } = { start };
  const done = (async () => {
    try {
      const [row] = await sql`SELECT (SELECT epoch FROM auth_epoch) AS epoch, (SELECT count(*) FROM auth_changes)::int AS n`;
      const seen = `${row!.epoch}:${row!.n}`;
      if (seen !== state.seen) {
        state.seen = seen;
        newGeneration(state);
      }
      if (start > state.checkedAt) state.checkedAt = start;
      if ((row!.n as number) > PRUNE_AT) void prune(sql, state);
      return state.generation;
    } finally {
      if (state.inflight === check) state.inflight = undefined;
    }
  })();
  check.done = done;
  state.inflight = check as { start: number; done: Promise<number> };
  return done;
}

/**
 * The generation of cached decisions as of a check of the database started at
 * or after `since` (`performance.now()` when the request arrived). A cached
 * decision is served only under the generation it was stored with.
 */
export function authGeneration(sql: Sql, since: number): number | Promise<number> {
  const state = stateOf(sql);
  if (state.local || state.checkedAt >= since) return state.generation;
  // a check not started yet starts after this call: join it
  if (state.next) return state.next;
  const inflight = state.inflight;
  if (inflight && inflight.start >= since) return inflight.done;
  // the check in flight may have read the table before this request arrived: the next one starts
  // after it ends, and after the requests of this turn of the event loop have joined
  state.next = (async () => {
    if (inflight) await inflight.done.catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));
    state.next = undefined;
    return await startCheck(sql, state);
  })();
  return state.next;
}

/** A cache of decisions of one kind, dropped whenever what they read changes. */
export interface DecisionCache<V> {
  /** The value stored under `generation` for `key`, unless it expired. */
  get(key: string, generation: number): V | undefined;
  /** Stores a value read after the check that gave `generation`; `until` (ms since the epoch) caps its life. */
  set(key: string, generation: number, value: V, until?: number): void;
}

/** The decision cache named `name` of the database `sql` (one per name and database). */
export function decisionCache<V>(sql: Sql, name: string): DecisionCache<V> {
  const state = stateOf(sql);
  let cache = state.caches.get(name) as DecisionCache<V> | undefined;
  if (!cache) {
    cache = newCache<V>(state);
    state.caches.set(name, cache as DecisionCache<unknown>);
  }
  return cache;
}

function newCache<V>(state: State): DecisionCache<V> {
  const entries = new Map<string, Entry<V>>();
  state.entries.add(entries as Map<string, Entry<unknown>>);
  return {
    get(key, generation) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.generation !== generation || Date.now() >= entry.until) {
        // a caller holding an older generation than the entry's leaves it for newer callers
        if (entry.generation < state.generation || Date.now() >= entry.until) entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, generation, value, until = Infinity) {
      // a value read under an older generation may already be stale
      if (generation !== state.generation) return;
      if (entries.size >= MAX_ENTRIES && !entries.has(key)) entries.delete(entries.keys().next().value!);
      entries.set(key, { value, generation, until: Math.min(until, Date.now() + MAX_AGE_MS) });
    },
  };
}
