import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { API, packageRowCounts, publish, smallPackage, startWorld, userWith, type World } from "./helpers.ts";

setDefaultTimeout(60_000);

let w: World;
let viewer: string, modeler: string, envAdmin: string, outsider: string, orgModeler: string, orgMember: string, pkgViewer: string;
const E = `${API}/organizations/acme/environments`;
const P = `${E}/prod/packages/flights`;
beforeAll(async () => {
  // Version semantics before any index run (indexing is tested in test/retrieval).
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  expect((await publish(w, "flights", "1.0.0", { token: w.admin })).status).toBe(201);
  expect((await publish(w, "other", "1.0.0", { token: w.admin })).status).toBe(201);
  viewer = await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });
  modeler = await userWith(w, "modeler", { kind: "environment", id: w.envId, role: "modeler" });
  envAdmin = await userWith(w, "envadmin", { kind: "environment", id: w.envId, role: "admin" });
  outsider = await userWith(w, "outsider");
  orgModeler = await userWith(w, "orgmodeler", { kind: "organization", id: w.orgId, role: "modeler" });
  orgMember = await userWith(w, "orgmember", { kind: "organization", id: w.orgId, role: "member" });
  const [pkg] = await w.s.service.db.sql`SELECT id FROM packages WHERE name = 'flights'`;
  pkgViewer = await userWith(w, "pkgviewer", { kind: "package", id: pkg!.id as string, role: "viewer" });
}, 120_000);
afterAll(() => w.s.close());

const call = (method: string, path: string, token: string, body?: unknown) => w.s.call(method, path, { token, body });

describe("environments", () => {
  test("create: org admin and org modeler (creator becomes env admin); member 403; outsider 404; duplicate 409", async () => {
    const r = await call("POST", E, orgModeler, { name: "dev", description: "d" });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "dev", description: "d", permission: "admin" });
    expect(typeof r.body.createdAt).toBe("string");
    expect((await call("POST", E, orgMember, { name: "x" })).status).toBe(403);
    expect((await call("POST", E, outsider, { name: "x" })).status).toBe(404);
    expect((await call("POST", E, w.admin, { name: "dev" })).status).toBe(409);
    expect((await call("POST", E, w.admin, { name: "bad name" })).status).toBe(400);
  });
  test("list shows readable environments only", async () => {
    expect((await call("GET", E, viewer)).body.map((e: { name: string }) => e.name)).toEqual(["prod"]);
    expect((await call("GET", E, w.admin)).body.map((e: { name: string }) => e.name)).toEqual(["dev", "prod"]);
    expect((await call("GET", E, orgMember)).body).toEqual([]);
    expect((await call("GET", E, outsider)).status).toBe(404);
  });
  test("get / patch / delete by role; /projects alias", async () => {
    expect((await call("GET", `${E}/prod`, viewer)).body).toMatchObject({ name: "prod", permission: "viewer" });
    expect((await call("GET", `${API}/organizations/acme/projects/prod`, viewer)).status).toBe(200);
    expect((await call("GET", `${E}/prod`, outsider)).status).toBe(404);
    expect((await call("GET", `${E}/prod`, pkgViewer)).status).toBe(200);
    expect((await call("PATCH", `${E}/prod`, viewer, { description: "no" })).status).toBe(403);
    const p = await call("PATCH", `${E}/prod`, modeler, { description: "changed" });
    expect(p.status).toBe(200);
    expect(p.body.description).toBe("changed");
    expect((await call("DELETE", `${E}/prod`, modeler)).status).toBe(403);
    expect((await call("DELETE", `${E}/prod`, outsider)).status).toBe(404);
    expect((await call("GET", `${E}/no_such`, w.admin)).status).toBe(404);
    expect((await call("GET", `${E}/bad$name`, w.admin)).status).toBe(400);
  });
});

describe("packages by role", () => {
  test("read: viewer, package viewer; outsider 404", async () => {
    expect((await call("GET", P, viewer)).body).toMatchObject({ name: "flights", latestVersion: "1.0.0", indexStatus: "unknown" });
    expect((await call("GET", `${E}/prod/packages`, viewer)).body.map((p: { name: string }) => p.name)).toEqual(["flights", "other"]);
    expect((await call("GET", `${E}/prod/packages`, pkgViewer)).body.map((p: { name: string }) => p.name)).toEqual(["flights"]);
    expect((await call("GET", `${E}/prod/packages/other`, pkgViewer)).status).toBe(404);
    expect((await call("GET", P, outsider)).status).toBe(404);
    expect((await call("GET", `${E}/prod/packages`, outsider)).status).toBe(404);
    expect((await call("GET", `${P}/source`, outsider)).status).toBe(404);
    // a package without #(authorize) or #(bind) sources: viewers read its files (test/rls/package_files.test.ts for one with them)
    expect((await call("GET", `${P}/source`, viewer)).status).toBe(200);
    expect((await call("GET", `${P}/source`, pkgViewer)).status).toBe(200);
    expect((await call("GET", `${P}/source`, modeler)).status).toBe(200);
  });
  test("publish: viewer 403, outsider 404, modeler 201 (and nothing stored when refused)", async () => {
    const before = await packageRowCounts(w);
    expect((await publish(w, "flights", "1.1.0", { token: viewer })).status).toBe(403);
    expect((await publish(w, "newpkg", "1.0.0", { token: viewer })).status).toBe(403);
    expect((await publish(w, "newpkg", "1.0.0", { token: outsider })).status).toBe(404);
    expect((await publish(w, "flights", "1.1.0", { token: pkgViewer })).status).toBe(403);
    expect(await packageRowCounts(w)).toEqual(before);
    expect((await publish(w, "flights", "1.1.0", { token: modeler })).status).toBe(201);
    const created = await publish(w, "mine", "0.1.0", { token: orgModeler });
    expect(created.status).toBe(201);
    expect(created.body.permission).toBe("admin");
  });
  test("patch metadata: viewer 403, modeler 200", async () => {
    expect((await call("PATCH", P, viewer, { description: "x" })).status).toBe(403);
    const r = await call("PATCH", P, modeler, { description: "Flights!", owner: "ops" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ description: "Flights!", metadata: { owner: "ops" } });
  });
  test("package metadata stays bounded: a PATCH or publish that would grow it past 64 KiB is 400 and stores nothing", async () => {
    const blob = (key: string) => ({ [key]: "x".repeat(30_000) });
    // each body is small; what they add up to is what the package row (and every package listing) carries
    expect((await call("PATCH", P, modeler, blob("a1"))).status).toBe(200);
    expect((await call("PATCH", P, modeler, blob("a2"))).status).toBe(200);
    const third = await call("PATCH", P, modeler, { ...blob("a3"), description: "grown" });
    expect([third.status, third.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(third.body.message).toContain("65536 bytes");
    const now = await call("GET", P, modeler);
    expect([now.body.description, Object.keys(now.body.metadata).sort()]).toEqual(["Flights!", ["a1", "a2", "owner"]]);
    // null removes a field, which makes room again
    expect((await call("PATCH", P, modeler, { a1: null, a2: null })).status).toBe(200);
    expect((await call("PATCH", P, modeler, blob("a3"))).status).toBe(200);
    expect((await call("PATCH", P, modeler, { a3: null })).status).toBe(200);
    // the same through a publish's package part (kept up to 1 MB), for an existing package and a new one
    const before = await packageRowCounts(w);
    const grown = await publish(w, "flights", "1.2.0", { token: modeler, packagePart: { big: "x".repeat(70_000) } });
    expect([grown.status, grown.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    const fresh = await publish(w, "bloated", "0.1.0", { token: orgModeler, packagePart: { big: "x".repeat(70_000) } });
    expect([fresh.status, fresh.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    // the description has PATCH's limit (4000 characters) on every way in: the package part and publisher.json
    const longText = "d".repeat(4001);
    expect((await call("PATCH", P, modeler, { description: longText })).status).toBe(400);
    const described = await publish(w, "flights", "1.2.0", { token: modeler, packagePart: { description: longText } });
    expect([described.status, described.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    const manifest = smallPackage({ "publisher.json": JSON.stringify({ name: "flights", description: longText }) });
    const fromManifest = await publish(w, "manifested", "0.1.0", { token: orgModeler, files: manifest, packagePart: {} });
    expect([fromManifest.status, fromManifest.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(await packageRowCounts(w)).toEqual(before);
    expect(Object.keys((await call("GET", P, modeler)).body.metadata)).toEqual(["owner"]);
  });
  test("organization-wide list: shareable by default, readable with onlyShareable=false", async () => {
    const O = `${API}/organizations/acme/packages`;
    expect((await call("GET", O, viewer)).body).toEqual([]);
    expect((await call("GET", `${O}?onlyShareable=false`, viewer)).body.map((p: { name: string }) => p.name)).toEqual(["flights", "mine", "other"]);
    expect((await call("GET", O, modeler)).body.map((p: { environmentName: string; name: string }) => `${p.environmentName}/${p.name}`))
      .toEqual(["prod/flights", "prod/mine", "prod/other"]);
    expect((await call("GET", `${O}?onlyShareable=false`, pkgViewer)).body.map((p: { name: string }) => p.name)).toEqual(["flights"]);
    expect((await call("GET", O, outsider)).status).toBe(404);
    expect((await call("GET", `${O}?onlyShareable=maybe`, viewer)).status).toBe(400);
  });
  test("delete: modeler 403, env admin 204 removes versions and unused archives", async () => {
    expect((await call("DELETE", `${E}/prod/packages/other`, modeler)).status).toBe(403);
    const before = await packageRowCounts(w);
    expect((await call("DELETE", `${E}/prod/packages/other`, envAdmin)).status).toBe(204);
    const after = await packageRowCounts(w);
    expect(after.packages).toBe(before.packages - 1);
    expect(after.versions).toBe(before.versions - 1);
    expect((await call("GET", `${E}/prod/packages/other`, envAdmin)).status).toBe(404);
  });
  test("deleting the environment removes packages, versions, archives and connections in one go", async () => {
    await w.s.service.db.sql`INSERT INTO connections (env_id, name, type) VALUES (${w.envId}, 'mem', 'duckdb')`;
    expect((await call("DELETE", `${E}/prod`, envAdmin)).status).toBe(204);
    expect(await packageRowCounts(w)).toEqual({ packages: 0, versions: 0, blobs: 0, models: 0, entities: 0 });
    const [c] = await w.s.service.db.sql`SELECT count(*)::int AS n FROM connections`;
    expect(c!.n).toBe(0);
    expect((await call("GET", `${E}/prod`, w.admin)).status).toBe(404);
  });
});
