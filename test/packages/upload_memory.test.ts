/**
 * Memory of a publish: a service in a child process receives a 190 MiB
 * package (128 MiB of CSV deflated, 64 MiB of random bytes stored) and its
 * peak resident memory (VmHWM, reset just before) may grow by a bounded
 * amount, far below the package's size. Downloading the archive back is
 * bounded the same way. The bound is generous (the engine, DuckDB and the
 * database client have working sets of their own); holding the upload or the
 * unpacked files in memory would take 190 MiB or more.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { type ChildService, type LargeZip, startChildService, streamedPublishBody, writeLargePackage } from "../fixtures/large_upload.ts";
import { SERVER_URL } from "../helpers/service.ts";

setDefaultTimeout(300_000);

/**
 * Most MiB the service's peak memory may grow by while publishing or serving
 * the large package. With embedded PGlite the database runs inside the
 * service: its WebAssembly heap grows with the transaction that stores the
 * archive's chunks and never shrinks (measured: 191-336 MiB for this
 * 108 MiB archive over 19 runs on one machine, against 1,590 MiB before
 * uploads were streamed), so the publish bound is looser there (448 MiB
 * fails the unstreamed publish; the server pass is the tight check). With a
 * PostgreSQL server the publish grew it by about 70 MiB on one machine and by
 * 112-128 MiB on another of the same kind (2026-11-28, the code of f21a5fa and
 * of this commit alike), so its bound is 160: still below the 190 MiB that
 * holding the package would take, and a tenth of the 1,590 MiB of the
 * unstreamed publish. Downloading stays under 96 on both.
 */
const BOUND_MIB = 96;
const PUBLISH_BOUND_MIB = SERVER_URL ? 160 : 448;
const ROOT = join(import.meta.dir, "..", "..");
const PASSWORD = "memory-test-password";

let work: string;
let child: ChildService;
let token: string;
let scratch: string | undefined;
let large: LargeZip;

async function api(method: string, path: string, body?: unknown): Promise<Response> {
  return await fetch(`${child.url}/api/v0${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
}

async function publishFile(zip: { path: string; md5: string }, versionId: string): Promise<Response> {
  const { body, contentType } = streamedPublishBody(zip, versionId);
  return await fetch(`${child.url}/api/v0/organizations/acme/environments/prod/packages/large`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
    body,
    duplex: "half",
  } as RequestInit);
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "upload-memory-"));
  const env: Record<string, string> = {
    DATA_DIR: join(work, "data"),
    BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
    INDEX_ON_PUBLISH: "false",
    RATE_LIMIT_PER_MINUTE: "0",
  };
  if (SERVER_URL) {
    scratch = `t_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
    const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${scratch}`);
    await admin.end();
    const u = new URL(SERVER_URL);
    u.pathname = `/${scratch}`;
    env.DATABASE_URL = u.toString();
  }
  large = await writeLargePackage(join(work, "large.zip"), { csvMiB: 128, randomMiB: 64 });
  child = await startChildService(ROOT, env);
  const login = await fetch(`${child.url}/api/v0/auth/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ userName: "admin", password: PASSWORD }),
  });
  token = ((await login.json()) as { accessToken: string }).accessToken;
  expect((await api("POST", "/organizations", { name: "acme" })).status).toBe(201);
  expect((await api("POST", "/organizations/acme/environments", { name: "prod" })).status).toBe(201);
  // warm up: the engine, DuckDB and the compiler are loaded by a first small publish
  const small = await writeLargePackage(join(work, "small.zip"), { csvMiB: 1, randomMiB: 1 });
  const first = await publishFile(small, "0.0.1");
  expect(first.status).toBe(201);
}, 600_000);

afterAll(async () => {
  await child?.close();
  await rm(work, { recursive: true, force: true });
  if (scratch) {
    const admin = postgres(SERVER_URL!, { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await admin.end();
  }
}, 120_000);

test("publishing a 190 MiB package grows the service's peak memory by less than the bound", async () => {
  expect(large.unpacked).toBeGreaterThan(190 * 1024 * 1024);
  const before = await child.rssMiB();
  await child.resetPeak();
  const r = await publishFile(large, "1.0.0");
  const body = await r.text();
  const peak = await child.peakMiB();
  console.log(`publish of ${(large.size / 2 ** 20).toFixed(0)} MiB zip (${(large.unpacked / 2 ** 20).toFixed(0)} MiB unpacked): RSS ${before.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB, growth ${(peak - before).toFixed(0)} MiB`);
  expect(r.status, body).toBe(201);
  expect(peak - before).toBeLessThan(PUBLISH_BOUND_MIB);
  expect(await readdir(join(work, "data", "uploads"))).toEqual([]);
});

test("downloading it back streams the chunks: byte-identical, memory bounded the same way", async () => {
  const before = await child.rssMiB();
  await child.resetPeak();
  const r = await api("GET", "/organizations/acme/environments/prod/packages/large/source?versionId=1.0.0");
  expect(r.status).toBe(200);
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of r.body!) {
    hash.update(chunk);
    size += chunk.length;
  }
  const peak = await child.peakMiB();
  console.log(`download: RSS ${before.toFixed(0)} MiB before, peak ${peak.toFixed(0)} MiB, growth ${(peak - before).toFixed(0)} MiB`);
  expect(size).toBe(large.size);
  expect(hash.digest("hex")).toBe(large.sha256);
  expect(peak - before).toBeLessThan(BOUND_MIB);
});
