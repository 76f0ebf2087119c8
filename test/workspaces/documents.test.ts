import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { API, createOrg, grantOrg } from "../governance/fixtures.ts";

let s: TestService;
let oa: string; // organization admin
let mgr: string; // workspace manager (organization modeler who created it)
let vw: string; // workspace viewer
let ed: string; // workspace viewer and editor of one document
let solo: string; // only a viewer of one document
let out: string; // outside the organization
let docId: string;
const O = `${API}/organizations/dorg`;
const D = `${O}/workspaces/team/documents`;
const MISSING = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  s = await startTestService();
  await createOrg(s, "dorg");
  oa = await s.createUser("oa");
  mgr = await s.createUser("mgr");
  vw = await s.createUser("vw");
  ed = await s.createUser("ed");
  solo = await s.createUser("solo");
  out = await s.createUser("out");
  await grantOrg(s, "dorg", "user:oa", "admin");
  await grantOrg(s, "dorg", "user:mgr", "modeler");
  for (const u of ["vw", "ed", "solo"]) await grantOrg(s, "dorg", `user:${u}`, "member");
  expect((await s.call("POST", `${O}/workspaces`, { token: mgr, body: { name: "team" } })).status).toBe(201);
  for (const u of ["vw", "ed"]) {
    const g = await s.call("POST", `${O}/workspaces/team/permissions`, { token: mgr, body: { userGroupId: `user:${u}`, permission: "viewer" } });
    expect(g.status).toBe(201);
  }
}, 60_000);
afterAll(() => s.close());

describe("documents", () => {
  test("a workspace manager creates a document; the answer has the shape and the manager is its editor", async () => {
    const r = await s.call("POST", D, { token: mgr, body: { name: "Notes", content: "# hello" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "Notes", content: "# hello", createdBy: "mgr", permission: "editor" });
    expect(r.body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof r.body.createdAt).toBe("string");
    expect(typeof r.body.updatedAt).toBe("string");
    docId = r.body.id;
    const other = await s.call("POST", D, { token: mgr, body: { name: "Another" } });
    expect([other.status, other.body.content]).toEqual([201, ""]);
    expect((await s.call("POST", `${D}/${docId}/permissions`, { token: mgr, body: { userGroupId: "user:ed", permission: "editor" } })).status).toBe(201);
    expect((await s.call("POST", `${D}/${docId}/permissions`, { token: mgr, body: { userGroupId: "user:solo", permission: "viewer" } })).status).toBe(201);
  });

  test("viewers list and read, and may not create, update or delete (403)", async () => {
    const list = await s.call("GET", D, { token: vw });
    expect(list.body.map((d: { name: string }) => d.name)).toEqual(["Another", "Notes"]);
    const got = await s.call("GET", `${D}/${docId}`, { token: vw });
    expect([got.status, got.body.content, got.body.permission]).toEqual([200, "# hello", "viewer"]);
    for (const [method, path, body] of [
      ["POST", D, { name: "x" }],
      ["PATCH", `${D}/${docId}`, { content: "x" }],
      ["DELETE", `${D}/${docId}`],
    ] as const) {
      const r = await s.call(method, path, { token: vw, body });
      expect([method, r.status, r.body.code]).toEqual([method, 403, "INSUFFICIENT_PERMISSIONS"]);
    }
  });

  test("a document editor updates (partial) and deletes its document but cannot create documents or touch others", async () => {
    const patched = await s.call("PATCH", `${D}/${docId}`, { token: ed, body: { content: "edited" } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: "Notes", content: "edited", permission: "editor", createdBy: "mgr" });
    expect(patched.body.updatedAt >= patched.body.createdAt).toBe(true);
    const renamed = await s.call("PATCH", `${D}/${docId}`, { token: ed, body: { name: "Notes 2" } });
    expect([renamed.body.name, renamed.body.content]).toEqual(["Notes 2", "edited"]);
    expect((await s.call("POST", D, { token: ed, body: { name: "mine" } })).status).toBe(403);
    const another = (await s.call("GET", D, { token: ed })).body.find((d: { name: string }) => d.name === "Another");
    expect(another.permission).toBe("viewer");
    expect((await s.call("PATCH", `${D}/${another.id}`, { token: ed, body: { content: "x" } })).status).toBe(403);
  });

  test("a user with only a document permission sees that document alone", async () => {
    const list = await s.call("GET", D, { token: solo });
    expect(list.body.map((d: { id: string }) => d.id)).toEqual([docId]);
    expect((await s.call("GET", `${D}/${docId}`, { token: solo })).status).toBe(200);
    expect((await s.call("GET", `${O}/workspaces/team`, { token: solo })).status).toBe(404);
    expect((await s.call("POST", D, { token: solo, body: { name: "x" } })).status).toBe(404);
  });

  test("outsiders get 404 on every route; bad and unknown ids are 400 and 404", async () => {
    for (const [method, path, body] of [
      ["GET", D],
      ["POST", D, { name: "x" }],
      ["GET", `${D}/${docId}`],
      ["PATCH", `${D}/${docId}`, { content: "x" }],
      ["DELETE", `${D}/${docId}`],
    ] as const) {
      const r = await s.call(method, path, { token: out, body });
      expect([method, path, r.status]).toEqual([method, path, 404]);
    }
    const bad = await s.call("GET", `${D}/not-a-uuid`, { token: mgr });
    expect([bad.status, bad.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(bad.body.message).toContain("UUID");
    expect((await s.call("GET", `${D}/${MISSING}`, { token: mgr })).status).toBe(404);
    expect((await s.call("GET", `${O}/workspaces/nope/documents/${docId}`, { token: mgr })).status).toBe(404);
    expect((await s.call("GET", `${O}/workspaces/nope/documents`, { token: mgr })).status).toBe(404);
    expect((await s.call("POST", D, { token: mgr, body: { name: "" } })).status).toBe(400);
  });

  test("content over 1 MiB is 413; exactly 1 MiB is accepted", async () => {
    const big = await s.call("POST", D, { token: mgr, body: { name: "big", content: "x".repeat(1024 * 1024 + 1) } });
    expect([big.status, big.body.code]).toEqual([413, "VALIDATION_ERROR"]);
    expect(big.body.message).toContain("1 MiB");
    const ok = await s.call("POST", D, { token: mgr, body: { name: "max", content: "é".repeat(512 * 1024) } });
    expect(ok.status).toBe(201);
    const over = await s.call("PATCH", `${D}/${ok.body.id}`, { token: mgr, body: { content: "é".repeat(512 * 1024) + "x" } });
    expect(over.status).toBe(413);
  });

  test("list pages by name with Link rel=next", async () => {
    const first = await s.call("GET", `${D}?limit=2`, { token: mgr });
    expect(first.body.map((d: { name: string }) => d.name)).toEqual(["Another", "Notes 2"]);
    const next = first.headers.get("link")!.match(/<([^>]+)>/)![1]!;
    const second = await s.call("GET", next, { token: mgr });
    expect(second.body.map((d: { name: string }) => d.name)).toEqual(["max"]);
    expect((await s.call("GET", `${D}?cursor=bm9wZQ`, { token: mgr })).status).toBe(400);
  });

  test("an organization admin is editor of every shared document; delete by a workspace manager is final", async () => {
    expect((await s.call("GET", `${D}/${docId}`, { token: oa })).body.permission).toBe("editor");
    expect((await s.call("DELETE", `${D}/${docId}`, { token: mgr })).status).toBe(204);
    expect((await s.call("GET", `${D}/${docId}`, { token: mgr })).status).toBe(404);
    const [{ n }] = await s.service.db.sql`SELECT count(*)::int AS n FROM grants WHERE resource_id = ${docId}` as unknown as [{ n: number }];
    expect(n).toBe(0);
    expect((await s.call("DELETE", `${D}/${docId}`, { token: mgr })).status).toBe(404);
  });

  test("documents of a personal workspace are its owner's alone", async () => {
    expect((await s.call("POST", `${O}/workspaces/personal`, { token: vw })).status).toBe(201);
    const P = `${O}/workspaces/personal-vw/documents`;
    const mine = await s.call("POST", P, { token: vw, body: { name: "draft", content: "secret" } });
    expect([mine.status, mine.body.permission]).toEqual([201, "editor"]);
    for (const token of [oa, mgr]) {
      expect((await s.call("GET", `${P}/${mine.body.id}`, { token })).status).toBe(404);
      expect((await s.call("GET", P, { token })).status).toBe(404);
      expect((await s.call("DELETE", `${P}/${mine.body.id}`, { token })).status).toBe(404);
    }
    expect((await s.call("GET", P, { token: vw })).body.map((d: { name: string }) => d.name)).toEqual(["draft"]);
  });
});

describe("what one workspace holds is bounded", () => {
  test("at most 10,000 documents and 256 MiB of content per workspace: creating or growing past it is 400, the same for a personal workspace", async () => {
    // any member has a personal workspace to fill; the rows are made directly up to the edge
    expect([200, 201]).toContain((await s.call("POST", `${O}/workspaces/personal`, { token: vw })).status);
    const P = `${O}/workspaces/personal-vw/documents`;
    const [ws] = await s.service.db.sql`SELECT id FROM workspaces WHERE name = 'personal-vw'`;
    await s.service.db.sql`DELETE FROM documents WHERE workspace_id = ${ws!.id as string}`;
    await s.service.db.sql`INSERT INTO documents (workspace_id, name, content)
      SELECT ${ws!.id as string}, 'filler-' || i, '' FROM generate_series(1, 9999) i`;
    const last = await s.call("POST", P, { token: vw, body: { name: "last", content: "x" } });
    expect(last.status).toBe(201);
    const over = await s.call("POST", P, { token: vw, body: { name: "one too many" } });
    expect([over.status, over.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(over.body.message).toContain("10000 documents");
    expect((await s.call("DELETE", `${P}/${last.body.id}`, { token: vw })).status).toBe(204);
    expect((await s.call("POST", P, { token: vw, body: { name: "room again" } })).status).toBe(201);
    await s.service.db.sql`DELETE FROM documents WHERE workspace_id = ${ws!.id as string}`;
    // content: 255 documents of 1 MiB, then one more MiB fits only to the byte
    const mib = "x".repeat(1024 * 1024);
    await s.service.db.sql`INSERT INTO documents (workspace_id, name, content)
      SELECT ${ws!.id as string}, 'big-' || i, ${mib} FROM generate_series(1, 255) i`;
    const small = await s.call("POST", P, { token: vw, body: { name: "small", content: "y" } });
    expect(small.status).toBe(201);
    const big = await s.call("POST", P, { token: vw, body: { name: "big", content: mib } });
    expect([big.status, big.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(big.body.message).toContain("268435456 bytes");
    // growing a document is the same as adding one; shrinking is always allowed
    expect((await s.call("POST", P, { token: vw, body: { name: "small2", content: "w" } })).status).toBe(201);
    const grown = await s.call("PATCH", `${P}/${small.body.id}`, { token: vw, body: { content: mib } });
    expect(grown.status).toBe(400);
    expect((await s.call("GET", `${P}/${small.body.id}`, { token: vw })).body.content).toBe("y");
    expect((await s.call("PATCH", `${P}/${small.body.id}`, { token: vw, body: { content: "" } })).status).toBe(200);
    await s.service.db.sql`DELETE FROM documents WHERE workspace_id = ${ws!.id as string}`;
  }, 120_000);
});
