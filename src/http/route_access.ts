/**
 * Access as one declared mechanism: every route states who may call it with a
 * route option, and this module's macro loads the resource, decides and hands
 * the handler what it loaded. One key per level, each with one resolved shape:
 *
 * - `orgAccess: "member" | "modeler" | "admin" | "user-member" | "admin-or-self"` resolves `org`
 * - `orgListingAccess: "environment-viewer" | "package-viewer"` resolves `orgSeen` (a member, or a caller
 *   who sees one of the organization's environments or packages)
 * - `envAccess: "viewer" | "modeler" | "admin" | "package-viewer"` resolves `env`
 * - `publishAccess: "modeler"` resolves `env` (package modeler, or environment modeler for a new package)
 * - `pkgAccess: "viewer" | "modeler" | "admin"` resolves `pkg`
 * - `versionAccess: "viewer" | "modeler" | "admin"` resolves `pkg` and `version`
 * - `wsAccess: "viewer" | "manager"` resolves `ws`
 * - `docAccess: "viewer" | "editor"` resolves `doc`
 * - `documentsAccess: "viewer-of-any"` resolves `wsOfDocs` (the workspace, seen directly or through one of its documents)
 * - `groupAccess: "member" | "admin"` resolves `group`
 * - `shareAccess: "workspace-manager-package-modeler"` resolves `share` (`ws`, `pkg`)
 * - `permissionAccess: { level, need }` (the permission routes of a level; `need`:
 *   `manage`, `manage-or-own`, `manage-or-request`) resolves `grants`
 * - `watchAccess: "reader" | "modeler"` resolves `watch` (the watch of `?organizationName=`: `reader` sees
 *   the organization or reads its watch; `modeler` also stops it, as admin or modeler of the watched environment)
 * - `watchStartAccess: "environment-modeler"` resolves `watchStart` (the environment named in the body, modeler)
 * - `userAccess: "self-or-admin"`: the user `{userName}` itself or a system administrator
 * - `access: "public" | "authenticated" | "user" | "system:admin" | "custom:<name>"` for
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
import { ADMIN, MODEL, READ, roleName } from "../access/roles.ts";
import { isSystemAdmin, type Principal } from "../access/principal.ts";
import { required, requiredUser } from "./auth.ts";
import type { AppContext } from "../context.ts";
import { requestMeta } from "./request_meta.ts";
import { ConflictError, ForbiddenError, NotFoundError } from "../errors.ts";
import { organizationFor } from "../organizations/lookup.ts";
import { environmentFor, organizationSeenThrough } from "../environments/lookup.ts";
import { packageFor, publishTarget } from "../packages/lookup.ts";
import { versionFor } from "../packages/version_lookup.ts";
import { shareTarget, workspaceFor } from "../workspaces/lookup.ts";
import { documentFor, documentsWorkspace } from "../documents/lookup.ts";
import { groupFor } from "../groups/access.ts";
import { checkKind, checkRole, locate, mayShare, requireManage, requireOwn, requireRequester, self, type Located, type PermissionLevel } from "../permissions/access.ts";
import { watchScope, watchStartTarget } from "../watch/access.ts";
import { parsePrincipal } from "./params.ts";
import { security } from "./security.ts";

/**
 * Organization roles a route can need; `user-member`: a member calling with a
 * user's token (API keys: 403, before the lookup); `admin-or-self`: a member who
 * is the user `{userName}` of the path or an organization admin (403 otherwise);
 * `workspace-creator`: an admin or modeler (others, 403, are pointed to their personal workspace).
 */
export type OrgRule = "member" | "modeler" | "admin" | "user-member" | "admin-or-self" | "workspace-creator";
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
 * with credentials, 401 otherwise), `user` (a user's token; API keys: 403), `system:admin` (403 for others), or
 * `custom:<name>`: the decision is the named domain function the handler calls.
 */
export type NamedRule = "public" | "authenticated" | "user" | "system:admin" | `custom:${string}`;

const RANK: Record<Exclude<OrgRule, "workspace-creator"> | PkgRule | WsRule | DocRule, number> = { member: READ, "user-member": READ, "admin-or-self": READ, viewer: READ, modeler: MODEL, admin: ADMIN, manager: ADMIN, editor: ADMIN };

type Params = Record<string, string>;

/** The organization `{org}` when the caller holds `need` on it (`since`: when the request arrived, see organizationFor). */
async function orgRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: OrgRule, since?: number) {
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

/** The organization `{org}` of a listing: a member, or a caller who sees one of its environments or packages (404 otherwise). */
async function orgListingRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, through: "environment-viewer" | "package-viewer") {
  return await organizationSeenThrough(ctx.sql, required(principal ?? null), params.org!, through === "environment-viewer" ? "environment" : "package");
}

/** The environment of a publish to `{org}/{env}/{pkg}`: a package modeler, or an environment modeler when the package is new. */
async function publishRule(ctx: AppContext, principal: Principal | null | undefined, params: Params) {
  return await publishTarget(ctx, required(principal ?? null), { org: params.org!, env: params.env!, pkg: params.pkg! });
}

/** The environment `{org}/{env}` when the caller holds `need` on it. */
async function envRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: EnvRule) {
  const where = { org: params.org!, env: params.env! };
  if (need === "package-viewer") return await environmentFor(ctx, required(principal ?? null), { ...where, visibleThroughPackages: true });
  return await environmentFor(ctx, required(principal ?? null), { ...where, need: RANK[need] });
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

/** The package `{org}/{env}/{pkg}` when the caller holds `need` on it. */
async function pkgRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: PkgRule) {
  return await packageFor(ctx, required(principal ?? null), { org: params.org!, env: params.env!, pkg: params.pkg!, need: RANK[need] });
}

/** The package and version `{org}/{env}/{pkg}/versions/{versionId}` when the caller holds `need` on the package. */
async function versionRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: PkgRule) {
  return await versionFor(ctx, required(principal ?? null), {
    org: params.org!, env: params.env!, pkg: params.pkg!, versionId: params.versionId!, need: RANK[need],
  });
}

/** What a method does to the resource, for 403 messages. */
const ACTIONS: Record<string, string> = { PATCH: "updating it", PUT: "updating it", DELETE: "deleting it" };
/** What a method does below a workspace (only documents are created there), for 403 messages. */
const WS_ACTIONS: Record<string, string> = { ...ACTIONS, POST: "creating a document" };

/** The workspace `{org}/{ws}` when the caller holds `need` on it. */
async function wsRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: WsRule, method = "GET") {
  return await workspaceFor(ctx, required(principal ?? null), { org: params.org!, ws: params.ws!, need: RANK[need], action: WS_ACTIONS[method] });
}

/** The workspace `{org}/{ws}` and the package `?environmentName=&packageName=` of a package-access change: the caller manages the workspace and is a package admin or modeler (404 for either one it cannot see). */
async function shareRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, query: Record<string, unknown>) {
  return await shareTarget(ctx, required(principal ?? null), {
    org: params.org!, ws: params.ws!, environmentName: String(query.environmentName), packageName: String(query.packageName),
  });
}

/** The workspace `{org}/{ws}` of a document listing: the caller sees the workspace or one of its documents. */
async function documentsRule(ctx: AppContext, principal: Principal | null | undefined, params: Params) {
  return await documentsWorkspace(ctx, required(principal ?? null), { org: params.org!, ws: params.ws! });
}

/** The document `{org}/{ws}/{documentId}` when the caller holds `need` on it. */
async function docRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: DocRule, method = "GET") {
  return await documentFor(ctx, required(principal ?? null), {
    org: params.org!, ws: params.ws!, documentId: params.documentId!, need: RANK[need], action: ACTIONS[method],
  });
}

/** The group `{org}/{group}` when the caller may see it (`member`) or manage it (`admin`). */
async function groupRule(ctx: AppContext, principal: Principal | null | undefined, params: Params, need: GroupRule) {
  return await groupFor(ctx, required(principal ?? null), { org: params.org!, group: params.group!, manage: need === "admin" });
}

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
async function permissionRule(
  ctx: AppContext,
  principal: Principal | null | undefined,
  input: { params: Params; query: Record<string, unknown>; body: unknown; method: string },
  spec: PermissionLevel,
  need: PermissionRule,
): Promise<Grants> {
  const p = required(principal ?? null);
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
    else if (!(mayShare(spec, loc) && input.method === "GET")) requireManage(spec, loc);
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

/** Watch-mode rules: `reader` (status) sees the organization or reads its watch; `modeler` (stop) also holds the modeler role on the watched environment. */
export type WatchRule = "reader" | "modeler";

/** The watch of `?organizationName=` when the caller holds `need` on it (see {@link WatchRule}). */
async function watchRule(ctx: AppContext, principal: Principal | null | undefined, query: Record<string, unknown>, need: WatchRule) {
  return await watchScope(ctx, required(principal ?? null), { orgName: query.organizationName as string | undefined, need });
}

/** The environment a watch-mode start names in its body (`organizationName?`, `environmentName`), when the caller is its admin or modeler. */
async function watchStartRule(ctx: AppContext, principal: Principal | null | undefined, body: unknown) {
  return await watchStartTarget(ctx, required(principal ?? null), body as { organizationName?: string; environmentName: string });
}

/** What a `custom:` rule decides on. */
interface RuleInput {
  principal: Principal | null | undefined;
  params: Params;
  request: Request;
  body: unknown;
}

/**
 * `custom:` rules decided here, one function each. A `custom:` rule not listed
 * is decided by the domain function its handler calls first (named in the rule).
 */
const CUSTOM_RULES: Record<string, (input: RuleInput) => void> = {
  /**
   * Creating an organization: a system administrator, or a signed-in caller
   * with an invite in `X-Invite-Token`, or no session at all with an invite and
   * `user` credentials in the body (the redemption checks them).
   */
  "invite-or-system-admin"({ principal, request, body }) {
    const invite = request.headers.get("x-invite-token");
    if (!principal && invite !== null && (body as { user?: unknown } | null)?.user) return;
    const p = required(principal ?? null);
    if (invite === null && !isSystemAdmin(p)) {
      throw new ForbiddenError("only a system administrator can create organizations; others need an invite token in X-Invite-Token");
    }
  },
};

/** A rule on no single resource (see {@link NamedRule}). */
function namedRule(rule: NamedRule, input: RuleInput): void {
  if (rule === "public") return;
  if (rule.startsWith("custom:")) {
    CUSTOM_RULES[rule.slice("custom:".length)]?.(input);
    return;
  }
  const p = rule === "user" ? requiredUser(input.principal ?? null) : required(input.principal ?? null);
  if (rule === "system:admin" && !isSystemAdmin(p)) throw new ForbiddenError("this operation needs a system administrator");
}

/** The user `{userName}` rule: the user itself or a system administrator (404 for others, no existence leak); only a system administrator changes `systemAdmin` (403). */
function userRule(principal: Principal | null | undefined, params: Params, body: unknown): void {
  const p = required(principal ?? null);
  const admin = isSystemAdmin(p);
  if (!admin && !(p.kind === "user" && p.userName === params.userName)) throw new NotFoundError(`user '${params.userName}' not found`);
  if (!admin && (body as { systemAdmin?: unknown } | null)?.systemAdmin !== undefined) {
    throw new ForbiddenError("only a system administrator can change systemAdmin");
  }
}

/** The OpenAPI extension naming an operation's rule. */
const ACCESS_FIELD = "x-access";

function declared(rule: string) {
  // the `detail` type lists only OpenAPI's own fields; extensions are allowed by the spec
  return { [ACCESS_FIELD]: rule } as { summary?: string };
}

/**
 * Elysia plugin adding only `access: "public" | "custom:<name>"`, for routes
 * outside the authenticated groups (health, sign-in pages, OAuth endpoints, the
 * MCP endpoint, which authenticates its own bearer tokens): it declares the
 * rule and derives nothing, so those routes keep running without the request
 * authenticator; a `custom:` rule here is decided by the domain function it names.
 */
export const publicAccess = new Elysia({ name: "public-access" }).macro({
  access: (rule: "public" | `custom:${string}`) => ({ detail: declared(rule) }),
});

/** Elysia plugin adding the access route options (see the module comment). */
export function routeAccess(ctx: AppContext) {
  return new Elysia({ name: "route-access", seed: ctx.id })
    .use(security(ctx))
    .macro({
      access: (rule: NamedRule) => ({
        detail: declared(rule),
        beforeHandle({ principal, params, request, body }) {
          namedRule(rule, { principal, params: params, request, body });
        },
      }),
      userAccess: (need: "self-or-admin") => ({
        detail: declared(`user:${need}`),
        beforeHandle({ principal, params, body }) {
          userRule(principal, params, body);
        },
      }),
      orgAccess: (need: OrgRule) => ({
        detail: declared(`organization:${need}`),
        async resolve({ params, principal, request }) {
          return { org: await orgRule(ctx, principal, params, need, requestMeta(request)?.start) };
        },
      }),
      orgListingAccess: (through: "environment-viewer" | "package-viewer") => ({
        detail: declared(`organization:member-or-${through}`),
        async resolve({ params, principal }) {
          return { orgSeen: await orgListingRule(ctx, principal, params, through) };
        },
      }),
      publishAccess: (need: "modeler") => ({
        detail: declared(`package:${need}-or-new-in-environment`),
        async resolve({ params, principal }) {
          return { env: await publishRule(ctx, principal, params) };
        },
      }),
      envAccess: (need: EnvRule) => ({
        detail: declared(`environment:${need}`),
        async resolve({ params, principal }) {
          return { env: await envRule(ctx, principal, params, need) };
        },
      }),
      pkgAccess: (need: PkgRule) => ({
        detail: declared(`package:${need}`),
        async resolve({ params, principal }) {
          return { pkg: await pkgRule(ctx, principal, params, need) };
        },
      }),
      versionAccess: (need: PkgRule) => ({
        detail: declared(`package:${need}`),
        async resolve({ params, principal }) {
          return await versionRule(ctx, principal, params, need);
        },
      }),
      wsAccess: (need: WsRule) => ({
        detail: declared(`workspace:${need}`),
        async resolve({ params, principal, request }) {
          return { ws: await wsRule(ctx, principal, params, need, request.method) };
        },
      }),
      shareAccess: (need: "workspace-manager-package-modeler") => ({
        detail: declared(`workspace-package:${need}`),
        async resolve({ params, principal, query }) {
          return { share: await shareRule(ctx, principal, params, query) };
        },
      }),
      groupAccess: (need: GroupRule) => ({
        detail: declared(`group:${need}`),
        async resolve({ params, principal }) {
          return { group: await groupRule(ctx, principal, params, need) };
        },
      }),
      permissionAccess: ({ level, need }: { level: PermissionLevel; need: PermissionRule }) => ({
        detail: declared(`permissions:${need}`),
        async resolve({ params, principal, query, body, request }) {
          return { grants: await permissionRule(ctx, principal, { params: params, query, body, method: request.method }, level, need) };
        },
      }),
      documentsAccess: (need: "viewer-of-any") => ({
        detail: declared(`documents:${need}`),
        async resolve({ params, principal }) {
          return { wsOfDocs: await documentsRule(ctx, principal, params) };
        },
      }),
      watchAccess: (need: WatchRule) => ({
        detail: declared(`watch:${need}`),
        async resolve({ principal, query }) {
          return { watch: await watchRule(ctx, principal, query, need) };
        },
      }),
      watchStartAccess: (need: "environment-modeler") => ({
        detail: declared(`watch:${need}-named-in-body`),
        async resolve({ principal, body }) {
          return { watchStart: await watchStartRule(ctx, principal, body) };
        },
      }),
      docAccess: (need: DocRule) => ({
        detail: declared(`document:${need}`),
        async resolve({ params, principal, request }) {
          return { doc: await docRule(ctx, principal, params, need, request.method) };
        },
      }),
    });
}
