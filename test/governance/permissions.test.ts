import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { API, createOrg, grantOrg, insertDocument, insertEnv, insertPackage, insertWorkspace } from "./fixtures.ts";

let s: TestService;
let admin: string;
let oa: string;
let joe: string;
let docId: string;
const O = `${API}/organizations/porg`;

beforeAll(async () => {
  s = await startTestService();
  admin = await s.adminToken();
  const org = await createOrg(s, "porg");
  oa = await s.createUser("oa");
  joe = await s.createUser("joe");
  await s.createUser("kim");
  await s.createUser("lee");
  await grantOrg(s, "porg", "user:oa", "admin");
  await grantOrg(s, "porg", "user:joe", "member");
  await grantOrg(s, "porg", "user:kim", "member");
  await s.call("POST", `${API}/organizations/porg/groups`, { token: admin, body: { name: "crew" } });
  await s.call("POST", `${API}/organizations/porg/groups/crew/members`, { token: admin, body: { members: [{ principal: "user:lee" }] } });
  const env = await insertEnv(s, org, "prod");
  await insertPackage(s, env, "sales");
  const ws = await insertWorkspace(s, org, "shared");
  docId = await insertDocument(s, ws, "notes");
  const mine = await insertWorkspace(s, org, "joes", "joe");
  await insertDocument(s, mine, "private");
}, 60_000);
afterAll(() => s.close());

const levels = () => [
  { name: "organization", base: O, role: "modeler", other: "member", bad: "viewer" },
  { name: "environment", base: `${O}/environments/prod`, role: "viewer", other: "modeler", bad: "member" },
  { name: "environment (projects)", base: `${O}/projects/prod`, role: "viewer", other: "admin", bad: "editor" },
  { name: "package", base: `${O}/environments/prod/packages/sales`, role: "viewer", other: "modeler", bad: "manager" },
  { name: "package (projects)", base: `${O}/projects/prod/packages/sales`, role: "viewer", other: "admin", bad: "member" },
  { name: "workspace", base: `${O}/workspaces/shared`, role: "viewer", other: "manager", bad: "admin" },
  { name: "document", base: `${O}/workspaces/shared/documents/${docId}`, role: "viewer", other: "editor", bad: "modeler" },
];

describe("permission CRUD at every level", () => {
  test("list, create, get, update, delete; unknown role 400; duplicate 409; non-admin 403", async () => {
    for (const level of levels()) {
      const P = `${level.base}/permissions`;
      const created = await s.call("POST", P, { token: oa, body: { userGroupId: "user:lee", permission: level.role } });
      expect([level.name, created.status]).toEqual([level.name, 201]);
      expect(created.body).toMatchObject({ userGroupId: "user:lee", permission: level.role });
      expect(typeof created.body.createdAt).toBe("string");
      expect(created.body.pending).toBeUndefined();
      expect((await s.call("POST", P, { token: oa, body: { userGroupId: "user:lee", permission: level.role } })).status).toBe(409);
      const bad = await s.call("POST", P, { token: oa, body: { userGroupId: "user:joe", permission: level.bad } });
      expect([level.name, bad.status, bad.body.code]).toEqual([level.name, 400, "VALIDATION_ERROR"]);
      const list = await s.call("GET", P, { token: oa });
      expect(list.body.map((p: { userGroupId: string }) => p.userGroupId)).toContain("user:lee");
      const got = await s.call("GET", `${P}/user:lee`, { token: oa });
      expect(got.body.permission).toBe(level.role);
      const upd = await s.call("PATCH", `${P}/user:lee`, { token: oa, body: { permission: level.other } });
      expect([level.name, upd.status, upd.body.permission]).toEqual([level.name, 200, level.other]);
      expect((await s.call("PATCH", `${P}/user:lee`, { token: oa, body: { permission: level.bad } })).status).toBe(400);
      expect((await s.call("DELETE", `${P}/user:lee`, { token: oa })).status).toBe(204);
      expect((await s.call("GET", `${P}/user:lee`, { token: oa })).status).toBe(404);
      expect((await s.call("DELETE", `${P}/user:lee`, { token: oa })).status).toBe(404);
      expect((await s.call("PATCH", `${P}/user:lee`, { token: oa, body: { permission: level.role } })).status).toBe(404);
      expect((await s.call("POST", P, { token: oa, body: { userGroupId: "user:ghost", permission: level.role } })).status).toBe(400);
      expect((await s.call("POST", P, { token: oa, body: { userGroupId: "kim", permission: level.role } })).status).toBe(400);
      expect((await s.call("GET", `${P}/nobody`, { token: oa })).status).toBe(400);
    }
    // kim is an org member but has nothing on the environment: it cannot see it
    for (const level of levels().slice(1)) {
      const r = await s.call("POST", `${level.base}/permissions`, { token: await s.login("kim", "pw-kim-secret"), body: { userGroupId: "user:joe", permission: level.role } });
      expect([level.name, r.status]).toEqual([level.name, 404]);
    }
    const orgTry = await s.call("POST", `${O}/permissions`, { token: joe, body: { userGroupId: "user:kim", permission: "member" } });
    expect(orgTry.status).toBe(403);
  }, 60_000);

  test("workspace principals only on packages; users must be members for lower levels", async () => {
    const ok = await s.call("POST", `${O}/environments/prod/packages/sales/permissions`, { token: oa, body: { userGroupId: "workspace:shared", permission: "viewer" } });
    expect(ok.status).toBe(201);
    expect(ok.body.userGroupId).toBe("workspace:shared");
    expect((await s.call("POST", `${O}/environments/prod/permissions`, { token: oa, body: { userGroupId: "workspace:shared", permission: "viewer" } })).status).toBe(400);
    await s.createUser("stranger");
    const r = await s.call("POST", `${O}/environments/prod/permissions`, { token: oa, body: { userGroupId: "user:stranger", permission: "viewer" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("not a member");
  });

  test("document ids must be UUIDs (400), unknown documents 404", async () => {
    const bad = await s.call("GET", `${O}/workspaces/shared/documents/not-a-uuid/permissions`, { token: oa });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("VALIDATION_ERROR");
    expect((await s.call("GET", `${O}/workspaces/shared/documents/${crypto.randomUUID()}/permissions`, { token: oa })).status).toBe(404);
  });
});

describe("access requests", () => {
  test("a member requests environment access; the pending grant confers nothing until approved", async () => {
    const P = `${O}/environments/prod/permissions`;
    const plain = await s.call("POST", P, { token: joe, body: { userGroupId: "user:joe", permission: "viewer" } });
    expect(plain.status).toBe(404);
    const forOther = await s.call("POST", `${P}?requestPermission=true`, { token: joe, body: { userGroupId: "user:kim", permission: "viewer" } });
    expect(forOther.status).toBe(403);
    const req = await s.call("POST", `${P}?requestPermission=true`, { token: joe, body: { userGroupId: "user:joe", permission: "modeler" } });
    expect(req.status).toBe(201);
    expect(req.body).toMatchObject({ userGroupId: "user:joe", permission: "modeler", pending: true });
    // still invisible to joe, but joe sees its own request
    const pkgPerms = await s.call("GET", `${O}/environments/prod/packages/sales/permissions`, { token: joe });
    expect([pkgPerms.status, pkgPerms.body]).toEqual([200, []]);
    const mine = await s.call("GET", P, { token: joe });
    expect(mine.body).toEqual([req.body]);
    expect((await s.call("GET", `${P}/user:joe`, { token: joe })).body.pending).toBe(true);
    const seen = await s.call("GET", P, { token: oa });
    expect(seen.body.find((p: { userGroupId: string }) => p.userGroupId === "user:joe").pending).toBe(true);
    const [rank] = await s.service.db.sql`SELECT effective_rank('user', (SELECT id FROM users WHERE user_name = 'joe'), 'environment',
      (SELECT id FROM environments WHERE name = 'prod')) AS r`;
    expect(rank!.r).toBe(0);
    // body flag works too, and re-requesting replaces the pending role
    const again = await s.call("POST", P, { token: joe, body: { userGroupId: "user:joe", permission: "viewer", requestPermission: true } });
    expect(again.body).toMatchObject({ permission: "viewer", pending: true });
    // the admin approves by creating the grant
    const approve = await s.call("POST", P, { token: oa, body: { userGroupId: "user:joe", permission: "viewer" } });
    expect(approve.status).toBe(201);
    expect(approve.body.pending).toBeUndefined();
    expect((await s.call("GET", `${O}/environments/prod/packages/sales/permissions/user:joe`, { token: joe })).status).toBe(404);
    expect((await s.call("GET", `${O}/environments/prod/packages/sales/permissions`, { token: joe })).status).toBe(200);
    // asking for a role already held is 409 (test/governance/access_requests.test.ts asks for more)
    expect((await s.call("POST", `${P}?requestPermission=true`, { token: joe, body: { userGroupId: "user:joe", permission: "viewer" } })).status).toBe(409);
  });

  test("outsiders cannot request access to an organization's environments (404)", async () => {
    const out = await s.createUser("outsider");
    const r = await s.call("POST", `${O}/environments/prod/permissions?requestPermission=true`, { token: out, body: { userGroupId: "user:outsider", permission: "viewer" } });
    expect(r.status).toBe(404);
  });
});

describe("system permissions", () => {
  test("system admin grants and revokes the system admin role; others may not; the last cannot be revoked", async () => {
    const sam = await s.createUser("sam");
    expect((await s.call("POST", `${API}/permissions`, { token: sam, body: { userGroupId: "user:sam", permission: "admin" } })).status).toBe(403);
    const g = await s.call("POST", `${API}/permissions`, { token: admin, body: { userGroupId: "user:sam", permission: "admin" } });
    expect(g.status).toBe(201);
    expect(g.body).toMatchObject({ userGroupId: "user:sam", permission: "admin" });
    expect((await s.call("GET", `${API}/invites`, { token: sam })).status).toBe(200);
    expect((await s.call("POST", `${API}/permissions`, { token: admin, body: { userGroupId: "user:sam", permission: "viewer" } })).status).toBe(400);
    expect((await s.call("POST", `${API}/permissions`, { token: admin, body: { userGroupId: "group:x", permission: "admin" } })).status).toBe(400);
    expect((await s.call("POST", `${API}/permissions`, { token: sam, body: { userGroupId: "user:admin", permission: "admin", revoke: true } })).status).toBe(204);
    expect((await s.call("GET", `${API}/invites`, { token: admin })).status).toBe(403);
    expect((await s.call("POST", `${API}/permissions`, { token: sam, body: { userGroupId: "user:sam", permission: "admin", revoke: true } })).status).toBe(409);
    expect((await s.call("POST", `${API}/permissions`, { token: sam, body: { userGroupId: "user:admin", permission: "admin" } })).status).toBe(201);
  });
});
