/**
 * The browser credentials of in-package apps, each an HS256 JWT signed with
 * its own key derived from the service's JWT secret (HMAC-SHA256 of the secret
 * over a fixed label), so that no verifier accepts another's tokens: the REST
 * API's verifier of access tokens refuses all three, and each is checked for
 * its own `typ` header.
 *
 * - **App token** (`typ: app+jwt`): read-only access to one package's models,
 *   queries and events, acting as the user or group that asked for it;
 *   `APP_TOKEN_TTL_S` seconds.
 * - **Browser session** (`typ: session+jwt`): the sign-in page's cookie; only
 *   the app-token endpoint, the app files and the sign-in pages read it.
 * - **Asset capability** (`typ: asset+jwt`): a path segment that lets a
 *   sandboxed app (an opaque origin: the browser sends it no cookie) load the
 *   non-HTML files of its own package's `public/` folder, and nothing else.
 * - **Launch** (`typ: launch+jwt`, `APP_ORIGIN` only): posted by the platform's
 *   launch form to the app origin, which answers the app page with an app
 *   token; 60 seconds, in a form body (never in a URL), and once only
 *   ({@link spendLaunch}).
 * @module
 */
import { jwtVerify, SignJWT } from "jose";
import { protectedHeaderOf } from "../jwt_header.ts";
import type { Db } from "../db/database.ts";
import type { Principal } from "../access/principal.ts";

/** The kinds of browser credentials. */
export type CredentialKind = "app" | "session" | "asset" | "launch";

const LABELS: Record<CredentialKind, string> = {
  app: "app token key v1",
  session: "browser session key v1",
  asset: "app asset key v1",
  launch: "app launch key v1",
};

const keys = new Map<string, Promise<Uint8Array>>();

function keyOf(secret: string, kind: CredentialKind): Promise<Uint8Array> {
  const id = `${kind}\0${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = (async () => {
      const hmac = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
      return new Uint8Array(await crypto.subtle.sign("HMAC", hmac, new TextEncoder().encode(LABELS[kind])));
    })();
    keys.set(id, key);
  }
  return key;
}

/** Who a browser credential acts as: a user id, or a group token id (API key). */
export interface Subject {
  kind: "user" | "group";
  /** User id, or the group token's id. */
  id: string;
  /**
   * The user's token version when the credential was signed: a password change,
   * reset or removal bumps it, which ends the credential (as it ends access tokens).
   */
  version?: number;
  /**
   * The OAuth grant whose access token the credential was got with (an MCP
   * client acting for the user): whatever it opens acts as that client,
   * restricted like it, and only while the grant stands.
   */
  oauthGrant?: string;
}

/** The subject of a principal, with a user's current token version (the one its credential was verified with, when known). */
export async function subjectOf(sql: Db, principal: Principal): Promise<Subject> {
  if (principal.kind !== "user") return { kind: "group", id: principal.tokenId };
  const oauth = principal.oauth === true ? { oauthGrant: principal.oauthGrant ?? "" } : {};
  if (principal.tokenVersion !== undefined) return { kind: "user", id: principal.userId, version: principal.tokenVersion, ...oauth };
  const [u] = await sql`SELECT token_version FROM users WHERE id = ${principal.userId}`;
  return { kind: "user", id: principal.userId, version: (u?.token_version as number | undefined) ?? -1, ...oauth };
}

/** The package a scoped credential is for. */
export interface PackageScope {
  envId: string;
  packageName: string;
}

/** Verified claims of a credential. */
export interface Claims {
  subject: Subject;
  /** The package (app token and asset capability). */
  scope?: PackageScope;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** The credential's own id (`jti`). */
  id?: string;
  /**
   * When the chain of credentials this one renews began, seconds since the
   * epoch (an app token renewed with itself keeps its first one's).
   */
  since: number;
}

/** Signs a credential of `kind` valid for `ttlSeconds`. */
export async function signCredential(
  secret: string,
  kind: CredentialKind,
  claims: { subject: Subject; scope?: PackageScope; ttlSeconds: number; since?: number },
): Promise<{ token: string; exp: number }> {
  const now = Math.floor(Date.now() / 1000);
  const exp = now + claims.ttlSeconds;
  const payload: Record<string, string | number> = { sk: claims.subject.kind, auth: claims.since ?? now };
  if (claims.subject.version !== undefined) payload.ver = claims.subject.version;
  if (claims.subject.oauthGrant !== undefined) payload.oag = claims.subject.oauthGrant;
  if (claims.scope) {
    payload.env = claims.scope.envId;
    payload.pkg = claims.scope.packageName;
  }
  const token = await new SignJWT(payload)
    .setProtectedHeader({ alg: "HS256", typ: `${kind}+jwt` })
    .setSubject(claims.subject.id)
    .setJti(crypto.randomUUID())
    .setIssuedAt()
    .setExpirationTime(exp)
    .sign(await keyOf(secret, kind));
  return { token, exp };
}

/** Whether a token carries the `typ` of `kind` (no signature check: only to route it to {@link verifyCredential}). */
export function looksLike(token: string, kind: CredentialKind): boolean {
  try {
    return protectedHeaderOf(token).typ === `${kind}+jwt`;
  } catch {
    return false;
  }
}

/** Verifies signature, `typ` and expiry of a credential of `kind`; `null` when any fails. */
export async function verifyCredential(secret: string, kind: CredentialKind, token: string): Promise<Claims | null> {
  try {
    const { payload } = await jwtVerify(token, await keyOf(secret, kind), { algorithms: ["HS256"], typ: `${kind}+jwt` });
    const sk = payload.sk;
    if ((sk !== "user" && sk !== "group") || typeof payload.sub !== "string" || typeof payload.exp !== "number") return null;
    const scope = typeof payload.env === "string" && typeof payload.pkg === "string" ? { envId: payload.env, packageName: payload.pkg } : undefined;
    if (kind !== "session" && !scope) return null;
    const version = typeof payload.ver === "number" ? payload.ver : undefined;
    const id = typeof payload.jti === "string" ? payload.jti : undefined;
    const oauth = typeof payload.oag === "string" ? { oauthGrant: payload.oag } : {};
    const since = typeof payload.auth === "number" ? payload.auth : typeof payload.iat === "number" ? payload.iat : payload.exp;
    return { subject: { kind: sk, id: payload.sub, ...(version === undefined ? {} : { version }), ...oauth }, scope, exp: payload.exp, since, ...(id ? { id } : {}) };
  } catch {
    return null;
  }
}

/**
 * Spends a verified launch credential: `true` the first time its id is
 * presented (on any node of the database), `false` ever after, so a copied or
 * replayed launch post opens nothing. Ids of expired credentials are dropped.
 */
export async function spendLaunch(sql: Db, claims: Claims): Promise<boolean> {
  if (!claims.id) return false;
  await sql`DELETE FROM spent_launches WHERE expires_at < now()`;
  const spent = await sql`INSERT INTO spent_launches (jti, expires_at) VALUES (${claims.id}, to_timestamp(${claims.exp}))
                          ON CONFLICT (jti) DO NOTHING RETURNING jti`;
  return spent.length === 1;
}
