/**
 * Access as one declared mechanism: every route states who may call it with a
 * route option, and this module's macro loads the resource, decides and hands
 * the handler what it loaded. One key per level, each with one resolved shape:
 *
 * - `orgAccess: "member" | "modeler" | "admin"` resolves `org`
 * - `envAccess: "viewer" | "modeler" | "admin" | "package-viewer"` resolves `env`
 * - `pkgAccess: "viewer" | "modeler" | "admin"` resolves `pkg`
 * - `versionAccess: "viewer" | "modeler" | "admin"` resolves `pkg` and `version`
 * - `wsAccess: "viewer" | "manager"` resolves `ws`
 * - `docAccess: "viewer" | "editor"` resolves `doc`
 * - `groupAccess: "member" | "admin"` resolves `group`
 * - `access: "public" | "authenticated" | "system:admin" | "custom:<name>"` for
 *   operations on no single resource, or whose rule is a named domain function
 *   (for example publish: package modeler, or environment modeler when new).
 *
 * The caller must see the resource (404 otherwise, no existence leak) and hold
 * the role (403 otherwise); the decision is the lookups' one call of
 * `effective_rank`. Every key also writes the rule into the operation's OpenAPI
 * `x-access` field, which test/foundation/access_declared.test.ts checks for
 * every operation.
 * @module
 */
import { Elysia } from "elysia";
import { ADMIN, MODEL, READ, isSystemAdmin } from "./access.ts";
import { required } from "./auth.ts";
import type { AppContext } from "./context.ts";
import type { Principal } from "./principal.ts";
import { ForbiddenError } from "../errors.ts";
import { organizationFor } from "../organizations/lookup.ts";
import { environmentFor } from "../environments/lookup.ts";
import { packageFor } from "../packages/lookup.ts";
import { versionFor } from "../versions/lookup.ts";
import { workspaceFor } from "../workspaces/lookup.ts";
import { documentFor } from "../documents/lookup.ts";
import { groupFor } from "../groups/access.ts";
import { security } from "./security.ts";

/** Organization roles a route can need. */
export type OrgRule = "member" | "modeler" | "admin";
/** Environment roles a route can need; `package-viewer`: a viewer of the environment or of one of its packages. */
export type EnvRule = "viewer" | "modeler" | "admin" | "package-viewer";
/** Package (and version) roles a route can need. */
export type PkgRule = "viewer" | "modeler" | "admin";
/** Group rules: `member` sees the group (an organization member), `admin` manages it (group or organization admin). */
export type GroupRule = "member" | "admin";
/** Document roles a route can need. */
export type DocRule = "viewer" | "editor";
/** Workspace roles a route can need. */
export type WsRule = "viewer" | "manager";
/**
 * Rules on no single resource: `public` (anyone), `authenticated` (any caller
 * with credentials, 401 otherwise), `system:admin` (403 for others), or
 * `custom:<name>`: the decision is the named domain function the handler calls.
 */
export type NamedRule = "public" | "authenticated" | "system:admin" | `custom:${string}`;

const RANK: Record<OrgRule | PkgRule | WsRule | DocRule, number> = { member: READ, viewer: READ, modeler: MODEL, admin: ADMIN, manager: ADMIN, editor: ADMIN };

type Params = Record<string, string>;

/** The organization `{org}` when the caller holds `need` on it. */
export async function orgRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: OrgRule) {
  return await organizationFor(ctx, required(principal ?? null), params.org!, RANK[need]);
}

/** The environment `{org}/{env}` when the caller holds `need` on it. */
export async function envRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: EnvRule) {
  const where = { org: params.org!, env: params.env! };
  if (need === "package-viewer") return await environmentFor(ctx, required(principal ?? null), { ...where, visibleThroughPackages: true });
  return await environmentFor(ctx, required(principal ?? null), { ...where, need: RANK[need] });
}

/** The package `{org}/{env}/{pkg}` when the caller holds `need` on it. */
export async function pkgRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: PkgRule) {
  return await packageFor(ctx, required(principal ?? null), { org: params.org!, env: params.env!, pkg: params.pkg!, need: RANK[need] });
}

/** The package and version `{org}/{env}/{pkg}/versions/{versionId}` when the caller holds `need` on the package. */
export async function versionRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: PkgRule) {
  return await versionFor(ctx, required(principal ?? null), {
    org: params.org!, env: params.env!, pkg: params.pkg!, versionId: params.versionId!, need: RANK[need],
  });
}

/** What a method does to the resource, for 403 messages. */
const ACTIONS: Record<string, string> = { PATCH: "updating it", PUT: "updating it", DELETE: "deleting it" };

/** The workspace `{org}/{ws}` when the caller holds `need` on it. */
export async function wsRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: WsRule, method = "GET") {
  return await workspaceFor(ctx, required(principal ?? null), { org: params.org!, ws: params.ws!, need: RANK[need], action: ACTIONS[method] });
}

/** The document `{org}/{ws}/{documentId}` when the caller holds `need` on it. */
export async function docRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: DocRule, method = "GET") {
  return await documentFor(ctx, required(principal ?? null), {
    org: params.org!, ws: params.ws!, documentId: params.documentId!, need: RANK[need], action: ACTIONS[method],
  });
}

/** The group `{org}/{group}` when the caller may see it (`member`) or manage it (`admin`). */
export async function groupRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: GroupRule) {
  return await groupFor(ctx, required(principal ?? null), { org: params.org!, group: params.group!, manage: need === "admin" });
}

/** A rule on no single resource (see {@link NamedRule}); `custom:` rules are decided by their domain function. */
export function namedRule(principal: Principal | null | undefined, rule: NamedRule): void {
  if (rule === "public" || rule.startsWith("custom:")) return;
  const p = required(principal ?? null);
  if (rule === "system:admin" && !isSystemAdmin(p)) throw new ForbiddenError("this operation needs a system administrator");
}

/** The OpenAPI extension naming an operation's rule. */
export const ACCESS_FIELD = "x-access";

function declared(rule: string) {
  // the `detail` type lists only OpenAPI's own fields; extensions are allowed by the spec
  return { [ACCESS_FIELD]: rule } as { summary?: string };
}

/**
 * Elysia plugin adding only `access: "public"`, for routes outside the
 * authenticated groups (health, sign-in pages): it declares the rule and
 * derives nothing, so those routes keep running without authentication.
 */
export const publicAccess = new Elysia({ name: "public-access" }).macro({
  access: (rule: "public") => ({ detail: declared(rule) }),
});

/** Elysia plugin adding the access route options (see the module comment). */
export function routeAccess(ctx: AppContext) {
  return new Elysia({ name: "route-access", seed: ctx.id })
    .use(security(ctx))
    .macro({
      access: (rule: NamedRule) => ({
        detail: declared(rule),
        beforeHandle({ principal }) {
          namedRule(principal, rule);
        },
      }),
      orgAccess: (need: OrgRule) => ({
        detail: declared(`organization:${need}`),
        async resolve({ params, principal }) {
          return { org: await orgRule(ctx, principal, params as Params, need) };
        },
      }),
      envAccess: (need: EnvRule) => ({
        detail: declared(`environment:${need}`),
        async resolve({ params, principal }) {
          return { env: await envRule(ctx, principal, params as Params, need) };
        },
      }),
      pkgAccess: (need: PkgRule) => ({
        detail: declared(`package:${need}`),
        async resolve({ params, principal }) {
          return { pkg: await pkgRule(ctx, principal, params as Params, need) };
        },
      }),
      versionAccess: (need: PkgRule) => ({
        detail: declared(`package:${need}`),
        async resolve({ params, principal }) {
          return await versionRule(ctx, principal, params as Params, need);
        },
      }),
      wsAccess: (need: WsRule) => ({
        detail: declared(`workspace:${need}`),
        async resolve({ params, principal, request }) {
          return { ws: await wsRule(ctx, principal, params as Params, need, request.method) };
        },
      }),
      groupAccess: (need: GroupRule) => ({
        detail: declared(`group:${need}`),
        async resolve({ params, principal }) {
          return { group: await groupRule(ctx, principal, params as Params, need) };
        },
      }),
      docAccess: (need: DocRule) => ({
        detail: declared(`document:${need}`),
        async resolve({ params, principal, request }) {
          return { doc: await docRule(ctx, principal, params as Params, need, request.method) };
        },
      }),
    });
}
