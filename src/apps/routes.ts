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
 *
 * With `APP_ORIGIN` (see ./origin.ts) the platform origin serves no app file:
 * a page answers a launch form that posts a 60-second launch credential to the
 * same URL on the app origin, which answers the page (the `POST` route here).
 * @module
 */
import { Elysia, t } from "elysia";
import { environmentScoped } from "../http/aliases.ts";
import { required } from "../http/auth.ts";
import { sessionPrincipal } from "./session.ts";
import type { AppContext } from "../context.ts";
import { notFound, unauthenticated } from "../http/errors.ts";
import type { Principal } from "../access/principal.ts";
import { routeAccess } from "../http/route_access.ts";
import { packageRules } from "../packages/route_rules.ts";
import { security } from "../http/security.ts";
import { packageFor } from "../packages/lookup.ts";
import { pkgParams } from "../http/resource_params.ts";
import type { PackageRow } from "../packages/store.ts";
import { signInUrl, wantsHtml } from "./signin_links.ts";
import { resolveVersion } from "../versions/store.ts";
import { signCredential, spendLaunch, subjectOf, verifyCredential } from "./credentials.ts";
import { appFile, appPath, contentTypeOf, extractedDir } from "./files.ts";
import { appPrincipalNow, appRefusal, appStandingNow, appTokenOf, routeIsScope } from "./scope.ts";
import { atAppOrigin } from "./origin.ts";

/** The CSP of every app file: an opaque origin that may run scripts, submit forms and open popups. */
const APP_CSP = "sandbox allow-scripts allow-forms allow-popups";

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
  "token of `POST .../app-token`), `<meta name=\"app-api\" content=\"…\">` (the package's API address: its path, or with `APP_ORIGIN` " +
  "the platform's origin and path) and a `<base href=\".../app/~<capability>/…\">` so the app's relative URLs load its other files " +
  "(a sandboxed page sends no cookie; the capability serves non-HTML files of this package's `public/` only: another package's path is " +
  "404, a link whose user or API key is gone or whose OAuth grant was revoked 401, one got for a workspace that no longer holds the " +
  "package 403). Other files carry an " +
  "`ETag` (`If-None-Match` answers 304). `..` or `.` segments: 400; a missing file: 404. With `APP_ORIGIN`, app files are served " +
  "on that origin only: here a page answers a form that posts a 60-second launch credential to the same URL there (see the POST " +
  "of this path), another file a 303 to its file link there, a file link a 308 there; on the app origin a page without a launch " +
  "answers 303 to the same URL on `PUBLIC_URL`, and no `Authorization` or cookie is read.";

/** What the app handler reads of Elysia's context. */
interface AppRequest {
  params: { org: string; env: string; pkg: string };
  principal: Principal | null;
  request: Request;
}

/**
 * An app token for a principal and a package; `since` (seconds since the
 * epoch) when it renews an app token: the chain's start carries over.
 */
async function issueAppToken(ctx: AppContext, principal: Principal, pkg: PackageRow, since?: number): Promise<{ token: string; expiresAt: string }> {
  const { token, exp } = await signCredential(ctx.jwtSecret, "app", {
    subject: await subjectOf(ctx.sql, principal),
    scope: { envId: pkg.envId, packageName: pkg.name },
    ttlSeconds: ctx.config.appTokenTtlSeconds,
    since,
  });
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}

/** Inserts the platform's elements right after `<head>` (or at the start when there is none). */
function injectIntoHtml(html: string, elements: string): string {
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
  if (!claims?.scope) throw unauthenticated("this app's file link has expired; reload the app");
  // another package's files: not found, whoever the link is of (checked before what it acts as, which is checked for this package)
  if (!(await routeIsScope(ctx.sql, input.params, claims.scope))) throw notFound("app file not found");
  const now = await appStandingNow(ctx.sql, claims, input.params);
  if (!("principal" in now)) throw appRefusal(now, "this app's file link", input.params);
  const pkg = await packageFor(ctx, now.principal, input.params);
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

/** A file of the package's latest version, for a caller who may read the package. */
async function latestFile(ctx: AppContext, caller: Principal, params: AppRequest["params"], raw: string) {
  const pkg = await packageFor(ctx, caller, params);
  const path = appPath(raw);
  const version = await resolveVersion(ctx.sql, pkg.id);
  if (!version) throw notFound(`package '${pkg.name}' has no unarchived version`);
  const found = await appFile(await extractedDir(ctx, version.blobSha256), path);
  return { pkg, version, found, type: contentTypeOf(found.path) };
}

/**
 * An app page: the file with the app token, the asset capability of its
 * `<base>` and the package's API address (`<meta name="app-api">`: the
 * platform's origin and path when the page is on `APP_ORIGIN`) injected.
 */
async function appPage(ctx: AppContext, caller: Principal, appBase: string, file: Awaited<ReturnType<typeof latestFile>>, since?: number): Promise<Response> {
  const { pkg, version, found, type } = file;
  // a page reopened by its own launch (live reload) continues the chain of the app token it had
  const appToken = await issueAppToken(ctx, caller, pkg, since);
  const left = since === undefined ? ctx.config.sessionTtlSeconds : Math.max(1, since + ctx.config.sessionTtlSeconds - Math.floor(Date.now() / 1000));
  const asset = await signCredential(ctx.jwtSecret, "asset", {
    subject: await subjectOf(ctx.sql, caller),
    scope: { envId: pkg.envId, packageName: pkg.name },
    ttlSeconds: left,
  });
  const dir = found.path.includes("/") ? found.path.slice(0, found.path.lastIndexOf("/") + 1) : "";
  const api = `${ctx.config.appOrigin ? ctx.config.publicUrl : ""}${appBase.slice(0, -"/app/".length)}`;
  const elements = `<meta name="app-token" content="${attr(appToken.token)}"><meta name="app-token-expires" content="${appToken.expiresAt}">` +
    `<meta name="app-api" content="${attr(api)}"><base href="${attr(`${appBase}~${asset.token}/${dir}`)}">` +
    // no request for the platform's /favicon.ico (there is none): a page's own icon link, later in its head, still wins
    `<link rel="icon" href="data:,">`;
  const html = injectIntoHtml(await Bun.file(found.file).text(), elements);
  return new Response(html, { headers: appHeaders({ "content-type": type, "cache-control": "no-store", "x-version-id": version.id }) });
}

/** The launch form's script, and the CSP hash that lets only it run. */
const LAUNCH_SCRIPT = "document.forms[0].submit()";
const LAUNCH_SCRIPT_HASH = new Bun.CryptoHasher("sha256").update(LAUNCH_SCRIPT).digest("base64");

/**
 * The platform's answer to an app page when apps live on `APP_ORIGIN`: a form
 * that posts a 60-second launch credential to the same path on the app
 * origin (in the body: no credential in a URL), submitted by the one script
 * the page's CSP allows.
 */
async function launchPage(ctx: AppContext, caller: Principal, request: Request, file: Awaited<ReturnType<typeof latestFile>>): Promise<Response> {
  const appOrigin = ctx.config.appOrigin!;
  const url = new URL(request.url);
  const launch = await signCredential(ctx.jwtSecret, "launch", {
    subject: await subjectOf(ctx.sql, caller),
    scope: { envId: file.pkg.envId, packageName: file.pkg.name },
    ttlSeconds: 60,
  });
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Opening the app...</title></head><body>` +
    `<form method="post" action="${attr(`${appOrigin}${url.pathname}${url.search}`)}"><input type="hidden" name="launch" value="${attr(launch.token)}">` +
    `<noscript><button type="submit">Open the app</button></noscript></form><script>${LAUNCH_SCRIPT}</script></body></html>`;
  return new Response(html, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": `default-src 'none'; script-src 'sha256-${LAUNCH_SCRIPT_HASH}'; form-action ${appOrigin} 'self'; frame-ancestors 'none'; base-uri 'none'`,
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
    },
  });
}

/** A redirect to the same path and query on another origin. */
function sameUrlOn(origin: string, request: Request, status: number): Response {
  const url = new URL(request.url);
  return new Response(null, { status, headers: { location: `${origin}${url.pathname}${url.search}`, "cache-control": "no-store" } });
}

async function serveApp(ctx: AppContext, input: AppRequest): Promise<Response> {
  const { request } = input;
  const url = new URL(request.url);
  // Elysia routes `app` and `app/` alike: the bare form redirects so the app's relative URLs resolve.
  if (url.pathname.endsWith("/app")) {
    return new Response(null, { status: 301, headers: { location: `${url.pathname}/${url.search}` } });
  }
  const separate = ctx.config.appOrigin !== undefined;
  const onAppOrigin = atAppOrigin(ctx, request);
  const { appBase, raw } = splitAppUrl(request, input.params.pkg);
  if (raw.startsWith("~")) {
    // a file link of a page: served on the app origin only
    if (separate && !onAppOrigin) return sameUrlOn(ctx.config.appOrigin!, request, 308);
    const slash = raw.indexOf("/");
    return await serveAsset(ctx, input, raw.slice(1, slash < 0 ? undefined : slash), slash < 0 ? "" : raw.slice(slash + 1));
  }
  // on the app origin, a page opens through the platform's launch form (it reads no credential of its own)
  if (onAppOrigin) return sameUrlOn(ctx.config.publicUrl!, request, 303);
  const caller = await appCaller(ctx, input);
  if (caller instanceof Response) return caller;
  const file = await latestFile(ctx, caller, input.params, raw);
  if (file.type.startsWith("text/html")) return separate ? await launchPage(ctx, caller, request, file) : await appPage(ctx, caller, appBase, file);
  if (separate) {
    // another file opened by its plain URL: through a file link on the app origin
    const asset = await signCredential(ctx.jwtSecret, "asset", {
      subject: await subjectOf(ctx.sql, caller),
      scope: { envId: file.pkg.envId, packageName: file.pkg.name },
      ttlSeconds: 60,
    });
    return new Response(null, { status: 303, headers: { location: `${ctx.config.appOrigin}${appBase}~${asset.token}/${file.found.path}`, "cache-control": "no-store" } });
  }
  const etag = await etagOf(file.version.blobSha256, file.found.path);
  const headers = appHeaders({ "cache-control": "no-cache", etag, "x-version-id": file.version.id });
  const match = request.headers.get("if-none-match");
  if (match && match.split(",").some((m) => m.trim() === etag)) return new Response(null, { status: 304, headers });
  headers.set("content-type", file.type);
  return new Response(Bun.file(file.found.file), { headers });
}

/** Where a launch that cannot open the page sends the browser: the page's URL on the platform (which signs the viewer in). */
function reopen(ctx: AppContext, request: Request): Response {
  if (ctx.config.appOrigin) return sameUrlOn(ctx.config.publicUrl!, request, 303);
  const url = new URL(request.url);
  return new Response(null, { status: 303, headers: { location: `${url.pathname}${url.search}`, "cache-control": "no-store" } });
}

/**
 * `POST .../app/*`: a launch form's post, answered with the app page: on
 * `APP_ORIGIN` (the platform's launch form), and on the platform's origin
 * when apps are served there (a page reloading itself with a launch from
 * `app-token?launch=true`, since a sandboxed page's reload carries no cookie).
 */
async function launchApp(ctx: AppContext, input: AppRequest & { body: { launch: string } }): Promise<Response> {
  if (ctx.config.appOrigin && !atAppOrigin(ctx, input.request)) throw notFound("app pages are posted to on APP_ORIGIN only; open the app with GET");
  const claims = await verifyCredential(ctx.jwtSecret, "launch", input.body.launch);
  // expired (a reload after a minute) or invalid: open the app again through the platform
  if (!claims?.scope) return reopen(ctx, input.request);
  // another package's page: not found, whoever the launch is of (and not spent)
  if (!(await routeIsScope(ctx.sql, input.params, claims.scope))) throw notFound("app file not found");
  // its user gone, its OAuth grant revoked, its workspace no longer holding the package: back, as an expired one
  const principal = await appPrincipalNow(ctx.sql, claims, input.params);
  if (!principal) return reopen(ctx, input.request);
  const { appBase, raw } = splitAppUrl(input.request, input.params.pkg);
  const file = await latestFile(ctx, principal, input.params, raw);
  if (!file.type.startsWith("text/html")) throw notFound("only app pages are opened with a launch form");
  // a launch opens one page once: a second post of it (a copied form, a replay) goes back like an expired one
  if (!(await spendLaunch(ctx.sql, claims))) return reopen(ctx, input.request);
  // the chain of app tokens goes on from the launch's start (a live reload does not extend SESSION_TTL_S)
  if (Date.now() / 1000 - claims.since > ctx.config.sessionTtlSeconds) return reopen(ctx, input.request);
  return await appPage(ctx, principal, appBase, file, claims.since);
}

const LAUNCH_DOC = "With `APP_ORIGIN`, only on that origin (404 elsewhere); without it, on the platform's origin, where a page reloads " +
  "itself (live reload of /sdk/publisher.js) by posting a launch from `POST .../app-token?launch=true`. Opening an app page on the platform origin " +
  "(`GET .../app/...`, signed in) answers a form that posts `launch` (a 60-second credential of the viewer for this package, " +
  "`application/x-www-form-urlencoded`) here; the answer is the app page, with its app token, the asset capability of its " +
  "`<base>` and `<meta name=\"app-api\">` (the package's API address on the platform origin). An expired, invalid or already used `launch` (each opens one page once) " +
  "answers 303 to the same URL on `PUBLIC_URL`, which signs the viewer in and posts a fresh one.";

const TOKEN_DOC = "Answers `{ token, expiresAt }`: an app token for this package, read-only (its models, queries and events " +
  "stream), expiring after `APP_TOKEN_TTL_S` (default 900 s). Any caller who may read the package: `Authorization` (access token, " +
  "API key, an app token of this package, which renews itself until `SESSION_TTL_S` after the app was opened, or an OAuth access token issued for an MCP resource of the package's " +
  "organization, `/mcp/{org}` or `/mcp/{org}/workspace/...`; this is the one REST route that accepts one) or the browser session cookie. The app token is refused by " +
  "every other route. Answers CORS requests of sandboxed apps (origin `null`) and of `APP_ORIGIN`, without credentials. With " +
  "`?launch=true` the answer also has `launch`: a 60-second, single-use credential a page posts (form field `launch`) to its own URL " +
  "to reload itself (a sandboxed page's reload sends no cookie); the page it opens continues the app token's chain (`SESSION_TTL_S`).";

function appsPlugin(ctx: AppContext, prefix: string) {
  const detail = { summary: "In-package web app files (public/ of the latest version; package viewer)", description: APP_DOC, tags: ["data"] };
  return new Elysia({ prefix })
    .use(security(ctx))
    .use(routeAccess(ctx))
    .use(packageRules(ctx))
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
    .post("/:env/packages/:pkg/app/*", (c) => launchApp(ctx, c as AppRequest & { body: { launch: string } }), {
      params: t.Object({ ...pkgParams.properties }, { additionalProperties: true }),
      body: t.Object({ launch: t.String({ maxLength: 4096 }) }),
      access: "custom:app-launch",
      detail: {
        summary: "Open an app page on APP_ORIGIN (the platform's launch form posts here)",
        description: LAUNCH_DOC,
        tags: ["data"],
      },
    })
    .post("/:env/packages/:pkg/app-token", async ({ pkg, principal, request, query }) => {
      // an app token renewed with itself: the chain ends SESSION_TTL_S after the app was opened (a leaked one does not live on)
      const presented = appTokenOf(request);
      const renewed = presented ? await verifyCredential(ctx.jwtSecret, "app", presented) : null;
      if (renewed && Date.now() / 1000 - renewed.since > ctx.config.sessionTtlSeconds) {
        throw unauthenticated(
          `this app token renews itself for SESSION_TTL_S (${ctx.config.sessionTtlSeconds} s) after the app was opened; open the app again (or ask with your own credentials)`,
          'Bearer realm="app", error="invalid_token"',
        );
      }
      const caller = required(principal);
      const token = await issueAppToken(ctx, caller, pkg, renewed?.since);
      if (query.launch !== "true") return token;
      const launch = await signCredential(ctx.jwtSecret, "launch", {
        subject: await subjectOf(ctx.sql, caller),
        scope: { envId: pkg.envId, packageName: pkg.name },
        ttlSeconds: 60,
        since: renewed?.since,
      });
      return { ...token, launch: launch.token };
    }, {
      params: pkgParams,
      query: t.Object({ launch: t.Optional(t.Union([t.Literal("true"), t.Literal("false")])) }),
      pkgAccess: "viewer",
      detail: { summary: "Get an app token of a package (read-only, short-lived; package viewer)", description: TOKEN_DOC, tags: ["data"] },
    });
}

/** The app routes under both `/environments` and `/projects`. */
export function appRoutes(ctx: AppContext) {
  return environmentScoped((prefix) => appsPlugin(ctx, prefix));
}
