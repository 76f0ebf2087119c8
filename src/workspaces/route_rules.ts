/**
 * Access rules of the workspace routes (see src/http/route_access.ts):
 *
 * - `wsAccess: "viewer" | "manager"` resolves `ws`
 * - `shareAccess: "workspace-manager-package-modeler"` resolves `share` (`ws`, `pkg`)
 * @module
 */
import { Elysia } from "elysia";
import { ADMIN, READ } from "../access/roles.ts";
import type { AppContext } from "../context.ts";
import { required } from "../http/auth.ts";
import { accessRule } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { shareTarget, workspaceFor } from "./lookup.ts";

/** Workspace roles a route can need. */
export type WsRule = "viewer" | "manager";

const RANK: Record<WsRule, number> = { viewer: READ, manager: ADMIN };

/** What a method does below a workspace (only documents are created there), for 403 messages. */
const ACTIONS: Record<string, string> = { PATCH: "updating it", PUT: "updating it", DELETE: "deleting it", POST: "creating a document" };

/** Elysia plugin adding `wsAccess` and `shareAccess` (see the module comment). */
export function workspaceRules(ctx: AppContext) {
  return new Elysia({ name: "workspace-rules", seed: ctx.id })
    .use(security(ctx))
    .macro({
      /** The workspace `{org}/{ws}` when the caller holds `need` on it. */
      wsAccess: accessRule((need: WsRule) => `workspace:${need}`, async ({ principal, params, request }, need) => ({
        ws: await workspaceFor(ctx, required(principal ?? null), { org: params.org!, ws: params.ws!, need: RANK[need], action: ACTIONS[request.method] }),
      })),
      /**
       * The workspace `{org}/{ws}` and the package `?environmentName=&packageName=` of a package-access change: the
       * caller manages the workspace and is a package admin or modeler (404 for either one it cannot see).
       */
      shareAccess: accessRule((need: "workspace-manager-package-modeler") => `workspace-package:${need}`, async ({ principal, params, query }) => ({
        share: await shareTarget(ctx, required(principal ?? null), {
          org: params.org!, ws: params.ws!, environmentName: String(query.environmentName), packageName: String(query.packageName),
        }),
      })),
    });
}
