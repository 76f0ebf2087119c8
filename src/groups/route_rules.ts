/**
 * Access rules of the group routes (see src/http/route_access.ts):
 * `groupAccess: "member" | "admin"` resolves `group`.
 * @module
 */
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { required } from "../http/auth.ts";
import { accessRule } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { groupFor } from "./access.ts";

/** Group rules: `member` sees the group (an organization member), `admin` manages it (group or organization admin). */
export type GroupRule = "member" | "admin";

/** Elysia plugin adding `groupAccess`: the group `{org}/{group}` when the caller may see it (`member`) or manage it (`admin`). */
export function groupRules(ctx: AppContext) {
  return new Elysia({ name: "group-rules", seed: ctx.id })
    .use(security(ctx))
    .macro({
      groupAccess: accessRule((need: GroupRule) => `group:${need}`, async ({ principal, params }, need) => ({
        group: await groupFor(ctx, required(principal ?? null), { org: params.org!, group: params.group!, manage: need === "admin" }),
      })),
    });
}
