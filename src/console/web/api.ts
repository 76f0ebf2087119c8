/**
 * The console's calls of the REST API: a short-lived access token got with
 * the browser session (`POST /api/v0/auth/token`, `grantType: "session"`),
 * renewed before it expires; JSON calls; and the package event stream read
 * with `fetch` (an `EventSource` cannot send `Authorization`).
 * @module
 */

/** A refused or failed API call: status and the API's `{ code, message }`. */
export class ApiFailure extends Error {
  constructor(readonly status: number, readonly code: string, message: string, readonly details?: Record<string, unknown>) {
    super(message);
  }
}

const API = "/api/v0";
let token: { value: string; renewAt: number } | undefined;
let pendingToken: Promise<string> | undefined;

async function freshToken(): Promise<string> {
  const r = await fetch(`${API}/auth/token`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grantType: "session" }),
  });
  if (r.status === 401) {
    location.href = `/signin?return=${encodeURIComponent(location.pathname + location.hash)}`;
    throw new ApiFailure(401, "AUTHENTICATION_REQUIRED", "your session has ended: sign in again");
  }
  const body = await r.json();
  if (!r.ok) throw new ApiFailure(r.status, body.code ?? "ERROR", body.message ?? r.statusText);
  token = { value: body.accessToken, renewAt: Date.now() + Math.max(10, body.expiresIn - 60) * 1000 };
  return token.value;
}

/** The current access token (renewed a minute before it expires). */
async function accessToken(): Promise<string> {
  if (token && Date.now() < token.renewAt) return token.value;
  pendingToken ??= freshToken().finally(() => {
    pendingToken = undefined;
  });
  return await pendingToken;
}

/** A JSON call of the REST API (`path` below `/api/v0`); throws {@link ApiFailure}. */
export async function api<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { authorization: `Bearer ${await accessToken()}`, accept: "application/json" };
  if (body !== undefined) headers["content-type"] = "application/json";
  const r = await fetch(API + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit" });
  if (r.status === 204) return undefined as T;
  const text = await r.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    json = { message: text };
  }
  if (!r.ok) {
    // more than code and message (a compile error's `problems`) arrives beside them
    throw new ApiFailure(r.status, String(json.code ?? "ERROR"), String(json.message ?? r.statusText), json);
  }
  return json as T;
}

/** `GET` of a path, or `null` when the API answers 403 or 404 (what the caller may not see). */
export async function apiOrNull<T = unknown>(path: string): Promise<T | null> {
  try {
    return await api<T>("GET", path);
  } catch (error) {
    if (error instanceof ApiFailure && (error.status === 403 || error.status === 404)) return null;
    throw error;
  }
}

/** One server-sent event. */
export interface StreamEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Reads a package's event stream until `signal` aborts, reconnecting after a
 * dropped connection with `Last-Event-ID`; calls `onEvent` for each event.
 */
export async function followEvents(path: string, onEvent: (e: StreamEvent) => void, signal: AbortSignal): Promise<void> {
  let lastId: string | undefined;
  while (!signal.aborted) {
    try {
      const headers: Record<string, string> = { authorization: `Bearer ${await accessToken()}`, accept: "text/event-stream" };
      if (lastId) headers["last-event-id"] = lastId;
      const r = await fetch(API + path, { headers, signal, credentials: "omit" });
      if (!r.ok || !r.body) return;
      const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const e: StreamEvent = { event: "message", data: "" };
          const data: string[] = [];
          for (const line of block.split("\n")) {
            if (line.startsWith("event:")) e.event = line.slice(6).trim();
            else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
            else if (line.startsWith("id:")) e.id = line.slice(3).trim();
          }
          e.data = data.join("\n");
          if (e.id) lastId = e.id;
          if (e.data || e.event !== "message") onEvent(e);
          if (e.event === "revoked") return;
          end = buffer.indexOf("\n\n");
        }
      }
    } catch {
      if (signal.aborted) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}
