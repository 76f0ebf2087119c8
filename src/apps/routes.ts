/**
 * `GET E/packages/{pkg}/app/*`: the in-package web app, the `public/` folder of
 * the package's latest version (package viewer). Served under both
 * `/environments` and `/projects`.
 * @module
 */
import { Elysia, t } from "elysia";
import { environmentScoped } from "../http/aliases.ts";
import { required } from "../http/auth.ts";
import type { TokenSigner } from "../http/auth.ts";
import { appTokenCookie, browserPrincipal } from "../http/browser_token.ts";
import type { Principal } from "../http/principal.ts";
import type { AppContext } from "../http/context.ts";
import { notFound } from "../http/errors.ts";
import { security } from "../http/security.ts";
import { packageFor, pkgParams } from "../packages/routes.ts";
import { resolveVersion } from "../versions/store.ts";
import { appFile, appPath, contentTypeOf, extractedDir } from "./files.ts";

const encoder = new TextEncoder();

async function etagOf(sha256: string, path: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(`${sha256}:${path}`));
  return `"${[...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

/** The request path up to and including `/packages/{pkg}/` (the cookie's scope) and the raw part after `/app/`. */
function splitAppUrl(request: Request, pkg: string): { base: string; raw: string } {
  const pathname = new URL(request.url).pathname;
  const marker = `/packages/${pkg}/app`;
  const at = pathname.indexOf(marker);
  return { base: pathname.slice(0, at + `/packages/${pkg}/`.length), raw: pathname.slice(at + marker.length + 1) };
}

const APP_DOC = "Serves `public/<path>` of the latest unarchived version (`index.html` for the app root and for folders), with the " +
  "content type of the extension, `Cache-Control: no-cache` and an `ETag` (sha256 of the archive's sha256 and the path; " +
  "`If-None-Match` answers 304), so a reload after a new version gets the new files. `..` or `.` segments: 400; a missing " +
  "file: 404. A browser navigation cannot send `Authorization`: open the app with `?access_token=<token>` once; the response " +
  "sets an HttpOnly, SameSite=Strict cookie scoped to the package's path, which authenticates the app's other files and its " +
  "events stream (`../events`). Apps are served on the API's origin: only package modelers can publish them.";

/** What the app handler reads of Elysia's context. */
interface AppRequest {
  params: { org: string; env: string; pkg: string };
  principal: Principal | null;
  signer: TokenSigner;
  request: Request;
}

async function serveApp(ctx: AppContext, input: AppRequest): Promise<Response> {
  const { request } = input;
  const url = new URL(request.url);
  // Elysia routes `app` and `app/` alike: the bare form redirects so the app's relative URLs resolve.
  if (url.pathname.endsWith("/app")) {
    return new Response(null, { status: 301, headers: { location: `${url.pathname}/${url.search}` } });
  }
  const credential = await browserPrincipal(ctx, request, { principal: input.principal, signer: input.signer });
  const pkg = await packageFor(ctx, required(credential.principal), input.params);
  const { base, raw } = splitAppUrl(request, pkg.name);
  const path = appPath(raw);
  const version = await resolveVersion(ctx.sql, pkg.id);
  if (!version) throw notFound(`package '${pkg.name}' has no unarchived version`);
  const found = await appFile(await extractedDir(ctx, version.blobSha256), path);
  const etag = await etagOf(version.blobSha256, found.path);
  const headers = new Headers({
    "cache-control": "no-cache",
    etag,
    "x-version-id": version.id,
    "x-content-type-options": "nosniff",
  });
  if (credential.fromQuery) headers.append("set-cookie", appTokenCookie(credential.fromQuery, { path: base }));
  const match = request.headers.get("if-none-match");
  if (match && match.split(",").some((m) => m.trim() === etag)) return new Response(null, { status: 304, headers });
  headers.set("content-type", contentTypeOf(found.path));
  return new Response(Bun.file(found.file), { headers });
}

function appsPlugin(ctx: AppContext, prefix: string) {
  const detail = { summary: "In-package web app files (public/ of the latest version; package viewer)", description: APP_DOC, tags: ["data"] };
  return new Elysia({ prefix })
    .use(security(ctx))
    .get("/:env/packages/:pkg/app", (c) => serveApp(ctx, c), { params: pkgParams, detail: { ...detail, summary: "The app root; `.../app` redirects to `.../app/`" } })
    .get("/:env/packages/:pkg/app/*", (c) => serveApp(ctx, c as AppRequest), {
      params: t.Object({ ...pkgParams.properties }, { additionalProperties: true }),
      detail,
    });
}

/** The app routes under both `/environments` and `/projects`. */
export function appRoutes(ctx: AppContext) {
  return environmentScoped((prefix) => appsPlugin(ctx, prefix));
}
