/**
 * Runs the MCP conformance suite (`@modelcontextprotocol/conformance`) against
 * this service: starts the service in-process on an embedded database in a
 * temporary directory, inserts an organization, a group and a group token with
 * SQL (the token routes are not part of this branch), serves the service on a
 * loopback port, puts a loopback proxy in front of it that adds
 * `Authorization: ApiKey <token>` to every request (the server's auth stays as
 * it is), runs the suite as a separate process against `<proxy>/mcp/<org>`,
 * prints its output and exits with its status.
 *
 * Usage: `bun test/conformance/run.ts [extra conformance CLI arguments]`
 * (`.ci/conformance` passes `--expected-failures`). Environment:
 * `CONFORMANCE_VERSION` (default 0.1.16), `CONFORMANCE_NODE` (default `node@22`).
 * @module
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readConfig } from "../../src/config.ts";
import { sha256Hex } from "../../src/http/auth.ts";
import { startService } from "../../src/service.ts";

const ORG = "conformance";
const version = process.env.CONFORMANCE_VERSION ?? "0.1.16";
const node = process.env.CONFORMANCE_NODE ?? "node@22";

/** Headers that belong to one hop and are not forwarded. */
const HOP = ["host", "connection", "keep-alive", "transfer-encoding", "content-length", "accept-encoding"];

function forwarder(target: string, secret: string): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    for (const name of HOP) headers.delete(name);
    headers.set("authorization", `ApiKey ${secret}`);
    const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
    const upstream = await fetch(`${target}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: "manual" });
    const out = new Headers(upstream.headers);
    out.delete("content-encoding");
    out.delete("content-length");
    return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers: out });
  };
}

async function main(): Promise<number> {
  const dataDir = await mkdtemp(join(tmpdir(), "mcp-conformance-"));
  const config = readConfig({
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_PASSWORD: crypto.randomUUID(),
    LOG_REQUESTS: "false",
    RATE_LIMIT_PER_MINUTE: "0",
  });
  const service = await startService(config, { log: () => {} });
  const app = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => service.handle(request) });
  let proxy: ReturnType<typeof Bun.serve> | undefined;
  try {
    const sql = service.db.sql;
    const secret = `conformance-${crypto.randomUUID()}`;
    const [org] = await sql`INSERT INTO organizations (name) VALUES (${ORG}) RETURNING id`;
    const [group] = await sql`INSERT INTO groups (org_id, name) VALUES (${org!.id as string}, 'agents') RETURNING id`;
    await sql`INSERT INTO group_tokens (group_id, name, secret_hash, expires_at)
              VALUES (${group!.id as string}, 'conformance', ${await sha256Hex(secret)}, now() + interval '1 hour')`;
    proxy = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: forwarder(`http://127.0.0.1:${app.port}`, secret) });
    const url = `http://127.0.0.1:${proxy.port}/mcp/${ORG}`;

    const unauthenticated = await fetch(`http://127.0.0.1:${app.port}/mcp/${ORG}`, { method: "POST" });
    if (unauthenticated.status !== 401) throw new Error(`the service answered ${unauthenticated.status} without credentials; expected 401`);

    const extra = process.argv.slice(2).map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
    const command = `conformance server --url ${url} ${extra}`;
    console.log(`service on http://127.0.0.1:${app.port}, auth proxy on ${url}\n$ ${command}`);
    const child = Bun.spawn(["npx", "-y", "-p", node, "-p", `@modelcontextprotocol/conformance@${version}`, "-c", command], {
      stdout: "inherit",
      stderr: "inherit",
      env: { ...process.env, NO_COLOR: "1" },
    });
    return await child.exited;
  } finally {
    proxy?.stop(true);
    app.stop(true);
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

process.exit(await main());
