import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Elysia } from "elysia";
import { principalParam, versionIdParam, name } from "../../src/http/params.ts";
import { handleError } from "../../src/http/error_handler.ts";
import { t } from "elysia";
import { startTestService, type TestService } from "../helpers/service.ts";

let s: TestService;
let admin: string;
beforeAll(async () => {
  s = await startTestService();
  admin = await s.adminToken();
}, 120_000);
afterAll(() => s.close());

describe("the error envelope", () => {
  test("unknown routes are 404 RESOURCE_NOT_FOUND with a request id", async () => {
    const r = await s.call("GET", "/api/v0/no/such/route", { token: admin });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe("RESOURCE_NOT_FOUND");
    expect(r.body.message).toContain("/api/v0/no/such/route");
    expect(r.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("every answer says nosniff: errors, refusals at the edge, JSON and the MCP endpoint", async () => {
    const answers = [
      await s.call("GET", "/api/v0/no/such/route", { token: admin }),
      await s.call("GET", "/api/v0/organizations"),
      await s.call("GET", "/api/v0/organizations", { token: admin }),
      await s.call("GET", "/api/v0/organizations/a%00b", { token: admin }),
      await s.call("POST", "/mcp/acme", { body: {} }),
      await s.call("GET", "/health"),
    ];
    expect(answers.map((r) => [r.status, r.headers.get("x-content-type-options")])).toEqual([
      [404, "nosniff"], [401, "nosniff"], [200, "nosniff"], [400, "nosniff"], [401, "nosniff"], [200, "nosniff"],
    ]);
  });

  test("malformed JSON is 400", async () => {
    const r = await s.call("POST", "/api/v0/organizations", { token: admin, body: '{"name":', headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("VALIDATION_ERROR");
    expect(r.body.message).toContain("JSON");
  });

  test("a body field of the wrong type is 400 naming the field", async () => {
    const r = await s.call("POST", "/api/v0/organizations", { token: admin, body: { name: "ok-name", description: 42 } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("description");
  });

  test("a missing body field is 400 naming it", async () => {
    const r = await s.call("POST", "/api/v0/users", { token: admin, body: { email: "x@example.com" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("userName");
  });

  test("path parameters that break their pattern are 400, never 404 or 500", async () => {
    for (const path of ["/api/v0/organizations/bad.name", "/api/v0/organizations/sp%20ace", "/api/v0/organizations/%27%3B--", "/api/v0/users/a%2Fb"]) {
      const r = await s.call("GET", path, { token: admin });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
    }
    const long = await s.call("GET", `/api/v0/organizations/${"a".repeat(129)}`, { token: admin });
    expect(long.status).toBe(400);
  });

  test("every path parameter kind has its pattern (versionId and principal included)", async () => {
    const app = new Elysia()
      .onError(handleError({ log: () => {} } as never))
      .get("/v/:versionId", ({ params }) => params, { params: t.Object({ versionId: versionIdParam }) })
      .get("/p/:principal", ({ params }) => params, { params: t.Object({ principal: principalParam }) })
      .get("/n/:env", ({ params }) => params, { params: t.Object({ env: name("environmentName") }) });
    const get = async (path: string) => {
      const r = await app.handle(new Request(`http://localhost${path}`));
      return { status: r.status, body: await r.json() };
    };
    expect((await get("/v/1.0.0")).status).toBe(200);
    expect((await get("/v/v1_rc-2.3")).status).toBe(200);
    const badVersion = await get("/v/1.0%2F0");
    expect(badVersion.status).toBe(400);
    expect(badVersion.body.message).toContain("versionId");
    expect((await get("/p/user:bob")).status).toBe(200);
    expect((await get("/p/group:data-team")).status).toBe(200);
    expect((await get("/p/workspace:ws_1")).status).toBe(200);
    for (const bad of ["/p/bob", "/p/robot:x", "/p/user:", "/p/user:a.b"]) {
      const r = await get(bad);
      expect(r.status).toBe(400);
      expect(r.body.message).toContain("principal");
    }
    const badEnv = await get("/n/a.b");
    expect(badEnv.status).toBe(400);
    expect(badEnv.body.message).toContain("environmentName");
  });

  test("403 for what the caller sees but may not change, 404 for what it cannot see", async () => {
    await s.call("POST", "/api/v0/organizations", { token: admin, body: { name: "visible" } });
    const bob = await s.createUser("bob");
    const [org] = await s.service.db.sql`SELECT id FROM organizations WHERE name = 'visible'`;
    const [user] = await s.service.db.sql`SELECT id FROM users WHERE user_name = 'bob'`;
    await s.service.db.sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
      VALUES ('organization', ${org!.id}, 'user', ${user!.id}, 'member')`;
    const seen = await s.call("GET", "/api/v0/organizations/visible", { token: bob });
    expect(seen.status).toBe(200);
    expect(seen.body.permission).toBe("member");
    const patch = await s.call("PATCH", "/api/v0/organizations/visible", { token: bob, body: { description: "x" } });
    expect(patch.status).toBe(403);
    expect(patch.body.code).toBe("INSUFFICIENT_PERMISSIONS");
    await s.call("POST", "/api/v0/organizations", { token: admin, body: { name: "hidden" } });
    for (const method of ["GET", "PATCH", "DELETE"]) {
      const r = await s.call(method, "/api/v0/organizations/hidden", { token: bob, body: method === "PATCH" ? {} : undefined });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe("RESOURCE_NOT_FOUND");
    }
    const create = await s.call("POST", "/api/v0/organizations", { token: bob, body: { name: "mine" } });
    expect(create.status).toBe(403);
  });

  test("a duplicate name is 409 CONFLICT", async () => {
    expect((await s.call("POST", "/api/v0/organizations", { token: admin, body: { name: "dup" } })).status).toBe(201);
    const r = await s.call("POST", "/api/v0/organizations", { token: admin, body: { name: "dup" } });
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ code: "CONFLICT", message: "organization 'dup' already exists; pick another name" });
  });

  test("an unexpected failure is 500 INTERNAL_ERROR without SQL, stack or secrets", async () => {
    const broken = await startTestService();
    try {
      const token = await broken.adminToken();
      await broken.service.db.sql`ALTER TABLE organizations RENAME TO organizations_gone`;
      const r = await broken.call("GET", "/api/v0/organizations", { token });
      expect(r.status).toBe(500);
      expect(r.body.code).toBe("INTERNAL_ERROR");
      const id = r.headers.get("x-request-id");
      expect(r.body.message).toContain(id!);
      const text = JSON.stringify(r.body);
      for (const leak of ["organizations", "SELECT", "relation", "at ", ".ts"]) expect(text).not.toContain(leak);
    } finally {
      await broken.close();
    }
  });
});

describe("rate limiting", () => {
  test("over RATE_LIMIT_PER_MINUTE a principal gets 429 with Retry-After; others are unaffected", async () => {
    const limited = await startTestService({ RATE_LIMIT_PER_MINUTE: "5" });
    try {
      const token = await limited.adminToken(); // the login itself counts against the client address
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await limited.call("GET", "/api/v0/organizations", { token })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const r = await limited.call("GET", "/api/v0/organizations", { token });
      expect(r.status).toBe(429);
      expect(r.body.code).toBe("RATE_LIMIT_EXCEEDED");
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // the anonymous bucket of the client address is separate: still answered (401, not 429)
      const anonymous = await limited.call("GET", "/api/v0/organizations");
      expect(anonymous.status).toBe(401);
    } finally {
      await limited.close();
    }
  });
});
