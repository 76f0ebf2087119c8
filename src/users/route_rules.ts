/**
 * Access rules of the user routes (see src/http/route_access.ts):
 * `userAccess: "self-or-admin"`: the user `{userName}` itself or a system administrator.
 * @module
 */
import { Elysia } from "elysia";
import { isSystemAdmin } from "../access/principal.ts";
import type { AppContext } from "../context.ts";
import { ForbiddenError, NotFoundError } from "../errors.ts";
import { required } from "../http/auth.ts";
import { accessCheck, type RuleInput } from "../http/route_access.ts";
import { security } from "../http/security.ts";

/** The user `{userName}` rule: the user itself or a system administrator (404 for others, no existence leak); only a system administrator changes `systemAdmin` (403). */
function userRule({ principal, params, body }: RuleInput): void {
  const p = required(principal ?? null);
  const admin = isSystemAdmin(p);
  if (!admin && !(p.kind === "user" && p.userName === params.userName)) throw new NotFoundError(`user '${params.userName}' not found`);
  if (!admin && (body as { systemAdmin?: unknown } | null)?.systemAdmin !== undefined) {
    throw new ForbiddenError("only a system administrator can change systemAdmin");
  }
}

/** Elysia plugin adding `userAccess` (see the module comment). */
export function userRules(ctx: AppContext) {
  return new Elysia({ name: "user-rules", seed: ctx.id })
    .use(security(ctx))
    .macro({
      userAccess: accessCheck((need: "self-or-admin") => `user:${need}`, userRule),
    });
}
