/**
 * `GET E/packages/{pkg}/app/*`: the in-package web app, the `public/` folder of
 * the package's latest version (package viewer), and `POST E/packages/{pkg}/app-token`.
 * Served under both `/environments` and `/projects`.
 *
 * App files are served with `Content-Security-Policy: sandbox ...` (an opaque
 * origin: the app's scripts read no cookie or storage of this service). The
 * HTML is opened with the browser session (sign-in page) or `Authorization`,
 * and carries two credentials injected by the platform: the app token
 * (`<meta name="app-token">`, read-only, this package only) and a `<base>` whose
 * path holds an asset capability, since a sandboxed page's requests carry no
 * cookie: it serves the non-HTML files of this package's `public/` only.
 * @module
 */
import { Elysia, t } from "elysia";
import { environmentScoped } from "../http/aliases.ts";
import { required } from "../http/auth.ts";
import { sessionPrincipal } from "../http/browser_token.ts";
import type { AppContext } from "../http/context.ts";
import { notFound, unauthenticated } from "../http/errors.ts";
import type { Principal } from "../http/principal.ts";
import { routeAccess } from "../http/route_access.ts";
import { security } from "../http/security.ts";
import { packageFor } from "../packages/lookup.ts";
import { pkgParams } from "../http/resource_params.ts";
import type { PackageRow } from "../packages/store.ts";
import { signInUrl, wantsHtml } from "../signin/links.ts";
import { resolveVersion } from "../versions/store.ts";
import { signCredential, subjectOf, verifyCredential } from "./credentials.ts";
import { appFile, appPath, contentTypeOf, extractedDir } from "./files.ts";
import { principalOf } from "./scope.ts";

/** The CSP of every app file: an opaque origin that may run scripts, submit forms and open popups. */
export const APP_CSP = "sandbox allow-scripts allow-forms allow-popups";

const encoder = new TextEncoder();

async function etagOf(sha256: string, path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(`${sha256}:${path}`));
  return `"${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

/** The request path up to `/app/` (exclusive of what follows) and the raw part after it. */
function splitAppUrl(request: Request, pkg: string): { appBase: string; raw: string } {
  const pathname = new URL(request.url).pathname;
  const marker = `/packages/${encodeURIComponent(pkg)}/app`;
  let at = pathname.indexOf(marker);
  let length = marker.length;
  if (at < 0) {
    const plain = `/packages/${pkg}/app`;
    at = pathname.indexOf(plain);
    length = plain.length;
  }
  return { appBase: pathname.slice(0, at + length + 1), raw: pathname.slice(at + length + 1) };
}

const APP_DOC = "Serves `public/<path>` of the latest unarchived version (`index.html` for the app root and for folders) with " +
  "`Content-Security-Policy: " + APP_CSP + "` (an opaque origin), the content type of the extension and `Cache-Control: no-cache`. " +
  "HTML: opened with `Authorization` or the browser session cookie (sign-in at `/signin`; a browser without either is sent there " +
  "and back), answered with `Cache-Control: no-store` and two injected elements: `<meta name=\"app-token\" content=\"…\">` (the app " +
  "token of `POST .../app-token`) and a `<base href=\".../app/~<capability>/…\">` so the app's relative URLs load its other files " +
  "(a sandboxed page sends no cookie; the capability serves non-HTML files of this package's `public/` only). Other files carry an " +
  "`ETag` (`If-None-Match` answers 304). `..` or `.` segments: 400; a missing file: 404.";

/** What the app handler reads of Elysia's context. */
interface AppRequest {
  params: { org: string; env: string; pkg: string };
  principal: Principal | null;
  request: Request;
}

/** An app token for a principal and a package. */
export async function issueAppToken(ctx: AppContext, principal: Principal, pkg: PackageRow): Promise<{ token: string; expiresAt: string }> {
  const { token, exp } = await signCredential(ctx.jwtSecret, "app", {
    subject: await subjectOf(ctx.sql, principal),
    scope: { envId: pkg.envId, packageName: pkg.name },
    ttlSeconds: ctx.config.appTokenTtlSeconds,
  });
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

/** Inserts the platform's elements right after `<head>` (or at the start when there is none). */
export function injectIntoHtml(html: string, elements: string): string {
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + elements + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  if (doctype) return doctype[0] + elements + html.slice(doctype[0].length);
  return elements + html;
}

function attr(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
}

function appHeaders(extra: Record<string, string>): Headers {
  return new Headers({
    "content-security-policy": APP_CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    ...extra,
  });
}

/** The caller of an app file: `Authorization`, else the browser session; a page asks a browser without either to sign in. */
async function appCaller(ctx: AppContext, input: AppRequest): Promise<Principal | Response> {
  // `principal` already holds the browser session when there is no `Authorization` (see appsPlugin)
  if (input.principal) return input.principal;
  if (wantsHtml(input.request)) {
    const url = new URL(input.request.url);
    return new Response(null, { status: 303, headers: { location: signInUrl(url.pathname + url.search), "cache-control": "no-store" } });
  }
  throw unauthenticated("authentication required: sign in at /signin, or send Authorization: Bearer <access token> or ApiKey <key>");
}

/** A non-HTML file through the asset capability of its `<base>`. */
async function serveAsset(ctx: AppContext, input: AppRequest, capability: string, rest: string): Promise<Response> {
  const claims = await verifyCredential(ctx.jwtSecret, "asset", capability);
  const principal = claims ? await principalOf(ctx.sql, claims.subject) : null;
  if (!claims?.scope || !principal) throw unauthenticated("this app's file link has expired; reload the app");
  const pkg = await packageFor(ctx, principal, input.params);
  if (pkg.envId !== claims.scope.envId || pkg.name !== claims.scope.packageName) throw notFound("app file not found");
  const path = appPath(rest);
  const version = await resolveVersion(ctx.sql, pkg.id);
  if (!version) throw notFound(`package '${pkg.name}' has no unarchived version`);
  const found = await appFile(await extractedDir(ctx, version.blobSha256), path);
  const type = contentTypeOf(found.path);
  if (type.startsWith("text/html")) throw notFound("app pages open through the app's own URL, not a file link");
  const etag = await etagOf(version.blobSha256, found.path);
  const headers = appHeaders({ "cache-control": "no-cache", etag, "x-version-id": version.id });
  // module scripts and fetches of the sandboxed page are CORS requests of origin `null` (never with credentials)
  const origin = input.request.headers.get("origin");
  if (origin === "null" || (origin && origin === ctx.config.appOrigin)) {
    headers.set("access-control-allow-origin", origin);
    headers.set("vary", "Origin");
  }
  const match = input.request.headers.get("if-none-match");
  if (match && match.split(",").some((m) => m.trim() === etag)) return new Response(null, { status: 304, headers });
  headers.set("content-type", type);
  return new Response(Bun.file(found.file), { headers });
}

async function serveApp(ctx: AppContext, input: AppRequest): Promise<Response> {
  const { request } = input;
  const url = new URL(request.url);
  // Elysia routes `app` and `app/` alike: the bare form redirects so the app's relative URLs resolve.
  if (url.pathname.endsWith("/app")) {
    return new Response(null, { status: 301, headers: { location: `${url.pathname}/${url.search}` } });
  }
  const { appBase, raw } = splitAppUrl(request, input.params.pkg);
  if (raw.startsWith("~")) {
    const slash = raw.indexOf("/");
    return await serveAsset(ctx, input, raw.slice(1, slash < 0 ? undefined : slash), slash < 0 ? "" : raw.slice(slash + 1));
  }
  const caller = await appCaller(ctx, input);
  if (caller instanceof Response) return caller;
  const pkg = await packageFor(ctx, required(caller), input.params);
  const path = appPath(raw);
  const version = await resolveVersion(ctx.sql, pkg.id);
  if (!version) throw notFound(`package '${pkg.name}' has no unarchived version`);
  const found = await appFile(await extractedDir(ctx, version.blobSha256), path);
  const type = contentTypeOf(found.path);
  if (type.startsWith("text/html")) {
    const appToken = await issueAppToken(ctx, caller, pkg);
    const asset = await signCredential(ctx.jwtSecret, "asset", {
      subject: await subjectOf(ctx.sql, caller),
      scope: { envId: pkg.envId, packageName: pkg.name },
      ttlSeconds: ctx.config.sessionTtlSeconds,
    });
    const dir = found.path.includes("/") ? found.path.slice(0, found.path.lastIndexOf("/") + 1) : "";
    const elements = `<meta name="app-token" content="${attr(appToken.token)}"><meta name="app-token-expires" content="${appToken.expiresAt}">` +
      `<base href="${attr(`${appBase}~${asset.token}/${dir}`)}">`;
    const html = injectIntoHtml(await Bun.file(found.file).text(), elements);
    return new Response(html, { headers: appHeaders({ "content-type": type, "cache-control": "no-store", "x-version-id": version.id }) });
  }
  const etag = await etagOf(version.blobSha256, found.path);
  const headers = appHeaders({ "cache-control": "no-cache", etag, "x-version-id": version.id });
  const match = request.headers.get("if-none-match");
  if (match && match.split(",").some((m) => m.trim() === etag)) return new Response(null, { status: 304, headers });
  headers.set("content-type", type);
  return new Response(Bun.file(found.file), { headers });
}

const TOKEN_DOC = "Answers `{ token, expiresAt }`: an app token for this package, read-only (its models, queries and events " +
  "stream), expiring after `APP_TOKEN_TTL_S` (default 900 s). Any caller who may read the package: `Authorization` (access token, " +
  "API key, an app token of this package, which renews itself, or an OAuth access token issued for an MCP resource of the package's " +
  "organization, `/mcp/{org}` or `/mcp/{org}/workspace/...`; this is the one REST route that accepts one) or the browser session cookie. The app token is refused by " +
  "every other route. Answers CORS requests of sandboxed apps (origin `null`) and of `APP_ORIGIN`, without credentials.";

function appsPlugin(ctx: AppContext, prefix: string) {
  const detail = { summary: "In-package web app files (public/ of the latest version; package viewer)", description: APP_DOC, tags: ["data"] };
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(routeAccess(ctx))
    // the routes of this plugin (and only they, with the sign-in pages) also read the browser session cookie
    .derive(async ({ principal, request }) => ({ principal: principal ?? await sessionPrincipal(ctx, request) }))
    // app files: package viewer through `Authorization` or the session, or the asset capability of the page's `<base>`
    .get("/:env/packages/:pkg/app", (c) => serveApp(ctx, c), {
      params: pkgParams,
      access: "custom:app-files",
      detail: { ...detail, summary: "The app root; `.../app` redirects to `.../app/`" },
    })
    .get("/:env/packages/:pkg/app/*", (c) => serveApp(ctx, c as AppRequest), {
      params: t.Object({ ...pkgParams.properties }, { additionalProperties: true }),
      access: "custom:app-files",
      detail,
    })
    .post("/:env/packages/:pkg/app-token", async ({ pkg, principal }) => await issueAppToken(ctx, required(principal), pkg), {
      params: pkgParams,
      pkgAccess: "viewer",
      response: { 200: t.Object({ token: t.String(), expiresAt: t.String({ format: "date-time" }) }) },
      detail: { summary: "Get an app token of a package (read-only, short-lived; package viewer)", description: TOKEN_DOC, tags: ["data"] },
    });
}

/** The app routes under both `/environments` and `/projects`. */
export function appRoutes(ctx: AppContext) {
  return environmentScoped((prefix) => appsPlugin(ctx, prefix));
}
