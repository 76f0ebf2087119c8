/**
 * Access rules of the watch-mode routes (see src/http/route_access.ts):
 *
 * - `watchAccess: "reader" | "modeler"` resolves `watch` (the watch of `?organizationName=`: `reader` sees
 *   the organization or reads its watch; `modeler` also stops it, as admin or modeler of the watched environment)
 * - `watchStartAccess: "environment-modeler"` resolves `watchStart` (the environment named in the body, modeler)
 * @module
 */
import { Elysia } from "elysia";
import type { AppContext } from "../context.ts";
import { required } from "../http/auth.ts";
import { accessRule } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { watchScope, watchStartTarget } from "./access.ts";

/** Watch-mode rules: `reader` (status) sees the organization or reads its watch; `modeler` (stop) also holds the modeler role on the watched environment. */
export type WatchRule = "reader" | "modeler";

/** Elysia plugin adding `watchAccess` and `watchStartAccess` (see the module comment). */
export function watchRules(ctx: AppContext) {
  return new Elysia({ name: "watch-rules", seed: ctx.id })
    .use(security(ctx))
    .macro({
      watchAccess: accessRule((need: WatchRule) => `watch:${need}`, async ({ principal, query }, need) => ({
        watch: await watchScope(ctx, required(principal ?? null), { orgName: query.organizationName as string | undefined, need }),
      })),
      /** The environment a start names in its body (`organizationName?`, `environmentName`), when the caller is its admin or modeler. */
      watchStartAccess: accessRule((need: "environment-modeler") => `watch:${need}-named-in-body`, async ({ principal, body }) => ({
        watchStart: await watchStartTarget(ctx, required(principal ?? null), body as { organizationName?: string; environmentName: string }),
      })),
    });
}
