/**
 * Helpers of the data-family tests: the service behind a real `Bun.serve` on
 * loopback, and a Server-Sent Events client over fetch + ReadableStream.
 * @module
 */
import type { World } from "../packages/helpers.ts";

/** One parsed server-sent event. */
export interface SseEvent {
  id?: string;
  event: string;
  // deno-lint-ignore no-explicit-any
  data: any;
}

/** An open event stream. */
export interface SseClient {
  status: number;
  headers: Headers;
  /** The next event (of `name` when given, skipping others), or a rejection after `timeoutMs`. */
  next(name?: string, timeoutMs?: number): Promise<SseEvent>;
  /** Every event received so far that nobody took with `next`. */
  pending(): SseEvent[];
  close(): void;
}

/** Serves the world's service on a loopback port; returns its origin and a stop function. */
export function serve(w: World): { origin: string; stop: () => void } {
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, fetch: (request) => w.s.service.handle(request) });
  return { origin: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

function parseBlock(block: string): SseEvent | null {
  const event: SseEvent = { event: "message", data: "" };
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "id") event.id = value;
    else if (field === "event") event.event = value;
    else if (field === "data") data.push(value);
  }
  if (data.length === 0) return null;
  const text = data.join("\n");
  try {
    event.data = JSON.parse(text);
  } catch {
    event.data = text;
  }
  return event;
}

/** Opens an event stream with fetch and parses its events as they arrive. */
export async function openEvents(url: string, options: { token?: string; headers?: Record<string, string> } = {}): Promise<SseClient> {
  const abort = new AbortController();
  const headers: Record<string, string> = { accept: "text/event-stream", ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(url, { headers, signal: abort.signal });
  const queue: SseEvent[] = [];
  const waiters: (() => void)[] = [];
  if (response.ok && response.body) {
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = "";
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const parsed = parseBlock(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
            if (parsed) {
              queue.push(parsed);
              for (const wake of waiters.splice(0)) wake();
            }
          }
        }
      } catch {
        // aborted
      }
    })();
  }
  async function next(name?: string, timeoutMs = 15_000): Promise<SseEvent> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const at = queue.findIndex((e) => !name || e.event === name);
      if (at >= 0) return queue.splice(at, 1)[0]!;
      const left = deadline - performance.now();
      if (left <= 0) throw new Error(`no '${name ?? "any"}' event within ${timeoutMs} ms; got ${JSON.stringify(queue)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
  return { status: response.status, headers: response.headers, next, pending: () => [...queue], close: () => abort.abort() };
}

/** Polls `check` until it returns true or `timeoutMs` passes. */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (await check()) return true;
    await Bun.sleep(20);
  }
  return await check();
}
