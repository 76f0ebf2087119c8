import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { API, createOrg, grantOrg } from "../governance/fixtures.ts";

let s: TestService;
let oa: string; // organization admin
let mod: string; // organization modeler
let mem: string; // organization member
let kim: string; // organization member
let out: string; // not in the organization
let apiKey: string;
const O = `${API}/organizations/wsorg`;
const W = `${O}/workspaces`;

beforeAll(async () => {
  s = await startTestService();
  await createOrg(s, "wsorg");
  oa = await s.createUser("oa");
  mod = await s.createUser("mod");
  mem = await s.createUser("mem");
  kim = await s.createUser("kim");
  out = await s.createUser("out");
  await grantOrg(s, "wsorg", "user:oa", "admin");
  await grantOrg(s, "wsorg", "user:mod", "modeler");
  await grantOrg(s, "wsorg", "user:mem", "member");
  await grantOrg(s, "wsorg", "user:kim", "member");
  const admin = await s.adminToken();
  expect((await s.call("POST", `${O}/groups`, { token: admin, body: { name: "bots" } })).status).toBe(201);
  await grantOrg(s, "wsorg", "group:bots", "modeler");
  apiKey = (await s.call("POST", `${O}/groups/bots/tokens?name=k`, { token: admin })).body.secret;
}, 60_000);
afterAll(() => s.close());

const names = (body: { name: string }[]) => body.map((w) => w.name);

describe("create and read", () => {
  test("an organization modeler creates a workspace and becomes its manager", async () => {
    const r = await s.call("POST", W, { token: mod, body: { name: "team", description: "the team" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "team", description: "the team", personal: false, permission: "manager" });
    expect(typeof r.body.createdAt).toBe("string");
    expect(typeof r.body.updatedAt).toBe("string");
    const grant = await s.call("GET", `${W}/team/permissions/user:mod`, { token: mod });
    expect(grant.body.permission).toBe("manager");
    expect((await s.call("GET", `${W}/team`, { token: mod })).body.permission).toBe("manager");
  });

  test("refusals: member 403, outsider 404, duplicate 409, reserved or bad name 400, anonymous 401", async () => {
    const member = await s.call("POST", W, { token: mem, body: { name: "mine" } });
    expect([member.status, member.body.code]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
    expect(member.body.message).toContain("workspaces/personal");
    // the declared rule (organization:workspace-creator) decides before the handler checks the name
    const reserved = await s.call("POST", W, { token: mem, body: { name: "personal-x" } });
    expect([reserved.status, reserved.body.code]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
    expect((await s.call("POST", W, { token: out, body: { name: "x" } })).status).toBe(404);
    const dup = await s.call("POST", W, { token: oa, body: { name: "team" } });
    expect([dup.status, dup.body.code]).toEqual([409, "CONFLICT"]);
    expect((await s.call("POST", W, { token: oa, body: { name: "personal-mem" } })).status).toBe(400);
    expect((await s.call("POST", W, { token: oa, body: { name: "personal" } })).status).toBe(400);
    expect((await s.call("POST", W, { token: oa, body: { name: "bad name" } })).status).toBe(400);
    expect((await s.call("POST", W, { body: { name: "anon" } })).status).toBe(401);
    expect((await s.call("GET", `${W}/bad name`, { token: oa })).status).toBe(400);
  });

  test("an API key of a modeler group creates a workspace; its group becomes manager", async () => {
    const r = await s.call("POST", W, { apiKey, body: { name: "botspace" } });
    expect([r.status, r.body.permission]).toEqual([201, "manager"]);
    expect((await s.call("GET", `${W}/botspace/permissions/group:bots`, { token: oa })).body.permission).toBe("manager");
  });

  test("viewers read, cannot write; outsiders and non-granted members get 404", async () => {
    expect((await s.call("GET", `${W}/team`, { token: mem })).status).toBe(404);
    expect((await s.call("POST", `${W}/team/permissions`, { token: mod, body: { userGroupId: "user:mem", permission: "viewer" } })).status).toBe(201);
    const got = await s.call("GET", `${W}/team`, { token: mem });
    expect([got.status, got.body.permission]).toEqual([200, "viewer"]);
    const patch = await s.call("PATCH", `${W}/team`, { token: mem, body: { description: "hijack" } });
    expect([patch.status, patch.body.code]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
    expect((await s.call("DELETE", `${W}/team`, { token: mem })).status).toBe(403);
    for (const [method, body] of [["GET"], ["PATCH", { description: "x" }], ["DELETE"]] as const) {
      const r = await s.call(method, `${W}/team`, { token: out, body });
      expect([method, r.status, r.body.code]).toEqual([method, 404, "RESOURCE_NOT_FOUND"]);
    }
    expect((await s.call("GET", `${W}/team`, { token: kim })).status).toBe(404);
    expect((await s.call("GET", `${W}/nope`, { token: oa })).status).toBe(404);
  });

  test("list: what the caller can read; ?writable=true only what it manages", async () => {
    expect(names((await s.call("GET", W, { token: mem })).body)).toEqual(["team"]);
    expect((await s.call("GET", `${W}?writable=true`, { token: mem })).body).toEqual([]);
    expect(names((await s.call("GET", `${W}?writable=true`, { token: mod })).body)).toEqual(["team"]);
    expect(names((await s.call("GET", W, { token: oa })).body)).toEqual(["botspace", "team"]);
    expect((await s.call("GET", W, { token: kim })).body).toEqual([]);
    expect((await s.call("GET", W, { token: out })).status).toBe(404);
    const paged = await s.call("GET", `${W}?limit=1`, { token: oa });
    expect(names(paged.body)).toEqual(["botspace"]);
    const next = paged.headers.get("link")!.match(/<([^>]+)>/)![1]!;
    expect(names((await s.call("GET", next, { token: oa })).body)).toEqual(["team"]);
  });

  test("update is partial and by a manager; names cannot change", async () => {
    const r = await s.call("PATCH", `${W}/team`, { token: mod, body: { description: "renamed desc" } });
    expect([r.status, r.body.description, r.body.name]).toEqual([200, "renamed desc", "team"]);
    expect((await s.call("PATCH", `${W}/team`, { token: mod, body: {} })).body.description).toBe("renamed desc");
    expect((await s.call("PATCH", `${W}/team`, { token: oa, body: { description: "by admin" } })).status).toBe(200);
    const rename = await s.call("PATCH", `${W}/team`, { token: mod, body: { name: "other" } });
    expect([rename.status, rename.body.code]).toEqual([400, "VALIDATION_ERROR"]);
  });
});

describe("personal workspaces", () => {
  test("get or create: 201 the first time, 200 after, same workspace", async () => {
    const first = await s.call("POST", `${W}/personal`, { token: mem });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ name: "personal-mem", personal: true, permission: "manager" });
    const again = await s.call("POST", `${W}/personal`, { token: mem });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const [{ n }] = await s.service.db.sql`SELECT count(*)::int AS n FROM workspaces WHERE name = 'personal-mem'` as unknown as [{ n: number }];
    expect(n).toBe(1);
  });

  test("concurrent calls create exactly one", async () => {
    const all = await Promise.all([1, 2, 3, 4].map(() => s.call("POST", `${W}/personal`, { token: kim })));
    expect(all.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    const [{ n }] = await s.service.db.sql`SELECT count(*)::int AS n FROM workspaces WHERE name = 'personal-kim'` as unknown as [{ n: number }];
    expect(n).toBe(1);
  });

  test("private: another member and an organization admin get 404 on every route; lists hide it", async () => {
    const P = `${W}/personal-mem`;
    for (const token of [oa, kim, out]) {
      for (const [method, path, body] of [
        ["GET", P],
        ["PATCH", P, { description: "x" }],
        ["DELETE", P],
        ["GET", `${P}/documents`],
        ["POST", `${P}/documents`, { name: "d" }],
        ["GET", `${P}/packages`],
      ] as const) {
        const r = await s.call(method, path, { token, body });
        expect([method, path, r.status]).toEqual([method, path, 404]);
      }
    }
    expect(names((await s.call("GET", W, { token: oa })).body)).not.toContain("personal-mem");
    expect(names((await s.call("GET", W, { token: mem })).body)).toEqual(["personal-mem", "team"]);
    expect(names((await s.call("GET", `${W}?writable=true`, { token: mem })).body)).toEqual(["personal-mem"]);
    const owner = await s.call("PATCH", P, { token: mem, body: { description: "my notes" } });
    expect([owner.status, owner.body.description]).toEqual([200, "my notes"]);
  });

  test("API keys cannot have one (403); outsiders 404; anonymous 401", async () => {
    const key = await s.call("POST", `${W}/personal`, { apiKey });
    expect([key.status, key.body.code]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
    expect((await s.call("POST", `${W}/personal`, { token: out })).status).toBe(404);
    expect((await s.call("POST", `${W}/personal`)).status).toBe(401);
  });

  test("a shared workspace holding the personal name is a 409 that says what to do", async () => {
    const [org] = await s.service.db.sql`SELECT id FROM organizations WHERE name = 'wsorg'`;
    await s.service.db.sql`INSERT INTO workspaces (org_id, name) VALUES (${org!.id as string}, 'personal-mod')`;
    const r = await s.call("POST", `${W}/personal`, { token: mod });
    expect([r.status, r.body.code]).toEqual([409, "CONFLICT"]);
    expect(r.body.message).toContain("rename or delete");
  });
});

describe("delete", () => {
  test("an organization admin deletes a workspace it does not manage: documents, grants, package access and bookmarks go", async () => {
    const created = await s.call("POST", W, { token: mod, body: { name: "doomed" } });
    expect(created.status).toBe(201);
    await s.call("POST", `${W}/doomed/permissions`, { token: mod, body: { userGroupId: "user:mem", permission: "viewer" } });
    const doc = await s.call("POST", `${W}/doomed/documents`, { token: mod, body: { name: "n", content: "c" } });
    expect(doc.status).toBe(201);
    await s.call("POST", `${W}/doomed/documents/${doc.body.id}/permissions`, { token: mod, body: { userGroupId: "user:kim", permission: "viewer" } });
    expect((await s.call("POST", `${O}/bookmarks`, { token: mem, body: { bookmarkType: "workspace", objectId: "doomed" } })).status).toBe(201);
    const [ws] = await s.service.db.sql`SELECT id FROM workspaces WHERE name = 'doomed'`;
    const id = ws!.id as string;
    const del = await s.call("DELETE", `${W}/doomed`, { token: oa });
    expect(del.status).toBe(204);
    const [left] = await s.service.db.sql`SELECT
      (SELECT count(*)::int FROM workspaces WHERE id = ${id}) AS ws,
      (SELECT count(*)::int FROM documents WHERE workspace_id = ${id}) AS docs,
      (SELECT count(*)::int FROM grants WHERE resource_id = ${id} OR principal_id = ${id} OR resource_id = ${doc.body.id}) AS grants,
      (SELECT count(*)::int FROM bookmarks WHERE object_id = 'doomed') AS bookmarks`;
    expect(left).toEqual({ ws: 0, docs: 0, grants: 0, bookmarks: 0 });
    expect((await s.call("GET", `${W}/doomed`, { token: mod })).status).toBe(404);
    expect((await s.call("DELETE", `${W}/doomed`, { token: oa })).status).toBe(404);
  });

  test("the owner deletes a personal workspace; a manager deletes its workspace", async () => {
    expect((await s.call("DELETE", `${W}/personal-kim`, { token: kim })).status).toBe(204);
    expect((await s.call("POST", `${W}/personal`, { token: kim })).status).toBe(201);
    expect((await s.call("DELETE", `${W}/botspace`, { apiKey })).status).toBe(204);
  });
});
