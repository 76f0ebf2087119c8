/**
 * Entry point: reads the configuration, starts the service and listens on
 * `HOST`:`PORT`; SIGTERM and SIGINT close the server, the pool and PGlite.
 * @module
 */
import { readConfig } from "./config.ts";
import { startService } from "./service.ts";
import { type RawServer, serveRaw } from "./http/raw_server.ts";

const config = readConfig();
let server: RawServer | undefined;
// The connecting peer; with TRUST_PROXY the handler reads X-Forwarded-For from the right (src/http/client_address.ts).
function addressOf(request: Request): string | undefined {
  return server?.requestIP(request)?.address;
}
const service = await startService(config, { addressOf });

if (service.bootstrap.generatedPassword) {
  console.log(
    `Created system administrator '${service.bootstrap.userName}' with password: ${service.bootstrap.generatedPassword}\n` +
      "This password is shown only once; change it with PATCH /api/v0/users/" + service.bootstrap.userName,
  );
}

// node:http keeps the request target as sent, so the edge can refuse encoded dot segments
// (Bun.serve resolves them first); bodies are capped by the edge (MAX_BODY_BYTES, MAX_UPLOAD_BYTES).
server = await serveRaw({
  hostname: config.host,
  port: config.port,
  fetch: (request) => service.handle(request),
});
service.ctx.log({ level: "info", message: `listening on http://${server.hostname}:${server.port}`, database: service.db.kind });

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  service.ctx.log({ level: "info", message: `${signal}: shutting down` });
  await server?.stop();
  await service.close();
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
