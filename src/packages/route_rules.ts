/**
 * Access rules of the package routes, also used by the routes below a package
 * (versions, models, queries, runs, events, materializations, indexes, apps;
 * see src/http/route_access.ts):
 *
 * - `pkgAccess: "viewer" | "modeler" | "admin"` resolves `pkg`
 * - `versionAccess: "viewer" | "modeler" | "admin"` resolves `pkg` and `version`
 * - `publishAccess: "modeler"` resolves `env` (package modeler, or environment modeler for a new package)
 * @module
 */
import { Elysia } from "elysia";
import { ADMIN, MODEL, READ } from "../access/roles.ts";
import type { AppContext } from "../context.ts";
import { required } from "../http/auth.ts";
import { accessRule } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { packageFor, publishTarget } from "./lookup.ts";
import { versionFor } from "./version_lookup.ts";

/** Package (and version) roles a route can need. */
export type PkgRule = "viewer" | "modeler" | "admin";

const RANK: Record<PkgRule, number> = { viewer: READ, modeler: MODEL, admin: ADMIN };

/** Elysia plugin adding `pkgAccess`, `versionAccess` and `publishAccess` (see the module comment). */
export function packageRules(ctx: AppContext) {
  return new Elysia({ name: "package-rules", seed: ctx.id })
    .use(security(ctx))
    .macro({
      pkgAccess: accessRule((need: PkgRule) => `package:${need}`, async ({ principal, params }, need) => ({
        pkg: await packageFor(ctx, required(principal ?? null), { org: params.org!, env: params.env!, pkg: params.pkg!, need: RANK[need] }),
      })),
      versionAccess: accessRule((need: PkgRule) => `package:${need}`, async ({ principal, params }, need) =>
        await versionFor(ctx, required(principal ?? null), {
          org: params.org!, env: params.env!, pkg: params.pkg!, versionId: params.versionId!, need: RANK[need],
        })),
      publishAccess: accessRule((need: "modeler") => `package:${need}-or-new-in-environment`, async ({ principal, params }) => ({
        env: await publishTarget(ctx, required(principal ?? null), { org: params.org!, env: params.env!, pkg: params.pkg! }),
      })),
    });
}
