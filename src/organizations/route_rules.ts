/**
 * Access rules of the organization routes (see src/http/route_access.ts):
 *
 * - `orgAccess: "member" | "modeler" | "admin" | "user-member" | "admin-or-self" | "workspace-creator"` resolves `org`
 * - `orgCreateAccess: "invite-or-system-admin"`: who may create an organization
 * @module
 */
import { Elysia } from "elysia";
import { ADMIN, MODEL, READ } from "../access/roles.ts";
import { isSystemAdmin } from "../access/principal.ts";
import type { AppContext } from "../context.ts";
import { ForbiddenError } from "../errors.ts";
import { required, requiredUser } from "../http/auth.ts";
import { requestMeta } from "../http/request_meta.ts";
import { accessCheck, accessRule, type RuleInput } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { organizationFor } from "./lookup.ts";

/**
 * Organization roles a route can need; `user-member`: a member calling with a
 * user's token (API keys: 403, before the lookup); `admin-or-self`: a member who
 * is the user `{userName}` of the path or an organization admin (403 otherwise);
 * `workspace-creator`: an admin or modeler (others, 403, are pointed to their personal workspace).
 */
export type OrgRule = "member" | "modeler" | "admin" | "user-member" | "admin-or-self" | "workspace-creator";

const RANK: Record<Exclude<OrgRule, "workspace-creator">, number> = { member: READ, "user-member": READ, "admin-or-self": READ, modeler: MODEL, admin: ADMIN };

/** The organization `{org}` when the caller holds `need` on it (the request's start: see organizationFor). */
async function orgRule(ctx: AppContext, { principal, params, request }: RuleInput, need: OrgRule) {
  const since = requestMeta(request)?.start;
  const p = need === "user-member" ? requiredUser(principal ?? null) : required(principal ?? null);
  const org = await organizationFor(ctx, p, params.org!, { need: need === "workspace-creator" ? READ : RANK[need], since });
  if (need === "workspace-creator" && org.rank < MODEL) {
    throw new ForbiddenError(`organization '${params.org}': creating a workspace needs the admin or modeler role; you are ${org.permission}. ` +
      "Use POST .../workspaces/personal for a private workspace, or ask an organization admin");
  }
  if (need === "admin-or-self" && !(p.kind === "user" && p.userName === params.userName) && org.rank < ADMIN) {
    throw new ForbiddenError(`the effective attributes of user '${params.userName}' are visible to the user and to admins of organization '${params.org}'`);
  }
  return org;
}

/**
 * Creating an organization: a system administrator, or a signed-in caller
 * with an invite in `X-Invite-Token`, or no session at all with an invite and
 * `user` credentials in the body (the redemption checks them).
 */
function inviteOrSystemAdmin({ principal, request, body }: RuleInput): void {
  const invite = request.headers.get("x-invite-token");
  if (!principal && invite !== null && (body as { user?: unknown } | null)?.user) return;
  const p = required(principal ?? null);
  if (invite === null && !isSystemAdmin(p)) {
    throw new ForbiddenError("only a system administrator can create organizations; others need an invite token in X-Invite-Token");
  }
}

/** Elysia plugin adding `orgAccess` and `orgCreateAccess` (see the module comment). */
export function organizationRules(ctx: AppContext) {
  return new Elysia({ name: "organization-rules", seed: ctx.id })
    .use(security(ctx))
    .macro({
      orgAccess: accessRule((need: OrgRule) => `organization:${need}`, async (input, need) => ({ org: await orgRule(ctx, input, need) })),
      orgCreateAccess: accessCheck((need: "invite-or-system-admin") => `custom:${need}`, inviteOrSystemAdmin),
    });
}
