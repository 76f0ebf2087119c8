/**
 * Access rules of the environment routes (see src/http/route_access.ts):
 *
 * - `envAccess: "viewer" | "modeler" | "admin" | "package-viewer"` resolves `env`
 * - `orgListingAccess: "environment-viewer" | "package-viewer"` resolves `orgSeen` (a member, or a caller
 *   who sees one of the organization's environments or packages)
 * @module
 */
import { Elysia } from "elysia";
import { ADMIN, MODEL, READ } from "../access/roles.ts";
import type { AppContext } from "../context.ts";
import { required } from "../http/auth.ts";
import { accessRule, type RuleInput } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { environmentFor, organizationSeenThrough } from "./lookup.ts";

/** Environment roles a route can need; `package-viewer`: a viewer of the environment or of one of its packages. */
export type EnvRule = "viewer" | "modeler" | "admin" | "package-viewer";

const RANK: Record<Exclude<EnvRule, "package-viewer">, number> = { viewer: READ, modeler: MODEL, admin: ADMIN };

/** The environment `{org}/{env}` when the caller holds `need` on it. */
async function envRule(ctx: AppContext, { principal, params }: RuleInput, need: EnvRule) {
  const where = { org: params.org!, env: params.env! };
  if (need === "package-viewer") return await environmentFor(ctx, required(principal ?? null), { ...where, visibleThroughPackages: true });
  return await environmentFor(ctx, required(principal ?? null), { ...where, need: RANK[need] });
}

/** The organization `{org}` of a listing: a member, or a caller who sees one of its environments or packages (404 otherwise). */
async function orgListingRule(ctx: AppContext, { principal, params }: RuleInput, through: "environment-viewer" | "package-viewer") {
  return await organizationSeenThrough(ctx.sql, required(principal ?? null), params.org!, through === "environment-viewer" ? "environment" : "package");
}

/**
 * Who reads why a connection failed its live check: an admin of the
 * environment (a modeler, who may create and change connections, gets a plain
 * `connection failed`, which tells no refused host, closed port or wrong
 * password apart). `env` is what `envAccess` resolved.
 */
export function readsConnectionErrors(env: { rank: number }): boolean {
  return env.rank >= ADMIN;
}

/** Elysia plugin adding `envAccess` and `orgListingAccess` (see the module comment). */
export function environmentRules(ctx: AppContext) {
  return new Elysia({ name: "environment-rules", seed: ctx.id })
    .use(security(ctx))
    .macro({
      envAccess: accessRule((need: EnvRule) => `environment:${need}`, async (input, need) => ({ env: await envRule(ctx, input, need) })),
      orgListingAccess: accessRule(
        (through: "environment-viewer" | "package-viewer") => `organization:member-or-${through}`,
        async (input, through) => ({ orgSeen: await orgListingRule(ctx, input, through) }),
      ),
    });
}
