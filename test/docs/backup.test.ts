/**
 * The backup and restore block of docs/operations.md, run as written against
 * the local PostgreSQL server (TEST_DATABASE_URL's, else 127.0.0.1:5432, as the
 * warehouse tests): a service on one database publishes a package whose model
 * reads a postgres connection with a stored password; the block dumps the
 * database, keeps the key, restores both; a service on the restored database
 * and a new DATA_DIR signs the administrator in and answers the same queries.
 * @module
 */
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { readConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/database.ts";
import { startService, type Service } from "../../src/service.ts";
import { bytes, zipFiles } from "../fixtures/engine_package.ts";
import { md5 } from "../packages/helpers.ts";
import { bash, codeBlocks } from "../helpers/doc_blocks.ts";

setDefaultTimeout(300_000);

const ROOT = resolve(import.meta.dir, "..", "..");
const SERVER = new URL(process.env.TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres");
const PASSWORD = "backup-admin-password";
const suffix = crypto.randomUUID().replaceAll("-", "").slice(0, 12);
const names = { source: `bk_src_${suffix}`, restored: `bk_dst_${suffix}` };
const cleanup: (() => Promise<void>)[] = [];

function databaseUrl(name: string): string {
  const url = new URL(SERVER);
  url.pathname = `/${name}`;
  return url.toString();
}

async function serviceOn(name: string, dataDir: string): Promise<Service> {
  const config = readConfig({
    BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
    DATA_DIR: dataDir,
    LOG_REQUESTS: "false",
    INDEX_ON_PUBLISH: "false",
    ALLOWED_CONNECTION_HOSTS: SERVER.hostname,
    PASSWORD_HASH_MEMORY_KIB: "1024",
    PASSWORD_HASH_TIME_COST: "1",
  });
  const service = await startService(config, { db: await openDatabase({ url: databaseUrl(name) }), log: () => {}, addressOf: () => "127.0.0.1" });
  cleanup.push(() => service.close());
  return service;
}

async function call(service: Service, method: string, path: string, options: { token?: string; body?: unknown } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  const response = await service.handle(new Request(`http://localhost/api/v0${path}`, { method, headers, body }));
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}

async function signIn(service: Service): Promise<string> {
  const r = await call(service, "POST", "/auth/token", { body: { userName: "admin", password: PASSWORD } });
  expect(r.status).toBe(200);
  return r.body.accessToken as string;
}

const QUERY = "/organizations/acme/environments/prod/packages/pgcheck/models/models/check.malloy/query";

afterAll(async () => {
  for (const step of cleanup.reverse()) await step().catch(() => {});
  const admin = postgres(SERVER.toString(), { max: 1, onnotice: () => {} });
  for (const name of Object.values(names)) await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}, 120_000);

test("the backup block of docs/operations.md restores users, packages, connections and their secrets", async () => {
  const admin = postgres(SERVER.toString(), { max: 1, onnotice: () => {} });
  for (const name of Object.values(names)) await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const work = await mkdtemp(join(tmpdir(), "docs-backup-"));
  cleanup.push(() => rm(work, { recursive: true, force: true }));
  const dataDir = join(work, "data");
  const newDataDir = join(work, "restored-data");

  // before: an organization, a postgres connection with a stored password, a package that reads it
  const before = await serviceOn(names.source, dataDir);
  const token = await signIn(before);
  expect((await call(before, "POST", "/organizations", { token, body: { name: "acme" } })).status).toBe(201);
  expect((await call(before, "POST", "/organizations/acme/environments", { token, body: { name: "prod" } })).status).toBe(201);
  const connection = await call(before, "POST", "/organizations/acme/environments/prod/connections", {
    token,
    body: {
      name: "warehouse",
      type: "postgres",
      postgresConnection: {
        host: SERVER.hostname,
        port: Number(SERVER.port || 5432),
        databaseName: SERVER.pathname.slice(1) || "postgres",
        userName: decodeURIComponent(SERVER.username || "postgres"),
        password: decodeURIComponent(SERVER.password) || "a-stored-secret",
      },
    },
  });
  expect(connection.status).toBe(201);
  expect(connection.body.secretFieldsSet).toEqual(["password"]);
  const zip = zipFiles(new Map([
    ["publisher.json", bytes(JSON.stringify({ name: "pgcheck" }))],
    ["models/check.malloy", bytes("source: answers is warehouse.sql(\"\"\"SELECT 41 + 1 AS answer\"\"\")\n")],
  ]));
  const form = new FormData();
  form.set("version", JSON.stringify({ id: "1.0.0" }));
  form.set("packageFile", new Blob([zip as Uint8Array<ArrayBuffer>], { type: "application/zip" }), "pgcheck.zip");
  form.set("md5Hash", md5(zip));
  const published = await call(before, "POST", "/organizations/acme/environments/prod/packages/pgcheck", { token, body: form });
  expect({ status: published.status, body: published.status === 201 ? null : published.body }).toEqual({ status: 201, body: null });
  const query = { query: "answers -> { select: answer }" };
  expect((await call(before, "POST", QUERY, { token, body: query })).body.data).toEqual([{ answer: 42 }]);

  // the block, as written
  const block = codeBlocks(await readFile(join(ROOT, "docs/operations.md"), "utf8"), "bash").find((b) => b.includes("pg_dump"));
  expect(block).toBeDefined();
  const ran = await bash(block!, {
    cwd: work,
    env: { DATABASE_URL: databaseUrl(names.source), DATA_DIR: dataDir, NEW_DATABASE_URL: databaseUrl(names.restored), NEW_DATA_DIR: newDataDir },
  });
  expect({ code: ran.code, out: ran.code === 0 ? "" : ran.out }).toEqual({ code: 0, out: "" });

  // after: a service on the restored database and a new DATA_DIR answers as before
  const after = await serviceOn(names.restored, newDataDir);
  const restoredToken = await signIn(after);
  const versions = await call(after, "GET", "/organizations/acme/environments/prod/packages/pgcheck/versions/1.0.0", { token: restoredToken });
  expect(versions.body.id).toBe("1.0.0");
  // the model reads the connection: its password is decrypted with the restored key
  const answered = await call(after, "POST", QUERY, { token: restoredToken, body: query });
  expect({ status: answered.status, data: answered.body.data }).toEqual({ status: 200, data: [{ answer: 42 }] });
  // the old access token still verifies: the JWT secret lives in the database
  expect((await call(after, "GET", "/organizations/acme", { token })).status).toBe(200);
});
