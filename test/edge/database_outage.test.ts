/**
 * The platform database goes away under a running service: a private
 * PostgreSQL 15 server (own data directory and port) is stopped and
 * restarted. Requests answer `503 SERVICE_UNAVAILABLE` with `Retry-After`
 * within 2 s (never 500), `/health` stays 200, `/health/ready` follows the
 * database, the run worker survives and a run queued before the outage
 * completes once the database is back.
 *
 * Runs in the server pass (TEST_DATABASE_URL set, as in CI); the embedded
 * pass has no server binaries to rely on, so it registers nothing here.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { startService, type Service } from "../../src/service.ts";
import { abortLocalRun, startWorker, stopWorker } from "../../src/runs/worker.ts";
import { SERVER_URL, ADMIN_PASSWORD } from "../helpers/service.ts";
import { md5, smallPackage } from "../packages/helpers.ts";
import { zipFiles } from "../fixtures/engine_package.ts";
import { runsPackage, SLOW_MODEL } from "../runs/fixtures.ts";

const BIN = "/usr/lib/postgresql/15/bin";

if (SERVER_URL && existsSync(`${BIN}/initdb`)) {
  describe("platform database outage", () => {
    const root = process.getuid?.() === 0;
    let dir = "";
    let port = 0;
    let service: Service;
    let token = "";
    const logs: Record<string, unknown>[] = [];

    /** Runs a PostgreSQL binary as the `postgres` user when we are root (initdb refuses root). */
    async function pg(args: string[]): Promise<void> {
      const cmd = root ? ["runuser", "-u", "postgres", "--", ...args] : args;
      const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
      const code = await proc.exited;
      if (code !== 0) throw new Error(`${args.join(" ")}: exit ${code}: ${await new Response(proc.stderr).text()}`);
    }
    const start = () => pg([`${BIN}/pg_ctl`, "-D", join(dir, "data"), "-l", join(dir, "log"), "-w", "-t", "30", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, "start"]);
    const stop = () => pg([`${BIN}/pg_ctl`, "-D", join(dir, "data"), "-m", "fast", "-w", "stop"]);

    async function call(method: string, path: string, body?: unknown) {
      const started = performance.now();
      const headers: Record<string, string> = {};
      if (token) headers.authorization = `Bearer ${token}`;
      let payload: BodyInit | undefined;
      if (body instanceof FormData) payload = body;
      else if (body !== undefined) {
        payload = JSON.stringify(body);
        headers["content-type"] = "application/json";
      }
      const response = await service.handle(new Request(`http://localhost${path}`, { method, headers, body: payload }));
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : null, ms: performance.now() - started };
    }

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), "edge-pg-"));
      await chmod(dir, 0o777);
      if (root) await chown(dir, 101, 104).catch(() => {});
      const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
      port = probe.port!;
      probe.stop(true);
      await pg([`${BIN}/initdb`, "-D", join(dir, "data"), "-A", "trust", "-U", "postgres", "--no-sync"]);
      await start();
      const db = await openDatabase({ url: `postgres://postgres@127.0.0.1:${port}/postgres`, max: 4 });
      const config = readConfig({
        BOOTSTRAP_ADMIN_PASSWORD: ADMIN_PASSWORD,
        LOG_REQUESTS: "false",
        RATE_LIMIT_PER_MINUTE: "0",
        DATA_DIR: join(dir, "service"),
        RUN_POLL_MS: "100",
        INDEX_ON_PUBLISH: "false",
      });
      service = await startService(config, { db, log: (line) => logs.push(line), addressOf: () => "127.0.0.1" });
      token = (await call("POST", "/api/v0/auth/token", { userName: "admin", password: ADMIN_PASSWORD })).body.accessToken;
      expect((await call("POST", "/api/v0/organizations", { name: "acme" })).status).toBe(201);
      expect((await call("POST", "/api/v0/organizations/acme/environments", { name: "prod" })).status).toBe(201);
      const zip = zipFiles(smallPackage());
      const form = new FormData();
      form.set("package", JSON.stringify({ description: "flights" }));
      form.set("version", JSON.stringify({ id: "1.0.0" }));
      form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>], { type: "application/zip" }), "package.zip");
      form.set("md5Hash", md5(zip));
      const published = await call("POST", "/api/v0/organizations/acme/environments/prod/packages/flights", form);
      expect(published.status).toBe(201);
    }, 180_000);

    afterAll(async () => {
      await start().catch(() => {});
      await service?.close().catch(() => {});
      await stop().catch(() => {});
      await rm(dir, { recursive: true, force: true });
    }, 60_000);

    test("stopped: 503 with Retry-After within 2 s, /health 200, /health/ready 503; back: 200 and the queued run completes", async () => {
      const P = "/api/v0/organizations/acme/environments/prod/packages/flights";
      // A run queued while this node's worker is paused: it is still queued when the database goes away.
      await stopWorker(service.ctx);
      const queued = await call("POST", `${P}/versions/1.0.0/runs`);
      expect(queued.status).toBe(201);
      expect(queued.body.state).toBe("queued");

      await stop();
      startWorker(service.ctx); // polls every 100 ms against the stopped server

      expect((await call("GET", "/health")).status).toBe(200);
      const ready = await call("GET", "/health/ready");
      expect(ready.status).toBe(503);
      expect(ready.headers.get("retry-after")).toBeTruthy();
      expect(ready.ms).toBeLessThan(2500);
      for (const [method, path, body] of [
        ["GET", "/api/v0/organizations", undefined],
        ["GET", `${P}/runs/${queued.body.id}`, undefined],
        ["POST", "/api/v0/organizations", { name: "during" }],
        ["PATCH", "/api/v0/organizations/acme", { description: "during" }],
        ["DELETE", "/api/v0/organizations/acme", undefined],
        ["GET", "/api/v0/status", undefined],
      ] as const) {
        const r = await call(method, path, body);
        expect({ path, status: r.status, code: r.body?.code }).toEqual({ path, status: 503, code: "SERVICE_UNAVAILABLE" });
        expect(r.headers.get("retry-after")).toBeTruthy();
        expect(r.ms).toBeLessThan(2000);
      }
      await Bun.sleep(500);
      expect(logs.some((l) => l.event === "run_worker_database_unavailable")).toBe(true);
      expect(logs.some((l) => l.event === "run_worker_failed")).toBe(false);

      await start();
      const deadline = Date.now() + 20_000;
      let back = 0;
      while (Date.now() < deadline && back !== 200) {
        back = (await call("GET", "/health/ready")).status;
        if (back !== 200) await Bun.sleep(100);
      }
      expect(back).toBe(200);
      expect((await call("GET", "/api/v0/organizations/acme")).status).toBe(200);
      let state = "";
      const runDeadline = Date.now() + 90_000; // the run builds tables and indexes: slow on a loaded machine
      while (Date.now() < runDeadline && !["succeeded", "failed", "cancelled"].includes(state)) {
        state = (await call("GET", `${P}/runs/${queued.body.id}`)).body.state;
        await Bun.sleep(100);
      }
      expect(state).toBe("succeeded");
      expect(logs.some((l) => l.event === "run_worker_reconnected")).toBe(true);
      // Nothing was half-written while it was down.
      const orgs = await call("GET", "/api/v0/organizations");
      expect(orgs.body.map((o: { name: string }) => o.name)).toEqual(["acme"]);
    }, 180_000);

    test("a run that ends while the database is down is recorded as it ended once the database is back (not left running)", async () => {
      const P = "/api/v0/organizations/acme/environments/prod/packages/slow";
      const zip = zipFiles(runsPackage(SLOW_MODEL));
      const form = new FormData();
      form.set("package", JSON.stringify({ description: "slow" }));
      form.set("version", JSON.stringify({ id: "1.0.0" }));
      form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>], { type: "application/zip" }), "package.zip");
      form.set("md5Hash", md5(zip));
      expect((await call("POST", P, form)).status).toBe(201);
      startWorker(service.ctx);
      const run = await call("POST", `${P}/versions/1.0.0/runs`);
      expect(run.status).toBe(201);
      let state = "";
      for (let i = 0; i < 300 && state !== "running"; i++) {
        state = (await call("GET", `${P}/runs/${run.body.id}`)).body.state;
        if (state !== "running") await Bun.sleep(100);
      }
      expect(state).toBe("running");
      await Bun.sleep(500); // past the claim, into the slow unit
      await stop();
      // the run ends on this node while the database is down (as a cancel read before the outage would end it)
      expect(abortLocalRun(service.ctx, run.body.id)).toBe(true);
      await Bun.sleep(1500);
      await start();
      // recorded well before RUN_STALE_AFTER_MS (60 s here), by the node that ran it
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && state === "running") {
        const r = await call("GET", `${P}/runs/${run.body.id}`);
        if (r.status === 200) state = r.body.state;
        if (state === "running") await Bun.sleep(200);
      }
      // cancelled, or failed when its last unit's own writes found the database down; never left running
      expect(["cancelled", "failed"]).toContain(state);
      const ended = await call("GET", `${P}/runs/${run.body.id}`);
      if (state === "failed") expect(ended.body.error).toContain("the run failed");
      expect(logs.some((l) => l.event === "run_finish_failed" && l.runId === run.body.id)).toBe(false);
    }, 120_000);

    test("a restart under load: every answer is 200 or 503, none is 500, none takes over 2 s", async () => {
      const statuses: number[] = [];
      let slowest = 0;
      let running = true;
      const load = (async () => {
        while (running) {
          const r = await call("GET", "/api/v0/organizations/acme");
          statuses.push(r.status);
          slowest = Math.max(slowest, r.ms);
          if (r.status === 503) expect(r.headers.get("retry-after")).toBeTruthy();
          await Bun.sleep(20);
        }
      })();
      await Bun.sleep(200);
      await stop();
      await start();
      // Keep the load on until the service answers 200 again (recovery without a restart of the service).
      const restartedAt = statuses.length;
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && !statuses.slice(restartedAt).includes(200)) await Bun.sleep(50);
      running = false;
      await load;
      expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
      expect(statuses.slice(restartedAt)).toContain(200);
      expect(slowest).toBeLessThan(2000);
    }, 120_000);
  });
}
