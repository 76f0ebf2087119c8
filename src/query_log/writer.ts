/**
 * Group commit of query log entries: {@link QueryLogWriter.record} queues an
 * entry and resolves once the INSERT holding it committed. Entries queued
 * while a flush is in flight go together in the next one, so under load one
 * statement carries many entries and a query waits for at most one flush
 * ahead of its own. The query runner awaits `record` before answering: an
 * answered query's entry is durable.
 *
 * The writer also prunes entries older than `QUERY_LOG_DAYS` once at start
 * and every hour (timer unref'd: it never keeps the process alive).
 * @module
 */
import type { AppContext } from "../http/context.ts";
import { insertEntries, pruneEntries, type QueryLogEntry } from "./store.ts";

/** Records query log entries of one app context. */
export interface QueryLogWriter {
  /** Queues the entry; resolves when it is committed (rejects when the insert failed). */
  record(entry: QueryLogEntry): Promise<void>;
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
  // biome-ignore lint/correctness/noUnusedVariables: read by the `??=` below (one flush at a time)
  let flushing: Promise<void> | null = null;
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

  return {
    record(entry) {
      return new Promise<void>((resolve, reject) => {
        queue.push({ entry, resolve, reject });
        flushing ??= flush();
      });
    },
    close() {
      clearInterval(timer);
    },
  };
}
