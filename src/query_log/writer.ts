/**
 * Group commit of query log entries: {@link QueryLogWriter.record} queues an
 * entry and resolves once the INSERT holding it committed. Entries queued
 * while a flush is in flight go together in the next one, so under load one
 * statement carries many entries and a query waits for at most one flush
 * ahead of its own. The query runner awaits `record` before answering: an
 * answered query's entry is durable.
 *
 * Under load the runner lets an entry wait (`waitMs`) for others when no
 * flush is in flight, so that one INSERT carries the entries of several
 * queries instead of one each (each INSERT costs the embedded database about
 * as much as a query's whole lookup). The entry's query has already given
 * back its engine slot, so waiting delays its answer, not other queries.
 * {@link flushQueryLog} writes waiting entries at once (service shutdown).
 *
 * The writer also prunes entries older than `QUERY_LOG_DAYS` once at start
 * and every hour (timer unref'd: it never keeps the process alive).
 * @module
 */
import type { AppContext } from "../context.ts";
import { insertEntries, pruneEntries, type QueryLogEntry } from "./store.ts";

/** Records query log entries of one app context. */
export interface QueryLogWriter {
  /**
   * Queues the entry; resolves when it is committed (rejects when the insert
   * failed). With `waitMs` and no flush in flight, the flush starts after
   * that many ms (entries queued meanwhile join it) unless an entry without
   * `waitMs` arrives first.
   */
  record(entry: QueryLogEntry, options?: { waitMs?: number }): Promise<void>;
  /** Writes the queued entries now; resolves when every entry queued so far is settled. */
  flush(): Promise<void>;
  /** Stops the prune timer. */
  close(): void;
}

interface Pending {
  entry: QueryLogEntry;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const PRUNE_EVERY_MS = 60 * 60 * 1000;
const writers = new WeakMap<AppContext, QueryLogWriter>();

/**
 * Writes the queued entries of the context's writer now, if it has one
 * (the service calls it before closing the database).
 */
export async function flushQueryLog(ctx: AppContext): Promise<void> {
  await writers.get(ctx)?.flush();
}

/** The writer of an app context (one per context). */
export function queryLogWriter(ctx: AppContext): QueryLogWriter {
  let writer = writers.get(ctx);
  if (!writer) {
    writer = createWriter(ctx);
    writers.set(ctx, writer);
  }
  return writer;
}

function createWriter(ctx: AppContext): QueryLogWriter {
  let queue: Pending[] = [];
  let flushing: Promise<void> | null = null;
  let delayed: ReturnType<typeof setTimeout> | undefined;
  const days = ctx.config.queryLogDays ?? 30;
  const prune = () => pruneEntries(ctx.sql, days).catch((error) => ctx.log({ level: "warn", event: "query_log_prune_failed", message: (error as Error).message }));
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  (timer as { unref?: () => void }).unref?.();
  setTimeout(prune, 1_000).unref?.();

  async function flush(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      try {
        await insertEntries(ctx.sql, batch.map((p) => p.entry));
        for (const p of batch) p.resolve();
      } catch (error) {
        ctx.log({ level: "error", event: "query_log_write_failed", entries: batch.length, message: (error as Error).message });
        for (const p of batch) p.reject(error);
      }
    }
    flushing = null;
  }

  /** Starts a flush unless one runs (its loop takes the queue) or the queue is empty. */
  function flushNow(): Promise<void> {
    clearTimeout(delayed);
    delayed = undefined;
    if (!flushing && queue.length > 0) flushing = flush();
    return flushing ?? Promise.resolve();
  }

  return {
    record(entry, options = {}) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ entry, resolve, reject });
        if (flushing) return;
        const waitMs = options.waitMs ?? 0;
        if (waitMs <= 0) void flushNow();
        else delayed ??= setTimeout(flushNow, waitMs);
      });
    },
    async flush() {
      while (flushing || queue.length > 0) await flushNow();
    },
    close() {
      clearInterval(timer);
    },
  };
}
