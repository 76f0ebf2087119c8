/**
 * Who may be added to an organization's groups or granted its permissions
 * (its members only; unknown and non-member users get the same answer), whose
 * email a tenant admin sees, and invite redemption without a session.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { API, createOrg, grantOrg } from "./fixtures.ts";

let s: TestService;
let admin: string;
let tenant: string;

beforeAll(async () => {
  s = await startTestService({ LOGIN_MAX_FAILURES_ADDRESS: "4" });
  admin = await s.adminToken();
  await createOrg(s, "victim");
  await createOrg(s, "tenant");
  tenant = await s.createUser("tenantadmin");
  await s.createUser("victimuser");
  await s.createUser("colleague");
  await grantOrg(s, "tenant", "user:tenantadmin", "admin");
  await grantOrg(s, "tenant", "user:colleague", "member");
  await grantOrg(s, "victim", "user:victimuser", "admin");
  await s.call("POST", `${API}/organizations/tenant/groups`, { token: tenant, body: { name: "team" } });
}, 60_000);
afterAll(() => s.close());

describe("members only", () => {
  test("a tenant admin cannot add another organization's user to a group; unknown and non-member answer alike", async () => {
    const add = (principal: string) =>
      s.call("POST", `${API}/organizations/tenant/groups/team/members`, { token: tenant, body: { members: [{ principal }] } });
    const foreign = await add("user:victimuser");
    const unknown = await add("user:nobody-at-all");
    expect(foreign.status).toBe(400);
    expect(unknown.status).toBe(400);
    expect(foreign.body.message.replace("victimuser", "X")).toBe(unknown.body.message.replace("nobody-at-all", "X"));
    expect((await add("user:colleague")).status).toBe(200);
  });

  test("a tenant admin cannot grant another organization's user a permission at any level; unknown and non-member answer alike", async () => {
    for (const path of [`${API}/organizations/tenant/permissions`]) {
      const foreign = await s.call("POST", path, { token: tenant, body: { userGroupId: "user:victimuser", permission: "member" } });
      const unknown = await s.call("POST", path, { token: tenant, body: { userGroupId: "user:nobody-at-all", permission: "member" } });
      expect(foreign.status).toBe(400);
      expect(unknown.status).toBe(400);
      expect(foreign.body.message.replace("victimuser", "X")).toBe(unknown.body.message.replace("nobody-at-all", "X"));
    }
    const [grants] = await s.service.db.sql`SELECT count(*)::int AS n FROM grants g JOIN users u ON u.id = g.principal_id
      JOIN organizations o ON o.id = g.resource_id WHERE u.user_name = 'victimuser' AND o.name = 'tenant'`;
    expect(grants!.n).toBe(0);
  });

  test("the other organization's user's email stays invisible to the tenant admin", async () => {
    const users = await s.call("GET", `${API}/organizations/tenant/users`, { token: tenant });
    expect(JSON.stringify(users.body)).not.toContain("victimuser@example.com");
    expect((await s.call("GET", `${API}/organizations/tenant/users/victimuser`, { token: tenant })).status).toBe(404);
    const members = await s.call("GET", `${API}/organizations/tenant/groups/team/members`, { token: tenant });
    expect(JSON.stringify(members.body)).not.toContain("victimuser");
  });

  test("a system administrator grants any user an organization role: that is how a user joins", async () => {
    expect((await s.call("POST", `${API}/organizations/tenant/permissions`, { token: admin, body: { userGroupId: "user:victimuser", permission: "member" } })).status).toBe(201);
    const add = await s.call("POST", `${API}/organizations/tenant/groups/team/members`, { token: tenant, body: { members: [{ principal: "user:victimuser" }] } });
    expect(add.status).toBe(200);
  });
});

describe("package permissions: admins grant anything, modelers share up to modeler", () => {
  test("an organization modeler gets 403 granting admin on a package, and may share it as viewer", async () => {
    const [o] = await s.service.db.sql`SELECT id FROM organizations WHERE name = 'tenant'`;
    const [e] = await s.service.db.sql`INSERT INTO environments (org_id, name) VALUES (${o!.id as string}, 'prod') RETURNING id`;
    await s.service.db.sql`INSERT INTO packages (env_id, name) VALUES (${e!.id as string}, 'sales')`;
    const mod = await s.createUser("modeler1");
    await grantOrg(s, "tenant", "user:modeler1", "modeler");
    const P = `${API}/organizations/tenant/environments/prod/packages/sales/permissions`;
    const r = await s.call("POST", P, { token: mod, body: { userGroupId: "user:colleague", permission: "admin" } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("INSUFFICIENT_PERMISSIONS");
    expect((await s.call("POST", P, { token: mod, body: { userGroupId: "user:colleague", permission: "viewer" } })).status).toBe(201);
    expect((await s.call("PATCH", `${P}/user:colleague`, { token: tenant, body: { permission: "admin" } })).status).toBe(200);
  });
});

describe("invite redemption without a session", () => {
  test("a new user redeems with the token and a password, becomes the organization's admin and signs in", async () => {
    const { body: invite } = await s.call("POST", `${API}/invites`, { token: admin });
    const r = await s.call("POST", `${API}/organizations`, {
      headers: { "x-invite-token": invite.token },
      body: { name: "newco", user: { userName: "nina", email: "nina@example.com", password: "nina-password" } },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "newco", permission: "admin" });
    const nina = await s.login("nina", "nina-password");
    const org = await s.call("GET", `${API}/organizations/newco`, { token: nina });
    expect(org.body.permission).toBe("admin");
    // used once
    const again = await s.call("POST", `${API}/organizations`, {
      headers: { "x-invite-token": invite.token },
      body: { name: "newco2", user: { userName: "nora", email: "nora@example.com", password: "nora-password" } },
    });
    expect(again.status).toBe(409);
    const [nora] = await s.service.db.sql`SELECT 1 FROM users WHERE user_name = 'nora'`;
    expect(nora).toBeUndefined();
  });

  test("an existing user redeems with its password; a wrong password is 401 and consumes nothing", async () => {
    const { body: invite } = await s.call("POST", `${API}/invites`, { token: admin });
    const wrong = await s.call("POST", `${API}/organizations`, {
      headers: { "x-invite-token": invite.token },
      body: { name: "colco", user: { userName: "colleague", password: "not-the-password" } },
    });
    expect(wrong.status).toBe(401);
    expect((await s.call("GET", `${API}/invites/${invite.token}`, { token: admin })).body.consumed).toBe(false);
    const ok = await s.call("POST", `${API}/organizations`, {
      headers: { "x-invite-token": invite.token },
      body: { name: "colco", user: { userName: "colleague", password: "pw-colleague-secret" } },
    });
    expect(ok.status).toBe(201);
  });

  test("no session and no user: 401; unknown tokens count toward the address's sign-in limit", async () => {
    const none = await s.call("POST", `${API}/organizations`, { headers: { "x-invite-token": "AAAAA-BBBBB" }, body: { name: "x1" } });
    expect(none.status).toBe(401);
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const r = await s.call("POST", `${API}/organizations`, {
        headers: { "x-invite-token": "AAAAA-BBBBB" },
        body: { name: `guess${i}`, user: { userName: `guess${i}`, email: `guess${i}@example.com`, password: "guess-password" } },
      });
      statuses.push(r.status);
    }
    // the earlier wrong password of this file counted too (4 per address)
    expect(statuses.slice(0, 2)).toEqual([403, 403]);
    expect(statuses.at(-1)).toBe(429);
    const [guessed] = await s.service.db.sql`SELECT count(*)::int AS n FROM users WHERE user_name LIKE 'guess%'`;
    expect(guessed!.n).toBe(0);
  });
});

describe("invite guesses with a session", () => {
  test("unknown tokens through Bearer redemption and GET /invites/{token} count toward the address's sign-in limit too", async () => {
    const t = await startTestService({ LOGIN_MAX_FAILURES_ADDRESS: "3" });
    try {
      const guesser = await t.createUser("guesser");
      const sysAdmin = await t.adminToken();
      const real = (await t.call("POST", `${API}/invites`, { token: sysAdmin })).body.token as string;
      const statuses: number[] = [];
      for (const guess of ["AAAAA-BBBB2", "AAAAA-BBBB3"]) {
        statuses.push((await t.call("POST", `${API}/organizations`, { token: guesser, headers: { "x-invite-token": guess }, body: { name: `g-${guess}` } })).status);
      }
      statuses.push((await t.call("GET", `${API}/invites/CCCCC-DDDDD`, { token: guesser })).status);
      // the address is locked for the window: a right token opens nothing now, by either route
      statuses.push((await t.call("GET", `${API}/invites/${real}`, { token: guesser })).status);
      statuses.push((await t.call("POST", `${API}/organizations`, { token: guesser, headers: { "x-invite-token": real }, body: { name: "won" } })).status);
      expect(statuses).toEqual([403, 403, 404, 429, 429]);
      const [row] = await t.service.db.sql`SELECT consumed_at FROM invites WHERE token = ${real}`;
      expect(row!.consumed_at).toBeNull();
    } finally {
      await t.close();
    }
  });
});
