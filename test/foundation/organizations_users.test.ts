import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";

let s: TestService;
let admin: string;
beforeAll(async () => {
  s = await startTestService();
  admin = await s.adminToken();
}, 120_000);
afterAll(() => s.close());

describe("organizations", () => {
  test("create, get with the caller's permission, partial update, list, delete", async () => {
    const created = await s.call("POST", "/api/v0/organizations", { token: admin, body: { name: "acme", description: "Acme Corp" } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "acme", displayName: "acme", description: "Acme Corp", permission: "admin" });
    expect(Date.parse(created.body.createdAt)).not.toBeNaN();

    const patched = await s.call("PATCH", "/api/v0/organizations/acme", { token: admin, body: { displayName: "ACME" } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ displayName: "ACME", description: "Acme Corp" });

    const got = await s.call("GET", "/api/v0/organizations/acme", { token: admin });
    expect(got.body).toMatchObject({ name: "acme", displayName: "ACME", permission: "admin" });

    const list = await s.call("GET", "/api/v0/organizations", { token: admin });
    expect(list.status).toBe(200);
    expect(list.body.map((o: { name: string }) => o.name)).toContain("acme");

    expect((await s.call("DELETE", "/api/v0/organizations/acme", { token: admin })).status).toBe(204);
    expect((await s.call("GET", "/api/v0/organizations/acme", { token: admin })).status).toBe(404);
  });

  test("a member sees only its organizations, with its level as permission", async () => {
    for (const name of ["org-a", "org-b"]) await s.call("POST", "/api/v0/organizations", { token: admin, body: { name } });
    const carol = await s.createUser("carol");
    const [org] = await s.service.db.sql`SELECT id FROM organizations WHERE name = 'org-a'`;
    const [user] = await s.service.db.sql`SELECT id FROM users WHERE user_name = 'carol'`;
    await s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
      VALUES ('organization', ${org!.id}, 'user', ${user!.id}, 'modeler')`;
    const list = await s.call("GET", "/api/v0/organizations", { token: carol });
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ name: "org-a", permission: "modeler" });
    expect((await s.call("GET", "/api/v0/organizations/org-b", { token: carol })).status).toBe(404);
  });

  test("lists page with limit and a Link header", async () => {
    for (let i = 0; i < 5; i++) await s.call("POST", "/api/v0/organizations", { token: admin, body: { name: `page-${i}` } });
    const seen: string[] = [];
    let path: string | null = "/api/v0/organizations?limit=2";
    let pages = 0;
    while (path) {
      const r = await s.call("GET", path, { token: admin });
      expect(r.status).toBe(200);
      expect(r.body.length).toBeLessThanOrEqual(2);
      seen.push(...r.body.map((o: { name: string }) => o.name));
      const link = r.headers.get("link");
      path = link ? link.match(/<([^>]+)>; rel="next"/)![1]! : null;
      pages++;
    }
    const all = (await s.call("GET", "/api/v0/organizations?limit=1000", { token: admin })).body.map((o: { name: string }) => o.name);
    expect(seen).toEqual(all);
    expect(all.length).toBeGreaterThanOrEqual(5);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect((await s.call("GET", "/api/v0/organizations?limit=0", { token: admin })).status).toBe(400);
    expect((await s.call("GET", "/api/v0/organizations?limit=1001", { token: admin })).status).toBe(400);
    expect((await s.call("GET", "/api/v0/organizations?cursor=%%%", { token: admin })).status).toBe(400);
  });
});

describe("users", () => {
  test("system admin creates users; the password is never returned; duplicates are 409", async () => {
    const r = await s.call("POST", "/api/v0/users", {
      token: admin,
      body: { userName: "dave", email: "dave@example.com", firstName: "Dave", lastName: "Jones", password: "long-enough-pw" },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      userName: "dave", email: "dave@example.com", firstName: "Dave", lastName: "Jones", systemAdmin: false,
      createdAt: r.body.createdAt, updatedAt: r.body.updatedAt,
    });
    expect((await s.call("POST", "/api/v0/users", { token: admin, body: { userName: "dave", email: "other@example.com" } })).status).toBe(409);
    expect((await s.call("POST", "/api/v0/users", { token: admin, body: { userName: "dave2", email: "DAVE@example.com" } })).status).toBe(409);
    expect((await s.call("POST", "/api/v0/users", { token: admin, body: { userName: "eve", email: "not-an-email" } })).status).toBe(400);
    expect((await s.call("POST", "/api/v0/users", { token: admin, body: { userName: "eve", email: "e@example.com", password: "short" } })).status).toBe(400);
  });

  test("a user reads and updates itself but not others, and cannot make itself admin", async () => {
    let frank = await s.createUser("frank");
    await s.createUser("grace");
    expect((await s.call("GET", "/api/v0/users/frank", { token: frank })).status).toBe(200);
    expect((await s.call("GET", "/api/v0/users/grace", { token: frank })).status).toBe(404);
    const upd = await s.call("PATCH", "/api/v0/users/frank", { token: frank, body: { firstName: "Franklin", password: "a-new-password", currentPassword: "pw-frank-secret" } });
    expect(upd.status).toBe(200);
    expect(upd.body.firstName).toBe("Franklin");
    // The new password ended the old token.
    expect((await s.call("GET", "/api/v0/users/frank", { token: frank })).status).toBe(401);
    frank = await s.login("frank", "a-new-password");
    expect((await s.call("PATCH", "/api/v0/users/frank", { token: frank, body: { systemAdmin: true } })).status).toBe(403);
    expect((await s.call("PATCH", "/api/v0/users/grace", { token: frank, body: { firstName: "x" } })).status).toBe(404);
    expect((await s.call("DELETE", "/api/v0/users/grace", { token: frank })).status).toBe(403);
    expect((await s.call("POST", "/api/v0/users", { token: frank, body: { userName: "x", email: "x@example.com" } })).status).toBe(403);
  });

  test("system admin updates and deletes anyone but the last system admin", async () => {
    await s.createUser("heidi");
    const upd = await s.call("PATCH", "/api/v0/users/heidi", { token: admin, body: { systemAdmin: true, email: "heidi@corp.example" } });
    expect(upd.body).toMatchObject({ systemAdmin: true, email: "heidi@corp.example" });
    expect((await s.call("DELETE", "/api/v0/users/heidi", { token: admin })).status).toBe(204);
    expect((await s.call("GET", "/api/v0/users/heidi", { token: admin })).status).toBe(404);
    expect((await s.call("DELETE", "/api/v0/users/heidi", { token: admin })).status).toBe(404);
    const last = await s.call("DELETE", "/api/v0/users/admin", { token: admin });
    expect(last.status).toBe(409);
  });
});

describe("health, status and the OpenAPI document", () => {
  test("GET /health needs no auth; /api/v0/status does", async () => {
    const h = await s.call("GET", "/health");
    expect(h).toMatchObject({ status: 200, body: { status: "ok" } });
    expect((await s.call("GET", "/api/v0/status")).status).toBe(401);
    const st = await s.call("GET", "/api/v0/status", { token: admin });
    expect(st.status).toBe(200);
    expect(st.body).toMatchObject({ initialized: true, state: "ready" });
    expect(Array.isArray(st.body.environments)).toBe(true);
    expect(Date.parse(st.body.timestamp)).not.toBeNaN();
    expect(st.body.embeddings.model).toBeString();
  });

  test("the OpenAPI document lists the operations without auth", async () => {
    const r = await s.call("GET", "/api/v0/openapi.json");
    expect(r.status).toBe(200);
    expect(r.body.openapi).toMatch(/^3\./);
    expect(Object.keys(r.body.paths)).toEqual(expect.arrayContaining(["/api/v0/organizations/{organizationName}", "/api/v0/auth/token", "/api/v0/users/{userName}"]));
    const docs = await s.call("GET", "/api/v0/docs");
    expect(docs.status).toBe(200);
    expect(String(docs.body)).toContain("openapi.json");
  });
});
