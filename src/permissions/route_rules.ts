/**
 * Access rules of the permission routes of every level (see src/http/route_access.ts):
 * `permissionAccess: { level, need }` resolves `grants` (`need`: `manage`,
 * `manage-or-own`, `manage-or-request`).
 * @module
 */
import { Elysia } from "elysia";
import { roleName } from "../access/roles.ts";
import type { AppContext } from "../context.ts";
import { ConflictError, ForbiddenError } from "../errors.ts";
import { required } from "../http/auth.ts";
import { parsePrincipal } from "../http/params.ts";
import { accessRule, type RuleInput } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { checkKind, checkRole, type Located, locate, mayShare, type PermissionLevel, requireManage, requireOwn, requireRequester, self } from "./access.ts";

/** Permission-route rules: `manage` (the level's managing role), `manage-or-own` (managers see every grant, others only their own), `manage-or-request` (managers grant, others request for themselves). */
export type PermissionRule = "manage" | "manage-or-own" | "manage-or-request";

/** What the permission rule hands the handler. */
export interface Grants {
  loc: Located;
  /** `grant`: the caller manages; `request`: a pending request for the caller itself (`manage-or-request`). */
  mode: "grant" | "request";
  /** Set when the caller sees only its own grant (`manage-or-own` on the list). */
  only?: ReturnType<typeof self>;
}

/**
 * The permissions of a resource of `spec`'s level: 404 when the caller cannot
 * see it (nor, for its own grant or request, is allowed to ask: see
 * requireRequester), 403 when the operation needs the managing role it lacks.
 * A grant or change of a role stronger than the caller's own is 403; sharing
 * callers (package modelers) grant and read grants but do not change or
 * revoke them. A request for a role the caller already holds is 409. The
 * role name and principal kind of the body are checked first (400), as
 * before the resource.
 */
async function permissionRule(ctx: AppContext, input: RuleInput, spec: PermissionLevel, need: PermissionRule): Promise<Grants> {
  const p = required(input.principal ?? null);
  const body = (input.body ?? {}) as { userGroupId?: string; permission?: string; requestPermission?: boolean };
  let roleRank = 0;
  if (need === "manage-or-request") checkKind(spec, parsePrincipal(body.userGroupId!));
  if (need !== "manage-or-own") roleRank = checkRole(spec, body.permission!);
  const loc = await locate(ctx, spec, p, input.params);
  const stronger = () => new ForbiddenError(`${loc.label}: you cannot grant '${body.permission}', a stronger role than your own`);
  if (need === "manage") {
    requireManage(spec, loc);
    if (roleRank > loc.rank) throw stronger();
    return { loc, mode: "grant" };
  }
  if (need === "manage-or-own") {
    const one = input.params.principal;
    if (one === undefined) {
      if (mayShare(spec, loc)) return { loc, mode: "grant" };
      await requireOwn(ctx, p, loc);
      return { loc, mode: "grant", only: self(p) };
    }
    if (one === self(p).ref) await requireOwn(ctx, p, loc);
    else if (!(mayShare(spec, loc) && input.request.method === "GET")) requireManage(spec, loc);
    return { loc, mode: "grant" };
  }
  const asked = input.query.requestPermission === true || body.requestPermission === true;
  // a caller who may grant grants, unless it asks for a role for itself
  if (mayShare(spec, loc) && !(asked && body.userGroupId === self(p).ref)) {
    if (roleRank > loc.rank) throw stronger();
    return { loc, mode: "grant" };
  }
  if (!asked) requireManage(spec, loc);
  await requireRequester(ctx, p, loc);
  if (p.kind !== "user") throw new ForbiddenError("API keys act as their group and cannot request access; use a user's access token");
  if (body.userGroupId !== `user:${p.userName}`) {
    throw new ForbiddenError(`an access request is for yourself: set userGroupId to user:${p.userName}, or ask an admin to grant ${body.userGroupId}`);
  }
  if (roleRank <= loc.rank) {
    throw new ConflictError(`you already have ${roleName(spec.level, loc.rank)} on ${loc.label}, which includes ${body.permission}; request a stronger role`);
  }
  return { loc, mode: "request" };
}

/** Elysia plugin adding `permissionAccess` (see the module comment). */
export function permissionRules(ctx: AppContext) {
  return new Elysia({ name: "permission-rules", seed: ctx.id })
    .use(security(ctx))
    .macro({
      permissionAccess: accessRule(
        ({ need }: { level: PermissionLevel; need: PermissionRule }) => `permissions:${need}`,
        async (input, { level, need }) => ({ grants: await permissionRule(ctx, input, level, need) }),
      ),
    });
}
