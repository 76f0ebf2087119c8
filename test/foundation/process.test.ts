import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { openDatabase } from "../../src/db/database.ts";
import { SERVER_URL } from "../helpers/service.ts";

const ROOT = join(import.meta.dir, "..", "..");
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
}, 120_000);

function freePort(): number {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

interface Proc {
  proc: ReturnType<typeof Bun.spawn>;
  port: number;
  output: () => Promise<string>;
}

function startMain(env: Record<string, string>): Proc {
  const port = freePort();
  const proc = Bun.spawn(["bun", "src/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LOG_REQUESTS: "false", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { proc, port, output: async () => (await new Response(proc.stdout as ReadableStream).text()) + (await new Response(proc.stderr as ReadableStream).text()) };
}

async function waitHealthy(port: number, timeoutMs = 30_000): Promise<number> {
  const start = performance.now();
  while (performance.now() - start < timeoutMs) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`);
      if (r.status === 200) return performance.now() - start;
    } catch {
      // not listening yet
    }
    await Bun.sleep(100);
  }
  throw new Error(`service on ${port} not healthy after ${timeoutMs} ms`);
}

async function token(port: number, password: string): Promise<string> {
  const r = await fetch(`http://127.0.0.1:${port}/api/v0/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userName: "admin", password }),
  });
  expect(r.status).toBe(200);
  return ((await r.json()) as { accessToken: string }).accessToken;
}

describe("the service process", () => {
  test("starts on the embedded database, prints a generated admin password once, keeps data across a SIGTERM restart", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "mp-data-"));
    dirs.push(dataDir);
    const first = startMain({ DATA_DIR: dataDir, DATABASE_URL: "", BOOTSTRAP_ADMIN_PASSWORD: "" });
    await waitHealthy(first.port);
    // the password line is printed before listening
    first.proc.kill("SIGTERM");
    expect(await first.proc.exited).toBe(0);
    const out = await first.output();
    const password = out.match(/password: (\S+)/)?.[1];
    expect(password).toBeString();
    expect(out).toContain("shutting down");

    const second = startMain({ DATA_DIR: dataDir, DATABASE_URL: "", BOOTSTRAP_ADMIN_PASSWORD: "" });
    await waitHealthy(second.port);
    const t = await token(second.port, password!);
    const created = await fetch(`http://127.0.0.1:${second.port}/api/v0/organizations`, {
      method: "POST",
      headers: { authorization: `Bearer ${t}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "survives" }),
    });
    expect(created.status).toBe(201);
    second.proc.kill("SIGTERM");
    expect(await second.proc.exited).toBe(0);
    expect(await second.output()).not.toContain("password:");

    const third = startMain({ DATA_DIR: dataDir, DATABASE_URL: "", BOOTSTRAP_ADMIN_PASSWORD: "" });
    await waitHealthy(third.port);
    const again = await fetch(`http://127.0.0.1:${third.port}/api/v0/organizations/survives`, {
      headers: { authorization: `Bearer ${await token(third.port, password!)}` },
    });
    expect(again.status).toBe(200);
    third.proc.kill("SIGTERM");
    expect(await third.proc.exited).toBe(0);
  }, 120_000);

  test("two processes starting against one server database migrate it once and create one admin", async () => {
    let url: string;
    let cleanup: () => Promise<void>;
    if (SERVER_URL) {
      const name = `t_mig_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
      const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
      await admin.unsafe(`CREATE DATABASE ${name}`);
      const u = new URL(SERVER_URL);
      u.pathname = `/${name}`;
      url = u.toString();
      cleanup = async () => {
        await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      };
    } else {
      // the embedded engine behind a TCP socket (with the service's own fix that keeps each
      // connection's extended-protocol messages together) is a server both processes reach
      const db = await openDatabase({ tcp: true, max: 32 });
      url = db.url;
      cleanup = () => db.close();
    }
    try {
      const env = { DATABASE_URL: url, BOOTSTRAP_ADMIN_PASSWORD: "concurrent-admin-pw", JWT_SECRET: "s".repeat(40) };
      // two nodes: one database, each its own DATA_DIR (a DATA_DIR takes one server: DATA_DIR/server.lock)
      const nodeDirs = [await mkdtemp(join(tmpdir(), "node-a-")), await mkdtemp(join(tmpdir(), "node-b-"))];
      dirs.push(...nodeDirs);
      const a = startMain({ ...env, DATA_DIR: nodeDirs[0]! });
      const b = startMain({ ...env, DATA_DIR: nodeDirs[1]! });
      await Promise.all([waitHealthy(a.port, 60_000), waitHealthy(b.port, 60_000)]);
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      const migrations = await sql`SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name`;
      const files = (await Array.fromAsync(new Bun.Glob("*.sql").scan(join(ROOT, "sql")))).length;
      expect(migrations.length).toBe(files);
      expect(migrations.every((m) => m.n === 1)).toBe(true);
      const [users] = await sql`SELECT count(*)::int AS n FROM users WHERE system_admin`;
      expect(users!.n).toBe(1);
      await sql.end();
      // both serve the same data: a token from one works on the other (same JWT_SECRET)
      const t = await token(a.port, "concurrent-admin-pw");
      const r = await fetch(`http://127.0.0.1:${b.port}/api/v0/organizations`, { headers: { authorization: `Bearer ${t}` } });
      expect(r.status).toBe(200);
      a.proc.kill("SIGTERM");
      b.proc.kill("SIGTERM");
      expect(await a.proc.exited).toBe(0);
      expect(await b.proc.exited).toBe(0);
    } finally {
      await cleanup();
    }
  }, 120_000);
});
