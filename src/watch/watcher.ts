/**
 * Watch mode, the development loop: one environment per organization at a
 * time on each node (organizations never share a slot, and nothing about one
 * organization's watch shows in another's answers). A
 * recursive `fs.watch` on `WATCH_ROOT/<org>/<env>/` sees every change of the
 * package folders below it; each change emits a `change` event at once and,
 * after `WATCH_DEBOUNCE_MS` of quiet per package, republishes that package as
 * the next patch version through the same publish code as the API (every model
 * must compile; when one does not, no version is created and an `error` event
 * lists the problems). A folder whose content equals the newest version's
 * archive is not republished.
 * @module
 */
import { type FSWatcher, watch } from "node:fs";
import { mkdir, readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { connectionLookup } from "../connections/store.ts";
import { sha256Hex } from "../engine/mod.ts";
import { emitPackageEvent, listenerCount } from "../events/hub.ts";
import { hideServerPaths } from "../http/server_paths.ts";
import type { AppContext } from "../context.ts";
import { ConflictError } from "../errors.ts";
import { apiErrorOf } from "../http/error_handler.ts";
import { NAME_PATTERN } from "../http/params.ts";
import { publishVersion } from "../publishing/publish.ts";
import { afterPublish } from "../publishing/after_publish.ts";
import { extractionDir } from "../archives/store.ts";
import { FolderTooLargeError, isIgnoredPath, nextPatch, packageHead, readFolder, zipFolderFiles } from "./folder.ts";

/** The environment to watch and who asked. */
export interface WatchTarget {
  orgId: string;
  orgName: string;
  envName: string;
  envId: string;
  /** User row id recorded as the creator of republished versions. */
  startedBy: string | null;
}

/** One package folder of the watched environment. */
interface WatchedPackage {
  name: string;
  state: "idle" | "pending" | "publishing" | "error";
  lastVersionId: string | null;
  lastError: string | null;
  lastChangeAt: string | null;
  /** Open event-stream subscriptions of the package on this node. */
  subscribers: number;
}

/** What `GET /watch-mode/status` shows. */
export interface WatchStatus {
  enabled: boolean;
  organizationName: string | null;
  environmentName: string | null;
  /** The watched folder (absolute), or the root under which folders are watched. */
  root: string;
  startedAt: string | null;
  debounceMs: number;
  packages: WatchedPackage[];
}

interface PackageState {
  name: string;
  state: WatchedPackage["state"];
  lastVersionId: string | null;
  lastError: string | null;
  lastChangeAt: string | null;
  timer?: ReturnType<typeof setTimeout>;
  /** Paths announced since the last republish (one `change` event per path and window). */
  announced: Set<string>;
  running?: Promise<void>;
  dirty: boolean;
}

interface Watching {
  target: WatchTarget;
  dir: string;
  startedAt: Date;
  watcher?: FSWatcher;
  packages: Map<string, PackageState>;
  stopped: boolean;
}

/** The watches of a service: one slot per organization id. */
const slots = new WeakMap<AppContext, Map<string, Watching>>();

function slotsOf(ctx: AppContext): Map<string, Watching> {
  let m = slots.get(ctx);
  if (!m) slots.set(ctx, m = new Map());
  return m;
}
const NAME = new RegExp(NAME_PATTERN);

/** The folder watched for an environment: `WATCH_ROOT/<org>/<env>`. */
function watchFolder(ctx: AppContext, target: { orgName: string; envName: string }): string {
  return resolve(ctx.config.watchRoot, target.orgName, target.envName);
}

/** The environment an organization watches on this node, or `null`. */
export function watchedEnvironment(ctx: AppContext, orgId: string): { envId: string; orgName: string } | null {
  const w = slotsOf(ctx).get(orgId);
  return w ? { envId: w.target.envId, orgName: w.target.orgName } : null;
}

/** Organizations (ids) watching an environment on this node. */
export function watchingOrganizations(ctx: AppContext): string[] {
  return [...slotsOf(ctx).keys()];
}

/** The status of an organization's watch mode on this node (off when it has none). */
export function watchStatus(ctx: AppContext, orgId: string | null): WatchStatus {
  const w = orgId ? slotsOf(ctx).get(orgId) : undefined;
  if (!w) {
    return { enabled: false, organizationName: null, environmentName: null, root: resolve(ctx.config.watchRoot), startedAt: null, debounceMs: ctx.config.watchDebounceMs, packages: [] };
  }
  const packages = [...w.packages.values()].sort((a, b) => a.name.localeCompare(b.name)).map((p) => ({
    name: p.name,
    state: p.state,
    lastVersionId: p.lastVersionId,
    lastError: p.lastError,
    lastChangeAt: p.lastChangeAt,
    subscribers: listenerCount(ctx, { envId: w.target.envId, packageName: p.name }),
  }));
  return {
    enabled: true,
    organizationName: w.target.orgName,
    environmentName: w.target.envName,
    root: w.dir,
    startedAt: w.startedAt.toISOString(),
    debounceMs: ctx.config.watchDebounceMs,
    packages,
  };
}

function packageState(w: Watching, name: string): PackageState {
  let p = w.packages.get(name);
  if (!p) w.packages.set(name, p = { name, state: "idle", lastVersionId: null, lastError: null, lastChangeAt: null, announced: new Set(), dirty: false });
  return p;
}

/**
 * Starts watching an environment (409 when its organization watches another
 * one on this node; starting the watched one again is a no-op). Creates its
 * folder when missing, then brings every package folder in it up to date
 * before returning.
 */
export async function startWatching(ctx: AppContext, target: WatchTarget): Promise<WatchStatus> {
  const existing = slotsOf(ctx).get(target.orgId);
  if (existing) {
    if (existing.target.envId === target.envId) return watchStatus(ctx, target.orgId);
    // the same organization's environment: nothing outside the caller's organization is named
    throw new ConflictError(
      `watch mode of organization '${existing.target.orgName}' already follows its environment '${existing.target.envName}'; ` +
        "an organization watches one environment at a time per node: POST /watch-mode/stop first",
    );
  }
  const w: Watching = { target, dir: watchFolder(ctx, { orgName: target.orgName, envName: target.envName }), startedAt: new Date(), packages: new Map(), stopped: false };
  slotsOf(ctx).set(target.orgId, w);
  try {
    await mkdir(w.dir, { recursive: true });
    w.watcher = watch(w.dir, { recursive: true }, (kind, filename) => {
      if (filename) onChange(ctx, w, { kind, path: String(filename).replaceAll("\\", "/") });
    });
    w.watcher.on("error", (error) => ctx.log({ level: "error", event: "watch_failed", org: target.orgName, dir: w.dir, error: String(error) }));
    for (const entry of await readdir(w.dir, { withFileTypes: true })) {
      if (entry.isDirectory() && NAME.test(entry.name)) await republish(ctx, w, packageState(w, entry.name));
    }
  } catch (error) {
    stopWatching(ctx, target.orgId);
    throw error;
  }
  return watchStatus(ctx, target.orgId);
}

/**
 * Stops an organization's watch mode on this node (no-op when off), or every
 * organization's without `orgId` (shutdown); pending republishes are dropped.
 */
export function stopWatching(ctx: AppContext, orgId?: string): WatchStatus {
  const all = slotsOf(ctx);
  for (const id of orgId ? [orgId] : [...all.keys()]) {
    const w = all.get(id);
    if (!w) continue;
    w.stopped = true;
    w.watcher?.close();
    for (const p of w.packages.values()) clearTimeout(p.timer);
    all.delete(id);
  }
  return watchStatus(ctx, orgId ?? null);
}

/** Waits until no republish of any watched environment is pending or running (tests, shutdown). */
export async function settleWatching(ctx: AppContext): Promise<void> {
  await Promise.all([...slotsOf(ctx).values()].map((w) => settle(ctx, w)));
}

async function settle(ctx: AppContext, w: Watching): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const busy = [...w.packages.values()].filter((p) => p.timer || p.running);
    if (busy.length === 0) return;
    await Promise.all(busy.map((p) => p.running ?? Bun.sleep(ctx.config.watchDebounceMs)));
  }
}

function onChange(ctx: AppContext, w: Watching, change: { kind: string; path: string }): void {
  if (w.stopped) return;
  const [name, ...rest] = change.path.split("/");
  if (!name || !NAME.test(name)) return;
  const path = rest.join("/");
  if (path && isIgnoredPath(path)) return;
  const p = packageState(w, name);
  p.lastChangeAt = new Date().toISOString();
  if (path && !p.announced.has(path)) {
    p.announced.add(path);
    emitPackageEvent(ctx, { envId: w.target.envId, packageName: name }, { event: "change", data: { path, kind: change.kind } });
  }
  if (p.state !== "publishing") p.state = "pending";
  clearTimeout(p.timer);
  p.timer = setTimeout(() => {
    p.timer = undefined;
    if (p.running) p.dirty = true;
    else void republish(ctx, w, p);
  }, ctx.config.watchDebounceMs);
}

function republish(ctx: AppContext, w: Watching, p: PackageState): Promise<void> {
  p.announced.clear();
  const failedBefore = p.lastError !== null && p.lastError !== undefined;
  p.state = "publishing";
  const run = publishFolder(ctx, w, p.name)
    .then((result) => {
      // the package compiles again (a new version, or back to the last good content): `compile_ok`
      if (failedBefore && !result.error && result.versionId) {
        void emitPackageEvent(ctx, { envId: w.target.envId, packageName: p.name }, { event: "compile_ok", data: { versionId: result.versionId } });
      }
      p.state = result.error ? "error" : "idle";
      p.lastError = result.error === undefined ? null : hideServerPaths(result.error);
      if (result.versionId) p.lastVersionId = result.versionId;
    })
    .catch((error) => {
      p.state = "error";
      // the status is a successful answer (no response scrub): no server path in it
      p.lastError = hideServerPaths(error instanceof Error ? error.message : String(error));
      ctx.log({ level: "error", event: "watch_republish_failed", package: p.name, error: p.lastError });
    })
    .finally(() => {
      p.running = undefined;
      if (p.dirty && !w.stopped) {
        p.dirty = false;
        void republish(ctx, w, p);
      }
    });
  p.running = run;
  return run;
}

/** Publishes the folder of one package when its content changed; failures become `error` events. */
async function publishFolder(ctx: AppContext, w: Watching, name: string): Promise<{ versionId?: string; error?: string }> {
  const dir = join(w.dir, name);
  const isDir = await stat(dir).then((s) => s.isDirectory(), () => false);
  if (!isDir) return {};
  let files: Map<string, Uint8Array>;
  try {
    files = await readFolder(dir, { within: ctx.config.watchRoot, maxBytes: ctx.config.maxPackageBytes });
  } catch (thrown) {
    if (!(thrown instanceof FolderTooLargeError)) throw thrown;
    await emitPackageEvent(ctx, { envId: w.target.envId, packageName: name }, { event: "compile_error", data: { message: thrown.message, problems: [] } });
    return { error: thrown.message };
  }
  if (files.size === 0) return {};
  const zip = zipFolderFiles(files);
  const sha = await sha256Hex(zip);
  const pkgKey = { envId: w.target.envId, packageName: name };
  const keys = { secretKey: ctx.config.secretKey, dataDir: ctx.config.dataDir };
  for (let attempt = 0; attempt < 3; attempt++) {
    const head = await packageHead(ctx.sql, { envId: w.target.envId, name });
    if (head.newestSha === sha) return { versionId: head.greatest ?? undefined };
    if (w.stopped) return {};
    const versionId = nextPatch(head.greatest);
    try {
      const published = await publishVersion(ctx.sql, {
        target: { envId: w.target.envId, packageName: name, createdBy: w.target.startedBy },
        form: { packageMeta: {}, versionId, pinLatest: true, zip },
      }, { cacheDir: extractionDir(ctx.config), maxBytes: ctx.config.maxPackageBytes, maxCompressionRatio: ctx.config.maxCompressionRatio, lookupConnection: connectionLookup(ctx.sql, w.target.envId, keys), compileTimeoutMs: ctx.config.compileTimeoutMs });
      await afterPublish(ctx, published, { envId: w.target.envId, packageName: name, source: "watch" });
      return { versionId };
    } catch (thrown) {
      const error = apiErrorOf(thrown);
      if (error?.status === 409) continue; // a concurrent publish took the id
      if (error && error.status < 500) {
        // an event is no error answer (no response scrub): its text names package files only
        const problems = ((error.details.problems ?? []) as { message?: unknown }[])
          .map((problem) => typeof problem.message === "string" ? { ...problem, message: hideServerPaths(problem.message) } : problem);
        await emitPackageEvent(ctx, pkgKey, { event: "compile_error", data: { message: hideServerPaths(error.message), problems, versionId } });
        return { error: error.message };
      }
      throw thrown;
    }
  }
  return { error: "three concurrent publishes took the next version id; save a file again to retry" };
}
