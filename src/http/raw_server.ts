/**
 * The listening server: `node:http` (as Bun implements it) instead of
 * `Bun.serve`, because `Bun.serve` resolves `..`, `%2e%2e` and backslash
 * segments of the request line before the app sees it, so a request for
 * `/organizations/acme/groups/%2E%2E` reached the handler of
 * `/organizations/acme`. Here the request target is kept as received
 * ({@link rawTarget}) and the edge refuses such paths with `400 INVALID_PATH`.
 * Requests and responses are web-standard `Request`/`Response` objects;
 * bodies stream both ways and a closed connection aborts `request.signal`.
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Readable } from "node:stream";

const targets = new WeakMap<Request, string>();
const addresses = new WeakMap<Request, string>();

/** The request target exactly as the client sent it (path and query), when the request came through {@link serveRaw}. */
export function rawTarget(request: Request): string | undefined {
  return targets.get(request);
}

/** Options of {@link serveRaw}. */
export interface RawServeOptions {
  hostname: string;
  port: number;
  fetch(request: Request): Response | Promise<Response>;
}

/** A listening server. */
export interface RawServer {
  hostname: string;
  port: number;
  /** The client's socket address of a request. */
  requestIP(request: Request): { address: string } | null;
  /** Stops accepting connections; open ones (event streams) are closed after `graceMs` (default 3 s). */
  stop(graceMs?: number): Promise<void>;
}

function toRequest(req: IncomingMessage, signal: AbortSignal, fallbackHost: string): Request {
  const target = req.url ?? "/";
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    try {
      headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
    } catch {
      // A header the fetch API cannot hold is dropped, as Bun.serve does.
    }
  }
  const host = /^[A-Za-z0-9.\-:[\]]+$/.test(req.headers.host ?? "") ? req.headers.host! : fallbackHost;
  // Absolute-form targets (`GET http://host/path`) keep only their path and query.
  const pathAndQuery = target.startsWith("/") ? target : target.replace(/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/?#]*/, "") || "/";
  let url: string;
  try {
    url = new URL(pathAndQuery, `http://${host}`).href;
  } catch {
    url = `http://${fallbackHost}/`;
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const request = new Request(url, {
    method,
    headers,
    signal,
    ...(hasBody ? { body: Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>, duplex: "half" } : {}),
  } as RequestInit);
  targets.set(request, pathAndQuery.startsWith("/") ? pathAndQuery : `/${pathAndQuery}`);
  if (req.socket.remoteAddress) addresses.set(request, req.socket.remoteAddress);
  return request;
}

async function writeResponse(response: Response, res: ServerResponse, signal: AbortSignal): Promise<void> {
  res.statusCode = response.status;
  const cookies = response.headers.getSetCookie();
  response.headers.forEach((value, key) => {
    if (key !== "set-cookie") res.setHeader(key, value);
  });
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  try {
    while (!signal.aborted) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once("drain", resolve).once("close", resolve));
    }
  } finally {
    if (signal.aborted) await reader.cancel().catch(() => {});
    res.end();
  }
}

/** Listens on `hostname:port` and answers each request with `options.fetch`. */
export async function serveRaw(options: RawServeOptions): Promise<RawServer> {
  let port = options.port;
  const server = createServer((req, res) => {
    const controller = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    void (async () => {
      try {
        const request = toRequest(req, controller.signal, `${options.hostname}:${port}`);
        const response = await options.fetch(request);
        await writeResponse(response, res, controller.signal);
      } catch {
        if (!res.headersSent) {
          res.statusCode = 400;
          res.setHeader("content-type", "application/json");
          res.end(JSON.stringify({ code: "VALIDATION_ERROR", message: "the request could not be read" }));
        } else res.destroy();
      }
    })();
  });
  server.requestTimeout = 0; // event streams stay open
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.hostname, () => resolve());
  });
  const address = server.address();
  if (address && typeof address === "object") port = address.port;
  return {
    hostname: options.hostname,
    port,
    requestIP: (request) => {
      const a = addresses.get(request);
      return a ? { address: a } : null;
    },
    async stop(graceMs = 3000) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
}
