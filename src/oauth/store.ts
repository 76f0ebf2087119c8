/**
 * SQL of the OAuth authorization server: clients, grants, authorization codes
 * and refresh tokens. Secrets (codes, refresh tokens) arrive here hashed.
 * @module
 */
import type { Db } from "../db/database.ts";

/** A registered (public) client. */
export interface OAuthClient {
  clientId: string;
  clientName: string;
  redirectUris: string[];
  createdAt: Date;
}

/** One authorization of a user for a client and an MCP resource. */
export interface OAuthGrant {
  id: string;
  clientId: string;
  userId: string;
  resource: string;
  scope: string;
  revoked: boolean;
}

/** A client row as read ({@link CLIENT_COLUMNS}); `redirectUris` is jsonb, text on drivers that do not parse it. */
interface ClientRecord extends Omit<OAuthClient, "redirectUris"> {
  redirectUris: string[] | string;
}

const CLIENT_COLUMNS = (db: Db) =>
  db`client_id AS "clientId", client_name AS "clientName", redirect_uris AS "redirectUris", created_at AS "createdAt"`;

function toClient(r: ClientRecord): OAuthClient {
  const redirectUris: string[] = typeof r.redirectUris === "string" ? JSON.parse(r.redirectUris) : r.redirectUris;
  return { clientId: r.clientId, clientName: r.clientName, redirectUris, createdAt: r.createdAt };
}

/** The columns of {@link OAuthGrant}, from the grant row aliased `g`. */
const GRANT_COLUMNS = (db: Db) =>
  db`g.id, g.client_id AS "clientId", g.user_id AS "userId", g.resource, g.scope, g.revoked_at IS NOT NULL AS revoked`;

function toGrant(r: OAuthGrant): OAuthGrant {
  return { id: r.id, clientId: r.clientId, userId: r.userId, resource: r.resource, scope: r.scope, revoked: r.revoked };
}

/** How long a registered client that no user has authorized is kept. */
const UNUSED_CLIENT_DAYS = 1;

/**
 * Stores a new client, and removes the clients registered over
 * {@link UNUSED_CLIENT_DAYS} ago that no user ever authorized (open
 * registration cannot pile up clients; one that is used keeps its grants).
 */
export async function insertClient(db: Db, client: { clientId: string; clientName: string; redirectUris: string[] }): Promise<OAuthClient> {
  await db`DELETE FROM oauth_clients c WHERE c.created_at < now() - make_interval(days => ${UNUSED_CLIENT_DAYS})
             AND NOT EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.client_id)`;
  const [r] = await db<ClientRecord[]>`
    INSERT INTO oauth_clients (client_id, client_name, redirect_uris)
    VALUES (${client.clientId}, ${client.clientName}, ${JSON.stringify(client.redirectUris)}::jsonb) RETURNING ${CLIENT_COLUMNS(db)}`;
  return toClient(r!);
}

/** A client by id, or null. */
export async function findClient(db: Db, clientId: string): Promise<OAuthClient | null> {
  const [r] = await db<ClientRecord[]>`SELECT ${CLIENT_COLUMNS(db)} FROM oauth_clients WHERE client_id = ${clientId}`;
  return r ? toClient(r) : null;
}

/** What an approved authorization request stores. */
export interface NewAuthorization {
  clientId: string;
  userId: string;
  resource: string;
  scope: string;
  codeHash: string;
  redirectUri: string;
  codeChallenge: string;
  ttlSeconds: number;
}

/** Creates the grant of an approved authorization and its single-use code. */
export async function insertAuthorization(db: Db, a: NewAuthorization): Promise<string> {
  const [g] = await db<{ id: string }[]>`
    INSERT INTO oauth_grants (client_id, user_id, resource, scope)
    VALUES (${a.clientId}, ${a.userId}, ${a.resource}, ${a.scope}) RETURNING id`;
  await db`
    INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, expires_at)
    VALUES (${a.codeHash}, ${g!.id}, ${a.redirectUri}, ${a.codeChallenge}, now() + make_interval(secs => ${a.ttlSeconds}))`;
  // Old codes are useless after their minute: sweep them now and then.
  await db`DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day'`;
  return g!.id;
}

/** An authorization code as redeemed: its grant and what it was bound to. */
export interface RedeemedCode {
  grant: OAuthGrant;
  redirectUri: string;
  codeChallenge: string;
  expired: boolean;
  /** The code had been redeemed before (this call changed nothing). */
  reused: boolean;
}

/** Marks a code used and returns it; `reused` when it had been used already; null when unknown. */
export async function redeemCode(db: Db, codeHash: string): Promise<RedeemedCode | null> {
  const [r] = await db<(OAuthGrant & Omit<RedeemedCode, "grant">)[]>`
    WITH claimed AS (UPDATE oauth_codes SET used_at = now() WHERE code_hash = ${codeHash} AND used_at IS NULL RETURNING code_hash)
    SELECT c.redirect_uri AS "redirectUri", c.code_challenge AS "codeChallenge", c.expires_at < now() AS expired,
           (SELECT count(*) FROM claimed) = 0 AS reused, ${GRANT_COLUMNS(db)}
      FROM oauth_codes c JOIN oauth_grants g ON g.id = c.grant_id
     WHERE c.code_hash = ${codeHash}`;
  if (!r) return null;
  return { grant: toGrant(r), redirectUri: r.redirectUri, codeChallenge: r.codeChallenge, expired: r.expired, reused: r.reused };
}

/** Stores a refresh token of a grant. */
export async function insertRefreshToken(db: Db, grantId: string, options: { tokenHash: string; ttlSeconds: number }): Promise<void> {
  await db`
    INSERT INTO oauth_refresh_tokens (token_hash, grant_id, expires_at)
    VALUES (${options.tokenHash}, ${grantId}, now() + make_interval(secs => ${options.ttlSeconds}))`;
}

/** A refresh token as presented: its grant, and whether it was rotated or expired. */
export interface PresentedRefreshToken {
  grant: OAuthGrant;
  expired: boolean;
  /** It had been exchanged before: reuse. */
  reused: boolean;
}

/** Marks a refresh token used (rotation) and returns it; null when unknown. */
export async function rotateRefreshToken(db: Db, tokenHash: string): Promise<PresentedRefreshToken | null> {
  const [r] = await db<(OAuthGrant & { expired: boolean; unclaimed: boolean })[]>`
    WITH claimed AS (
      UPDATE oauth_refresh_tokens SET used_at = now()
       WHERE token_hash = ${tokenHash} AND used_at IS NULL AND expires_at > now() RETURNING token_hash)
    SELECT t.expires_at <= now() AS expired, (SELECT count(*) FROM claimed) = 0 AS unclaimed, ${GRANT_COLUMNS(db)}
      FROM oauth_refresh_tokens t JOIN oauth_grants g ON g.id = t.grant_id
     WHERE t.token_hash = ${tokenHash}`;
  if (!r) return null;
  return { grant: toGrant(r), expired: r.expired, reused: r.unclaimed && !r.expired };
}

/** The grant a refresh token belongs to, without changing it (revocation). */
export async function grantOfRefreshToken(db: Db, tokenHash: string): Promise<OAuthGrant | null> {
  const [r] = await db<OAuthGrant[]>`
    SELECT ${GRANT_COLUMNS(db)}
      FROM oauth_refresh_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.token_hash = ${tokenHash}`;
  return r ? toGrant(r) : null;
}

/** Revokes a grant: its refresh tokens stop working, and so do its access tokens on the MCP endpoint. */
export async function revokeGrant(db: Db, grantId: string): Promise<void> {
  await db`UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, now()) WHERE id = ${grantId}`;
}

/** A grant that stands (exists, not revoked), as the checks of app credentials read it. */
export interface ActiveGrant {
  /**
   * The workspace of a grant issued for a workspace's MCP resource
   * (`.../mcp/{org}/workspace/{ws}`); `null` for an organization's resource.
   */
  workspace: string | null;
}

/** The workspace name in the path of a grant's resource URL, or `null`. */
function workspaceOfResource(resource: string): string | null {
  let path: string;
  try {
    path = new URL(resource).pathname;
  } catch {
    return null;
  }
  return /^\/mcp\/[^/]+\/workspace\/([^/]+)$/.exec(path)?.[1] ?? null;
}

/**
 * A grant that stands, with its workspace, in one read (whether it stands
 * and what it reaches come from the same row); `null` when it is revoked or
 * does not exist.
 */
export async function activeGrant(db: Db, grantId: string): Promise<ActiveGrant | null> {
  if (!/^[0-9a-f-]{36}$/i.test(grantId)) return null;
  const [r] = await db<{ resource: string }[]>`SELECT resource FROM oauth_grants WHERE id = ${grantId} AND revoked_at IS NULL`;
  return r ? { workspace: workspaceOfResource(r.resource) } : null;
}

/** Whether a grant exists and is not revoked (checked on every MCP request with an OAuth token). */
export async function grantActive(db: Db, grantId: string): Promise<boolean> {
  return (await activeGrant(db, grantId)) !== null;
}
