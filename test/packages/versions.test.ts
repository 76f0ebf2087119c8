import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { API, publish, startWorld, userWith, type World } from "./helpers.ts";

setDefaultTimeout(60_000);

let w: World;
const P = `${API}/organizations/acme/environments/prod/packages/flights`;
const PROJ = `${API}/organizations/acme/projects/prod/packages/flights`;
beforeAll(async () => {
  // Version semantics before any index run (indexing is tested in test/retrieval).
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  for (const v of ["1.0.0", "1.1.0"]) expect((await publish(w, "flights", v, { token: w.admin })).status).toBe(201);
  expect((await publish(w, "flights", "2.0.0-rc", { token: w.admin })).status).toBe(400);
  expect((await publish(w, "flights", "2.0.0", { token: w.admin, pinLatest: false })).status).toBe(201);
}, 120_000);
afterAll(() => w.s.close());

const get = (path: string, token = w.admin) => w.s.call("GET", path, { token });
const patch = (path: string, body: unknown, token = w.admin) => w.s.call("PATCH", path, { token, body });

describe("versions", () => {
  test("list is newest first; pinLatest false keeps the previous latest", async () => {
    const r = await get(`${P}/versions`);
    expect(r.status).toBe(200);
    expect(r.body.map((v: { id: string }) => v.id)).toEqual(["2.0.0", "1.1.0", "1.0.0"]);
    expect(r.body[0]).toMatchObject({ archiveStatus: "unarchive", indexStatus: "unknown", isLatest: false });
    expect((await get(P)).body.latestVersion).toBe("1.1.0");
  });

  test("paging with limit and cursor", async () => {
    const first = await get(`${P}/versions?limit=2`);
    expect(first.body.map((v: { id: string }) => v.id)).toEqual(["2.0.0", "1.1.0"]);
    const next = first.headers.get("link")!.match(/<([^>]+)>/)![1]!;
    expect((await get(next)).body.map((v: { id: string }) => v.id)).toEqual(["1.0.0"]);
  });

  test("get one; unknown 404; bad pattern 400", async () => {
    expect((await get(`${P}/versions/1.0.0`)).body).toMatchObject({ id: "1.0.0", archiveStatus: "unarchive" });
    expect((await get(`${P}/versions/3.0.0`)).status).toBe(404);
    expect((await get(`${P}/versions/1.0.0$`)).status).toBe(400);
  });

  test("the seed's PATCH path under /projects archives; latest moves to the newest unarchived", async () => {
    const r = await patch(`${PROJ}/versions/1.1.0`, { archiveStatus: "archive" });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: "1.1.0", archiveStatus: "archive" });
    expect((await get(P)).body.latestVersion).toBe("2.0.0");
    const src = await w.s.service.handle(new Request(`http://localhost${P}/source`, { headers: { authorization: `Bearer ${w.admin}` } }));
    expect(src.headers.get("x-version-id")).toBe("2.0.0");
    // unarchiving gives the pinned version its place back
    expect((await patch(`${PROJ}/versions/1.1.0`, { archiveStatus: "unarchive" })).body.archiveStatus).toBe("unarchive");
    expect((await get(P)).body.latestVersion).toBe("1.1.0");
  });

  test("a whole Version body with equal read-only fields is accepted; different ones are 400", async () => {
    const v = (await get(`${P}/versions/1.0.0`)).body;
    expect((await patch(`${PROJ}/versions/1.0.0`, { ...v, archiveStatus: "archive" })).status).toBe(200);
    expect((await patch(`${PROJ}/versions/1.0.0`, { id: "1.0.1" })).status).toBe(400);
    expect((await patch(`${PROJ}/versions/1.0.0`, { createdAt: "2001-01-01T00:00:00Z" })).status).toBe(400);
    const idx = await patch(`${PROJ}/versions/1.0.0`, { indexStatus: "indexed" });
    expect(idx.status).toBe(400);
    expect(idx.body.message).toContain("read-only");
    expect((await patch(`${PROJ}/versions/1.0.0`, { archiveStatus: "frozen" })).status).toBe(400);
    expect((await patch(`${PROJ}/versions/1.0.0`, { archiveStatus: "unarchive" })).status).toBe(200);
  });

  test("error_state: never set by a client; a version in it cannot be unarchived", async () => {
    const r = await patch(`${PROJ}/versions/1.0.0`, { archiveStatus: "error_state" });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("set by the service");
    await w.s.service.db.sql`UPDATE package_versions SET archive_status = 'error_state' WHERE version_id = '1.0.0'`;
    const u = await patch(`${PROJ}/versions/1.0.0`, { archiveStatus: "unarchive" });
    expect(u.status).toBe(400);
    expect(u.body.message).toContain("error_state");
    // equal value is ignored
    expect((await patch(`${PROJ}/versions/1.0.0`, { archiveStatus: "error_state" })).status).toBe(200);
  });

  test("every version archived: no latest; source without versionId is 404, with one 200", async () => {
    for (const v of ["1.1.0", "2.0.0"]) expect((await patch(`${PROJ}/versions/${v}`, { archiveStatus: "archive" })).status).toBe(200);
    expect((await get(P)).body.latestVersion).toBeNull();
    expect((await get(`${P}/source`)).status).toBe(404);
    expect((await get(`${P}/source?versionId=1.1.0`)).status).toBe(200);
    expect((await get(`${P}/models`)).status).toBe(404);
    for (const v of ["1.1.0", "2.0.0"]) await patch(`${PROJ}/versions/${v}`, { archiveStatus: "unarchive" });
  });

  test("viewer reads versions but may not PATCH (403); modeler may; outsider 404", async () => {
    const viewer = await userWith(w, "vera", { kind: "environment", id: w.envId, role: "viewer" });
    const [pkg] = await w.s.service.db.sql`SELECT id FROM packages WHERE name = 'flights'`;
    const modeler = await userWith(w, "mo", { kind: "package", id: pkg!.id as string, role: "modeler" });
    const outsider = await userWith(w, "olga");
    expect((await get(`${P}/versions`, viewer)).status).toBe(200);
    expect((await patch(`${PROJ}/versions/2.0.0`, { archiveStatus: "archive" }, viewer)).status).toBe(403);
    expect((await patch(`${PROJ}/versions/2.0.0`, { archiveStatus: "archive" }, modeler)).status).toBe(200);
    expect((await get(`${P}/versions`, outsider)).status).toBe(404);
    expect((await patch(`${PROJ}/versions/2.0.0`, { archiveStatus: "unarchive" }, outsider)).status).toBe(404);
    expect((await patch(`${PROJ}/versions/2.0.0`, { archiveStatus: "unarchive" })).status).toBe(200);
  });

  test("without credentials: 401", async () => {
    expect((await w.s.call("PATCH", `${PROJ}/versions/2.0.0`, { body: { archiveStatus: "archive" } })).status).toBe(401);
  });
});
