/**
 * A package's event stream (`GET .../packages/{pkg}/events`) read by the CLI
 * over fetch with its `Authorization`: the events as they arrive.
 * @module
 */
import { refusal, send, type Session } from "./client.ts";

/** One server-sent event. */
interface StreamEvent {
  id?: string;
  event: string;
  data: Record<string, unknown>;
}

/** An open stream: its events, and `close()`. */
export interface EventStream {
  events: AsyncGenerator<StreamEvent>;
  close(): void;
}

function parse(block: string): StreamEvent | null {
  const event: StreamEvent = { event: "message", data: {} };
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
  try {
    event.data = JSON.parse(data.join("\n")) as Record<string, unknown>;
  } catch {
    event.data = { text: data.join("\n") };
  }
  return event;
}

/** Opens the event stream of a package (a refusal throws). */
export async function openEvents(session: Session, path: string): Promise<EventStream> {
  const abort = new AbortController();
  const response = await send(session, "GET", `/api/v0${path}/events`, { headers: { accept: "text/event-stream" }, signal: abort.signal });
  if (!response.ok || !response.body) throw await refusal(session, response);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  async function* events(): AsyncGenerator<StreamEvent> {
    let buffer = "";
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value.replace(/\r\n/g, "\n");
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const parsed = parse(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          if (parsed) yield parsed;
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    }
  }
  return { events: events(), close: () => abort.abort() };
}
