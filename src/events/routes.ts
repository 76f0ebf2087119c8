/**
 * `GET E/packages/{pkg}/events`: the Server-Sent Events stream of one package
 * (package viewer). Every event has an id of the package's durable stream;
 * `Last-Event-ID` (or `?lastEventId=`) replays what was missed, `reset` says
 * it is older than the kept history. Access is re-checked before every event
 * and every heartbeat, the credential that opened the stream included (read
 * again as a new request reads it): a caller who lost access, or whose
 * credential was deleted, revoked or expired, gets `revoked` and the stream
 * ends. Served under both `/environments` and `/projects`.
 * @module
 */
import { apiErrorOf } from "../http/error_handler.ts";
import { Elysia, t } from "elysia";
import { acceptAppToken } from "../apps/scope.ts";
import { environmentScoped } from "../http/aliases.ts";
import { required } from "../http/auth.ts";
import type { AppContext } from "../context.ts";
import { type Principal, rateLimitKey } from "../access/principal.ts";
import { requestPrincipal, security } from "../http/security.ts";
import { packageRules } from "../packages/route_rules.ts";
import type { Claims } from "../apps/credentials.ts";
import { packageFor } from "../packages/lookup.ts";
import { pkgParams } from "../http/resource_params.ts";
import { type PackageEvent, type PackageKey, eventsAfter, streamState, subscribe } from "./hub.ts";
import { compileProblemsWithheld, WITHHELD_COMPILE_ERROR } from "../rls/visibility.ts";
import { type StreamSlots, streamSlots } from "./stream_slots.ts";

/** Interval of the heartbeat comment (and of the access re-check between events), ms. */
const KEEPALIVE_MS = 15_000;

const encoder = new TextEncoder();

/** One event in the `text/event-stream` format. */
function formatEvent(event: { id?: string; event: string; data: unknown }): string {
  const lines = JSON.stringify(event.data).split("\n").map((l) => `data: ${l}`).join("\n");
  return `${event.id ? `id: ${event.id}\n` : ""}event: ${event.event}\n${lines}\n\n`;
}

/** Options of {@link eventStream}. */
interface EventStreamOptions {
  pkg: PackageKey;
  /** Replay stored events after this id (`Last-Event-ID`). */
  after?: bigint;
  /** Re-checks the caller's access: the current latest version, or `null` when access is gone. */
  recheck: () => Promise<{ latestVersion: string | null } | null>;
  /** The form of an event this caller receives (a compile error without its problems, when they are withheld). */
  shown: (event: PackageEvent) => Promise<PackageEvent>;
  latestVersion: string | null;
  /** When the caller's credential expires (app token), ms since the epoch: the stream ends then, the client reconnects with a new one. */
  expiresAt?: number;
  signal: AbortSignal;
  /** Called once when the stream ends, however it ends (gives back its slot). */
  onEnd?: () => void;
}

/**
 * The stream of one subscriber: replay (or `reset`), `ready` with the current
 * id, then each new event after an access check; ends on `revoked`, on the
 * credential's expiry, on shutdown and when the client goes away.
 */
function eventStream(ctx: AppContext, options: EventStreamOptions): ReadableStream<Uint8Array> {
  let cleanup = () => {};
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      let closed = false;
      let lastSent = 0n;
      let pulling: Promise<void> | null = null;
      let again = false;
      // wakes before `ready` wait for it: a pull then would start from no position and send the replay twice
      let started = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      const revoke = () => {
        send(formatEvent({ id: lastSent > 0n ? lastSent.toString() : undefined, event: "revoked", data: { package: options.pkg.packageName, reason: "access to the package was removed" } }));
        cleanup();
      };
      const allowed = async (): Promise<boolean> => {
        const access = await options.recheck().catch((error) => {
          ctx.log({ level: "error", event: "events_recheck_failed", error: error instanceof Error ? error.message : String(error) });
          return { latestVersion: null };
        });
        if (!access) revoke();
        return access !== null;
      };
      const pull = async () => {
        do {
          again = false;
          const events = await eventsAfter(ctx.sql, options.pkg, lastSent);
          for (const e of events) {
            if (closed) return;
            if (!(await allowed())) return;
            send(formatEvent(await options.shown(e)));
            lastSent = BigInt(e.id);
          }
        } while (again && !closed);
      };
      const wake = () => {
        if (closed) return;
        if (pulling || !started) {
          again = true;
          return;
        }
        pulling = pull().catch((error) => {
          ctx.log({ level: "error", event: "events_pull_failed", error: error instanceof Error ? error.message : String(error) });
        }).finally(() => {
          pulling = null;
        });
      };
      send(`retry: 3000\n\n`);
      const unsubscribe = subscribe(ctx, options.pkg, { wake, close: () => cleanup() });
      const keepalive = setInterval(async () => {
        if (await allowed()) send(`: keepalive\n\n`);
      }, KEEPALIVE_MS);
      const expiry = options.expiresAt ? setTimeout(() => cleanup(), Math.max(0, options.expiresAt - Date.now())) : undefined;
      cleanup = () => {
        if (closed) return;
        closed = true;
        options.onEnd?.();
        clearInterval(keepalive);
        clearTimeout(expiry);
        unsubscribe();
        options.signal.removeEventListener("abort", cleanup);
        try {
          controller.close();
        } catch {
          // already closed by the runtime
        }
      };
      if (options.signal.aborted) return cleanup();
      options.signal.addEventListener("abort", cleanup);
      try {
        const state = await streamState(ctx.sql, options.pkg);
        if (options.after !== undefined) {
          const missedTooMuch = options.after > state.lastId ||
            (state.oldestKept !== null && options.after < state.oldestKept - 1n) ||
            (state.oldestKept === null && options.after < state.lastId);
          if (missedTooMuch) {
            send(formatEvent({ id: state.lastId.toString(), event: "reset", data: { package: options.pkg.packageName, reason: `events after ${options.after} are no longer kept; reload the package's state`, lastEventId: state.lastId.toString() } }));
            lastSent = state.lastId;
          } else {
            lastSent = options.after;
            await pull();
          }
        } else {
          lastSent = state.lastId;
        }
        if (closed) return;
        send(formatEvent({ id: lastSent.toString(), event: "ready", data: { package: options.pkg.packageName, latestVersion: options.latestVersion, lastEventId: lastSent.toString() } }));
        started = true;
        wake(); // anything stored while this stream started
      } catch (error) {
        ctx.log({ level: "error", event: "events_start_failed", error: error instanceof Error ? error.message : String(error) });
        cleanup();
      }
    },
    cancel() {
      cleanup();
    },
  });
}

function lastEventIdOf(request: Request): bigint | undefined {
  const raw = request.headers.get("last-event-id") ?? new URL(request.url).searchParams.get("lastEventId") ?? "";
  return /^\d{1,18}$/.test(raw) ? BigInt(raw) : undefined;
}

const STREAM_DOC = "`text/event-stream`. Every event has an `id:` of the package's durable stream (increasing across restarts and " +
  "nodes). On connect: `retry: 3000`, the events after `Last-Event-ID` (header, or `?lastEventId=` for a new `EventSource`) — or " +
  "`event: reset` when they are older than the kept history (`EVENT_HISTORY`, default 1,000 per package) — then `event: ready` " +
  "`{ package, latestVersion, lastEventId }`. Then: `change` `{ package, path, kind }` (watch mode), `published` `{ package, versionId, " +
  "source }` (any publish), `archived` `{ package, versionId }`, `compile_error` `{ package, message, problems }` (a watch-mode republish " +
  "failed; when the package's newest version has sources restricted by #(authorize) or #(bind), callers below package modeler get " +
  "a message without the problems, which quote field names), `compile_ok` `{ package, versionId }` (it compiles again), run progress (`run_started` `{ package, runId, versionId, unitsTotal }`, " +
  "`run_progress` `{ package, runId, versionId, unitsDone, unitsTotal }` after each unit, `run_finished` `{ package, runId, versionId, state }` " +
  "with `state` `succeeded`, `failed` or `cancelled`, and `indexed` `{ package, runId, versionId }` when the run left the version indexed; " +
  "they carry counts and states, never a source name or error: read the run for those), and `revoked` (the caller lost access, or the credential that " +
  "opened the stream was deleted, revoked or expired; the stream ends). Access and the credential are re-checked for every event and " +
  "every 15 s heartbeat (`: keepalive`), so no event follows the credential's end. One caller (user or API key, with any of its " +
  "credentials) holds at most `EVENT_STREAMS_PER_CALLER` (16) streams at once: `429 RATE_LIMIT_EXCEEDED` past it; a node serves at most " +
  "`EVENT_STREAMS_MAX` (10,000): `503` past it; both with `Retry-After`. Credentials: `Authorization`, or an app token as " +
  "`?app_token=` (`EventSource` cannot send headers; the stream ends when that token expires, reconnect with a fresh one).";

function eventsPlugin(ctx: AppContext, prefix: string, slots: StreamSlots) {
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(packageRules(ctx))
    // `EventSource` cannot send headers: an app token may come as `?app_token=` (this route only)
    .derive(async ({ principal, request, query }): Promise<{ principal: Principal | null; appClaims: Claims | null }> => {
      const appToken = typeof query.app_token === "string" ? query.app_token : "";
      if (principal || !appToken) return { principal, appClaims: null };
      const app = await acceptAppToken(ctx, request, appToken);
      return { principal: app.principal, appClaims: app.claims };
    })
    .get(
      "/:env/packages/:pkg/events",
      async ({ params, principal, pkg, appClaims, request, query, signer }) => {
        const caller = required(principal);
        const expiresAt = appClaims ? appClaims.exp * 1000 : undefined;
        // The credential that opened the stream is read again for every check, as a new request would read
        // it: an API key deleted or expired, an access token revoked (password change, reset, removal) or
        // expired, an app token expired, its user or API key gone, its OAuth grant revoked or its workspace
        // no longer holding the package: 401/403, and the stream gets `revoked`.
        const current = async (): Promise<Principal | null> => appClaims
          ? (await acceptAppToken(ctx, request, query.app_token!)).principal
          : await requestPrincipal(ctx, request, { signer, since: performance.now() });
        let rank = pkg.rank;
        const recheck = async () => {
          try {
            const who = await current();
            if (!who) return null;
            const again = await packageFor(ctx, who, params);
            rank = again.rank;
            return again.envId === pkg.envId && again.id === pkg.id ? { latestVersion: again.latestVersion } : null;
          } catch (error) {
            const api = apiErrorOf(error);
            if (api && (api.status === 404 || api.status === 403 || api.status === 401)) return null;
            throw error;
          }
        };
        // one caller's streams are counted together whatever credential opened them (user, API key, app token of either)
        const release = slots.take(rateLimitKey(caller));
        const stream = eventStream(ctx, {
          pkg: { envId: pkg.envId, packageName: pkg.name },
          latestVersion: pkg.latestVersion,
          after: lastEventIdOf(request),
          recheck,
          // a watch-mode compile error quotes the models' field names: withheld as the models API withholds them
          shown: async (e) => e.event === "compile_error" && (await compileProblemsWithheld(ctx.sql, { rank, packageId: pkg.id }))
            ? { ...e, data: { ...e.data, message: WITHHELD_COMPILE_ERROR, problems: [] } }
            : e,
          expiresAt,
          signal: request.signal,
          onEnd: release,
        });
        return new Response(stream, {
          headers: {
            "content-type": "text/event-stream; charset=utf-8",
            "cache-control": "no-cache, no-transform",
            connection: "keep-alive",
            "x-accel-buffering": "no",
          },
        });
      },
      {
        params: pkgParams,
        pkgAccess: "viewer",
        query: t.Object({
          app_token: t.Optional(t.String({ maxLength: 4096 })),
          lastEventId: t.Optional(t.String({ maxLength: 20 })),
        }),
        detail: {
          summary: "Server-Sent Events of one package (package viewer): ready, published, archived, change, compile_error, compile_ok, run_started, run_progress, run_finished, indexed, revoked, reset",
          description: STREAM_DOC,
          tags: ["data"],
        },
      },
    );
}

/** The events route under both `/environments` and `/projects`. */
export function eventRoutes(ctx: AppContext) {
  const slots = streamSlots(ctx.config.eventStreamsPerCaller, ctx.config.eventStreamsMax);
  return environmentScoped((prefix) => eventsPlugin(ctx, prefix, slots));
}
