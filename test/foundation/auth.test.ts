import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import { ADMIN_PASSWORD, startTestService, type TestService } from "../helpers/service.ts";

let s: TestService;
beforeAll(async () => {
  s = await startTestService();
}, 120_000);
afterAll(() => s.close());

async function secret(): Promise<Uint8Array> {
  const [row] = await s.service.db.sql`SELECT value FROM settings WHERE key = 'jwt_secret'`;
  return new TextEncoder().encode(row!.value as string);
}

async function adminId(): Promise<string> {
  const [row] = await s.service.db.sql`SELECT id FROM users WHERE user_name = 'admin'`;
  return row!.id as string;
}

function b64url(obj: unknown): string {
  return btoa(JSON.stringify(obj)).replaceAll("=", "").replaceAll("+", "-").replaceAll("/", "_");
}

describe("bootstrap and login", () => {
  test("the bootstrap admin logs in by name and by email and gets a bearer token", async () => {
    const r = await s.call("POST", "/api/v0/auth/token", { body: { userName: "admin", password: ADMIN_PASSWORD } });
    expect(r.status).toBe(200);
    expect(r.body.tokenType).toBe("Bearer");
    expect(r.body.expiresIn).toBe(3600);
    const byEmail = await s.call("POST", "/api/v0/auth/token", { body: { email: "ADMIN@localhost", password: ADMIN_PASSWORD } });
    expect(byEmail.status).toBe(200);
    const me = await s.call("GET", "/api/v0/users/admin", { token: r.body.accessToken });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ userName: "admin", systemAdmin: true });
    expect(me.body.password).toBeUndefined();
    expect(me.body.passwordHash).toBeUndefined();
  });

  test("a wrong password or unknown user is 401 with the same message", async () => {
    const wrong = await s.call("POST", "/api/v0/auth/token", { body: { userName: "admin", password: "nope" } });
    const unknown = await s.call("POST", "/api/v0/auth/token", { body: { userName: "ghost", password: "nope" } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ code: "AUTHENTICATION_REQUIRED", message: unknown.body.message });
  });

  test("login without a password is 400 naming the field", async () => {
    const r = await s.call("POST", "/api/v0/auth/token", { body: { userName: "admin" } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("VALIDATION_ERROR");
    expect(r.body.message).toContain("password");
  });

  test("a second start on the same database does not create another admin", async () => {
    const [row] = await s.service.db.sql`SELECT count(*)::int AS n FROM users`;
    expect(row!.n).toBe(1);
  });
});

describe("access token rejections", () => {
  test("no credentials: 401 with WWW-Authenticate", async () => {
    const r = await s.call("GET", "/api/v0/organizations");
    expect(r.status).toBe(401);
    expect(r.body.code).toBe("AUTHENTICATION_REQUIRED");
    expect(r.headers.get("www-authenticate")).toContain("Bearer");
  });

  test("alg none is rejected", async () => {
    const token = `${b64url({ alg: "none", typ: "JWT" })}.${b64url({ sub: await adminId(), exp: 9999999999 })}.`;
    const r = await s.call("GET", "/api/v0/organizations", { token });
    expect(r.status).toBe(401);
  });

  test("a bad signature is rejected", async () => {
    const token = await new SignJWT({ sub: await adminId() }).setProtectedHeader({ alg: "HS256" }).setExpirationTime("1h")
      .sign(new TextEncoder().encode("some-other-secret-of-enough-length"));
    expect((await s.call("GET", "/api/v0/organizations", { token })).status).toBe(401);
  });

  test("an expired token is rejected, a valid one with the same key accepted", async () => {
    const key = await secret();
    const sub = await adminId();
    const expired = await new SignJWT({ sub }).setProtectedHeader({ alg: "HS256" }).setIssuedAt(1_600_000_000).setExpirationTime(1_600_000_100).sign(key);
    expect((await s.call("GET", "/api/v0/organizations", { token: expired })).status).toBe(401);
    const valid = await new SignJWT({ sub, ver: 0 }).setProtectedHeader({ alg: "HS256" }).setExpirationTime("5m").sign(key);
    expect((await s.call("GET", "/api/v0/organizations", { token: valid })).status).toBe(200);
  });

  test("garbage, an empty credential and an unknown scheme are 401", async () => {
    for (const authorization of ["Bearer not.a.jwt", "Bearer ", "Basic YWRtaW46eA==", "Bearer"]) {
      const r = await s.call("GET", "/api/v0/organizations", { headers: { authorization } });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe("AUTHENTICATION_REQUIRED");
    }
  });

  test("a token of a deleted user stops working at once", async () => {
    const token = await s.createUser("leaver");
    expect((await s.call("GET", "/api/v0/users/leaver", { token })).status).toBe(200);
    const del = await s.call("DELETE", "/api/v0/users/leaver", { token: await s.adminToken() });
    expect(del.status).toBe(204);
    const r = await s.call("GET", "/api/v0/organizations", { token });
    expect(r.status).toBe(401);
    expect(r.body.message).toContain("no longer exists");
  });

  test("an unknown API key is 401", async () => {
    const r = await s.call("GET", "/api/v0/organizations", { apiKey: "x".repeat(43) });
    expect(r.status).toBe(401);
  });
});

describe("external identity provider (JWKS on loopback)", () => {
  test("RS256 tokens with the configured issuer and audience map to a user", async () => {
    const { publicKey, privateKey } = await generateKeyPair("RS256");
    const jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    const jwksServer = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ keys: [jwk] }) });
    const idp = await startTestService({
      JWT_JWKS_URL: `http://127.0.0.1:${jwksServer.port}/jwks.json`,
      JWT_ISSUER: "https://idp.example",
      JWT_AUDIENCE: "malloy-platform",
    });
    try {
      await idp.createUser("alice");
      const make = (claims: Record<string, string>, iss = "https://idp.example") =>
        new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "k1" }).setIssuer(iss).setAudience("malloy-platform")
          .setExpirationTime("5m").sign(privateKey);
      const ok = await idp.call("GET", "/api/v0/users/alice", { token: await make({ preferred_username: "alice" }) });
      expect(ok.status).toBe(200);
      expect(ok.body.userName).toBe("alice");
      // Only JWT_USER_CLAIM names the user: an email alone is no fallback.
      const byEmail = await idp.call("GET", "/api/v0/users/alice", { token: await make({ email: "alice@example.com" }) });
      expect(byEmail.status).toBe(401);
      const wrongIssuer = await idp.call("GET", "/api/v0/users/alice", { token: await make({ preferred_username: "alice" }, "https://evil.example") });
      expect(wrongIssuer.status).toBe(401);
      const noUser = await idp.call("GET", "/api/v0/organizations", { token: await make({ preferred_username: "mallory" }) });
      expect(noUser.status).toBe(401);
      expect(noUser.body.message).toContain("mallory");
    } finally {
      await idp.close();
      jwksServer.stop(true);
    }
  }, 60_000);
});
