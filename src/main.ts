/**
 * Entry point: reads the configuration, starts the service and listens on
 * `HOST`:`PORT`; SIGTERM and SIGINT close the server, the pool and PGlite.
 * @module
 */
import { readConfig } from "./config.ts";
import { startService } from "./service.ts";

const config = readConfig();
let server: ReturnType<typeof Bun.serve> | undefined;
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

server = Bun.serve({
  hostname: config.host,
  port: config.port,
  idleTimeout: 120,
  maxRequestBodySize: Number(process.env.MAX_UPLOAD_BYTES ?? 256 * 1024 * 1024),
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
