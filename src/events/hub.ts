/**
 * In-process event hub of package events (`change`, `published`, `error`):
 * subscribers per package (environment id + package name), a monotonically
 * increasing event id per app instance, and a short replay buffer per package
 * so a reconnecting client (`Last-Event-ID`) misses nothing recent.
 *
 * Events are per node: with several nodes behind a load balancer a client
 * sees the events of the node it is connected to (watch mode is per node too).
 * This module imports nothing of the routes, so publishing code anywhere can
 * emit without an import cycle.
 * @module
 */
import type { AppContext } from "../http/context.ts";

/** Names of package events. */
export type PackageEventName = "change" | "published" | "error";

/** One event of a package, as sent on the stream. */
export interface PackageEvent {
  /** Event id (decimal text of a counter, increasing per node). */
  id: string;
  event: PackageEventName;
  data: Record<string, unknown>;
}

/** A package an event is about: its environment row id and name. */
export interface PackageKey {
  envId: string;
  packageName: string;
}

/** Receives the events of one package. */
export type PackageListener = (event: PackageEvent) => void;

/** Events kept per package for `Last-Event-ID` replay. */
const REPLAY = 50;

interface Hub {
  next: number;
  listeners: Map<string, Set<PackageListener>>;
  recent: Map<string, PackageEvent[]>;
}

const hubs = new WeakMap<AppContext, Hub>();

function hubOf(ctx: AppContext): Hub {
  let hub = hubs.get(ctx);
  if (!hub) {
    hub = { next: 1, listeners: new Map(), recent: new Map() };
    hubs.set(ctx, hub);
  }
  return hub;
}

function keyOf(pkg: PackageKey): string {
  return `${pkg.envId}/${pkg.packageName}`;
}

/**
 * Subscribes to a package's events; returns the function that unsubscribes
 * (idempotent). `options.after` replays buffered events with a larger id first.
 */
export function subscribe(ctx: AppContext, pkg: PackageKey, options: { listener: PackageListener; after?: number }): () => void {
  const hub = hubOf(ctx);
  const key = keyOf(pkg);
  if (options.after !== undefined) {
    for (const e of hub.recent.get(key) ?? []) if (Number(e.id) > options.after) options.listener(e);
  }
  let set = hub.listeners.get(key);
  if (!set) hub.listeners.set(key, set = new Set());
  const own = (event: PackageEvent) => options.listener(event);
  set.add(own);
  return () => {
    const current = hub.listeners.get(key);
    if (!current) return;
    current.delete(own);
    if (current.size === 0) hub.listeners.delete(key);
  };
}

/** Sends an event to every subscriber of the package; returns it (with its id). */
export function emitPackageEvent(ctx: AppContext, pkg: PackageKey, event: { event: PackageEventName; data: Record<string, unknown> }): PackageEvent {
  const hub = hubOf(ctx);
  const key = keyOf(pkg);
  const full: PackageEvent = { id: String(hub.next++), event: event.event, data: { package: pkg.packageName, at: new Date().toISOString(), ...event.data } };
  const recent = hub.recent.get(key) ?? [];
  recent.push(full);
  if (recent.length > REPLAY) recent.splice(0, recent.length - REPLAY);
  hub.recent.set(key, recent);
  for (const listener of [...(hub.listeners.get(key) ?? [])]) {
    try {
      listener(full);
    } catch {
      // a failing subscriber never stops the others
    }
  }
  return full;
}

/** Open subscriptions of one package, or of every package when `pkg` is omitted (status, tests). */
export function listenerCount(ctx: AppContext, pkg?: PackageKey): number {
  const hub = hubs.get(ctx);
  if (!hub) return 0;
  if (pkg) return hub.listeners.get(keyOf(pkg))?.size ?? 0;
  let n = 0;
  for (const set of hub.listeners.values()) n += set.size;
  return n;
}
