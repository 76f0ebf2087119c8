/**
 * Creating the organization of an invite without a session: `POST
 * /organizations` with `X-Invite-Token` and a `user` object in the body. A new
 * user name creates the user with that password (and email); an existing user
 * name signs in with the password (counted like any sign-in). Either way, in
 * one transaction, the invite is consumed, the organization created and the
 * user made its admin. The token is guarded as a sign-in attempt
 * (`guardedInvite` of `src/invites/redeem.ts`).
 * @module
 */
import { checkPassword } from "../auth/signin.ts";
import type { AppContext } from "../context.ts";
import { AuthenticationError, ConflictError, ValidationError } from "../errors.ts";
import { guardedInvite } from "../invites/redeem.ts";
import { linkInvite, redeemInvite } from "../invites/store.ts";
import { findUser, insertUser } from "../users/store.ts";
import { insertOrganization, type NewOrganization, type OrganizationRow } from "./store.ts";

/** Who redeems: a new user (email and password), or an existing one (password). */
export interface Redeemer {
  userName: string;
  password: string;
  email?: string;
  firstName?: string;
  lastName?: string;
}

/** Creates the organization of an invite for a redeemer without a session. */
export async function redeemWithPassword(
  ctx: AppContext,
  request: Request,
  options: { invite: string; org: NewOrganization; user: Redeemer },
): Promise<OrganizationRow> {
  return await guardedInvite(ctx, request, options.invite, () => redeem(ctx, request, options));
}

async function redeem(ctx: AppContext, request: Request, options: { invite: string; org: NewOrganization; user: Redeemer }): Promise<OrganizationRow> {
  const { invite, org, user } = options;
  const existing = await findUser(ctx.sql, user.userName);
  let userId: string | undefined;
  let passwordHash: string | undefined;
  if (existing) {
    const signedIn = await checkPassword(ctx, request, { userName: user.userName }, user.password);
    if (!signedIn) throw new AuthenticationError("user name or password is wrong");
    userId = signedIn.id;
  } else {
    if (!user.email) throw new ValidationError("a new user needs user.email (and user.password) to redeem an invite");
    passwordHash = await ctx.identity.passwords.hash(user.password);
  }
  return await ctx.sql.begin(async (tx) => {
    if (!userId) {
      const [dup] = await tx`SELECT 1 FROM users WHERE user_name = ${user.userName} OR lower(email) = lower(${user.email!})`;
      if (dup) throw new ConflictError(`user name '${user.userName}' or email '${user.email}' is already used; sign in with that user's password`);
      const created = await insertUser(tx, {
        userName: user.userName,
        email: user.email!,
        firstName: user.firstName,
        lastName: user.lastName,
        passwordHash,
      });
      userId = created.id;
    }
    await redeemInvite(tx, invite, userId);
    const [exists] = await tx`SELECT 1 FROM organizations WHERE name = ${org.name}`;
    if (exists) throw new ConflictError(`organization '${org.name}' already exists; pick another name`);
    const created = await insertOrganization(tx, org, userId);
    await linkInvite(tx, invite, created.id);
    return created;
  });
}
