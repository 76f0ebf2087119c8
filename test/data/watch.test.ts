import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { unzipSync } from "fflate";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FLIGHTS_CSV, FLIGHTS_MODEL } from "../fixtures/engine_package.ts";
import { API, startWorld, userWith, type World } from "../packages/helpers.ts";
import { openEvents, serve } from "./helpers.ts";
import { FolderTooLargeError, readFolder } from "../../src/watch/folder.ts";

// services start slowly on a loaded machine (the preload's 60 s does not reach every file of a multi-file run)
setDefaultTimeout(120_000);

let w: World;
let origin: string;
let stop: () => void;
let root: string;
let outside: string;
const P = `${API}/organizations/acme/environments/prod/packages/flights`;
const MODEL = FLIGHTS_MODEL.replace(/\n\s*join_one: carriers[^\n]*\n/, "\n");

async function writePackage(dir: string): Promise<void> {
  await mkdir(join(dir, "models"), { recursive: true });
  await mkdir(join(dir, "data"), { recursive: true });
  await writeFile(join(dir, "publisher.json"), JSON.stringify({ name: "flights", description: "watched" }));
  await writeFile(join(dir, "models", "flights.malloy"), MODEL);
  await writeFile(join(dir, "data", "flights.csv"), FLIGHTS_CSV);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "watch-root-"));
  w = await startWorld({ INDEX_ON_PUBLISH: "false", WATCH_ROOT: root, WATCH_DEBOUNCE_MS: "100" });
  ({ origin, stop } = serve(w));
  await writePackage(join(root, "acme", "prod", "flights"));
  // links out of the package folder (to a folder, to a file) are never read, at any depth
  outside = await mkdtemp(join(tmpdir(), "watch-outside-"));
  await writeFile(join(outside, "secret.csv"), "secret\n1\n");
  await mkdir(join(outside, "deeper"));
  await writeFile(join(outside, "deeper", "more.csv"), "more\n2\n");
  await symlink(outside, join(root, "acme", "prod", "flights", "data", "linked"));
  await symlink(join(outside, "secret.csv"), join(root, "acme", "prod", "flights", "data", "secret.csv"));
  const other = await w.s.call("POST", `${API}/organizations/acme/environments`, { token: w.admin, body: { name: "staging" } });
  expect(other.status).toBe(201);
}, 240_000);

afterAll(async () => {
  await w.s.call("POST", `${API}/watch-mode/stop`, { token: w.admin });
  stop();
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
}, 120_000);

async function versions(): Promise<string[]> {
  const r = await w.s.call("GET", `${P}/versions`, { token: w.admin });
  expect(r.status).toBe(200);
  return (r.body as { id: string }[]).map((v) => v.id).sort();
}

test("a folder over MAX_PACKAGE_BYTES is refused while it is read (sizes added up as files are met)", async () => {
  const dir = await mkdtemp(join(tmpdir(), "watch-big-"));
  try {
    await writePackage(dir);
    await writeFile(join(dir, "data", "big.csv"), "x".repeat(50_000));
    const all = await readFolder(dir);
    const size = [...all.values()].reduce((n, b) => n + b.length, 0);
    expect(size).toBeGreaterThan(50_000);
    expect((await readFolder(dir, { maxBytes: size })).size).toBe(all.size);
    const refused = await readFolder(dir, { maxBytes: size - 1 }).catch((e) => e);
    expect(refused).toBeInstanceOf(FolderTooLargeError);
    expect(refused.message).toContain("MAX_PACKAGE_BYTES");
    expect(await readFolder(dir, { maxBytes: 1000 }).catch((e) => e)).toBeInstanceOf(FolderTooLargeError);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

describe("watch mode", () => {
  test("status is off before start", async () => {
    const r = await w.s.call("GET", `${API}/watch-mode/status`, { token: w.admin });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ enabled: false, organizationName: null, environmentName: null, packages: [] });
  });

  test("a viewer may not start it; an unknown environment is 404", async () => {
    const viewer = await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });
    const r = await w.s.call("POST", `${API}/watch-mode/start`, { token: viewer, body: { organizationName: "acme", environmentName: "prod" } });
    expect(r.status).toBe(403);
    const missing = await w.s.call("POST", `${API}/watch-mode/start`, { token: w.admin, body: { environmentName: "nope" } });
    expect(missing.status).toBe(404);
  });

  test("start publishes the package folders that exist, and status shows them", async () => {
    const r = await w.s.call("POST", `${API}/watch-mode/start`, { token: w.admin, body: { environmentName: "prod" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ enabled: true, organizationName: "acme", environmentName: "prod", root: join(root, "acme", "prod") });
    expect(r.body.packages).toEqual([expect.objectContaining({ name: "flights", state: "idle", lastVersionId: "0.1.0" })]);
    expect(await versions()).toEqual(["0.1.0"]);
    const status = await w.s.call("GET", `${API}/watch-mode/status`, { token: w.admin });
    expect(status.body).toMatchObject({ enabled: true, environmentName: "prod" });
    const again = await w.s.call("POST", `${API}/watch-mode/start`, { token: w.admin, body: { organizationName: "acme", environmentName: "prod" } });
    expect(again.status).toBe(200);
    expect(await versions()).toEqual(["0.1.0"]);
  });

  test("files reached through symbolic links (of a folder or of a file) are not published", async () => {
    const r = await fetch(`${origin}${P}/source?versionId=0.1.0`, { headers: { authorization: `Bearer ${w.admin}` } });
    expect(r.status).toBe(200);
    const names = Object.keys(unzipSync(new Uint8Array(await r.arrayBuffer()))).sort();
    expect(names).toEqual(["data/flights.csv", "models/flights.malloy", "publisher.json"]);
    // a package folder that is itself a link is not read either (a real one next to it is published)
    await writePackage(join(outside, "pkg"));
    await symlink(join(outside, "pkg"), join(root, "acme", "prod", "leak"));
    await writePackage(join(root, "acme", "prod", "real2"));
    const PR = `${API}/organizations/acme/environments/prod/packages`;
    for (let i = 0; i < 100 && (await w.s.call("GET", `${PR}/real2`, { token: w.admin })).status !== 200; i++) await Bun.sleep(100);
    expect((await w.s.call("GET", `${PR}/real2`, { token: w.admin })).status).toBe(200);
    await Bun.sleep(500);
    expect((await w.s.call("GET", `${PR}/leak`, { token: w.admin })).status).toBe(404);
    await rm(join(root, "acme", "prod", "real2"), { recursive: true });
    await rm(join(root, "acme", "prod", "leak"));
  });

  test("starting another environment while one is watched is 409", async () => {
    const r = await w.s.call("POST", `${API}/watch-mode/start`, { token: w.admin, body: { organizationName: "acme", environmentName: "staging" } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("CONFLICT");
    expect(r.body.message).toContain("prod");
  });

  test("writing a file emits change, then published with a new version", async () => {
    const events = await openEvents(`${origin}${P}/events`, { token: w.admin });
    await events.next("ready");
    const status = await w.s.call("GET", `${API}/watch-mode/status`, { token: w.admin });
    expect(status.body.packages[0].subscribers).toBe(1);
    await writeFile(join(root, "acme", "prod", "flights", "models", "extra.malloy"), 'import "flights.malloy"\nsource: long_flights is flights extend { where: distance > 1000 }\n');
    const change = await events.next("change");
    expect(change.data).toMatchObject({ package: "flights", path: "models/extra.malloy" });
    const published = await events.next("published");
    expect(published.data).toMatchObject({ package: "flights", versionId: "0.1.1", source: "watch" });
    expect(Number(published.id)).toBeGreaterThan(Number(change.id));
    expect(await versions()).toEqual(["0.1.0", "0.1.1"]);
    const models = await w.s.call("GET", `${P}/models`, { token: w.admin });
    expect(JSON.stringify(models.body)).toContain("models/extra.malloy");
    events.close();
  });

  test("a compile error emits compile_error with problems and creates no version; fixing it publishes and emits compile_ok", async () => {
    const events = await openEvents(`${origin}${P}/events`, { token: w.admin });
    await events.next("ready");
    const file = join(root, "acme", "prod", "flights", "models", "extra.malloy");
    await writeFile(file, 'import "flights.malloy"\nsource: broken is flights extend { dimension: x is no_such_column }\n');
    await events.next("change");
    const error = await events.next("compile_error");
    expect(error.data.package).toBe("flights");
    expect(error.data.problems.length).toBeGreaterThan(0);
    expect(error.data.problems[0]).toMatchObject({ file: "models/extra.malloy", line: 2 });
    expect(await versions()).toEqual(["0.1.0", "0.1.1"]);
    const status = await w.s.call("GET", `${API}/watch-mode/status`, { token: w.admin });
    expect(status.body.packages[0]).toMatchObject({ state: "error" });
    expect(status.body.packages[0].lastError).toContain("no_such_column");

    await writeFile(file, 'import "flights.malloy"\nsource: fixed is flights extend { dimension: x is carrier }\n');
    const published = await events.next("published");
    expect(published.data.versionId).toBe("0.1.2");
    const ok = await events.next("compile_ok");
    expect(ok.data).toMatchObject({ package: "flights", versionId: "0.1.2" });
    expect(Number(ok.id)).toBeGreaterThan(Number(published.id));
    expect(await versions()).toEqual(["0.1.0", "0.1.1", "0.1.2"]);
    events.close();
  });

  test("a compile error names package files, never the server's folders: in the event and in the status a viewer reads", async () => {
    const viewer = await w.s.login("viewer", "pw-viewer-secret");
    const events = await openEvents(`${origin}${P}/events`, { token: viewer });
    await events.next("ready");
    const file = join(root, "acme", "prod", "flights", "models", "extra.malloy");
    // DuckDB quotes the statement it refused, with the absolute path the platform gave the package's file
    await writeFile(file, `source: bad is duckdb.sql("select nosuch_column from 'data/flights.csv'")\n`);
    const error = await events.next("compile_error");
    expect(error.data.message).toContain("nosuch_column");
    const status = await w.s.call("GET", `${API}/watch-mode/status`, { token: viewer });
    expect(status.body.packages[0].lastError).toContain("nosuch_column");
    for (const text of [JSON.stringify(error.data), status.body.packages[0].lastError as string]) {
      expect(text).not.toContain(w.dataDir);
      expect(text).not.toMatch(/[0-9a-f]{7,}\.\.\.|packages\/[0-9a-f]{7}/);
    }
    // back to the content of the last version: it compiles again
    await writeFile(file, 'import "flights.malloy"\nsource: fixed is flights extend { dimension: x is carrier }\n');
    await events.next("compile_ok");
    events.close();
  });

  test("a package with an #(authorize) source: its compile problems go to package modelers and admins only, on the stream and in the status", async () => {
    expect((await w.s.call("POST", `${API}/organizations/acme/groups`, { token: w.admin, body: { name: "finance" } })).status).toBe(201);
    const dir = join(root, "acme", "prod", "payroll");
    const PP = `${API}/organizations/acme/environments/prod/packages/payroll`;
    await mkdir(join(dir, "models"), { recursive: true });
    await mkdir(join(dir, "data"), { recursive: true });
    await writeFile(join(dir, "data", "flights.csv"), FLIGHTS_CSV);
    const good = "#(authorize) groups=[finance]\nsource: pay is duckdb.table('data/flights.csv') extend { dimension: secret_salary_band is carrier }\n";
    await writeFile(join(dir, "models", "pay.malloy"), good);
    await writeFile(join(dir, "publisher.json"), JSON.stringify({ name: "payroll", description: "restricted" }));
    for (let i = 0; i < 100 && (await w.s.call("GET", PP, { token: w.admin })).status !== 200; i++) await Bun.sleep(100);
    expect((await w.s.call("GET", `${PP}/versions`, { token: w.admin })).body.length).toBe(1);
    const viewer = await w.s.login("viewer", "pw-viewer-secret");
    const seen = await openEvents(`${origin}${PP}/events`, { token: viewer });
    const full = await openEvents(`${origin}${PP}/events`, { token: w.admin });
    await seen.next("ready");
    await full.next("ready");
    await writeFile(join(dir, "models", "pay.malloy"), good.replace("is carrier", "is secret_salary_column"));
    const withheld = await seen.next("compile_error");
    expect(withheld.data).toMatchObject({ package: "payroll", problems: [] });
    expect(withheld.data.message).toContain("shown to package modelers and admins");
    expect(JSON.stringify(withheld.data)).not.toContain("secret_salary");
    const shown = await full.next("compile_error");
    expect(shown.data.message).toContain("secret_salary_column");
    expect(shown.data.problems.length).toBeGreaterThan(0);
    const lastError = async (token: string) =>
      ((await w.s.call("GET", `${API}/watch-mode/status`, { token })).body.packages as Array<{ name: string; lastError: string | null }>)
        .find((p) => p.name === "payroll")!.lastError!;
    expect(await lastError(viewer)).toContain("shown to package modelers and admins");
    expect(await lastError(viewer)).not.toContain("secret_salary");
    expect(await lastError(w.admin)).toContain("secret_salary_column");
    await writeFile(join(dir, "models", "pay.malloy"), good);
    await seen.next("compile_ok");
    seen.close();
    full.close();
    await rm(dir, { recursive: true });
  });

  test("a viewer sees the status; an outsider sees nothing of it (not even that it is on) and stops nothing", async () => {
    const viewer = await w.s.login("viewer", "pw-viewer-secret");
    const seen = await w.s.call("GET", `${API}/watch-mode/status`, { token: viewer });
    expect(seen.body).toMatchObject({ enabled: true, organizationName: "acme", environmentName: "prod" });
    expect((await w.s.call("POST", `${API}/watch-mode/stop`, { token: viewer })).status).toBe(403);
    const outsider = await userWith(w, "outsider");
    const r = await w.s.call("GET", `${API}/watch-mode/status`, { token: outsider });
    expect(r.body).toMatchObject({ enabled: false, organizationName: null, environmentName: null, packages: [] });
    expect(JSON.stringify(r.body)).not.toContain("acme");
    const named = await w.s.call("GET", `${API}/watch-mode/status?organizationName=acme`, { token: outsider });
    expect(named.status).toBe(404);
    const stopped = await w.s.call("POST", `${API}/watch-mode/stop`, { token: outsider });
    expect(stopped.status).toBe(200);
    expect(stopped.body.enabled).toBe(false);
    expect((await w.s.call("POST", `${API}/watch-mode/stop?organizationName=acme`, { token: outsider })).status).toBe(404);
    expect((await w.s.call("GET", `${API}/watch-mode/status`, { token: w.admin })).body).toMatchObject({ enabled: true, environmentName: "prod" });
  });

  test("another organization has its own slot: no 409, and no answer names the other organization", async () => {
    expect((await w.s.call("POST", `${API}/organizations`, { token: w.admin, body: { name: "globex" } })).status).toBe(201);
    const [g] = await w.s.service.db.sql`SELECT id FROM organizations WHERE name = 'globex'`;
    const owner = await userWith(w, "globex-owner", { kind: "organization", id: g!.id as string, role: "admin" });
    for (const env of ["dev", "qa"]) {
      expect((await w.s.call("POST", `${API}/organizations/globex/environments`, { token: owner, body: { name: env } })).status).toBe(201);
    }
    await writePackage(join(root, "globex", "dev", "flights"));
    const started = await w.s.call("POST", `${API}/watch-mode/start`, { token: owner, body: { organizationName: "globex", environmentName: "dev" } });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ enabled: true, organizationName: "globex", environmentName: "dev" });
    // the same organization's second environment: 409 that names only globex's own
    const clash = await w.s.call("POST", `${API}/watch-mode/start`, { token: owner, body: { organizationName: "globex", environmentName: "qa" } });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toContain("dev");
    expect(clash.body.message).not.toMatch(/acme|prod/);
    const mine = await w.s.call("GET", `${API}/watch-mode/status`, { token: owner });
    expect(mine.body).toMatchObject({ organizationName: "globex", environmentName: "dev" });
    expect(JSON.stringify(mine.body)).not.toMatch(/acme|prod/);
    // acme is still watched, and the admin (who sees both) names the organization
    expect((await w.s.call("GET", `${API}/watch-mode/status`, { token: w.admin })).status).toBe(400);
    const acme = await w.s.call("GET", `${API}/watch-mode/status?organizationName=acme`, { token: w.admin });
    expect(acme.body).toMatchObject({ enabled: true, organizationName: "acme", environmentName: "prod" });
    // stopping globex leaves acme alone
    const off = await w.s.call("POST", `${API}/watch-mode/stop`, { token: owner });
    expect(off.body).toMatchObject({ enabled: false });
    expect((await w.s.call("GET", `${API}/watch-mode/status`, { token: w.admin })).body).toMatchObject({ enabled: true, organizationName: "acme" });
  });

  test("an environment folder that links to another organization's folder publishes nothing of it", async () => {
    // whoever can write WATCH_ROOT/globex/ points qa at acme's watched folder
    await symlink(join(root, "acme", "prod"), join(root, "globex", "qa"));
    const owner = await w.s.login("globex-owner", "pw-globex-owner-secret");
    const started = await w.s.call("POST", `${API}/watch-mode/start`, { token: owner, body: { organizationName: "globex", environmentName: "qa" } });
    expect(started.status).toBe(200);
    await Bun.sleep(500);
    const listed = await w.s.call("GET", `${API}/organizations/globex/environments/qa/packages`, { token: owner });
    expect([listed.status, listed.body]).toEqual([200, []]);
    expect((await w.s.call("POST", `${API}/watch-mode/stop`, { token: owner })).body.enabled).toBe(false);
  });

  test("stop turns it off; then another environment can be watched", async () => {
    const r = await w.s.call("POST", `${API}/watch-mode/stop?organizationName=acme`, { token: w.admin });
    expect(r.status).toBe(200);
    expect(r.body.enabled).toBe(false);
    await writeFile(join(root, "acme", "prod", "flights", "models", "later.malloy"), 'import "flights.malloy"\n');
    await Bun.sleep(400);
    expect(await versions()).toEqual(["0.1.0", "0.1.1", "0.1.2"]);
    const staging = await w.s.call("POST", `${API}/watch-mode/start`, { token: w.admin, body: { organizationName: "acme", environmentName: "staging" } });
    expect(staging.status).toBe(200);
    expect(staging.body).toMatchObject({ environmentName: "staging", packages: [] });
    const off = await w.s.call("POST", `${API}/watch-mode/stop`, { token: w.admin });
    expect(off.body.enabled).toBe(false);
  });
});
