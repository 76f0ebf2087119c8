/**
 * The secrets of the OAuth flow: random codes and refresh tokens, PKCE S256
 * (RFC 7636), and the access tokens (JWT, RFC 9068 profile) the MCP endpoints accept.
 *
 * Access tokens are HS256 JWTs with header `typ: "at+jwt"`, signed with a key
 * derived from the service's JWT secret (HMAC-SHA256 of the secret over a fixed
 * label), so the REST API's verifier of its own access tokens cannot accept
 * them even before the audience check. Claims: `iss` (the service origin),
 * `aud` (the one MCP resource URL the token is for), `sub` (user id),
 * `client_id`, `scope`, `grant_id` (checked for revocation), `jti`, `iat`, `exp`.
 * @module
 */
import { jwtVerify, SignJWT, type JWTPayload } from "jose";
import { protectedHeaderOf } from "../jwt_header.ts";

/** `typ` header of OAuth access tokens (RFC 9068). */
const ACCESS_TOKEN_TYPE = "at+jwt";

/** base64url without padding. */
export function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A random secret of 32 bytes, base64url (codes, refresh tokens, client ids, CSRF nonces). */
export function randomSecret(bytes = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** SHA-256 of a secret, base64url: how codes and refresh tokens are stored. */
export async function hashSecret(secret: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret))));
}

/** Whether a PKCE code verifier has the form RFC 7636 section 4.1 requires. */
export function validVerifier(verifier: string): boolean {
  return /^[A-Za-z0-9._~-]{43,128}$/.test(verifier);
}

/** Whether a code challenge has the form of an S256 challenge (43 base64url characters). */
export function validChallenge(challenge: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(challenge);
}

/** The S256 code challenge of a verifier: base64url(SHA-256(verifier)). */
export async function s256(verifier: string): Promise<string> {
  return await hashSecret(verifier);
}

const keys = new Map<string, Promise<Uint8Array>>();

/** The HMAC key of OAuth access tokens, derived from the service's JWT secret. */
function accessTokenKey(secret: string): Promise<Uint8Array> {
  let key = keys.get(secret);
  if (!key) {
    key = (async () => {
      const hmac = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      return new Uint8Array(await crypto.subtle.sign("HMAC", hmac, new TextEncoder().encode("oauth access token key v1")));
    })();
    keys.set(secret, key);
  }
  return key;
}

/** Claims of a new access token. */
export interface AccessTokenClaims {
  issuer: string;
  /** The MCP resource URL (`aud`). */
  audience: string;
  userId: string;
  clientId: string;
  scope: string;
  grantId: string;
  ttlSeconds: number;
}

/** Signs an OAuth access token. */
export async function signAccessToken(secret: string, claims: AccessTokenClaims): Promise<string> {
  return await new SignJWT({ client_id: claims.clientId, scope: claims.scope, grant_id: claims.grantId })
    .setProtectedHeader({ alg: "HS256", typ: ACCESS_TOKEN_TYPE })
    .setIssuer(claims.issuer)
    .setAudience(claims.audience)
    .setSubject(claims.userId)
    .setJti(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(`${claims.ttlSeconds}s`)
    .sign(await accessTokenKey(secret));
}

/** Whether a bearer token is one of our OAuth access tokens (by its `typ` header). */
export function isOAuthAccessToken(token: string): boolean {
  try {
    return protectedHeaderOf(token).typ === ACCESS_TOKEN_TYPE;
  } catch {
    return false;
  }
}

/** A verified access token: who, which client, which grant. */
export interface VerifiedAccessToken {
  userId: string;
  clientId: string;
  scope: string[];
  grantId: string;
  audience: string;
}

/**
 * Verifies signature, expiry, issuer and typ of an access token; `audience`,
 * when given, must be the token's `aud`. Throws an `Error` whose message says
 * what was wrong.
 */
export async function verifyAccessToken(token: string, options: { secret: string; issuer: string; audience?: string }): Promise<VerifiedAccessToken> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, await accessTokenKey(options.secret), {
      algorithms: ["HS256"],
      typ: ACCESS_TOKEN_TYPE,
      issuer: options.issuer,
      requiredClaims: ["exp"],
    }));
  } catch {
    throw new Error("OAuth access token is invalid or expired; refresh it or authorize again");
  }
  const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (options.audience !== undefined && !aud.includes(options.audience)) {
    throw new Error(`OAuth access token was issued for ${aud.join(", ")}, not for ${options.audience}; authorize again with resource=${options.audience}`);
  }
  const { sub, client_id, scope, grant_id } = payload;
  if (typeof sub !== "string" || typeof client_id !== "string" || typeof scope !== "string" || typeof grant_id !== "string") {
    throw new Error("OAuth access token lacks sub, client_id, scope or grant_id");
  }
  return { userId: sub, clientId: client_id, scope: scope.split(" "), grantId: grant_id, audience: String(aud[0]) };
}
