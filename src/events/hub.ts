/**
 * Durable package events: every event is stored in the platform database with
 * the next id of its package stream (environment id + package name), so ids
 * increase across restarts and across nodes sharing the database, and the
 * last `EVENT_HISTORY` events of a stream can be replayed (`Last-Event-ID`).
 *
 * Delivery: open streams subscribe here and pull what is new when woken. An
 * event wakes this node's subscribers at once; on a PostgreSQL server a
 * `NOTIFY package_events` wakes the other nodes' (`LISTEN`); on the embedded
 * database (one process) a slow poll also catches writes of other service
 * instances sharing it. This module imports nothing of the routes, so
 * publishing code anywhere can emit without an import cycle.
 * @module
 */
import type { Db } from "../db/database.ts";
import type { AppContext } from "../context.ts";

/** Names of stored package events. */
export type PackageEventName =
  | "change"
  | "published"
  | "archived"
  | "compile_error"
  | "compile_ok"
  | "run_started"
  | "run_progress"
  | "run_finished"
  | "indexed";

/** One event of a package, as sent on the stream. */
export interface PackageEvent {
  /** Event id (decimal text, increasing per package stream). */
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** A package an event is about: its environment row id and name. */
export interface PackageKey {
  envId: string;
  packageName: string;
}

/** Channel of `LISTEN`/`NOTIFY` on a PostgreSQL server. */
const CHANNEL = "package_events";
/** Poll interval of the embedded database, ms. */
const POLL_MS = 1000;

interface Subscriber {
  wake(): void;
  /** Ends the stream (SIGTERM). */
  close(): void;
}

interface Hub {
  subscribers: Map<string, Set<Subscriber>>;
  /** Serializes this node's writes, so events are stored in the order they were emitted. */
  writes: Promise<unknown>;
  listening?: Promise<{ unlisten(): Promise<void> } | null>;
  poll?: ReturnType<typeof setInterval>;
  closed: boolean;
}

const hubs = new WeakMap<AppContext, Hub>();

function hubOf(ctx: AppContext): Hub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = { subscribers: new Map(), writes: Promise.resolve(), closed: false };
    hubs.set(ctx, hub);
  }
  return hub;
}

function keyOf(pkg: PackageKey): string {
  return `${pkg.envId}/${pkg.packageName}`;
}

function wakeKey(hub: Hub, key: string): void {
  for (const s of [...(hub.subscribers.get(key) ?? [])]) {
    try {
      s.wake();
    } catch {
      // a failing subscriber never stops the others
    }
  }
}

function startDelivery(ctx: AppContext, hub: Hub): void {
  if (hub.closed) return;
  if (ctx.dbKind === "server") {
    hub.listening ??= ctx.sql.listen(CHANNEL, (key) => wakeKey(hub, key)).catch((error) => {
      ctx.log({ level: "error", event: "package_events_listen_failed", error: error instanceof Error ? error.message : String(error) });
      return null;
    });
  } else if (!hub.poll) {
    hub.poll = setInterval(() => {
      for (const key of hub.subscribers.keys()) wakeKey(hub, key);
    }, POLL_MS);
    hub.poll.unref?.();
  }
}

/**
 * Subscribes to a package's events: `wake` is called when the stream may
 * have new events (pull them with {@link eventsAfter}). Returns the function
 * that unsubscribes (idempotent).
 */
export function subscribe(ctx: AppContext, pkg: PackageKey, subscriber: Subscriber): () => void {
  const hub = hubOf(ctx);
  const key = keyOf(pkg);
  let set = hub.subscribers.get(key);
  if (!set) hub.subscribers.set(key, set = new Set());
  set.add(subscriber);
  startDelivery(ctx, hub);
  return () => {
    const current = hub.subscribers.get(key);
    if (!current) return;
    current.delete(subscriber);
    if (current.size === 0) hub.subscribers.delete(key);
    if (hub.subscribers.size === 0 && hub.poll) {
      clearInterval(hub.poll);
      hub.poll = undefined;
    }
  };
}

/** Stores an event with the next id of its stream and trims the history (inside `db`, a transaction). */
async function storeEvent(db: Db, pkg: PackageKey, event: { event: string; data: Record<string, unknown> }, history: number): Promise<PackageEvent> {
  const [row] = await db`
    INSERT INTO package_event_streams (env_id, package_name, last_id) VALUES (${pkg.envId}, ${pkg.packageName}, 1)
    ON CONFLICT (env_id, package_name) DO UPDATE SET last_id = package_event_streams.last_id + 1
    RETURNING last_id`;
  const id = BigInt(row!.last_id as string | number);
  await db`INSERT INTO package_events (env_id, package_name, id, event, data)
           VALUES (${pkg.envId}, ${pkg.packageName}, ${id.toString()}, ${event.event}, ${db.json(event.data as never)})`;
  if (id > BigInt(history)) {
    await db`DELETE FROM package_events WHERE env_id = ${pkg.envId} AND package_name = ${pkg.packageName}
              AND id <= ${(id - BigInt(history)).toString()}`;
  }
  return { id: id.toString(), event: event.event, data: event.data };
}

/**
 * Stores an event and wakes the package's subscribers (here, and on other
 * nodes through `NOTIFY`). Never throws: a failure is logged and answers
 * `null`, so callers may fire and forget.
 */
export function emitPackageEvent(
  ctx: AppContext,
  pkg: PackageKey,
  event: { event: PackageEventName; data: Record<string, unknown> },
): Promise<PackageEvent | null> {
  const hub = hubOf(ctx);
  const data = { package: pkg.packageName, at: new Date().toISOString(), ...event.data };
  const write = hub.writes.then(async () => {
    const stored = await ctx.sql.begin(async (tx) => {
      const e = await storeEvent(tx, pkg, { event: event.event, data }, ctx.config.eventHistory);
      if (ctx.dbKind === "server") await tx`SELECT pg_notify(${CHANNEL}, ${keyOf(pkg)})`;
      return e;
    }) as PackageEvent;
    wakeKey(hub, keyOf(pkg));
    logged(ctx, pkg, event);
    return stored;
  }).catch((error) => {
    ctx.log({ level: "error", event: "package_event_failed", package: pkg.packageName, error: error instanceof Error ? error.message : String(error) });
    return null;
  });
  hub.writes = write;
  return write;
}

/** Package events the terminal shows (publishes, watch-mode compile errors); run events have the worker's own lines. */
const LOGGED = new Set<PackageEventName>(["published", "archived", "compile_error", "compile_ok"]);

function logged(ctx: AppContext, pkg: PackageKey, event: { event: PackageEventName; data: Record<string, unknown> }): void {
  if (!LOGGED.has(event.event)) return;
  const { problems, message, versionId, source } = event.data;
  ctx.log({
    level: event.event === "compile_error" ? "warn" : "info",
    event: event.event,
    package: pkg.packageName,
    ...(versionId === undefined ? {} : { versionId }),
    ...(source === undefined ? {} : { source }),
    ...(message === undefined ? {} : { message }),
    ...(problems === undefined ? {} : { problems }),
  });
}

/** The newest id of a stream (`0` when it has none) and the oldest id still kept (`null` without events). */
export async function streamState(db: Db, pkg: PackageKey): Promise<{ lastId: bigint; oldestKept: bigint | null }> {
  const [s] = await db`SELECT last_id FROM package_event_streams WHERE env_id = ${pkg.envId} AND package_name = ${pkg.packageName}`;
  const [o] = await db`SELECT min(id) AS oldest FROM package_events WHERE env_id = ${pkg.envId} AND package_name = ${pkg.packageName}`;
  return { lastId: s ? BigInt(s.last_id as string) : 0n, oldestKept: o?.oldest != null ? BigInt(o.oldest as string) : null };
}

/** Stored events of a stream with an id above `after`, oldest first (at most `limit`). */
export async function eventsAfter(db: Db, pkg: PackageKey, after: bigint, limit = 500): Promise<PackageEvent[]> {
  const rows = await db`SELECT id, event, data FROM package_events
                         WHERE env_id = ${pkg.envId} AND package_name = ${pkg.packageName} AND id > ${after.toString()}
                         ORDER BY id LIMIT ${limit}`;
  return rows.map((r) => ({ id: String(r.id), event: r.event as string, data: r.data as Record<string, unknown> }));
}

/** Open subscriptions of one package, or of every package when `pkg` is omitted (status, tests). */
export function listenerCount(ctx: AppContext, pkg?: PackageKey): number {
  const hub = hubs.get(ctx);
  if (!hub) return 0;
  if (pkg) return hub.subscribers.get(keyOf(pkg))?.size ?? 0;
  let n = 0;
  for (const set of hub.subscribers.values()) n += set.size;
  return n;
}

/** Ends every open stream and stops listening (shutdown); waits for pending event writes. */
export async function closePackageStreams(ctx: AppContext): Promise<void> {
  const hub = hubs.get(ctx);
  if (!hub) return;
  hub.closed = true;
  for (const set of [...hub.subscribers.values()]) for (const s of [...set]) s.close();
  if (hub.poll) clearInterval(hub.poll);
  hub.poll = undefined;
  await hub.writes.catch(() => {});
  const listening = await hub.listening?.catch(() => null);
  hub.listening = undefined;
  await listening?.unlisten().catch(() => {});
}
