/**
 * Sign-in protection and revocation: attempt limits per account and per client
 * address (with TRUST_PROXY, the rightmost X-Forwarded-For entry that is not a
 * trusted proxy), failed Bearer tokens and API keys per address, the bounded
 * argon2 queue, and what a password change, a reset or a removal ends.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createPasswordHasher } from "../../src/auth/passwords.ts";
import { RateLimitedError } from "../../src/errors.ts";
import { apiErrorOf } from "../../src/http/error_handler.ts";
import { clientAddressResolver } from "../../src/http/client_address.ts";
import { ADMIN_PASSWORD, startTestService, type TestService } from "../helpers/service.ts";

let s: TestService;
let admin: string;
const API = "/api/v0";

beforeAll(async () => {
  // The connecting peer is 127.0.0.1 (a proxy); X-Forwarded-For names the client.
  s = await startTestService({
    TRUST_PROXY: "true",
    LOGIN_MAX_FAILURES_ACCOUNT: "3",
    LOGIN_MAX_FAILURES_ADDRESS: "6",
    AUTH_MAX_FAILURES_PER_MINUTE: "4",
  });
  admin = await s.adminToken();
  for (const name of ["ann", "bob", "carl", "dan", "eve", "fay", "gil"]) {
    const r = await s.call("POST", `${API}/users`, { token: admin, body: { userName: name, email: `${name}@example.com`, password: `pw-${name}-secret` } });
    expect(r.status).toBe(201);
  }
}, 60_000);
afterAll(() => s.close());

function login(userName: string, password: string, from: string, key: "userName" | "email" = "userName") {
  const who = key === "userName" ? { userName } : { email: `${userName}@example.com` };
  return s.call("POST", `${API}/auth/token`, { body: { ...who, password }, headers: { "x-forwarded-for": from } });
}

describe("attempt limits of POST /auth/token", () => {
  test("after LOGIN_MAX_FAILURES_ACCOUNT failures the account answers 429 even with the right password, from any address", async () => {
    for (let i = 0; i < 3; i++) expect((await login("ann", "wrong", "198.51.100.1")).status).toBe(401);
    const locked = await login("ann", "pw-ann-secret", "198.51.100.1");
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe("RATE_LIMIT_EXCEEDED");
    const retry = Number(locked.headers.get("retry-after"));
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(900);
    expect((await login("ann", "pw-ann-secret", "198.51.100.2")).status).toBe(429);
    expect((await login("ann", "pw-ann-secret", "198.51.100.3", "email")).status).toBe(429);
    // another account from the first address is not locked (3 failures < 6)
    expect((await login("bob", "pw-bob-secret", "198.51.100.1")).status).toBe(200);
  });

  test("the per-address limit holds while the client rotates the leftmost X-Forwarded-For entry", async () => {
    for (let i = 0; i < 6; i++) {
      const r = await login(`ghost${i}`, "wrong", `10.9.${i}.${i}, 203.0.113.5`);
      expect(r.status).toBe(401);
    }
    const blocked = await login("carl", "pw-carl-secret", "192.0.2.77, 203.0.113.5");
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get("retry-after")).toMatch(/^\d+$/);
    // the account itself is not locked: from another address carl signs in
    expect((await login("carl", "pw-carl-secret", "203.0.113.6")).status).toBe(200);
  });

  test("only failures count: many successful sign-ins never lock", async () => {
    for (let i = 0; i < 8; i++) expect((await login("dan", "pw-dan-secret", "198.51.100.50")).status).toBe(200);
  });
});

describe("failed authentications per client address", () => {
  test("invalid Bearer tokens and API keys: AUTH_MAX_FAILURES_PER_MINUTE, then 429 even for a valid token", async () => {
    const from = { "x-forwarded-for": "192.0.2.9" };
    expect((await s.call("GET", `${API}/organizations`, { token: "not.a.jwt", headers: from })).status).toBe(401);
    expect((await s.call("GET", `${API}/organizations`, { apiKey: "nope", headers: from })).status).toBe(401);
    expect((await s.call("GET", `${API}/organizations`, { token: "garbage", headers: from })).status).toBe(401);
    expect((await s.call("GET", `${API}/organizations`, { apiKey: "still-nope", headers: from })).status).toBe(401);
    const limited = await s.call("GET", `${API}/organizations`, { token: admin, headers: from });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe("RATE_LIMIT_EXCEEDED");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // the MCP endpoint shares the counter
    expect((await s.call("POST", "/mcp/any", { apiKey: "x", headers: from, body: {} })).status).toBe(429);
    // other addresses are not affected
    expect((await s.call("GET", `${API}/organizations`, { token: admin, headers: { "x-forwarded-for": "192.0.2.10" } })).status).toBe(200);
  });
});

describe("failed OAuth token requests per client address", () => {
  test("unknown refresh tokens count; then the token endpoint answers 429 with Retry-After", async () => {
    const form = (token: string) =>
      s.service.handle(new Request("http://localhost/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "192.0.2.33" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: token, client_id: "nobody" }),
      }));
    const [client] = await s.service.db.sql`INSERT INTO oauth_clients (client_id, redirect_uris) VALUES ('mcp-counted', '["http://127.0.0.1:9/cb"]'::jsonb) RETURNING client_id`;
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      const r = await s.service.handle(new Request("http://localhost/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "192.0.2.33" },
        body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: `guess-${i}`, client_id: client!.client_id as string }),
      }));
      statuses.push(r.status);
    }
    expect(statuses).toEqual([400, 400, 400, 400]);
    const limited = await form("another-guess");
    expect(limited.status).toBe(429);
    expect((await limited.json()).error).toBe("too_many_requests");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("client address behind proxies", () => {
  test("the rightmost entry that is not a trusted proxy; no TRUST_PROXY: the peer", () => {
    const req = (xff: string) => new Request("http://x/", { headers: { "x-forwarded-for": xff } });
    const one = clientAddressResolver({ trustProxy: true, trustedProxies: [] });
    expect(one(req("6.6.6.6, 7.7.7.7, 203.0.113.1"), "10.0.0.2")).toBe("203.0.113.1");
    const chain = clientAddressResolver({ trustProxy: true, trustedProxies: ["10.0.0.0/8", "2001:db8::1"] });
    expect(chain(req("6.6.6.6, 203.0.113.1, 10.1.2.3, 2001:db8::1"), "10.0.0.2")).toBe("203.0.113.1");
    expect(chain(req("1.2.3.4, 203.0.113.9:5555, 10.0.0.9"), "10.0.0.2")).toBe("203.0.113.9");
    expect(chain(req("not-an-address"), "10.0.0.2")).toBe("10.0.0.2");
    expect(clientAddressResolver({ trustProxy: false, trustedProxies: [] })(req("6.6.6.6"), "10.0.0.2")).toBe("10.0.0.2");
    expect(() => clientAddressResolver({ trustProxy: true, trustedProxies: ["nonsense"] })).toThrow("TRUSTED_PROXIES");
  });
});

describe("bounded password verification", () => {
  test("a full queue answers 429 at once; the others complete", async () => {
    const hasher = createPasswordHasher({ passwordHashConcurrency: 1, passwordHashQueue: 2, passwordHashMemoryKib: 8192, passwordHashTimeCost: 2 });
    const hash = await hasher.hash("right-password");
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => hasher.verify("right-password", hash)));
    const refused = results.filter((r) => r.status === "rejected");
    expect(refused.length).toBe(5);
    for (const r of refused) {
      // a domain error (no HTTP status below the HTTP layer); the one mapping answers 429 with Retry-After
      const reason = (r as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(RateLimitedError);
      expect(apiErrorOf(reason)).toMatchObject({ status: 429, code: "RATE_LIMIT_EXCEEDED", headers: { "Retry-After": "1" } });
    }
    expect(results.filter((r) => r.status === "fulfilled" && r.value === true).length).toBe(3);
    expect(hasher.load).toEqual({ active: 0, waiting: 0 });
    expect(await hasher.verify("right-password", null)).toBe(false);
  });
});

describe("revocation", () => {
  test("changing one's own password needs the current one, then ends the old access tokens", async () => {
    const from = { "x-forwarded-for": "198.51.100.80" };
    const old = (await login("eve", "pw-eve-secret", "198.51.100.80")).body.accessToken as string;
    const missing = await s.call("PATCH", `${API}/users/eve`, { token: old, body: { password: "eve-new-password" }, headers: from });
    expect(missing.status).toBe(400);
    const wrong = await s.call("PATCH", `${API}/users/eve`, { token: old, body: { password: "eve-new-password", currentPassword: "nope" }, headers: from });
    expect(wrong.status).toBe(403);
    expect((await login("eve", "pw-eve-secret", "198.51.100.80")).status).toBe(200);
    const ok = await s.call("PATCH", `${API}/users/eve`, {
      token: old,
      body: { password: "eve-new-password", currentPassword: "pw-eve-secret" },
      headers: from,
    });
    expect(ok.status).toBe(200);
    const after = await s.call("GET", `${API}/users/eve`, { token: old, headers: from });
    expect(after.status).toBe(401);
    expect(after.body.message).toContain("revoked");
    expect((await login("eve", "pw-eve-secret", "198.51.100.80")).status).toBe(401);
    const fresh = (await login("eve", "eve-new-password", "198.51.100.80")).body.accessToken as string;
    expect((await s.call("GET", `${API}/users/eve`, { token: fresh, headers: from })).status).toBe(200);
  });

  test("an administrator's reset ends the user's tokens; the user's organization's API keys stay", async () => {
    const from = { "x-forwarded-for": "198.51.100.81" };
    const gil = (await login("gil", "pw-gil-secret", "198.51.100.81")).body.accessToken as string;
    expect((await s.call("POST", `${API}/organizations`, { token: admin, body: { name: "gilorg" } })).status).toBe(201);
    await s.call("POST", `${API}/organizations/gilorg/permissions`, { token: admin, body: { userGroupId: "user:gil", permission: "admin" } });
    expect((await s.call("POST", `${API}/organizations/gilorg/groups`, { token: gil, body: { name: "bots" }, headers: from })).status).toBe(201);
    const key = await s.call("POST", `${API}/organizations/gilorg/groups/bots/tokens?name=ci`, { token: gil, headers: from });
    expect(key.status).toBe(201);
    const reset = await s.call("PATCH", `${API}/users/gil`, { token: admin, body: { password: "reset-by-admin" } });
    expect(reset.status).toBe(200);
    expect((await s.call("GET", `${API}/organizations/gilorg`, { token: gil, headers: from })).status).toBe(401);
    expect((await s.call("GET", `${API}/organizations/gilorg/groups/bots`, { apiKey: key.body.secret, headers: from })).status).toBe(200);
    expect((await login("gil", "reset-by-admin", "198.51.100.81")).status).toBe(200);
  });

  test("removing a user ends its tokens", async () => {
    const fay = (await login("fay", "pw-fay-secret", "198.51.100.82")).body.accessToken as string;
    expect((await s.call("DELETE", `${API}/users/fay`, { token: admin })).status).toBe(204);
    expect((await s.call("GET", `${API}/organizations`, { token: fay, headers: { "x-forwarded-for": "198.51.100.82" } })).status).toBe(401);
  });

  test("the admin's own token still works after others' resets", async () => {
    expect((await s.call("GET", `${API}/users/admin`, { token: admin })).status).toBe(200);
    expect(ADMIN_PASSWORD).toBeString();
  });
});
