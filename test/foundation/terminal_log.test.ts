/**
 * What the service prints (`bun src/main.ts` as a process): with
 * `LOG_FORMAT=text` (the default on a terminal) readable lines, the start
 * banner naming the console, docs and MCP URLs, one line per request, and a
 * publish with its run; an unknown `LOG_FORMAT` stops the start with a
 * message. (JSON, the default when stdout is not a terminal, is checked on
 * the service of test/cli/cli.test.ts.)
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, startMain, stopAll, waitHealthy } from "../helpers/process.ts";
import { zipFiles } from "../fixtures/engine_package.ts";
import { md5, smallPackage } from "../packages/helpers.ts";

setDefaultTimeout(240_000);

const dirs: string[] = [];
afterAll(async () => {
  await stopAll();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
}, 60_000);

async function eventually(check: () => boolean, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end && !check()) await Bun.sleep(100);
}

describe("terminal output", () => {
  test("LOG_FORMAT=text: the banner with where to go, request lines, a publish and its run", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), "log-text-"));
    dirs.push(dataDir);
    const main = startMain({ DATA_DIR: dataDir, LOG_FORMAT: "text", LOG_REQUESTS: "true", BOOTSTRAP_ADMIN_PASSWORD: "log-test-password", PASSWORD_HASH_MEMORY_KIB: "1024" });
    await waitHealthy(main, 180_000);
    const base = main.base;
    await eventually(() => main.printed().includes("API docs"));
    const start = main.printed();
    expect(start).toContain("Malloy data-modeling platform is running (embedded PostgreSQL in");
    expect(start).toContain(`Console   ${base}/`);
    expect(start).toContain(`API docs  ${base}/api/v0/docs`);
    expect(start).toContain(`MCP       ${base}/mcp/<organization>`);
    expect(start).not.toContain('{"time"');
    const t = await fetch(`${base}/api/v0/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName: "admin", password: "log-test-password" }) });
    const token = ((await t.json()) as { accessToken: string }).accessToken;
    const auth = { authorization: `Bearer ${token}` };
    await fetch(`${base}/api/v0/organizations`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ name: "acme" }) });
    await fetch(`${base}/api/v0/organizations/acme/environments`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ name: "prod" }) });
    const zip = zipFiles(smallPackage());
    const form = new FormData();
    form.set("version", JSON.stringify({ id: "1.0.0" }));
    form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>]), "p.zip");
    form.set("md5Hash", md5(zip));
    const published = await fetch(`${base}/api/v0/organizations/acme/environments/prod/packages/flights`, { method: "POST", headers: auth, body: form });
    expect(published.status).toBe(201);
    await eventually(() => /run [0-9a-f]{8} succeeded flights 1\.0\.0/.test(main.printed()));
    const printed = main.printed();
    expect(printed).toMatch(/^\d\d:\d\d:\d\d POST \/api\/v0\/organizations\/:org\/environments\/ 201 [\d.]+ ms {2}user:admin$/m);
    expect(printed).toMatch(/^\d\d:\d\d:\d\d published flights 1\.0\.0 \(api\)$/m);
    expect(printed).toMatch(/^\d\d:\d\d:\d\d run [0-9a-f]{8} started flights 1\.0\.0$/m);
    expect(printed).toMatch(/^\d\d:\d\d:\d\d run [0-9a-f]{8} succeeded flights 1\.0\.0 \([\d.]+ s\)$/m);
    // the model cache's per-query hits are left out of the text form
    expect(printed).not.toContain("model_cache");
    expect(await main.stop()).toBe(0);
  });

  test("an unknown LOG_FORMAT stops the start and says which values work", async () => {
    const proc = Bun.spawn(["bun", "src/main.ts"], { cwd: ROOT, env: { ...process.env, LOG_FORMAT: "pretty", PORT: "1" }, stdout: "pipe", stderr: "pipe" });
    const [code, err] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
    expect(code).toBe(1);
    expect(err).toContain("LOG_FORMAT 'pretty' is not known: use json");
  });
});
