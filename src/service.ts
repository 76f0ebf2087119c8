/**
 * Assembles the service: database, migrations, bootstrap, app and handler.
 * Used by `main.ts` and by the tests, so both run the same start-up.
 * @module
 */
import type { Config } from "./config.ts";
import { openDatabase, secureDataDir, type Database } from "./db/database.ts";
import { migrate } from "./db/migrate.ts";
import { bootstrapAdmin, jwtSecret, type BootstrapResult } from "./auth/bootstrap.ts";
import { buildApp, createContext, createHandler, type App, type HandlerOptions } from "./app.ts";
import type { AppContext } from "./context.ts";
import type { McpRoutesOptions } from "./mcp/routes.ts";
import { resumeIndexing, waitForIndexing } from "./retrieval/index/indexer.ts";
import { releaseIdleEntities, setEntityCacheBudget } from "./retrieval/index/entity_cache.ts";
import { onEmbedderRecovered } from "./retrieval/embedding/embedder.ts";
import { settleWatching, stopWatching } from "./watch/watcher.ts";
import { startWorker, stopWorker } from "./runs/worker.ts";
import { closePackageStreams } from "./events/hub.ts";
import { setCompileLimits, warmMalloy } from "./engine/mod.ts";
import { removeStaleUploads, uploadDirOf } from "./publishing/publish_form.ts";
import { flushQueryLog } from "./query_log/writer.ts";
import { startMemoryGovernor, stopMemoryGovernor } from "./query/memory_governor.ts";

/** A started (not listening) service. */
export interface Service {
  db: Database;
  ctx: AppContext;
  app: App;
  handle: (request: Request) => Promise<Response>;
  bootstrap: BootstrapResult;
  close(): Promise<void>;
}

/** Options of {@link startService}. */
export interface StartOptions extends HandlerOptions {
  /** An already open database (tests; main.ts opens it while the service loads); otherwise opened from the config. */
  db?: Database;
  log?: (line: Record<string, unknown>) => void;
  /** Implementations behind the MCP tools (`execute_query`, `get_context`). */
  mcp?: McpRoutesOptions;
  /**
   * Return before the warm-ups end (main.ts: `/health` answers at once,
   * `/health/ready` says `starting` until they end); default false, so a
   * started service's first query never pays for them.
   */
  warmInBackground?: boolean;
}

/** Opens the database, migrates, bootstraps the admin and builds the app. */
export async function startService(config: Config, options: StartOptions = {}): Promise<Service> {
  await secureDataDir(config.dataDir);
  // Model compiles run in worker threads (COMPILE_WORKERS), each stopped at COMPILE_TIMEOUT_MS.
  setCompileLimits({ workers: config.compileWorkers, timeoutMs: config.compileTimeoutMs });
  // upload files a crash left behind (each request removes its own)
  await removeStaleUploads(uploadDirOf(config.dataDir));
  // Queries are still translated on this thread: warm Malloy once per process, not in the first query,
  // while the database opens; in the background (main.ts), once the service listens: it would hold this
  // thread while the start-up waits for the database.
  const warming = options.warmInBackground ? undefined : warmMalloy();
  const db = options.db ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir + "/pg" }));
  try {
    if (!options.warmInBackground) await warming;
    await migrate(db.sql);
    const bootstrap = await bootstrapAdmin(db.sql, config);
    const ctx = createContext({ sql: db.sql, config, dbKind: db.kind, jwtSecret: await jwtSecret(db.sql, config), log: options.log });
    const app = buildApp(ctx, { mcp: options.mcp });
    const handle = createHandler(ctx, app, options);
    // Versions a crash left `indexing`, or embedded by another model: re-index in the background.
    const resumed = resumeIndexing(ctx).catch((error) =>
      ctx.log({ level: "error", event: "resume_indexing_failed", error: error instanceof Error ? error.message : String(error) })
    );
    // An embeddings server (EMBEDDING_BASE_URL) that answers again: versions indexed without it get vectors.
    const stopRecovery = onEmbedderRecovered(() => {
      resumeIndexing(ctx).catch((error) =>
        ctx.log({ level: "error", event: "resume_indexing_failed", error: error instanceof Error ? error.message : String(error) })
      );
    });
    // Runs queued by any node (and runs a dead node left running) are claimed here.
    startWorker(ctx);
    // What idle versions keep (DuckDB instances, compiled queries) is released; MEMORY_BUDGET bounds the rest.
    // get_context's entity records take at most a quarter of the budget, and go when idle like the rest
    setEntityCacheBudget(Math.floor(config.memoryBudget / 4));
    startMemoryGovernor(ctx, [releaseIdleEntities]);
    const close = async () => {
      stopRecovery();
      stopMemoryGovernor(ctx);
      await closePackageStreams(ctx); // open event streams end, LISTEN stops before the pool closes
      await settleWatching(ctx);
      stopWatching(ctx);
      await stopWorker(ctx);
      await resumed;
      await waitForIndexing(ctx);
      await flushQueryLog(ctx); // entries waiting to share an INSERT are written, not lost
      await db.close();
    };
    return { db, ctx, app, handle, bootstrap, close };
  } catch (error) {
    await db.close();
    throw error;
  }
}
