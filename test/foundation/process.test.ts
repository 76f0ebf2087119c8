import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { openDatabase } from "../../src/db/database.ts";
import { ROOT, startMain, stopAll, waitHealthy } from "../helpers/process.ts";
import { SERVER_URL } from "../helpers/service.ts";

const dirs: string[] = [];
afterAll(async () => {
  // children of a failed test are still running: stop them before their folders go
  await stopAll();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
}, 120_000);

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
    await waitHealthy(first, 90_000);
    // the password line is printed before listening
    first.proc.kill("SIGTERM");
    expect(await first.proc.exited).toBe(0);
    const out = await first.output();
    const password = out.match(/password: (\S+)/)?.[1];
    expect(password).toBeString();
    expect(out).toContain("shutting down");

    const second = startMain({ DATA_DIR: dataDir, DATABASE_URL: "", BOOTSTRAP_ADMIN_PASSWORD: "" });
    await waitHealthy(second, 90_000);
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
    await waitHealthy(third, 90_000);
    const again = await fetch(`http://127.0.0.1:${third.port}/api/v0/organizations/survives`, {
      headers: { authorization: `Bearer ${await token(third.port, password!)}` },
    });
    expect(again.status).toBe(200);
    third.proc.kill("SIGTERM");
    expect(await third.proc.exited).toBe(0);
  }, 300_000); // three (two) cold starts on a loaded machine

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
      // DB_CONNECT_TIMEOUT_S: on a loaded machine the first connections take more than 1.5 s
      const env = { DATABASE_URL: url, BOOTSTRAP_ADMIN_PASSWORD: "concurrent-admin-pw", JWT_SECRET: "s".repeat(40), DB_CONNECT_TIMEOUT_S: "30" };
      // two nodes: one database, each its own DATA_DIR (a DATA_DIR takes one server: DATA_DIR/server.lock)
      const nodeDirs = [await mkdtemp(join(tmpdir(), "node-a-")), await mkdtemp(join(tmpdir(), "node-b-"))];
      dirs.push(...nodeDirs);
      const a = startMain({ ...env, DATA_DIR: nodeDirs[0]! });
      const b = startMain({ ...env, DATA_DIR: nodeDirs[1]! });
      await Promise.all([waitHealthy(a, 90_000), waitHealthy(b, 90_000)]);
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
      // a failed expectation above leaves both children running on the database about to go
      await stopAll();
      await cleanup();
    }
  }, 300_000); // three (two) cold starts on a loaded machine
});
