/**
 * Cached authentication and access decisions (src/http/auth_cache.ts) are
 * never served stale: each test first makes the service cache a decision (the
 * same request answered twice), then changes what it rests on and asserts the
 * very next request's status and body. The last test runs two service
 * processes on one database and revokes on one, asserting the other.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import postgres from "postgres";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SERVER_URL, startTestService, type TestService } from "../helpers/service.ts";
import { startMain, stopAll, waitHealthy } from "../helpers/process.ts";
import { openDatabase } from "../../src/db/database.ts";
import { authGeneration } from "../../src/http/auth_cache.ts";

const API = "/api/v0";
let s: TestService;
let admin: string;

beforeAll(async () => {
  s = await startTestService();
  admin = await s.adminToken();
  for (const name of ["acme", "gone"]) {
    const r = await s.call("POST", `${API}/organizations`, { token: admin, body: { name } });
    if (r.status !== 201) throw new Error(`creating ${name}: ${r.status}`);
  }
}, 60_000);
afterAll(async () => {
  await s.close();
  await stopAll();
});

async function grant(org: string, userGroupId: string, permission: string): Promise<void> {
  const r = await s.call("POST", `${API}/organizations/${org}/permissions`, { token: admin, body: { userGroupId, permission } });
  if (r.status !== 201) throw new Error(`granting ${permission} to ${userGroupId}: ${r.status} ${JSON.stringify(r.body)}`);
}

/** GETs the organization twice (the second answer comes from the caches) and returns the second. */
async function getTwice(org: string, credentials: { token?: string; apiKey?: string }) {
  const first = await s.call("GET", `${API}/organizations/${org}`, credentials);
  const second = await s.call("GET", `${API}/organizations/${org}`, credentials);
  expect(second.status).toBe(first.status);
  return second;
}

describe("in one process", () => {
  test("a changed organization role is seen on the next request, and a revoked one is 404", async () => {
    const token = await s.createUser("rolly");
    await grant("acme", "user:rolly", "member");
    expect((await getTwice("acme", { token })).body.permission).toBe("member");
    // a member may not delete; after the change to admin it may see itself as admin at once
    const patch = await s.call("PATCH", `${API}/organizations/acme/permissions/user:rolly`, { token: admin, body: { permission: "admin" } });
    expect(patch.status).toBe(200);
    expect((await getTwice("acme", { token })).body.permission).toBe("admin");
    expect((await s.call("DELETE", `${API}/organizations/acme/permissions/user:rolly`, { token: admin })).status).toBe(204);
    const after = await s.call("GET", `${API}/organizations/acme`, { token });
    expect(after.status).toBe(404);
    expect(after.body.code).toBe("RESOURCE_NOT_FOUND");
  });

  test("leaving the group that made a user a member ends the membership at once", async () => {
    const token = await s.createUser("grouped");
    expect((await s.call("POST", `${API}/organizations/acme/groups`, { token: admin, body: { name: "team" } })).status).toBe(201);
    const add = await s.call("POST", `${API}/organizations/acme/groups/team/members`, { token: admin, body: { members: [{ principal: "user:grouped" }] } });
    expect(add.status).toBe(200);
    expect((await getTwice("acme", { token })).body.permission).toBe("member");
    const remove = await s.call("DELETE", `${API}/organizations/acme/groups/team/members`, { token: admin, body: { members: [{ principal: "user:grouped" }] } });
    expect(remove.status).toBeLessThan(300);
    expect((await s.call("GET", `${API}/organizations/acme`, { token })).status).toBe(404);
  });

  test("a deleted user's access token is refused at once", async () => {
    const token = await s.createUser("leaver");
    await grant("acme", "user:leaver", "member");
    expect((await getTwice("acme", { token })).status).toBe(200);
    expect((await s.call("DELETE", `${API}/users/leaver`, { token: admin })).status).toBe(204);
    const after = await s.call("GET", `${API}/organizations/acme`, { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe("AUTHENTICATION_REQUIRED");
  });

  test("a password change ends the old access token at once; a new one works", async () => {
    const token = await s.createUser("changer");
    await grant("acme", "user:changer", "member");
    expect((await getTwice("acme", { token })).status).toBe(200);
    const patch = await s.call("PATCH", `${API}/users/changer`, { token: admin, body: { password: "a-brand-new-password" } });
    expect(patch.status).toBe(200);
    expect((await s.call("GET", `${API}/organizations/acme`, { token })).status).toBe(401);
    const fresh = await s.login("changer", "a-brand-new-password");
    expect((await s.call("GET", `${API}/organizations/acme`, { token: fresh })).status).toBe(200);
  });

  test("a revoked system administrator loses the organizations it saw only as one", async () => {
    const token = await s.createUser("root2", { systemAdmin: true });
    expect((await getTwice("acme", { token })).body.permission).toBe("admin");
    const revoke = await s.call("POST", `${API}/permissions`, { token: admin, body: { userGroupId: "user:root2", permission: "admin", revoke: true } });
    expect(revoke.status).toBeLessThan(300);
    expect((await s.call("GET", `${API}/organizations/acme`, { token })).status).toBe(404);
  });

  test("a deleted API key is refused at once", async () => {
    expect((await s.call("POST", `${API}/organizations/acme/groups`, { token: admin, body: { name: "bots" } })).status).toBe(201);
    const created = await s.call("POST", `${API}/organizations/acme/groups/bots/tokens?name=ci`, { token: admin });
    expect(created.status).toBe(201);
    const apiKey = created.body.secret as string;
    expect((await getTwice("acme", { apiKey })).status).toBe(200);
    expect((await s.call("DELETE", `${API}/organizations/acme/groups/bots/tokens/ci`, { token: admin })).status).toBe(204);
    const after = await s.call("GET", `${API}/organizations/acme`, { apiKey });
    expect(after.status).toBe(401);
  });

  test("a deleted organization is 404 at once, and a new one of the same name is not its members'", async () => {
    const token = await s.createUser("goner");
    await grant("gone", "user:goner", "admin");
    expect((await getTwice("gone", { token })).body.permission).toBe("admin");
    expect((await s.call("DELETE", `${API}/organizations/gone`, { token: admin })).status).toBe(204);
    expect((await s.call("GET", `${API}/organizations/gone`, { token })).status).toBe(404);
    expect((await s.call("POST", `${API}/organizations`, { token: admin, body: { name: "gone", displayName: "Second" } })).status).toBe(201);
    expect((await s.call("GET", `${API}/organizations/gone`, { token })).status).toBe(404);
    const adminView = await s.call("GET", `${API}/organizations/gone`, { token: admin });
    expect(adminView.body.displayName).toBe("Second");
  });

  test("an update of the organization shows in the next answer", async () => {
    const token = await s.createUser("reader");
    await grant("acme", "user:reader", "member");
    await getTwice("acme", { token });
    expect((await s.call("PATCH", `${API}/organizations/acme`, { token: admin, body: { displayName: "Acme Renamed" } })).status).toBe(200);
    expect((await s.call("GET", `${API}/organizations/acme`, { token })).body.displayName).toBe("Acme Renamed");
  });

  test("under concurrent requests, every request sent after a revocation was answered is refused", async () => {
    const token = await s.createUser("busy");
    await grant("acme", "user:busy", "member");
    let revoked = false;
    let stop = false;
    const seen: { after: boolean; status: number }[] = [];
    const worker = async () => {
      while (!stop) {
        const after = revoked;
        const r = await s.call("GET", `${API}/organizations/acme`, { token });
        seen.push({ after, status: r.status });
        // a client's next request comes in a later turn of the event loop (answered from the caches
        // on the embedded database, a request in process does no I/O and would never let this loop go)
        await new Promise((resolve) => setImmediate(resolve));
      }
    };
    const workers = Array.from({ length: 8 }, worker);
    while (seen.length < 40) await Bun.sleep(1);
    expect((await s.call("DELETE", `${API}/organizations/acme/permissions/user:busy`, { token: admin })).status).toBe(204);
    revoked = true;
    const before = seen.length;
    while (seen.length < before + 80) await Bun.sleep(1);
    stop = true;
    await Promise.all(workers);
    expect(seen.filter((x) => !x.after).some((x) => x.status === 200)).toBe(true);
    const after = seen.filter((x) => x.after);
    expect(after.length).toBeGreaterThan(40);
    expect(after.filter((x) => x.status !== 404)).toEqual([]);
  });

  // the server path only: the embedded database answers from the commits it reported in-process (no check runs)
  if (SERVER_URL) test("the generation a request gets reflects a change committed while an earlier check was running", async () => {
    const sql = s.service.db.sql;
    await authGeneration(sql, performance.now());
    const early = authGeneration(sql, performance.now());
    await new Promise((resolve) => setImmediate(resolve)); // the early check is on its way
    await sql`INSERT INTO auth_changes DEFAULT VALUES`; // a change committed while it runs
    const since = performance.now();
    const generation = await authGeneration(sql, since);
    await early;
    // what the request got reflects the change: a check started later sees nothing newer
    expect(generation).toBe(await authGeneration(sql, performance.now()));
  });

  test("a committed auth change, and only a committed one, gives the next request a new generation", async () => {
    const sql = s.service.db.sql;
    const before = await authGeneration(sql, performance.now());
    await sql.begin(async (tx) => {
      await tx`UPDATE organizations SET display_name = display_name WHERE false`;
      expect(await authGeneration(sql, performance.now())).toBe(before);
    });
    // the commit was seen before the writing statement's promise resolved
    const after = await authGeneration(sql, performance.now());
    expect(after).not.toBe(before);
    await sql.begin(async (tx) => {
      await tx`UPDATE grants SET role = role WHERE false`;
      throw new Error("rolled back");
    }).catch(() => {});
    expect(await authGeneration(sql, performance.now())).toBe(after);
    // the embedded database answers from the commits it reported in-process, with no round trip
    if (s.service.db.kind === "embedded") expect(authGeneration(sql, performance.now())).toBe(after);
  });

  test("a change written straight to the database by another client is seen on the next request", async () => {
    const token = await s.createUser("direct");
    await grant("acme", "user:direct", "modeler");
    expect((await getTwice("acme", { token })).body.permission).toBe("modeler");
    await s.service.db.sql`DELETE FROM grants WHERE principal_id = (SELECT id FROM users WHERE user_name = 'direct')`;
    expect((await s.call("GET", `${API}/organizations/acme`, { token })).status).toBe(404);
  });
});

describe("across processes", () => {
  test("a grant revoked and an API key deleted through one service process are refused by another at once", async () => {
    let url: string;
    let cleanup: () => Promise<void>;
    if (SERVER_URL) {
      const name = `t_cache_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
      const root = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
      await root.unsafe(`CREATE DATABASE ${name}`);
      const u = new URL(SERVER_URL);
      u.pathname = `/${name}`;
      url = u.toString();
      cleanup = async () => {
        await root.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await root.end();
      };
    } else {
      // the embedded engine behind a TCP socket stands in for a server both processes reach
      const db = await openDatabase({ tcp: true, max: 32 });
      url = db.url;
      cleanup = () => db.close();
    }
    const dirs = [await mkdtemp(join(tmpdir(), "cache-a-")), await mkdtemp(join(tmpdir(), "cache-b-"))];
    try {
      const env = { DATABASE_URL: url, BOOTSTRAP_ADMIN_PASSWORD: "cache-admin-password", JWT_SECRET: "c".repeat(40), DB_CONNECT_TIMEOUT_S: "30" };
      const a = startMain({ ...env, DATA_DIR: dirs[0]! });
      await waitHealthy(a, 90_000);
      const b = startMain({ ...env, DATA_DIR: dirs[1]! });
      await waitHealthy(b, 90_000);
      const on = (node: typeof a, method: string, path: string, auth: string, body?: unknown) =>
        fetch(`${node.base}${API}${path}`, {
          method,
          headers: { authorization: auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const login = async (userName: string, password: string) => {
        const r = await fetch(`${a.base}${API}/auth/token`, {
          method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ userName, password }),
        });
        return `Bearer ${((await r.json()) as { accessToken: string }).accessToken}`;
      };
      const root = await login("admin", "cache-admin-password");
      expect((await on(a, "POST", "/organizations", root, { name: "shared" })).status).toBe(201);
      expect((await on(a, "POST", "/users", root, { userName: "bob", email: "bob@example.com", password: "bob-password-1" })).status).toBe(201);
      expect((await on(a, "POST", "/organizations/shared/permissions", root, { userGroupId: "user:bob", permission: "member" })).status).toBe(201);
      expect((await on(a, "POST", "/organizations/shared/groups", root, { name: "bots" })).status).toBe(201);
      const created = await on(a, "POST", "/organizations/shared/groups/bots/tokens?name=ci", root);
      const apiKey = `ApiKey ${((await created.json()) as { secret: string }).secret}`;
      const bob = await login("bob", "bob-password-1");

      // node b caches both decisions
      for (let i = 0; i < 2; i++) {
        expect((await on(b, "GET", "/organizations/shared", bob)).status).toBe(200);
        expect((await on(b, "GET", "/organizations/shared", apiKey)).status).toBe(200);
      }
      expect((await on(a, "DELETE", "/organizations/shared/permissions/user:bob", root)).status).toBe(204);
      const revoked = await on(b, "GET", "/organizations/shared", bob);
      expect(revoked.status).toBe(404);
      expect((await on(a, "DELETE", "/organizations/shared/groups/bots/tokens/ci", root)).status).toBe(204);
      expect((await on(b, "GET", "/organizations/shared", apiKey)).status).toBe(401);
      // and a grant given on b is seen by a, which has cached bob's 404
      for (let i = 0; i < 2; i++) expect((await on(a, "GET", "/organizations/shared", bob)).status).toBe(404);
      expect((await on(b, "POST", "/organizations/shared/permissions", root, { userGroupId: "user:bob", permission: "modeler" })).status).toBe(201);
      const granted = await on(a, "GET", "/organizations/shared", bob);
      expect(granted.status).toBe(200);
      expect(((await granted.json()) as { permission: string }).permission).toBe("modeler");
      expect(await a.stop()).toBe(0);
      expect(await b.stop()).toBe(0);
    } finally {
      await stopAll();
      await cleanup();
      for (const dir of dirs) await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
