/**
 * Credential verification: access tokens (HS256 JWTs we issue, or RS256/ES256 tokens of
 * an external identity provider through its JWKS), API keys (group tokens),
 * and OAuth access tokens of MCP clients (`typ: at+jwt`), which only the MCP
 * endpoint named in their audience accepts. The composition root hands
 * {@link authenticate} to the request authenticator of src/http/security.ts.
 * @module
 */
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import { protectedHeaderOf } from "../jwt_header.ts";
import type { Config } from "../config.ts";
import type { FailureCounter, TokenSigner } from "../context.ts";
import type { Db, Sql } from "../db/database.ts";
import { grantActive } from "../oauth/store.ts";
import { isOAuthAccessToken, verifyAccessToken } from "../oauth/tokens.ts";
import { sha256Hex } from "../http/auth.ts";
import { authGeneration, decisionCache } from "../http/auth_cache.ts";
import { AuthenticationError } from "../errors.ts";
import type { GroupPrincipal, Principal, UserPrincipal } from "../access/principal.ts";

/** External identity provider settings. */
export interface ExternalIdp {
  jwksUrl: string;
  issuer?: string;
  audience?: string;
  /** The one claim naming the user (`JWT_USER_CLAIM`): matched to userName (to email when the claim is `email`). */
  userClaim: string;
}

/** The external identity provider of a configuration, when `JWT_JWKS_URL` is set. */
export function externalIdp(config: Config): ExternalIdp | undefined {
  return config.jwksUrl
    ? { jwksUrl: config.jwksUrl, issuer: config.jwtIssuer, audience: config.jwtAudience, userClaim: config.jwtUserClaim }
    : undefined;
}

/** What {@link authenticate} needs. */
export interface AuthDeps {
  sql: Db;
  signer: TokenSigner;
  idp?: ExternalIdp;
  /** Challenge sent with 401 (MCP routes point at their resource metadata). */
  challenge?: string;
  /**
   * Accept OAuth access tokens issued by `issuer` for exactly `resource` (the
   * MCP endpoint's URL). Without it (the REST API) they are refused.
   */
  oauth?: { secret: string; issuer: string; resource: string };
  /** Counts credentials that fail per client address; over `AUTH_MAX_FAILURES_PER_MINUTE`: 429 before any check. */
  failures?: FailureCounter;
  /** The client address (key of {@link AuthDeps.failures}). */
  address?: string;
  /**
   * `performance.now()` when the request arrived: access tokens of ours and API keys
   * verified before are then served from a cache, fresh as of a check of the
   * database started after that moment (http/auth_cache.ts); `sql` must be the pool.
   */
  since?: number;
}

/** A verified credential; `until` (ms since the epoch) is set when it may be cached until then. */
interface Verified {
  principal: Principal;
  until?: number;
}

const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function jwks(url: string): ReturnType<typeof createRemoteJWKSet> {
  let set = jwksCache.get(url);
  if (!set) {
    set = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    jwksCache.set(url, set);
  }
  return set;
}

/** A user by id with its token version (checked against every token of the user), or `null`. */
export async function userById(sql: Db, id: string): Promise<(UserPrincipal & { tokenVersion: number; bootstrap: boolean }) | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [u] = await sql<Omit<UserPrincipal & { tokenVersion: number; bootstrap: boolean }, "kind">[]>`
    SELECT id AS "userId", user_name AS "userName", system_admin AS "systemAdmin", token_version AS "tokenVersion", bootstrap
      FROM users WHERE id = ${id}`;
  return u
    ? { kind: "user", userId: u.userId, userName: u.userName, systemAdmin: u.systemAdmin, tokenVersion: u.tokenVersion, bootstrap: u.bootstrap }
    : null;
}

/** The principal of a user row (without the row's extra fields; with its token version when the row has one). */
export function userPrincipal(u: UserPrincipal): UserPrincipal {
  const principal: UserPrincipal = { kind: "user", userId: u.userId, userName: u.userName, systemAdmin: u.systemAdmin };
  if (u.tokenVersion !== undefined) principal.tokenVersion = u.tokenVersion;
  return principal;
}

/** An OAuth access token: valid only for the MCP resource in its audience, while its grant stands. */
async function oauthBearer(deps: AuthDeps, token: string, challenge: string): Promise<UserPrincipal> {
  if (!deps.oauth) {
    throw new AuthenticationError(
      "OAuth access tokens are accepted only by the MCP endpoint they were issued for; for this API get an access token from POST /api/v0/auth/token or use an API key",
      challenge,
    );
  }
  let verified;
  try {
    verified = await verifyAccessToken(token, { secret: deps.oauth.secret, issuer: deps.oauth.issuer, audience: deps.oauth.resource });
  } catch (error) {
    throw new AuthenticationError((error as Error).message, challenge);
  }
  if (!verified.scope.includes("mcp")) throw new AuthenticationError("OAuth access token lacks the 'mcp' scope; authorize again with scope=mcp", challenge);
  if (!(await grantActive(deps.sql, verified.grantId))) {
    throw new AuthenticationError("the authorization of this OAuth access token was revoked; authorize again", challenge);
  }
  const user = await userById(deps.sql, verified.userId);
  if (!user) throw new AuthenticationError("the user of this access token no longer exists", challenge);
  return { ...userPrincipal(user), oauth: true, oauthGrant: verified.grantId };
}

/**
 * A token of the external identity provider: signature, issuer, audience and a
 * valid `exp` are required; the user is named only by `JWT_USER_CLAIM` (no
 * fallback to `sub` or `email`), and never is the bootstrap system administrator.
 */
async function idpBearer(deps: AuthDeps, idp: ExternalIdp, token: string, challenge: string): Promise<UserPrincipal> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, jwks(idp.jwksUrl), {
      algorithms: ["RS256", "ES256"],
      issuer: idp.issuer,
      audience: idp.audience,
      requiredClaims: ["exp"],
    }));
  } catch {
    throw new AuthenticationError("access token of the identity provider is invalid, expired or has no expiry", challenge);
  }
  const claim = payload[idp.userClaim];
  if (typeof claim !== "string" || claim === "") {
    throw new AuthenticationError(`access token of the identity provider lacks the '${idp.userClaim}' claim that names the user`, challenge);
  }
  const [u] = idp.userClaim === "email"
    ? await deps.sql<{ id: string }[]>`SELECT id FROM users WHERE lower(email) = lower(${claim}) AND NOT bootstrap`
    : await deps.sql<{ id: string }[]>`SELECT id FROM users WHERE user_name = ${claim} AND NOT bootstrap`;
  const user = u ? await userById(deps.sql, u.id) : null;
  if (!user) throw new AuthenticationError(`no user '${claim}' may sign in here with this identity provider; ask an administrator`, challenge);
  return userPrincipal(user);
}

async function bearer(deps: AuthDeps, token: string): Promise<Verified> {
  const challenge = deps.challenge ?? 'Bearer realm="api", error="invalid_token"';
  if (isOAuthAccessToken(token)) return { principal: await oauthBearer(deps, token, challenge) };
  let alg: string | undefined;
  try {
    alg = protectedHeaderOf(token).alg;
  } catch {
    throw new AuthenticationError("access token is not a JWT", challenge);
  }
  if (alg === "HS256") {
    const payload = await deps.signer.verify(token, { algorithms: ["HS256"] });
    if (!payload || typeof payload.sub !== "string") {
      throw new AuthenticationError("access token is invalid or expired; get a new one from POST /api/v0/auth/token", challenge);
    }
    if (typeof payload.exp !== "number" || typeof payload.ver !== "number") {
      throw new AuthenticationError("access token has no expiry or version; get a new one from POST /api/v0/auth/token", challenge);
    }
    const user = await userById(deps.sql, payload.sub);
    if (!user) throw new AuthenticationError("the user of this access token no longer exists", challenge);
    if (user.tokenVersion !== payload.ver) {
      throw new AuthenticationError("access token was revoked (password changed or reset); sign in again with POST /api/v0/auth/token", challenge);
    }
    return { principal: userPrincipal(user), until: payload.exp * 1000 };
  }
  if ((alg === "RS256" || alg === "ES256") && deps.idp) return { principal: await idpBearer(deps, deps.idp, token, challenge) };
  throw new AuthenticationError(`access tokens signed with '${alg}' are not accepted`, challenge);
}

/** The group an unexpired group token (by its secret's hash or by its id) acts as, or `null`. */
export async function groupTokenPrincipal(sql: Db, token: { secretHash: string } | { tokenId: string }): Promise<GroupPrincipal | null> {
  return (await groupToken(sql, token))?.principal ?? null;
}

/** An unexpired group token's group and its expiry (ms since the epoch), or `null`. */
async function groupToken(sql: Db, token: { secretHash: string } | { tokenId: string }): Promise<{ principal: GroupPrincipal; until: number } | null> {
  const match = "secretHash" in token ? sql`t.secret_hash = ${token.secretHash}` : sql`t.id = ${token.tokenId}`;
  const [row] = await sql<(Omit<GroupPrincipal, "kind"> & { expiresAt: Date })[]>`
    SELECT t.id AS "tokenId", g.id AS "groupId", g.name AS "groupName", g.org_id AS "orgId", o.name AS "orgName", t.expires_at AS "expiresAt"
      FROM group_tokens t JOIN groups g ON g.id = t.group_id JOIN organizations o ON o.id = g.org_id
     WHERE ${match} AND t.expires_at > now()`;
  return row
    ? {
      principal: { kind: "group", tokenId: row.tokenId, groupId: row.groupId, groupName: row.groupName, orgId: row.orgId, orgName: row.orgName },
      until: row.expiresAt.getTime(),
    }
    : null;
}

/**
 * The caller of a request: `null` without an `Authorization` header; a 401
 * for a header that does not authenticate.
 */
export async function authenticate(deps: AuthDeps, request: Request): Promise<Principal | null> {
  const header = request.headers.get("authorization");
  if (!header) return null;
  if (!deps.failures) return await credentials(deps, header);
  const key = `address:${deps.address ?? "unknown"}`;
  deps.failures.check(key);
  try {
    return await credentials(deps, header);
  } catch (error) {
    if (error instanceof AuthenticationError) deps.failures.fail(key);
    throw error;
  }
}

async function credentials(deps: AuthDeps, header: string): Promise<Principal> {
  const challenge = deps.challenge ?? 'Bearer realm="api", error="invalid_token"';
  const space = header.indexOf(" ");
  const scheme = (space > 0 ? header.slice(0, space) : header).toLowerCase();
  const value = space > 0 ? header.slice(space + 1).trim() : "";
  if (!value) throw new AuthenticationError("Authorization header has no credentials", challenge);
  if (scheme !== "bearer" && scheme !== "apikey") {
    throw new AuthenticationError(`authorization scheme '${scheme}' is not supported; use Bearer or ApiKey`, challenge);
  }
  // API keys are looked up (and cached) by their hash, so no secret is kept as a cache key
  const secretHash = scheme === "apikey" ? await sha256Hex(value) : undefined;
  const verify = async (): Promise<Verified> => {
    if (secretHash === undefined) return await bearer(deps, value);
    const token = await groupToken(deps.sql, { secretHash });
    if (!token) throw new AuthenticationError("API key is invalid, expired or deleted", challenge);
    return token;
  };
  if (deps.since === undefined) return (await verify()).principal;
  const sql = deps.sql as Sql;
  const generation = await authGeneration(sql, deps.since);
  const cache = decisionCache<Principal>(sql, "credentials");
  const key = secretHash === undefined ? `bearer:${value}` : `apikey:${secretHash}`;
  const hit = cache.get(key, generation);
  if (hit) return hit;
  const verified = await verify();
  if (verified.until !== undefined) cache.set(key, generation, Object.freeze(verified.principal), verified.until);
  return verified.principal;
}

