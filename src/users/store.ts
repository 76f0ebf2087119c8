/**
 * SQL of users.
 * @module
 */
import type { Db } from "../db/database.ts";

/** A user as the API shows it (never the password). */
export interface UserView {
  userName: string;
  email: string;
  firstName: string;
  lastName: string;
  systemAdmin: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A user row with its id. */
export interface UserRow extends UserView {
  id: string;
}

/** A user as {@link userColumns} reads it, with the login fields. */
interface UserRecord extends Omit<UserRow, "createdAt" | "updatedAt"> {
  createdAt: Date;
  updatedAt: Date;
  passwordHash: string | null;
  tokenVersion: number;
}

/** The columns of {@link UserRecord} (table `users`). */
function userColumns(db: Db) {
  return db`id, user_name AS "userName", email, first_name AS "firstName", last_name AS "lastName", system_admin AS "systemAdmin",
            created_at AS "createdAt", updated_at AS "updatedAt", password_hash AS "passwordHash", token_version AS "tokenVersion"`;
}

function toUser(r: UserRecord): UserRow {
  return {
    id: r.id,
    userName: r.userName,
    email: r.email,
    firstName: r.firstName,
    lastName: r.lastName,
    systemAdmin: r.systemAdmin,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Strips the id for responses. */
export function userView(u: UserRow): UserView {
  const { id: _id, ...view } = u;
  return view;
}

/** Fields of a new user. */
export interface NewUser {
  userName: string;
  email: string;
  firstName?: string;
  lastName?: string;
  /** argon2id hash of the password (see `PasswordHasher`); none: the user cannot sign in with a password. */
  passwordHash?: string | null;
  systemAdmin?: boolean;
  /** The bootstrap system administrator (never reached through an identity-provider token). */
  bootstrap?: boolean;
}

/** Inserts a user; a duplicate name or email raises 23505. */
export async function insertUser(db: Db, user: NewUser): Promise<UserRow> {
  const [r] = await db<UserRecord[]>`
    INSERT INTO users (user_name, email, first_name, last_name, password_hash, system_admin, bootstrap)
    VALUES (${user.userName}, ${user.email}, ${user.firstName ?? ""}, ${user.lastName ?? ""}, ${user.passwordHash ?? null},
            ${user.systemAdmin ?? false}, ${user.bootstrap ?? false})
    RETURNING ${userColumns(db)}`;
  return toUser(r!);
}

/** A user by name. */
export async function findUser(db: Db, userName: string): Promise<UserRow | null> {
  const [r] = await db<UserRecord[]>`SELECT ${userColumns(db)} FROM users WHERE user_name = ${userName}`;
  return r ? toUser(r) : null;
}

/** A user by name or email, with the password hash, for login. */
export async function findLogin(
  db: Db,
  login: { userName?: string; email?: string },
): Promise<(UserRow & { passwordHash: string | null; tokenVersion: number }) | null> {
  const [r] = login.userName
    ? await db<UserRecord[]>`SELECT ${userColumns(db)} FROM users WHERE user_name = ${login.userName}`
    : await db<UserRecord[]>`SELECT ${userColumns(db)} FROM users WHERE lower(email) = lower(${login.email ?? ""})`;
  return r ? { ...toUser(r), passwordHash: r.passwordHash, tokenVersion: r.tokenVersion } : null;
}

/** Changes of a user. */
export interface UserPatch {
  email?: string;
  firstName?: string;
  lastName?: string;
  /** New argon2id password hash: also ends the user's access tokens and OAuth grants ({@link revokeUserAccess}). */
  passwordHash?: string;
  systemAdmin?: boolean;
}

/** Applies a partial update; returns the updated user or null when missing. A new password revokes the user's access. */
export async function updateUser(db: Db, userName: string, patch: UserPatch): Promise<UserRow | null> {
  const hash = patch.passwordHash ?? null;
  const [r] = await db<UserRecord[]>`
    UPDATE users SET
      email = coalesce(${patch.email ?? null}, email),
      first_name = coalesce(${patch.firstName ?? null}, first_name),
      last_name = coalesce(${patch.lastName ?? null}, last_name),
      password_hash = coalesce(${hash}, password_hash),
      system_admin = coalesce(${patch.systemAdmin ?? null}, system_admin),
      updated_at = now()
    WHERE user_name = ${userName} RETURNING ${userColumns(db)}`;
  if (r && hash) await revokeUserAccess(db, r.id);
  return r ? toUser(r) : null;
}

/**
 * Ends every access token of a user (bumps `token_version`, which each token
 * carries as `ver`) and revokes the user's OAuth grants (their refresh tokens,
 * and the access tokens issued under them). Group API keys are not the user's
 * and stay valid.
 */
async function revokeUserAccess(db: Db, userId: string): Promise<void> {
  await db`UPDATE users SET token_version = token_version + 1 WHERE id = ${userId}`;
  await db`UPDATE oauth_grants SET revoked_at = now() WHERE user_id = ${userId} AND revoked_at IS NULL`;
}

/** Deletes a user; returns whether it existed. */
export async function deleteUser(db: Db, userName: string): Promise<boolean> {
  const rows = await db`DELETE FROM users WHERE user_name = ${userName} RETURNING id`;
  return rows.length > 0;
}

/** Number of users (bootstrap checks for zero). */
export async function countUsers(db: Db): Promise<number> {
  const [r] = await db<{ n: number }[]>`SELECT count(*)::int AS n FROM users`;
  return r!.n;
}
