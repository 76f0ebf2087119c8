/**
 * The first hour of a new user: the landing page and the offline docs page,
 * and, against the real entry point (`bun src/main.ts` in a child process):
 * every README ```sh block runs as written (with `BASE` set to the port it
 * listens on), a second server on the same DATA_DIR is refused, SIGTERM with
 * an open event stream exits within 5 s, and the recovery block of
 * docs/operations.md (`bun run reset-admin-password`) recovers the administrator.
 * @module
 */
import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { bash, codeBlocks } from "../helpers/doc_blocks.ts";
import { startTestService, type TestService } from "../helpers/service.ts";

// explicit: a file run after another in the same process must not fall back to bun's 5 s
setDefaultTimeout(60_000);

const ROOT = resolve(import.meta.dir, "..", "..");

let s: TestService;
beforeAll(async () => {
  s = await startTestService();
}, 120_000);
afterAll(async () => {
  await s.close();
}, 120_000);

describe("landing page and docs", () => {
  test("every operation of the OpenAPI document documents its responses: the Error component and a success response", async () => {
    const doc = await (await s.service.handle(new Request("http://localhost/api/v0/openapi.json"))).json() as {
      paths: Record<string, Record<string, { responses?: Record<string, { $ref?: string; content?: Record<string, { schema?: Record<string, unknown> }> }> }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    expect(Object.keys(doc.components.schemas.Error!.properties!)).toEqual(expect.arrayContaining(["code", "message"]));
    let operations = 0;
    let documented = 0;
    let typedSuccess = 0;
    for (const item of Object.values(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (!["get", "post", "put", "patch", "delete"].includes(method)) continue;
        operations++;
        const responses = op.responses ?? {};
        const success = Object.entries(responses).filter(([status]) => status.startsWith("2"));
        if (responses.default?.$ref === "#/components/responses/Error" && success.length > 0) documented++;
        if (success.some(([, r]) => Object.keys(r.content?.["application/json"]?.schema ?? {}).length > 0)) typedSuccess++;
      }
    }
    console.log(`openapi: ${operations} operations, ${documented} with documented responses, ${typedSuccess} with a typed success schema`);
    expect(operations).toBeGreaterThan(100);
    expect(documented / operations).toBeGreaterThanOrEqual(0.9);
  });

  test("/ answers API clients with JSON and browsers with a page linking docs, sign-in and the version", async () => {
    const json = await s.service.handle(new Request("http://localhost/"));
    expect(json.status).toBe(200);
    const body = await json.json() as Record<string, string>;
    expect(body).toEqual({ name: expect.any(String), version: "0.1.0", docs: "/api/v0/docs" });
    const page = await s.service.handle(new Request("http://localhost/", { headers: { accept: "text/html,application/xhtml+xml" } }));
    expect(page.headers.get("content-type")).toStartWith("text/html");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    const html = await page.text();
    for (const link of ['href="/api/v0/docs"', 'href="/signin"', "0.1.0"]) expect(html).toContain(link);
  });

  test("the docs page loads only local assets and reads /api/v0/openapi.json", async () => {
    const page = await s.service.handle(new Request("http://localhost/api/v0/docs"));
    expect(page.status).toBe(200);
    const html = await page.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(3);
    for (const src of sources) {
      expect(src).toStartWith("/api/v0/docs/assets/");
      const asset = await s.service.handle(new Request(`http://localhost${src}`));
      expect(asset.status).toBe(200);
      expect((await asset.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    const missing = await s.service.handle(new Request("http://localhost/api/v0/docs/assets/nope.js"));
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "RESOURCE_NOT_FOUND" });
    const init = await (await s.service.handle(new Request("http://localhost/api/v0/docs/assets/init.js"))).text();
    expect(init).toContain('"/api/v0/openapi.json"');
    const spec = await s.service.handle(new Request("http://localhost/api/v0/openapi.json"));
    expect(spec.status).toBe(200);
    expect(((await spec.json()) as { openapi: string }).openapi).toStartWith("3.");
  });
});

/** A child process of the service's entry point. */
interface Server {
  proc: ReturnType<typeof Bun.spawn>;
  output: () => string;
}

async function freePort(): Promise<number> {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const port = probe.port!;
  probe.stop(true);
  return port;
}

/** Every server this file started: stopped after the tests whatever their outcome (a failed test left one running). */
const spawned = new Set<ReturnType<typeof Bun.spawn>>();

function spawnServer(env: Record<string, string>): Server {
  const proc = Bun.spawn(["bun", "src/main.ts"], { cwd: ROOT, env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe" });
  spawned.add(proc);
  let text = "";
  for (const stream of [proc.stdout, proc.stderr]) {
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of stream as ReadableStream<Uint8Array>) text += decoder.decode(chunk);
    })();
  }
  return { proc, output: () => text };
}

async function waitHealthy(port: number, server: Server, timeoutMs = 240_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.proc.exitCode !== null) throw new Error(`server exited: ${server.output()}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    if (ok) return;
    await Bun.sleep(200);
  }
  throw new Error(`server not healthy within ${timeoutMs} ms: ${server.output()}`);
}

describe("the entry point", () => {
  let dataDir: string;
  let work: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "first-hour-data-"));
    work = await mkdtemp(join(tmpdir(), "first-hour-work-"));
    await cp(join(ROOT, "demo"), join(work, "demo"), { recursive: true });
  }, 120_000);
  afterAll(async () => {
    for (const proc of spawned) if (proc.exitCode === null) proc.kill("SIGKILL");
    await Promise.all([...spawned].map((proc) => proc.exited));
    await rm(dataDir, { recursive: true, force: true });
    await rm(work, { recursive: true, force: true });
  }, 120_000);

  test("README blocks run as written; a second server is refused; SIGTERM exits within 5 s; the recovery block recovers the admin", async () => {
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), HOST: "127.0.0.1", INDEX_ON_PUBLISH: "false", LOG_REQUESTS: "false", BOOTSTRAP_ADMIN_PASSWORD: "" };
    const first = spawnServer(env);
    await waitHealthy(port, first);
    const printed = /with password: (\S+)/.exec(first.output())?.[1];
    expect(printed).toBeDefined();

    // a second server on the same DATA_DIR stops with a clear error
    const second = spawnServer({ ...env, PORT: String(await freePort()) });
    expect(await second.proc.exited).toBe(1);
    expect(second.output()).toContain(`in use by another server (pid ${first.proc.pid}`);

    // every ```sh block of the README, in order, in one shell (TOKEN carries over)
    const blocks = codeBlocks(await Bun.file(join(ROOT, "README.md")).text(), "sh");
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    const ran = await bash(blocks.join("\n"), { cwd: work, env: { BASE: `http://localhost:${port}`, ADMIN_PASSWORD: printed! } });
    // on failure, show what the blocks printed
    expect({ code: ran.code, out: ran.code === 0 ? "" : ran.out }).toEqual({ code: 0, out: "" });
    expect(ran.out).toContain('"status":"ok"');
    expect(ran.out).toContain('"name":"acme"');
    expect(ran.out).toContain('"id":"1.0.0"');
    expect(ran.out).toContain('"product_category":"Books"');
    expect(ran.out).toContain('"structuredContent":{"data":[{"sales_channel":');
    expect(ran.out).toContain('<meta name="app-token"');
    expect(ran.out).not.toContain('"code":');

    // SIGTERM with an open event stream: the stream ends and the process exits within 5 s
    const token = ((await (await fetch(`http://127.0.0.1:${port}/api/v0/auth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ userName: "admin", password: printed }),
    })).json()) as { accessToken: string }).accessToken;
    const stream = await fetch(`http://127.0.0.1:${port}/api/v0/organizations/acme/environments/prod/packages/shop/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    await reader.read();
    const started = performance.now();
    first.proc.kill("SIGTERM");
    const code = await first.proc.exited;
    const took = performance.now() - started;
    expect(code).toBe(0);
    expect(took).toBeLessThan(5000);
    for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) break;

    // the recovery block of docs/operations.md, as written (the data directory is free again)
    const reset = codeBlocks(await Bun.file(join(ROOT, "docs", "operations.md")).text(), "bash").find((b) => b.includes("reset-admin-password"))!;
    expect(reset).toBeDefined();
    const recovered = await bash(reset, { cwd: ROOT, env: { DATA_DIR: dataDir } });
    expect(recovered.code).toBe(0);
    const again = spawnServer(env);
    try {
      await waitHealthy(port, again);
      const login = (password: string) => fetch(`http://127.0.0.1:${port}/api/v0/auth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ userName: "admin", password }),
      });
      expect((await login("a-new-password")).status).toBe(200);
      expect((await login(printed!)).status).toBe(401);
    } finally {
      again.proc.kill("SIGTERM");
      await again.proc.exited;
    }
  }, 900_000);
});
