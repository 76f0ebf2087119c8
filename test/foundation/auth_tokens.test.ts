/**
 * Token rules: every token has a valid `exp`; identity-provider tokens name a
 * user only through JWT_USER_CLAIM and never reach the bootstrap administrator;
 * API key lifetimes; rate-limit buckets keyed by organization and principal id.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SignJWT, exportJWK, generateKeyPair } from "jose";
import { startTestService, type TestService } from "../helpers/service.ts";
import { readConfig } from "../../src/config.ts";

const API = "/api/v0";
let jwks: ReturnType<typeof Bun.serve>;
let privateKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  privateKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
  jwks = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ keys: [jwk] }) });
}, 120_000);
afterAll(() => jwks.stop(true));

function idpEnv(extra: Record<string, string> = {}): Record<string, string> {
  return { JWT_JWKS_URL: `http://127.0.0.1:${jwks.port}/jwks.json`, JWT_ISSUER: "https://idp.example", JWT_AUDIENCE: "platform", ...extra };
}

/** An identity-provider token; `exp` false leaves it out, a number sets it (seconds). */
function idpToken(claims: Record<string, unknown>, exp: string | number | false = "5m"): Promise<string> {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: "k1" }).setIssuer("https://idp.example").setAudience("platform").setIssuedAt();
  if (exp !== false) jwt = jwt.setExpirationTime(exp);
  return jwt.sign(privateKey);
}

describe("identity-provider settings", () => {
  test("JWT_JWKS_URL needs JWT_ISSUER and JWT_AUDIENCE: a token the provider issued for another application or by another issuer is no token here", () => {
    const url = "https://idp.example/.well-known/jwks.json";
    expect(() => readConfig({ JWT_JWKS_URL: url })).toThrow(/missing: JWT_ISSUER and JWT_AUDIENCE\)/);
    expect(() => readConfig({ JWT_JWKS_URL: url, JWT_ISSUER: "https://idp.example" })).toThrow(/missing: JWT_AUDIENCE\)/);
    expect(() => readConfig({ JWT_JWKS_URL: url, JWT_AUDIENCE: "platform" })).toThrow(/missing: JWT_ISSUER\)/);
    expect(readConfig({ JWT_JWKS_URL: url, JWT_ISSUER: "https://idp.example", JWT_AUDIENCE: "platform" }).jwtAudience).toBe("platform");
    // without an identity provider neither is needed
    expect(readConfig({}).jwksUrl).toBeUndefined();
  });

  test("JWT_JWKS_URL is https, or http on a loopback address only: keys read over the network in clear could be replaced", () => {
    const both = { JWT_ISSUER: "https://idp.example", JWT_AUDIENCE: "platform" };
    for (const url of ["http://idp.example/jwks.json", "http://10.0.0.5/jwks.json", "ftp://idp.example/jwks.json", "file:///etc/jwks.json", "idp.example/jwks.json"]) {
      expect(() => readConfig({ JWT_JWKS_URL: url, ...both })).toThrow(/JWT_JWKS_URL/);
    }
    for (const url of ["https://idp.example/jwks.json", "http://127.0.0.1:8080/jwks.json", "http://localhost/jwks.json", "http://[::1]:9000/jwks.json"]) {
      expect(readConfig({ JWT_JWKS_URL: url, ...both }).jwksUrl).toBe(url);
    }
  });
});

describe("identity-provider tokens (JWT_USER_CLAIM = preferred_username)", () => {
  let s: TestService;
  beforeAll(async () => {
    s = await startTestService(idpEnv());
    await s.createUser("alice");
  }, 60_000);
  afterAll(() => s.close());

  const status = async (token: string) => (await s.call("GET", `${API}/organizations`, { token })).status;

  test("the configured claim names the user", async () => {
    expect(await status(await idpToken({ preferred_username: "alice" }))).toBe(200);
  });

  test("no fallback: sub or email alone are refused, also for the administrator's", async () => {
    const [adminRow] = await s.service.db.sql`SELECT id FROM users WHERE user_name = 'admin'`;
    expect(await status(await idpToken({ sub: "admin" }))).toBe(401);
    expect(await status(await idpToken({ sub: adminRow!.id as string }))).toBe(401);
    expect(await status(await idpToken({ email: "admin@localhost" }))).toBe(401);
    expect(await status(await idpToken({ email: "alice@example.com", sub: "alice" }))).toBe(401);
    const r = await s.call("GET", `${API}/organizations`, { token: await idpToken({ sub: "admin", email: "admin@localhost" }) });
    expect(r.body.message).toContain("preferred_username");
  });

  test("the bootstrap system administrator is never reached through an identity-provider token", async () => {
    const r = await s.call("GET", `${API}/users/admin`, { token: await idpToken({ preferred_username: "admin" }) });
    expect(r.status).toBe(401);
    // Another system administrator may be (it is an ordinary user with a role).
    const admin = await s.adminToken();
    await s.call("POST", `${API}/users`, { token: admin, body: { userName: "ops", email: "ops@example.com", systemAdmin: true } });
    expect(await status(await idpToken({ preferred_username: "ops" }))).toBe(200);
  });

  test("a token without exp, or expired long ago, is refused", async () => {
    expect(await status(await idpToken({ preferred_username: "alice" }, false))).toBe(401);
    expect(await status(await idpToken({ preferred_username: "alice" }, 1_000_000_000))).toBe(401);
    expect(await status(await idpToken({ preferred_username: "alice" }, Math.floor(Date.now() / 1000) - 3600))).toBe(401);
  });

  test("our own HS256 tokens need exp and the user's token version", async () => {
    const [row] = await s.service.db.sql`SELECT value FROM settings WHERE key = 'jwt_secret'`;
    const key = new TextEncoder().encode(row!.value as string);
    const [u] = await s.service.db.sql`SELECT id FROM users WHERE user_name = 'alice'`;
    const sub = u!.id as string;
    const sign = (claims: Record<string, unknown>, exp?: number) => {
      const jwt = new SignJWT(claims).setProtectedHeader({ alg: "HS256" }).setIssuedAt();
      return (exp === undefined ? jwt : jwt.setExpirationTime(exp)).sign(key);
    };
    const inAnHour = Math.floor(Date.now() / 1000) + 3600;
    expect(await status(await sign({ sub, ver: 0 }, inAnHour))).toBe(200);
    expect(await status(await sign({ sub, ver: 0 }))).toBe(401);
    expect(await status(await sign({ sub }, inAnHour))).toBe(401);
    expect(await status(await sign({ sub, ver: 1 }, inAnHour))).toBe(401);
    expect(await status(await sign({ sub, ver: 0 }, 1_000_000_000))).toBe(401);
  });
});

describe("identity-provider tokens (JWT_USER_CLAIM = email)", () => {
  test("the email claim names a user, never the bootstrap administrator", async () => {
    const s = await startTestService(idpEnv({ JWT_USER_CLAIM: "email", BOOTSTRAP_ADMIN_EMAIL: "root@example.com" }));
    try {
      await s.createUser("bea");
      const call = async (claims: Record<string, unknown>) => (await s.call("GET", `${API}/organizations`, { token: await idpToken(claims) })).status;
      expect(await call({ email: "BEA@example.com" })).toBe(200);
      expect(await call({ email: "root@example.com" })).toBe(401);
      expect(await call({ preferred_username: "bea" })).toBe(401);
    } finally {
      await s.close();
    }
  }, 60_000);

  test("the email is a credential: changing one's own needs currentPassword, so a stolen access token cannot bind the account to another identity", async () => {
    const s = await startTestService(idpEnv({ JWT_USER_CLAIM: "email" }));
    try {
      const cal = await s.createUser("cal");
      const asMallory = async () => (await s.call("GET", `${API}/users/cal`, { token: await idpToken({ email: "mallory@example.com" }) })).status;
      // whoever holds cal's access token (not the password) tries to make mallory's identity sign in as cal
      const bare = await s.call("PATCH", `${API}/users/cal`, { token: cal, body: { email: "mallory@example.com" } });
      expect([bare.status, bare.body.message]).toEqual([400, "changing your own email needs currentPassword"]);
      const wrong = await s.call("PATCH", `${API}/users/cal`, { token: cal, body: { email: "mallory@example.com", currentPassword: "guess-password" } });
      expect(wrong.status).toBe(403);
      expect((await s.call("GET", `${API}/users/cal`, { token: cal })).body.email).toBe("cal@example.com");
      expect(await asMallory()).toBe(401);
      // the same email again, other fields, or an administrator's change need nothing more
      expect((await s.call("PATCH", `${API}/users/cal`, { token: cal, body: { email: "cal@example.com", firstName: "Cal" } })).status).toBe(200);
      const mine = await s.call("PATCH", `${API}/users/cal`, { token: cal, body: { email: "cal2@example.com", currentPassword: "pw-cal-secret" } });
      expect([mine.status, mine.body.email]).toEqual([200, "cal2@example.com"]);
      const admin = await s.adminToken();
      expect((await s.call("PATCH", `${API}/users/cal`, { token: admin, body: { email: "cal@example.com" } })).status).toBe(200);
    } finally {
      await s.close();
    }
  }, 60_000);
});

describe("API key lifetimes and rate-limit buckets", () => {
  let s: TestService;
  let admin: string;
  beforeAll(async () => {
    s = await startTestService({ API_KEY_MAX_DAYS: "30", RATE_LIMIT_PER_MINUTE: "3" });
    admin = await s.adminToken();
  }, 60_000);
  afterAll(() => s.close());

  test("default expiry is capped by API_KEY_MAX_DAYS; a later expiresAt is 400", async () => {
    await s.service.db.sql`INSERT INTO organizations (name) VALUES ('keys')`;
    const [o] = await s.service.db.sql`SELECT id FROM organizations WHERE name = 'keys'`;
    await s.service.db.sql`INSERT INTO groups (org_id, name) VALUES (${o!.id as string}, 'bots')`;
    const made = await s.call("POST", `${API}/organizations/keys/groups/bots/tokens?name=a`, { token: admin });
    expect(made.status).toBe(201);
    const days = (new Date(made.body.expiresAt).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const far = new Date(Date.now() + 31 * 86_400_000).toISOString();
    const tooLong = await s.call("POST", `${API}/organizations/keys/groups/bots/tokens?name=b&expiresAt=${far}`, { token: admin });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.message).toContain("API_KEY_MAX_DAYS");
  });

  test("groups of the same name in two organizations have separate rate-limit buckets", async () => {
    const { sha256Hex } = await import("../../src/http/auth.ts");
    const keys: string[] = [];
    for (const org of ["orga", "orgb"]) {
      const [o] = await s.service.db.sql`INSERT INTO organizations (name) VALUES (${org}) RETURNING id`;
      const [g] = await s.service.db.sql`INSERT INTO groups (org_id, name) VALUES (${o!.id as string}, 'bots') RETURNING id`;
      const secret = `key-${org}-${crypto.randomUUID()}`;
      await s.service.db.sql`INSERT INTO group_tokens (group_id, name, secret_hash, expires_at)
        VALUES (${g!.id as string}, 'k', ${await sha256Hex(secret)}, now() + interval '1 day')`;
      keys.push(secret);
    }
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await s.call("GET", `${API}/organizations/orga/groups/bots`, { apiKey: keys[0] })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await s.call("GET", `${API}/organizations/orgb/groups/bots`, { apiKey: keys[1] })).status).toBe(200);
  });
});
