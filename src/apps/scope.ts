/**
 * Where an app token is accepted: the models, query and events routes and the
 * app-token endpoint of the one package it was issued for. Every other route
 * refuses it (deny by default: the REST verifier of access tokens cannot
 * verify it, and MCP never calls this module).
 * @module
 */
import type { Db } from "../db/database.ts";
import type { AppContext } from "../context.ts";
import { groupTokenPrincipal, userById, userPrincipal } from "../credentials/authenticate.ts";
import { AuthenticationError, ForbiddenError } from "../errors.ts";
import type { Principal } from "../access/principal.ts";
import { type Claims, looksLike, type PackageScope, type Subject, verifyCredential } from "./credentials.ts";
import { activeGrant, grantActive } from "../oauth/store.ts";
import { isOAuthAccessToken, verifyAccessToken } from "../oauth/tokens.ts";
import { mcpPath, serviceOrigin } from "../mcp/protected_resource.ts";
import { workspaceReaches } from "../workspaces/store.ts";

const CHALLENGE = 'Bearer realm="app", error="invalid_token"';

/**
 * What a credential's subject acts as when it is read again: its principal,
 * and for a credential got through an OAuth client authorized for a
 * workspace's MCP resource, that workspace.
 */
interface Standing {
  principal: Principal;
  /** The workspace of the subject's OAuth grant; `null` without a grant, or for an organization's resource. */
  workspace: string | null;
}

/**
 * Why a credential's subject no longer acts: its user or group token is gone
 * (or the user's password changed since), or the OAuth grant it was got
 * through was revoked.
 */
type Lapse = "gone" | "revoked";

/** A credential's subject read again, its OAuth grant (if any) read once; or why it no longer acts. */
async function standingOf(sql: Db, subject: Subject): Promise<Standing | Lapse> {
  if (!/^[0-9a-f-]{36}$/i.test(subject.id)) return "gone";
  if (subject.kind === "group") {
    const principal = await groupTokenPrincipal(sql, { tokenId: subject.id });
    return principal ? { principal, workspace: null } : "gone";
  }
  const user = await userById(sql, subject.id);
  // a password change, reset or removal since the credential was signed ends it
  if (!user || user.tokenVersion !== subject.version) return "gone";
  if (subject.oauthGrant === undefined) return { principal: userPrincipal(user), workspace: null };
  // got through an OAuth client: restricted as that client is, over when its grant is revoked, and bound to its workspace
  const grant = await activeGrant(sql, subject.oauthGrant);
  if (!grant) return "revoked";
  return { principal: { ...userPrincipal(user), oauth: true, oauthGrant: subject.oauthGrant }, workspace: grant.workspace };
}

/** The principal a credential acts as, `null` when the user or group token is gone (or the OAuth grant revoked). */
export async function principalOf(sql: Db, subject: Subject): Promise<Principal | null> {
  const standing = await standingOf(sql, subject);
  return typeof standing === "string" ? null : standing.principal;
}

/** The package route an app token may call, parsed from a request (`null` for any other route). */
export interface AppRoute {
  org: string;
  env: string;
  pkg: string;
  /** `models`, `query`, `events` or `app-token`. */
  kind: "models" | "query" | "events" | "app-token";
}

const PACKAGE_PATH = /^\/api\/v0\/organizations\/([^/]+)\/(?:environments|projects)\/([^/]+)\/packages\/([^/]+)\/(.+)$/;

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The app-token route of a method and path, or `null`. */
export function appRouteOf(method: string, pathname: string): AppRoute | null {
  const m = PACKAGE_PATH.exec(pathname);
  if (!m) return null;
  const [org, env, pkg] = [decode(m[1]!), decode(m[2]!), decode(m[3]!)];
  if (org === null || env === null || pkg === null) return null;
  const rest = m[4]!;
  let kind: AppRoute["kind"] | null = null;
  if (method === "GET" && (rest === "models" || rest.startsWith("models/"))) kind = "models";
  else if (method === "POST" && rest.startsWith("models/") && rest.endsWith("/query")) kind = "query";
  else if (method === "GET" && rest === "events") kind = "events";
  else if (method === "POST" && rest === "app-token") kind = "app-token";
  return kind ? { org, env, pkg, kind } : null;
}

/** An app token's bearer value in `Authorization`, or `null` when the header holds something else. */
export function appTokenOf(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const [scheme, value] = header.split(/\s+/, 2);
  return scheme?.toLowerCase() === "bearer" && value && looksLike(value, "app") ? value : null;
}

/** What an accepted app token yields. */
export interface AppCaller {
  principal: Principal;
  claims: Claims;
}

/**
 * Verifies an app token for a request: signature and expiry, a route it may
 * call, the package of the route is the token's, and its user or group token
 * still exists. 401 for a bad or expired token, 403 for another route or package.
 */
export async function acceptAppToken(ctx: AppContext, request: Request, token: string): Promise<AppCaller> {
  const claims = await verifyCredential(ctx.jwtSecret, "app", token);
  if (!claims?.scope) throw new AuthenticationError("app token is invalid or expired; ask POST .../packages/{pkg}/app-token for a new one", CHALLENGE);
  const route = appRouteOf(request.method, new URL(request.url).pathname);
  if (!route) throw new ForbiddenError("an app token only reads its package's models, queries and events (and renews itself at .../app-token)");
  if (!(await routeIsScope(ctx.sql, route, claims.scope))) throw new ForbiddenError(`this app token is for package '${claims.scope.packageName}' only`);
  const now = await appStandingNow(ctx.sql, claims, route);
  if ("principal" in now) return { principal: now.principal, claims };
  throw appRefusal(now, "this app token", route);
}

/** Whether a route's package is the package a credential was issued for. */
export async function routeIsScope(sql: Db, route: { org: string; env: string; pkg: string }, scope: PackageScope): Promise<boolean> {
  if (route.pkg !== scope.packageName) return false;
  const [env] = await sql<{ id: string }[]>`SELECT e.id FROM environments e JOIN organizations o ON o.id = e.org_id
                                            WHERE o.name = ${route.org} AND e.name = ${route.env}`;
  return env?.id === scope.envId;
}

/**
 * For a credential got through an OAuth client authorized for a workspace's
 * MCP resource: the workspace's name when it no longer holds the package
 * (or the user no longer sees it), else `null`. Such a credential reads a
 * package only while it is one of that workspace's.
 */
async function workspaceLost(sql: Db, standing: Standing, route: { org: string; env: string; pkg: string }): Promise<string | null> {
  const { principal, workspace } = standing;
  if (workspace === null) return null;
  return (await workspaceReaches(sql, principal, { orgName: route.org, workspace, envName: route.env, packageName: route.pkg })) ? null : workspace;
}

/** What an app credential still acts as for its package's route, or why it no longer does. */
type AppStanding = { principal: Principal } | { refused: Lapse } | { refused: "workspace"; workspace: string };

/**
 * An app credential (app token, asset link, launch) read again for its
 * package's route: its principal, or why it is refused: its user or API key
 * is gone or its password changed, its OAuth grant was revoked, or the
 * workspace it was got for no longer holds the package. The grant is read once.
 */
export async function appStandingNow(sql: Db, claims: Claims, route: { org: string; env: string; pkg: string }): Promise<AppStanding> {
  const standing = await standingOf(sql, claims.subject);
  if (typeof standing === "string") return { refused: standing };
  const workspace = await workspaceLost(sql, standing, route);
  return workspace === null ? { principal: standing.principal } : { refused: "workspace", workspace };
}

/**
 * The principal an accepted app token still acts as for its package's
 * route, read again (a long-lived event stream asks before every event):
 * `null` when {@link appStandingNow} refuses it.
 */
export async function appPrincipalNow(sql: Db, claims: Claims, route: { org: string; env: string; pkg: string }): Promise<Principal | null> {
  const now = await appStandingNow(sql, claims, route);
  return "principal" in now ? now.principal : null;
}

/**
 * The error of a refused app credential, `what` naming it ("this app token"):
 * 401 when its user or API key is gone or its OAuth grant was revoked, 403
 * when the workspace it was got for no longer holds the package.
 */
export function appRefusal(refusal: Exclude<AppStanding, { principal: Principal }>, what: string, route: { env: string; pkg: string }): AuthenticationError | ForbiddenError {
  switch (refusal.refused) {
    case "gone":
      return new AuthenticationError(`the user or API key of ${what} no longer exists, or the user's password changed since; open the app again`, CHALLENGE);
    case "revoked":
      return new AuthenticationError(`the OAuth authorization ${what} was got with was revoked; authorize the client again`, CHALLENGE);
    case "workspace":
      return new ForbiddenError(`${what} was got for workspace '${refusal.workspace}', which no longer holds package '${route.env}/${route.pkg}'`);
  }
}

/** An OAuth access token's bearer value in `Authorization`, or `null`. */
function oauthTokenOf(request: Request): string | null {
  const header = request.headers.get("authorization");
  if (!header) return null;
  const [scheme, value] = header.split(/\s+/, 2);
  return scheme?.toLowerCase() === "bearer" && value && isOAuthAccessToken(value) ? value : null;
}

/**
 * An OAuth access token at the app-token endpoint (and only there): the user
 * of an MCP client's token gets an app token of a package they can read.
 * The audience rule still holds: the token must have been issued by this
 * service for one of the MCP resources of the package's organization
 * (`/mcp/{org}` or `/mcp/{org}/workspace/...`), with the `mcp` scope and a
 * grant that stands; what it yields (an app token, read-only, one package)
 * is no more than that MCP resource already reads. Every other REST route
 * and every other MCP resource still refuses it.
 */
async function acceptOAuthForAppToken(ctx: AppContext, request: Request, token: string): Promise<Principal> {
  const challenge = 'Bearer realm="app", error="invalid_token"';
  const route = appRouteOf(request.method, new URL(request.url).pathname);
  if (route?.kind !== "app-token") throw new AuthenticationError("OAuth access tokens are accepted by the MCP endpoint they were issued for and by POST .../packages/{pkg}/app-token only", challenge);
  const origin = serviceOrigin(ctx.config, request);
  let verified;
  try {
    verified = await verifyAccessToken(token, { secret: ctx.jwtSecret, issuer: origin });
  } catch (error) {
    throw new AuthenticationError((error as Error).message, challenge);
  }
  const orgResource = `${origin}${mcpPath(route.org)}`;
  const workspacePrefix = `${orgResource}/workspace/`;
  if (verified.audience !== orgResource && !verified.audience.startsWith(workspacePrefix)) {
    throw new ForbiddenError(`this OAuth access token was issued for ${verified.audience}; it can get app tokens of organization '${route.org}' only when issued for ${orgResource}`);
  }
  if (!verified.scope.includes("mcp")) throw new AuthenticationError("OAuth access token lacks the 'mcp' scope; authorize again with scope=mcp", challenge);
  if (!(await grantActive(ctx.sql, verified.grantId))) throw new AuthenticationError("the authorization of this OAuth access token was revoked; authorize again", challenge);
  const user = await userById(ctx.sql, verified.userId);
  if (!user) throw new AuthenticationError("the user of this access token no longer exists", challenge);
  const principal: Principal = { ...userPrincipal(user), oauth: true, oauthGrant: verified.grantId };
  if (verified.audience !== orgResource) {
    // a workspace's resource reads only the packages given to that workspace (and only while the user sees it)
    const workspace = verified.audience.slice(workspacePrefix.length);
    if (!(await workspaceReaches(ctx.sql, principal, { orgName: route.org, workspace, envName: route.env, packageName: route.pkg }))) {
      throw new ForbiddenError(`this OAuth access token was issued for ${verified.audience}; package '${route.env}/${route.pkg}' is not one of that workspace's packages`);
    }
  }
  return principal;
}

/**
 * The caller of a request that carries an app credential: an app token (its
 * package's routes only), or an OAuth access token at the app-token endpoint.
 * `undefined` when `Authorization` holds neither, so the ordinary
 * authentication decides.
 */
export async function appCredentialPrincipal(ctx: AppContext, request: Request): Promise<Principal | undefined> {
  const appToken = appTokenOf(request);
  if (appToken) return (await acceptAppToken(ctx, request, appToken)).principal;
  const oauth = oauthTokenOf(request);
  if (oauth && appRouteOf(request.method, new URL(request.url).pathname)?.kind === "app-token") return await acceptOAuthForAppToken(ctx, request, oauth);
  return undefined;
}
