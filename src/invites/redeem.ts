/**
 * Presenting an invite token: every use of a token is guarded as a sign-in
 * attempt of the client address ({@link guardedInvite}), so unknown or used
 * tokens count as failed sign-ins and guessing tokens is limited like
 * guessing passwords. Creating the organization of an invite is in
 * `src/organizations/redeem.ts`.
 * @module
 */
import { signinKeys } from "../auth/signin_guard.ts";
import type { AppContext } from "../context.ts";
import { requestMeta } from "../http/request_meta.ts";
import { DomainError, ForbiddenError, NotFoundError } from "../errors.ts";

/**
 * Runs `use` of an invite token the caller presented, as a guess of a secret:
 * a client address over its sign-in failure limit gets 429 before the token
 * is looked at, and an unknown (403, 404) or used (409) token counts as a
 * failure of the address. Every route that takes a token (redemption with or
 * without a session, `GET /invites/{token}`) goes through here, so the routes
 * cannot be taken in turn to guess past the limit.
 */
export async function guardedInvite<T>(ctx: AppContext, request: Request, invite: string, use: () => Promise<T>): Promise<T> {
  const keys = signinKeys({ login: `invite:${invite.trim().toUpperCase()}`, address: requestMeta(request)?.address });
  await ctx.identity.signin.check(keys);
  try {
    return await use();
  } catch (error) {
    const refused = error instanceof ForbiddenError || error instanceof NotFoundError;
    if (refused || (error instanceof DomainError && /invite token/.test(error.message))) await ctx.identity.signin.fail(keys);
    throw error;
  }
}
