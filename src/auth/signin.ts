/**
 * One password check shared by every sign-in (`POST /auth/token`, the OAuth
 * sign-in form): attempt limits first, then the bounded argon2 verification,
 * then the failure is counted.
 * @module
 */
import type { AppContext } from "../context.ts";
import { requestMeta } from "../http/request_meta.ts";
import { findLogin } from "../users/store.ts";
import { signinKeys } from "./signin_guard.ts";

/** A user whose password was checked. */
export interface SignedInUser {
  id: string;
  userName: string;
  tokenVersion: number;
}

/** What a sign-in names: a user name or an email. */
export interface Login {
  userName?: string;
  email?: string;
}

/**
 * Checks a password: the user, or `null` for a wrong name or password (counted
 * as a failure). Throws 429 when the account or the client address is locked,
 * or when too many checks wait for a slot.
 */
export async function checkPassword(ctx: AppContext, request: Request, login: Login, password: string): Promise<SignedInUser | null> {
  const user = login.userName || login.email ? await findLogin(ctx.sql, login) : null;
  const keys = signinKeys({ userId: user?.id, login: login.userName ?? login.email ?? "", address: requestMeta(request)?.address });
  const { signin, passwords } = ctx.identity;
  await signin.check(keys);
  const ok = await passwords.verify(password, user?.passwordHash);
  if (!user || !ok) {
    await signin.fail(keys);
    return null;
  }
  await signin.succeed(keys);
  return { id: user.id, userName: user.userName, tokenVersion: user.tokenVersion };
}

/** Claims of one of our access tokens for a user (`ver` is checked against the user's token version). */
export function accessTokenClaims(user: SignedInUser): Record<string, string | number> {
  return { sub: user.id, name: user.userName, ver: user.tokenVersion };
}
