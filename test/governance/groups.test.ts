import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { API, createOrg, grantOrg, insertEnv } from "./fixtures.ts";

let s: TestService;
let admin: string;
let orgAdmin: string;
let modeler: string;
let member: string;
const G = `${API}/organizations/gorg/groups`;

beforeAll(async () => {
  s = await startTestService();
  admin = await s.adminToken();
  await createOrg(s, "gorg");
  orgAdmin = await s.createUser("oa");
  modeler = await s.createUser("mo");
  member = await s.createUser("me");
  await s.createUser("lead");
  await grantOrg(s, "gorg", "user:oa", "admin");
  await grantOrg(s, "gorg", "user:mo", "modeler");
  await grantOrg(s, "gorg", "user:me", "member");
  await grantOrg(s, "gorg", "user:lead", "member");
}, 60_000);
afterAll(() => s.close());

describe("groups", () => {
  test("org admins create, get, list, update and delete; modelers and members may not create", async () => {
    const created = await s.call("POST", G, { token: orgAdmin, body: { name: "analysts", description: "a" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "analysts", description: "a" });
    expect((await s.call("POST", G, { token: orgAdmin, body: { name: "analysts" } })).status).toBe(409);
    expect((await s.call("POST", G, { token: modeler, body: { name: "x" } })).status).toBe(403);
    expect((await s.call("POST", G, { token: member, body: { name: "x" } })).status).toBe(403);
    expect((await s.call("POST", G, { token: orgAdmin, body: { name: "bad name" } })).status).toBe(400);
    const list = await s.call("GET", G, { token: member });
    expect(list.status).toBe(200);
    expect(list.body.map((g: { name: string }) => g.name)).toEqual(["analysts"]);
    expect((await s.call("GET", `${G}/analysts`, { token: member })).body.name).toBe("analysts");
    expect((await s.call("GET", `${G}/nope`, { token: member })).status).toBe(404);
    const patched = await s.call("PATCH", `${G}/analysts`, { token: orgAdmin, body: { description: "b" } });
    expect(patched.body.description).toBe("b");
    expect((await s.call("PATCH", `${G}/analysts`, { token: member, body: { description: "c" } })).status).toBe(403);
    expect((await s.call("POST", G, { token: orgAdmin, body: { name: "temp" } })).status).toBe(201);
    expect((await s.call("DELETE", `${G}/temp`, { token: member })).status).toBe(403);
    expect((await s.call("DELETE", `${G}/temp`, { token: orgAdmin })).status).toBe(204);
    expect((await s.call("GET", `${G}/temp`, { token: orgAdmin })).status).toBe(404);
  });

  test("members: add users and groups, change status, remove; group admins manage, plain members may not", async () => {
    await s.call("POST", G, { token: orgAdmin, body: { name: "team" } });
    await s.call("POST", G, { token: orgAdmin, body: { name: "sub" } });
    const add = await s.call("POST", `${G}/team/members`, {
      token: orgAdmin,
      body: { members: [{ principal: "user:lead", status: "admin" }, { principal: "user:me" }, { principal: "group:sub", status: "member" }] },
    });
    expect(add.status).toBe(200);
    expect(add.body).toEqual({
      members: [
        { userGroupId: "group:sub", status: "member" },
        { userGroupId: "user:lead", status: "admin" },
        { userGroupId: "user:me", status: "member" },
      ],
    });
    const lead = await s.login("lead", "pw-lead-secret");
    // lead became an org member through the group and manages it as group admin
    expect((await s.call("GET", `${API}/organizations/gorg`, { token: lead })).body.permission).toBe("member");
    const up = await s.call("PATCH", `${G}/team/members/user:me`, { token: lead, body: { status: "admin" } });
    expect(up.status).toBe(200);
    expect(up.body).toEqual({ userGroupId: "user:me", status: "admin" });
    expect((await s.call("PATCH", `${G}/team/members/user:mo`, { token: lead, body: { status: "admin" } })).status).toBe(404);
    expect((await s.call("PATCH", `${G}/team/members/user:me`, { token: lead, body: { status: "owner" } })).status).toBe(400);
    // a plain member of another group may not manage this one
    expect((await s.call("POST", `${G}/sub/members`, { token: lead, body: { members: [{ principal: "user:mo" }] } })).status).toBe(403);
    const removed = await s.call("DELETE", `${G}/team/members`, { token: lead, body: { members: [{ principal: "user:me" }, { principal: "user:mo" }] } });
    expect(removed.status).toBe(200);
    expect(removed.body.members.map((m: { userGroupId: string }) => m.userGroupId)).toEqual(["group:sub", "user:lead"]);
    expect((await s.call("GET", `${G}/team/members`, { token: member })).body.members.length).toBe(2);
    // unknown principals are 400, and nothing of the batch is applied
    const bad = await s.call("POST", `${G}/team/members`, { token: orgAdmin, body: { members: [{ principal: "user:me" }, { principal: "user:ghost" }] } });
    expect(bad.status).toBe(400);
    expect((await s.call("GET", `${G}/team/members`, { token: orgAdmin })).body.members.length).toBe(2);
    expect((await s.call("POST", `${G}/team/members`, { token: orgAdmin, body: { members: [{ principal: "bob" }] } })).status).toBe(400);
  });

  test("a group's name is what #(authorize) trusts: only organization admins rename; group admins change the description", async () => {
    const lead = await s.login("lead", "pw-lead-secret");
    // lead is an admin of 'team' (status admin), not of the organization
    const renamed = await s.call("PATCH", `${G}/team`, { token: lead, body: { name: "auditors" } });
    expect([renamed.status, renamed.body.code]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
    expect(renamed.body.message).toContain("organization admins");
    const both = await s.call("PATCH", `${G}/team`, { token: lead, body: { name: "auditors", description: "x" } });
    expect(both.status).toBe(403);
    expect((await s.call("GET", `${G}/auditors`, { token: orgAdmin })).status).toBe(404);
    const desc = await s.call("PATCH", `${G}/team`, { token: lead, body: { name: "team", description: "ours" } });
    expect([desc.status, desc.body.name, desc.body.description]).toEqual([200, "team", "ours"]);
    // an API key of the group acts as the group, which is no organization admin either
    const key = (await s.call("POST", `${G}/team/tokens?name=k`, { token: orgAdmin })).body.secret as string;
    expect((await s.call("PATCH", `${G}/team`, { apiKey: key, body: { name: "auditors" } })).status).toBe(403);
    expect((await s.call("PATCH", `${G}/team`, { token: orgAdmin, body: { name: "team2" } })).body.name).toBe("team2");
    expect((await s.call("PATCH", `${G}/team2`, { token: orgAdmin, body: { name: "team" } })).body.name).toBe("team");
  });

  test("cycles of nested groups are refused with 400", async () => {
    for (const name of ["c1", "c2", "c3"]) await s.call("POST", G, { token: orgAdmin, body: { name } });
    expect((await s.call("POST", `${G}/c1/members`, { token: orgAdmin, body: { members: [{ principal: "group:c2" }] } })).status).toBe(200);
    expect((await s.call("POST", `${G}/c2/members`, { token: orgAdmin, body: { members: [{ principal: "group:c3" }] } })).status).toBe(200);
    const cycle = await s.call("POST", `${G}/c3/members`, { token: orgAdmin, body: { members: [{ principal: "group:c1" }] } });
    expect(cycle.status).toBe(400);
    expect(cycle.body.message).toContain("cycle");
    expect((await s.call("POST", `${G}/c1/members`, { token: orgAdmin, body: { members: [{ principal: "group:c1" }] } })).status).toBe(400);
    expect((await s.call("GET", `${G}/c3/members`, { token: orgAdmin })).body.members).toEqual([]);
  });

  test("groups of another organization cannot be members", async () => {
    await createOrg(s, "other");
    await s.call("POST", `${API}/organizations/other/groups`, { token: admin, body: { name: "foreign" } });
    const r = await s.call("POST", `${G}/team/members`, { token: orgAdmin, body: { members: [{ principal: "group:foreign" }] } });
    expect(r.status).toBe(400);
  });
});

describe("group tokens", () => {
  test("create shows the secret once; the key acts as the group; list hides secrets; delete stops it at once", async () => {
    const [org] = await s.service.db.sql`SELECT id FROM organizations WHERE name = 'gorg'`;
    await insertEnv(s, org!.id as string, "prod");
    await s.call("POST", G, { token: orgAdmin, body: { name: "bots" } });
    await s.call("POST", `${API}/organizations/gorg/environments/prod/permissions`, { token: orgAdmin, body: { userGroupId: "group:bots", permission: "viewer" } });
    const created = await s.call("POST", `${G}/bots/tokens?name=ci`, { token: orgAdmin });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "ci", groupName: "bots", expired: false });
    expect(created.body.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // One year by default (API_KEY_DEFAULT_DAYS), never the old 100 years.
    const days = (new Date(created.body.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364);
    expect(days).toBeLessThanOrEqual(365);
    const [row] = await s.service.db.sql`SELECT secret_hash FROM group_tokens WHERE name = 'ci'`;
    expect(row!.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.secret_hash).not.toContain(created.body.secret);

    const apiKey = created.body.secret as string;
    const perms = await s.call("GET", `${API}/organizations/gorg/environments/prod/permissions/group:bots`, { apiKey });
    expect(perms.status).toBe(200);
    expect(perms.body.permission).toBe("viewer");
    expect((await s.call("POST", `${API}/organizations/gorg/environments/prod/permissions`, { apiKey, body: { userGroupId: "user:me", permission: "viewer" } })).status).toBe(403);

    expect((await s.call("POST", `${G}/bots/tokens?name=ci`, { token: orgAdmin })).status).toBe(409);
    const list = await s.call("GET", `${G}/bots/tokens`, { token: orgAdmin });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ name: "ci", groupName: "bots", createdAt: created.body.createdAt, expiresAt: created.body.expiresAt, expired: false }]);
    expect(JSON.stringify(list.body)).not.toContain(apiKey);
    expect((await s.call("GET", `${G}/bots/tokens`, { token: member })).status).toBe(403);

    expect((await s.call("DELETE", `${G}/bots/tokens/ci`, { token: orgAdmin })).status).toBe(204);
    const after = await s.call("GET", `${API}/organizations/gorg`, { apiKey });
    expect(after.status).toBe(401);
    expect((await s.call("DELETE", `${G}/bots/tokens/ci`, { token: orgAdmin })).status).toBe(404);
  });

  test("expiresAt: a past date is 400, a near one is honored", async () => {
    expect((await s.call("POST", `${G}/bots/tokens?name=old&expiresAt=2001-01-01T00:00:00Z`, { token: orgAdmin })).status).toBe(400);
    expect((await s.call("POST", `${G}/bots/tokens?name=bad&expiresAt=tomorrow`, { token: orgAdmin })).status).toBe(400);
    const soon = new Date(Date.now() + 1500).toISOString();
    const r = await s.call("POST", `${G}/bots/tokens?name=soon&expiresAt=${soon}`, { token: orgAdmin });
    expect(r.status).toBe(201);
    expect(r.body.expiresAt).toBe(soon);
    expect((await s.call("GET", `${API}/organizations/gorg`, { apiKey: r.body.secret })).status).toBe(200);
    await Bun.sleep(1600);
    expect((await s.call("GET", `${API}/organizations/gorg`, { apiKey: r.body.secret })).status).toBe(401);
    const list = await s.call("GET", `${G}/bots/tokens`, { token: orgAdmin });
    expect(list.body.find((t: { name: string }) => t.name === "soon").expired).toBe(true);
  });

  test("expiresAt (and name) in a JSON body are honoured; conflicting or unknown body fields are 400", async () => {
    const at = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    const inBody = await s.call("POST", `${G}/bots/tokens?name=bodied`, { token: orgAdmin, body: { expiresAt: at } });
    expect(inBody.status).toBe(201);
    expect(inBody.body.expiresAt).toBe(at);
    const named = await s.call("POST", `${G}/bots/tokens`, { token: orgAdmin, body: { name: "named", expiresAt: at } });
    expect([named.status, named.body.name, named.body.expiresAt]).toEqual([201, "named", at]);
    const listed = await s.call("GET", `${G}/bots/tokens`, { token: orgAdmin });
    expect(listed.body.find((t: { name: string }) => t.name === "bodied").expiresAt).toBe(at);
    expect((await s.call("POST", `${G}/bots/tokens?name=past`, { token: orgAdmin, body: { expiresAt: "2001-01-01T00:00:00Z" } })).status).toBe(400);
    const twice = await s.call("POST", `${G}/bots/tokens?name=x1&expiresAt=${at}`, { token: orgAdmin, body: { expiresAt: "2031-01-01T00:00:00Z" } });
    expect([twice.status, twice.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect((await s.call("POST", `${G}/bots/tokens?name=x2`, { token: orgAdmin, body: { expires_at: at } })).status).toBe(400);
    const nameless = await s.call("POST", `${G}/bots/tokens`, { token: orgAdmin });
    expect(nameless.status).toBe(400);
    expect(nameless.body.message).toContain("name is required");
  });
});
