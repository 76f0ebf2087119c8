/**
 * Bounds on open event streams. Each stream holds a subscription, a heartbeat
 * timer and an access re-check every 15 s, for as long as the client keeps the
 * connection: without a bound one caller (a viewer, an API key, an app token)
 * could open streams until the node runs out of memory, sockets or database
 * time. A caller (user, API key) may hold `EVENT_STREAMS_PER_CALLER` streams
 * at once (`429 RATE_LIMIT_EXCEEDED` past it) and a node
 * `EVENT_STREAMS_MAX` (`503 SERVICE_UNAVAILABLE` past it); a slot is given
 * back when its stream ends, however it ends.
 * @module
 */
import { ApiError } from "../http/errors.ts";

/** The open-stream counts of one node. */
export interface StreamSlots {
  /** Takes a slot for `caller`; the answer gives it back (idempotent). Throws when a bound is reached. */
  take(caller: string): () => void;
  /** Streams open now, in all and of one caller. */
  open(caller?: string): number;
}

/** Slots bounded by `perCaller` streams of one caller and `total` streams of the node. */
export function streamSlots(perCaller: number, total: number): StreamSlots {
  const byCaller = new Map<string, number>();
  let all = 0;
  return {
    take(caller) {
      const mine = byCaller.get(caller) ?? 0;
      if (mine >= perCaller) {
        throw new ApiError("RATE_LIMIT_EXCEEDED", `this caller already has ${mine} event streams open (at most ${perCaller}); close one (EventSource.close()) or share one stream between pages`, {
          headers: { "retry-after": "15" },
        });
      }
      if (all >= total) {
        throw new ApiError("SERVICE_UNAVAILABLE", `this node serves ${all} event streams, its most; retry later or on another node`, {
          headers: { "retry-after": "15" },
        });
      }
      byCaller.set(caller, mine + 1);
      all++;
      let given = false;
      return () => {
        if (given) return;
        given = true;
        all--;
        const left = (byCaller.get(caller) ?? 1) - 1;
        if (left <= 0) byCaller.delete(caller);
        else byCaller.set(caller, left);
      };
    },
    open(caller) {
      return caller === undefined ? all : byCaller.get(caller) ?? 0;
    },
  };
}
