/**
 * `GET E/packages/{pkg}/events`: the Server-Sent Events stream of one package
 * (package viewer). Events: `ready` on connect, `change` (a file of the watched
 * package folder changed), `published` (a new version, through watch mode or
 * the publish API), `error` (a watch-mode republish failed; `problems` lists
 * compile problems), and a `: keepalive` comment every 15 s. Served under
 * both `/environments` and `/projects`.
 * @module
 */
import { Elysia, t } from "elysia";
import { environmentScoped } from "../http/aliases.ts";
import { required } from "../http/auth.ts";
import { browserPrincipal } from "../http/browser_token.ts";
import type { AppContext } from "../http/context.ts";
import { security } from "../http/security.ts";
import { packageFor, pkgParams } from "../packages/routes.ts";
import { type PackageEvent, subscribe } from "./hub.ts";

/** Interval of the keepalive comment, ms. */
export const KEEPALIVE_MS = 15_000;

const encoder = new TextEncoder();

/** One event in the `text/event-stream` format. */
export function formatEvent(event: { id?: string; event: string; data: unknown }): string {
  const lines = JSON.stringify(event.data).split("\n").map((l) => `data: ${l}`).join("\n");
  return `${event.id ? `id: ${event.id}\n` : ""}event: ${event.event}\n${lines}\n\n`;
}

/** Options of {@link eventStream}. */
export interface EventStreamOptions {
  envId: string;
  packageName: string;
  latestVersion: string | null;
  /** Replay buffered events after this id (`Last-Event-ID`). */
  after?: number;
  signal: AbortSignal;
}

/**
 * The stream of one subscriber: subscribes at once, unsubscribes and stops the
 * keepalive when the client goes away (request aborted or stream cancelled).
 */
export function eventStream(ctx: AppContext, options: EventStreamOptions): ReadableStream<Uint8Array> {
  let cleanup = () => {};
  return new ReadableStream<Uint8Array>({
    start(controller) {
      let closed = false;
      const send = (text: string) => {
        if (closed) return;
        try {
          controller.enqueue(encoder.encode(text));
        } catch {
          cleanup();
        }
      };
      send(`retry: 3000\n\n`);
      send(formatEvent({ event: "ready", data: { package: options.packageName, latestVersion: options.latestVersion } }));
      const unsubscribe = subscribe(ctx, { envId: options.envId, packageName: options.packageName }, {
        listener: (e: PackageEvent) => send(formatEvent(e)),
        after: options.after,
      });
      const keepalive = setInterval(() => send(`: keepalive\n\n`), KEEPALIVE_MS);
      cleanup = () => {
        if (closed) return;
        closed = true;
        clearInterval(keepalive);
        unsubscribe();
        options.signal.removeEventListener("abort", cleanup);
        try {
          controller.close();
        } catch {
          // already closed by the runtime
        }
      };
      if (options.signal.aborted) cleanup();
      else options.signal.addEventListener("abort", cleanup);
    },
    cancel() {
      cleanup();
    },
  });
}

function eventsPlugin(ctx: AppContext, prefix: string) {
  return new Elysia({ prefix })
    .use(security(ctx))
    .get(
      "/:env/packages/:pkg/events",
      async ({ params, principal, signer, request }) => {
        const credential = await browserPrincipal(ctx, request, { principal, signer });
        const pkg = await packageFor(ctx, required(credential.principal), params);
        const last = Number(request.headers.get("last-event-id") ?? "");
        const stream = eventStream(ctx, {
          envId: pkg.envId,
          packageName: pkg.name,
          latestVersion: pkg.latestVersion,
          after: Number.isInteger(last) && last > 0 ? last : undefined,
          signal: request.signal,
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
        query: t.Object({ access_token: t.Optional(t.String({ maxLength: 4096 })) }),
        detail: {
          summary: "Server-Sent Events of one package (package viewer): ready, change, published, error; keepalive every 15 s",
          description: "`text/event-stream`. On connect: `retry: 3000` and `event: ready` `{ package, latestVersion }`. Then, with " +
            "increasing `id:`s: `event: change` `{ package, path, kind, at }` when a file of the package folder changes in watch mode; " +
            "`event: published` `{ package, versionId, source: \"watch\"|\"api\"|\"demo\", at }` when a version is published (also " +
            "through the publish API, so in-package apps reload on every new version); `event: error` `{ package, message, problems, at }` " +
            "when a watch-mode republish fails (no version is created). A `: keepalive` comment every 15 s. `Last-Event-ID` replays " +
            "the node's last 50 events of the package. `EventSource` cannot set headers: `?access_token=` (or the package-path cookie " +
            "set by the app route) is accepted here. Events are per node.",
          tags: ["data"],
        },
      },
    );
}

/** The events route under both `/environments` and `/projects`. */
export function eventRoutes(ctx: AppContext) {
  return environmentScoped((prefix) => eventsPlugin(ctx, prefix));
}
