/**
 * SQL of invites: one-use codes that let an authenticated user create one organization.
 * @module
 */
import { ConflictError, ForbiddenError } from "../errors.ts";
import type { Db } from "../db/database.ts";

/** Alphabet of invite tokens: digits and capitals without the look-alikes 0, O, 1, I and L. */
const INVITE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** Pattern of an invite token (case-insensitive in paths and headers). */
export const INVITE_PATTERN = "^[2-9A-HJKMNP-Za-hjkmnp-z]{5}-[2-9A-HJKMNP-Za-hjkmnp-z]{5}$";

/** A new token: two groups of five characters of {@link INVITE_ALPHABET} joined by '-'. */
function newInviteToken(): string {
  const out: string[] = [];
  const n = INVITE_ALPHABET.length;
  const limit = 256 - (256 % n);
  while (out.length < 10) {
    for (const b of crypto.getRandomValues(new Uint8Array(16))) {
      if (b < limit && out.length < 10) out.push(INVITE_ALPHABET[b % n]!);
    }
  }
  return `${out.slice(0, 5).join("")}-${out.slice(5).join("")}`;
}

/** An invite as the API shows it. */
export interface InviteView {
  token: string;
  consumed: boolean;
  createdAt: string;
  consumedAt: string | null;
}

function toInvite(r: Record<string, unknown>): InviteView {
  return {
    token: r.token as string,
    consumed: r.consumed_at !== null,
    createdAt: (r.created_at as Date).toISOString(),
    consumedAt: r.consumed_at ? (r.consumed_at as Date).toISOString() : null,
  };
}

/** Creates an invite with a fresh token (retries the astronomically rare collision). */
export async function insertInvite(db: Db, createdBy: string | null): Promise<InviteView> {
  for (;;) {
    const rows = await db`INSERT INTO invites (token, created_by) VALUES (${newInviteToken()}, ${createdBy})
                          ON CONFLICT (token) DO NOTHING RETURNING *`;
    if (rows[0]) return toInvite(rows[0]);
  }
}

/** Invites, newest first, keyset-paged on the token within a creation time (`limit + 1` rows). */
export async function listInvites(db: Db, page: { limit: number; after?: string }): Promise<InviteView[]> {
  const rows = await db`SELECT * FROM invites WHERE token > ${page.after ?? ""} ORDER BY token LIMIT ${page.limit + 1}`;
  return rows.map(toInvite);
}

/** An invite by token, or null. */
export async function findInvite(db: Db, token: string): Promise<InviteView | null> {
  const [r] = await db`SELECT * FROM invites WHERE token = ${token.toUpperCase()}`;
  return r ? toInvite(r) : null;
}

/** Deletes an unconsumed invite: `deleted`, `consumed` (kept) or `missing`. */
export async function revokeInvite(db: Db, token: string): Promise<"deleted" | "consumed" | "missing"> {
  const rows = await db`DELETE FROM invites WHERE token = ${token.toUpperCase()} AND consumed_at IS NULL RETURNING token`;
  if (rows.length) return "deleted";
  return (await findInvite(db, token)) ? "consumed" : "missing";
}

/**
 * Redeems an invite in one atomic statement; call it in the transaction that
 * creates the organization, so a rolled-back creation leaves the invite
 * unconsumed. Concurrent redemptions of one token: exactly one succeeds, the
 * others get 409 (consumed) once the winner commits. An unknown token is 403.
 */
export async function redeemInvite(db: Db, token: string, userId: string): Promise<void> {
  const rows = await db`
    UPDATE invites SET consumed_at = now(), consumed_by = ${userId}
     WHERE token = ${token.trim().toUpperCase()} AND consumed_at IS NULL RETURNING token`;
  if (rows.length) return;
  const [r] = await db`SELECT consumed_at FROM invites WHERE token = ${token.trim().toUpperCase()}`;
  if (r) throw new ConflictError("this invite token has already been used; ask a system administrator for a new one");
  throw new ForbiddenError("X-Invite-Token is not a valid invite token; check it or ask a system administrator for one");
}

/** Records the organization an invite created. */
export async function linkInvite(db: Db, token: string, orgId: string): Promise<void> {
  await db`UPDATE invites SET org_id = ${orgId} WHERE token = ${token.trim().toUpperCase()}`;
}
