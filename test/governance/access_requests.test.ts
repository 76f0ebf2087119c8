/**
 * Access requests and sharing as API.md "Access requests and sharing" states
 * them: a caller holding a lower grant asks for more (pending, 201) at every
 * level; a signed-in non-member asks to join an organization and learns
 * nothing else; a workspace or document the caller cannot see is 404; package
 * modelers share the package as viewer or modeler, never above their rank.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { API, createOrg, grantOrg, insertDocument, insertEnv, insertPackage, insertWorkspace } from "./fixtures.ts";

let s: TestService;
let oa: string;
let vic: string;
let kim: string;
let docId: string;
const O = `${API}/organizations/rorg`;
const PKG = `${O}/environments/prod/packages/sales`;

beforeAll(async () => {
  s = await startTestService();
  const org = await createOrg(s, "rorg");
  oa = await s.createUser("oa");
  vic = await s.createUser("vic");
  kim = await s.createUser("kim");
  await s.createUser("lee");
  await grantOrg(s, "rorg", "user:oa", "admin");
  for (const u of ["vic", "kim", "lee"]) await grantOrg(s, "rorg", `user:${u}`, "member");
  const env = await insertEnv(s, org, "prod");
  await insertPackage(s, env, "sales");
  const ws = await insertWorkspace(s, org, "shared");
  docId = await insertDocument(s, ws, "notes");
  const grant = async (path: string, permission: string) => {
    const r = await s.call("POST", `${path}/permissions`, { token: oa, body: { userGroupId: "user:vic", permission } });
    if (r.status !== 201) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  };
  await grant(`${O}/environments/prod`, "viewer");
  await grant(PKG, "viewer");
  await grant(`${O}/workspaces/shared`, "viewer");
}, 60_000);
afterAll(() => s.close());

const ask = (token: string, path: string, permission: string, who = "user:vic") =>
  s.call("POST", `${path}/permissions?requestPermission=true`, { token, body: { userGroupId: who, permission } });

describe("a caller holding a lower grant asks for more", () => {
  test("at every level the request is pending (201) and the grant held stays until approved", async () => {
    const levels = [
      { path: O, held: "member", asked: "modeler" },
      { path: `${O}/environments/prod`, held: "viewer", asked: "admin" },
      { path: PKG, held: "viewer", asked: "modeler" },
      { path: `${O}/workspaces/shared`, held: "viewer", asked: "manager" },
      { path: `${O}/workspaces/shared/documents/${docId}`, held: null, asked: "editor" }, // viewer through the workspace
    ];
    for (const level of levels) {
      const r = await ask(vic, level.path, level.asked);
      expect([level.path, r.status]).toEqual([level.path, 201]);
      expect(r.body).toMatchObject({ userGroupId: "user:vic", permission: level.asked, pending: true });
      if (level.held) expect(r.body.currentPermission).toBe(level.held);
      // the admin sees the request; the caller sees its own
      const listed = await s.call("GET", `${level.path}/permissions/user:vic`, { token: oa });
      expect(listed.body).toMatchObject({ permission: level.asked, pending: true });
      expect((await s.call("GET", `${level.path}/permissions/user:vic`, { token: vic })).body.pending).toBe(true);
    }
    // nothing more is conferred: vic still may not publish-level manage the workspace
    expect((await s.call("PATCH", `${O}/workspaces/shared`, { token: vic, body: { description: "x" } })).status).toBe(403);
    const [rank] = await s.service.db.sql`SELECT effective_rank('user', (SELECT id FROM users WHERE user_name = 'vic'), 'package',
      (SELECT id FROM packages WHERE name = 'sales')) AS r`;
    expect(rank!.r).toBe(1);
    // the admin approves with PATCH: the requested role replaces the held one
    const approved = await s.call("PATCH", `${PKG}/permissions/user:vic`, { token: oa, body: { permission: "modeler" } });
    expect(approved.status).toBe(200);
    expect(approved.body.permission).toBe("modeler");
    expect(approved.body.pending).toBeUndefined();
    expect(approved.body.currentPermission).toBeUndefined();
    // asking for what is held (or less) is 409
    const again = await ask(vic, PKG, "viewer");
    expect(again.status).toBe(409);
    expect(again.body.message).toContain("already have modeler");
  });

  test("a workspace or document the caller cannot see answers 404 to a request", async () => {
    for (const path of [`${O}/workspaces/shared`, `${O}/workspaces/shared/documents/${docId}`]) {
      const r = await ask(kim, path, "viewer", "user:kim");
      expect([path, r.status, r.body.code]).toEqual([path, 404, "RESOURCE_NOT_FOUND"]);
      expect((await s.call("GET", `${path}/permissions`, { token: kim })).status).toBe(404);
    }
  });
});

describe("joining an organization", () => {
  test("a signed-in non-member asks to join; the answer holds the request only; an admin approves", async () => {
    const out = await s.createUser("newcomer");
    expect((await s.call("GET", O, { token: out })).status).toBe(404);
    const r = await ask(out, O, "member", "user:newcomer");
    expect(r.status).toBe(201);
    expect(Object.keys(r.body).sort()).toEqual(["createdAt", "pending", "permission", "updatedAt", "userGroupId"]);
    expect(r.body).toMatchObject({ userGroupId: "user:newcomer", permission: "member", pending: true });
    // still not a member: the organization and its lists stay hidden
    expect((await s.call("GET", O, { token: out })).status).toBe(404);
    expect((await s.call("GET", `${O}/environments`, { token: out })).status).toBe(404);
    const own = await s.call("GET", `${O}/permissions`, { token: out });
    expect(own.body).toEqual([r.body]);
    // without the flag, or for someone else, a non-member learns nothing
    expect((await s.call("POST", `${O}/permissions`, { token: out, body: { userGroupId: "user:newcomer", permission: "member" } })).status).toBe(404);
    expect((await ask(out, O, "member", "user:kim")).status).toBe(403);
    const approved = await s.call("POST", `${O}/permissions`, { token: oa, body: { userGroupId: "user:newcomer", permission: "member" } });
    expect(approved.status).toBe(201);
    expect(approved.body.pending).toBeUndefined();
    expect((await s.call("GET", O, { token: out })).status).toBe(200);
  });
});

describe("package modelers share", () => {
  test("a modeler grants viewer or modeler, never admin; lists grants; does not change or revoke them", async () => {
    await s.call("POST", `${PKG}/permissions`, { token: oa, body: { userGroupId: "user:kim", permission: "modeler" } });
    const P = `${PKG}/permissions`;
    const viewer = await s.call("POST", P, { token: kim, body: { userGroupId: "user:lee", permission: "viewer" } });
    expect(viewer.status).toBe(201);
    expect(viewer.body).toMatchObject({ userGroupId: "user:lee", permission: "viewer" });
    const adminTry = await s.call("POST", P, { token: kim, body: { userGroupId: "user:lee", permission: "admin" } });
    expect([adminTry.status, adminTry.body.code]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
    const list = await s.call("GET", P, { token: kim });
    expect(list.status).toBe(200);
    expect(list.body.map((g: { userGroupId: string }) => g.userGroupId)).toEqual(["user:kim", "user:lee", "user:vic"]);
    expect((await s.call("GET", `${P}/user:lee`, { token: kim })).status).toBe(200);
    expect((await s.call("PATCH", `${P}/user:lee`, { token: kim, body: { permission: "modeler" } })).status).toBe(403);
    expect((await s.call("DELETE", `${P}/user:lee`, { token: kim })).status).toBe(403);
    // a modeler asking for admin for itself files a request
    const up = await ask(kim, PKG, "admin", "user:kim");
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ permission: "admin", pending: true, currentPermission: "modeler" });
    // a viewer still may not share
    expect((await s.call("POST", P, { token: await s.login("lee", "pw-lee-secret"), body: { userGroupId: "user:kim", permission: "viewer" } })).status).toBe(403);
  });

  test("onlyShareable (default true) lists the packages the caller is admin or modeler of", async () => {
    const lee = await s.login("lee", "pw-lee-secret");
    const dflt = await s.call("GET", `${O}/packages`, { token: kim });
    expect(dflt.body.map((p: { name: string }) => p.name)).toEqual(["sales"]);
    expect((await s.call("GET", `${O}/packages`, { token: lee })).body).toEqual([]);
    expect((await s.call("GET", `${O}/packages?onlyShareable=false`, { token: lee })).body.map((p: { name: string }) => p.name)).toEqual(["sales"]);
  });
});
