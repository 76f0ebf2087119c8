import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { API, createOrg, grantOrg, insertDocument, insertEnv, insertPackage, insertWorkspace } from "./fixtures.ts";

let s: TestService;
let admin: string;
beforeAll(async () => {
  s = await startTestService();
  admin = await s.adminToken();
}, 60_000);
afterAll(() => s.close());

describe("organization members", () => {
  test("lists members by grant and by group membership; get needs caller and target to be members", async () => {
    const orgId = await createOrg(s, "members-org");
    const ann = await s.createUser("ann");
    const bo = await s.createUser("bo");
    const outsider = await s.createUser("outsider");
    await grantOrg(s, "members-org", "user:ann", "modeler");
    expect((await s.call("POST", `${API}/organizations/members-org/groups`, { token: admin, body: { name: "team" } })).status).toBe(201);
    const add = await s.call("POST", `${API}/organizations/members-org/groups/team/members`, { token: admin, body: { members: [{ principal: "user:bo", status: "member" }] } });
    expect(add.status).toBe(200);

    const list = await s.call("GET", `${API}/organizations/members-org/users`, { token: ann });
    expect(list.status).toBe(200);
    expect(list.body.map((u: { userName: string }) => u.userName)).toEqual(["admin", "ann", "bo"]);
    expect(list.body[1]).toMatchObject({ userName: "ann", email: "ann@example.com", permission: "modeler" });
    expect(list.body[2]).toMatchObject({ userName: "bo", permission: "member" });

    const paged = await s.call("GET", `${API}/organizations/members-org/users?limit=2`, { token: ann });
    expect(paged.body.length).toBe(2);
    const next = paged.headers.get("link")!.match(/<([^>]+)>/)![1]!;
    expect((await s.call("GET", next, { token: ann })).body.map((u: { userName: string }) => u.userName)).toEqual(["bo"]);

    const got = await s.call("GET", `${API}/organizations/members-org/users/bo`, { token: ann });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ userName: "bo", email: "bo@example.com" });
    expect((await s.call("GET", `${API}/organizations/members-org/users/outsider`, { token: bo })).status).toBe(404);
    expect((await s.call("GET", `${API}/organizations/members-org/users/ann`, { token: outsider })).status).toBe(404);
    expect((await s.call("GET", `${API}/organizations/members-org/users`, { token: outsider })).status).toBe(404);
    expect((await s.call("GET", `${API}/organizations/members-org/users/no_such`, { token: ann })).status).toBe(404);
    expect((await s.call("GET", `${API}/organizations/members-org/users/bad%20name`, { token: ann })).status).toBe(400);
    void orgId;
  });

  test("deleting an organization removes everything under it in one go", async () => {
    const orgId = await createOrg(s, "doomed");
    await s.createUser("dora");
    await grantOrg(s, "doomed", "user:dora", "member");
    const env = await insertEnv(s, orgId, "prod");
    const pkg = await insertPackage(s, env, "sales");
    const ws = await insertWorkspace(s, orgId, "w1");
    const doc = await insertDocument(s, ws, "d1");
    await s.call("POST", `${API}/organizations/doomed/groups`, { token: admin, body: { name: "g" } });
    await s.call("POST", `${API}/organizations/doomed/groups/g/tokens?name=k`, { token: admin });
    await s.call("PUT", `${API}/organizations/doomed/attributes/region`, { token: admin, body: { type: "string" } });
    await s.call("POST", `${API}/organizations/doomed/environments/prod/packages/sales/permissions`, { token: admin, body: { userGroupId: "user:dora", permission: "viewer" } });

    const del = await s.call("DELETE", `${API}/organizations/doomed`, { token: admin });
    expect(del.status).toBe(204);
    const sql = s.service.db.sql;
    const [left] = await sql`SELECT
      (SELECT count(*) FROM environments WHERE org_id = ${orgId})::int + (SELECT count(*) FROM packages WHERE id = ${pkg})::int +
      (SELECT count(*) FROM workspaces WHERE org_id = ${orgId})::int + (SELECT count(*) FROM documents WHERE id = ${doc})::int +
      (SELECT count(*) FROM groups WHERE org_id = ${orgId})::int + (SELECT count(*) FROM group_tokens)::int +
      (SELECT count(*) FROM attributes WHERE org_id = ${orgId})::int +
      (SELECT count(*) FROM grants WHERE resource_id IN (${orgId}, ${env}, ${pkg}, ${ws}, ${doc}))::int AS n`;
    expect(left!.n).toBe(0);
    expect((await s.call("GET", `${API}/organizations/doomed`, { token: admin })).status).toBe(404);
  });
});

describe("invites", () => {
  test("system admin creates, lists, gets and revokes; tokens use the unambiguous alphabet", async () => {
    const created = await s.call("POST", `${API}/invites`, { token: admin });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
    expect(created.body).toMatchObject({ consumed: false, consumedAt: null });
    const list = await s.call("GET", `${API}/invites`, { token: admin });
    expect(list.body.map((i: { token: string }) => i.token)).toContain(created.body.token);
    const got = await s.call("GET", `${API}/invites/${created.body.token.toLowerCase()}`, { token: await s.createUser("ivy") });
    expect(got.status).toBe(200);
    expect(got.body.token).toBe(created.body.token);
    expect((await s.call("DELETE", `${API}/invites/${created.body.token}`, { token: admin })).status).toBe(204);
    expect((await s.call("GET", `${API}/invites/${created.body.token}`, { token: admin })).status).toBe(404);
    expect((await s.call("DELETE", `${API}/invites/${created.body.token}`, { token: admin })).status).toBe(404);
    expect((await s.call("GET", `${API}/invites/not-a-token`, { token: admin })).status).toBe(400);
  });

  test("non-admins may not create, list or revoke invites", async () => {
    const ivo = await s.createUser("ivo");
    expect((await s.call("POST", `${API}/invites`, { token: ivo })).status).toBe(403);
    expect((await s.call("GET", `${API}/invites`, { token: ivo })).status).toBe(403);
    const { body } = await s.call("POST", `${API}/invites`, { token: admin });
    expect((await s.call("DELETE", `${API}/invites/${body.token}`, { token: ivo })).status).toBe(403);
    expect((await s.call("POST", `${API}/invites`)).status).toBe(401);
  });

  test("a user redeems an invite once and becomes admin; reuse is 409, unknown 403, no login 401", async () => {
    const uma = await s.createUser("uma");
    expect((await s.call("POST", `${API}/organizations`, { token: uma, body: { name: "umas" } })).status).toBe(403);
    const { body: invite } = await s.call("POST", `${API}/invites`, { token: admin });
    const anon = await s.call("POST", `${API}/organizations`, { body: { name: "umas" }, headers: { "x-invite-token": invite.token } });
    expect(anon.status).toBe(401);
    const bogus = await s.call("POST", `${API}/organizations`, { token: uma, body: { name: "umas" }, headers: { "x-invite-token": "AAAAA-BBBBB" } });
    expect(bogus.status).toBe(403);
    const ok = await s.call("POST", `${API}/organizations`, { token: uma, body: { name: "umas" }, headers: { "x-invite-token": invite.token } });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ name: "umas", permission: "admin" });
    const again = await s.call("POST", `${API}/organizations`, { token: uma, body: { name: "umas2" }, headers: { "x-invite-token": invite.token } });
    expect(again.status).toBe(409);
    const state = await s.call("GET", `${API}/invites/${invite.token}`, { token: uma });
    expect(state.body.consumed).toBe(true);
    expect(typeof state.body.consumedAt).toBe("string");
    const revoke = await s.call("DELETE", `${API}/invites/${invite.token}`, { token: admin });
    expect(revoke.status).toBe(409);
    expect(revoke.body.code).toBe("CONFLICT");
    expect((await s.call("GET", `${API}/invites/${invite.token}`, { token: admin })).status).toBe(200);
  });

  test("a failed creation (duplicate name) leaves the invite unconsumed", async () => {
    const vic = await s.createUser("vic");
    const { body: invite } = await s.call("POST", `${API}/invites`, { token: admin });
    const dup = await s.call("POST", `${API}/organizations`, { token: vic, body: { name: "umas" }, headers: { "x-invite-token": invite.token } });
    expect(dup.status).toBe(409);
    expect((await s.call("GET", `${API}/invites/${invite.token}`, { token: vic })).body.consumed).toBe(false);
  });

  test("20 concurrent redemptions of one token: exactly one organization", async () => {
    const racer = await s.createUser("racer");
    const { body: invite } = await s.call("POST", `${API}/invites`, { token: admin });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      s.call("POST", `${API}/organizations`, { token: racer, body: { name: `race${i}` }, headers: { "x-invite-token": invite.token } })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((c) => c === 201).length).toBe(1);
    expect(statuses.filter((c) => c >= 400 && c < 500).length).toBe(19);
    const [n] = await s.service.db.sql`SELECT count(*)::int AS n FROM organizations WHERE name LIKE 'race%'`;
    expect(n!.n).toBe(1);
  });
});

describe("users", () => {
  test("self updates profile fields but not systemAdmin; others' profiles are invisible", async () => {
    const pat = await s.createUser("pat");
    await s.createUser("quinn");
    const r = await s.call("PATCH", `${API}/users/pat`, { token: pat, body: { firstName: "Pat", lastName: "Lee" } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ firstName: "Pat", lastName: "Lee", systemAdmin: false });
    expect((await s.call("PATCH", `${API}/users/pat`, { token: pat, body: { systemAdmin: true } })).status).toBe(403);
    expect((await s.call("PATCH", `${API}/users/quinn`, { token: pat, body: { firstName: "X" } })).status).toBe(404);
    expect((await s.call("PATCH", `${API}/users/quinn`, { token: admin, body: { firstName: "Q" } })).body.firstName).toBe("Q");
    expect((await s.call("DELETE", `${API}/users/quinn`, { token: pat })).status).toBe(403);
  });

  test("deleting a user removes its group memberships, grants and attribute values", async () => {
    await createOrg(s, "leavers");
    await s.createUser("gone");
    await grantOrg(s, "leavers", "user:gone", "modeler");
    await s.call("POST", `${API}/organizations/leavers/groups`, { token: admin, body: { name: "crew" } });
    await s.call("POST", `${API}/organizations/leavers/groups/crew/members`, { token: admin, body: { members: [{ principal: "user:gone", status: "admin" }] } });
    await s.call("PUT", `${API}/organizations/leavers/attributes/tier`, { token: admin, body: { type: "number" } });
    expect((await s.call("PUT", `${API}/organizations/leavers/attributes/tier/users/gone`, { token: admin, body: { value: 2 } })).status).toBe(200);
    expect((await s.call("DELETE", `${API}/users/gone`, { token: admin })).status).toBe(204);
    const members = await s.call("GET", `${API}/organizations/leavers/groups/crew/members`, { token: admin });
    expect(members.body).toEqual({ members: [] });
    const perms = await s.call("GET", `${API}/organizations/leavers/permissions`, { token: admin });
    expect(perms.body.map((p: { userGroupId: string }) => p.userGroupId)).toEqual(["user:admin"]);
    expect((await s.call("GET", `${API}/organizations/leavers/attributes/tier`, { token: admin })).body.userValues).toEqual([]);
  });
});
