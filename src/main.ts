/**
 * Entry point: reads the configuration, takes the data directory's lock file,
 * starts the service and listens on `HOST`:`PORT`, then prints where to go
 * next (console, docs, MCP). The log is readable lines on a terminal and JSON
 * lines otherwise (`LOG_FORMAT`, see ./log_format.ts). SIGTERM and SIGINT end the
 * open event streams, close the server, the pool and PGlite, and exit within 5 s.
 * @module
 */
import { readConfig } from "./config.ts";
import { openDatabase, secureDataDir } from "./db/database.ts";
import { lockDataDir } from "./lock.ts";
import { type RawServer, serveRaw } from "./http/raw_server.ts";
import { createLog, type LogFormat, logFormatOf, startBanner } from "./log_format.ts";

/** Longest a shutdown may take before the process exits anyway, ms. */
const SHUTDOWN_MS = 4_500;

let format: LogFormat;
try {
  format = logFormatOf(process.env.LOG_FORMAT, Boolean(process.stdout.isTTY));
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const color = format === "text" && Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const log = createLog(format, { color });
const config = readConfig();
let lock;
try {
  lock = lockDataDir(config.dataDir);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
process.on("exit", () => lock.release());
let server: RawServer | undefined;
// The connecting peer; with TRUST_PROXY the handler reads X-Forwarded-For from the right (src/http/client_address.ts).
function addressOf(request: Request): string | undefined {
  return server?.requestIP(request)?.address;
}
// The database opens while the rest of the service loads (Malloy and the routes are most of the
// start): PGlite compiles its WebAssembly off this thread.
await secureDataDir(config.dataDir);
const [{ startService }, { closeCompileWorkers, warmCompileWorkers, warmMalloy }, { closePackageStreams }, { warmRetrieval }, db] = await Promise.all([
  import("./service.ts"),
  import("./engine/mod.ts"),
  import("./events/hub.ts"),
  import("./retrieval/warmup.ts"),
  openDatabase({ url: config.databaseUrl, dataDir: config.dataDir + "/pg" }),
]);
// Warm-ups run in the background: /health answers as soon as the database is migrated,
// /health/ready once Malloy is warm.
const service = await startService(config, { addressOf, log, warmInBackground: true, db });

if (service.bootstrap.generatedPassword) {
  console.log(
    `Created system administrator '${service.bootstrap.userName}' with password: ${service.bootstrap.generatedPassword}\n` +
      "This password is shown only once; change it with PATCH /api/v0/users/" + service.bootstrap.userName +
      " (lost it? stop the server and run: bun run reset-admin-password)",
  );
}

// node:http keeps the request target as sent, so the edge can refuse encoded dot segments
// (Bun.serve resolves them first); bodies are capped by the edge (MAX_BODY_BYTES, MAX_UPLOAD_BYTES).
server = await serveRaw({
  hostname: config.host,
  port: config.port,
  fetch: (request) => service.handle(request),
});
warmCompileWorkers(); // the first publish or model load does not wait for a worker to load Malloy
// then what the first run and the first get_context load (embedding model, lexicon), off the start path
void warmMalloy().then(() => warmRetrieval()).catch(() => {});
const shownHost = server.hostname === "0.0.0.0" || server.hostname === "::" ? "localhost" : server.hostname;
const base = config.publicUrl ?? `http://${shownHost}:${server.port}`;
if (format === "text") {
  service.ctx.log({ level: "info", message: `listening on http://${server.hostname}:${server.port}` });
  process.stdout.write(`${startBanner(base, { database: service.db.kind === "embedded" ? `embedded PostgreSQL in ${config.dataDir}` : "PostgreSQL server from DATABASE_URL", color })}\n`);
} else {
  service.ctx.log({
    level: "info",
    message: `listening on http://${server.hostname}:${server.port}`,
    database: service.db.kind,
    urls: { console: `${base}/`, docs: `${base}/api/v0/docs`, mcp: `${base}/mcp/{organization}` },
  });
}

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  service.ctx.log({ level: "info", message: `${signal}: shutting down` });
  const deadline = setTimeout(() => {
    service.ctx.log({ level: "error", message: `shutdown took over ${SHUTDOWN_MS} ms; exiting` });
    process.exit(0);
  }, SHUTDOWN_MS);
  try {
    await closePackageStreams(service.ctx);
    await server?.stop();
    await service.close();
    await closeCompileWorkers();
  } catch (error) {
    service.ctx.log({ level: "error", message: `shutdown: ${error instanceof Error ? error.message : String(error)}` });
  }
  clearTimeout(deadline);
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
