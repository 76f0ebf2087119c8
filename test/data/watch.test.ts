import { afterAll, beforeAll, describe, expect, test, setDefaultTimeout } from "bun:test";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FLIGHTS_CSV, FLIGHTS_MODEL } from "../fixtures/engine_package.ts";
import { API, startWorld, userWith, type World } from "../packages/helpers.ts";
import { openEvents, serve } from "./helpers.ts";

// explicit: a file run after another in the same process must not fall back to bun's 5 s
setDefaultTimeout(60_000);

let w: World;
let origin: string;
let stop: () => void;
let root: string;
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
  const other = await w.s.call("POST", `${API}/organizations/acme/environments`, { token: w.admin, body: { name: "staging" } });
  expect(other.status).toBe(201);
}, 120_000);

afterAll(async () => {
  await w.s.call("POST", `${API}/watch-mode/stop`, { token: w.admin });
  stop();
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

async function versions(): Promise<string[]> {
  const r = await w.s.call("GET", `${P}/versions`, { token: w.admin });
  expect(r.status).toBe(200);
  return (r.body as { id: string }[]).map((v) => v.id).sort();
}

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

  test("a viewer sees the status; an outsider sees only that watch mode is on", async () => {
    const outsider = await userWith(w, "outsider");
    const r = await w.s.call("GET", `${API}/watch-mode/status`, { token: outsider });
    expect(r.body).toMatchObject({ enabled: true, organizationName: null, environmentName: null, packages: [] });
    const stopped = await w.s.call("POST", `${API}/watch-mode/stop`, { token: outsider });
    expect(stopped.status).toBe(403);
  });

  test("stop turns it off; then another environment can be watched", async () => {
    const r = await w.s.call("POST", `${API}/watch-mode/stop`, { token: w.admin });
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
