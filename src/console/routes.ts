/**
 * `GET /`: the landing page. API clients get `{ name, version, docs }`; a
 * browser (Accept: text/html) signed in with the sign-in page's session gets
 * the console, one not signed in the landing page with the sign-in link.
 * `GET /console/{file}` serves the console's own script and style sheet. The
 * console adds no API route: its script calls the REST API with a token from
 * `POST /api/v0/auth/token` (`grantType: "session"`).
 * @module
 */
import { Elysia, t } from "elysia";
import pkgJson from "../../package.json" with { type: "json" };
import { sessionPrincipal } from "../apps/session.ts";
import type { AppContext } from "../context.ts";
import { notFound } from "../http/errors.ts";
import { publicAccess } from "../http/route_access.ts";
import { wantsHtml } from "../apps/signin_links.ts";
import { landingPage, PAGE_HEADERS } from "../signin/page.ts";
import { consoleAssets } from "./bundle.ts";
import { CONSOLE_HEADERS, consolePage } from "./page.ts";

/** Name the landing page and `GET /` answer. */
const SERVICE_NAME = "Malloy data-modeling platform";
/** Version of the service (package.json). */
const SERVICE_VERSION: string = pkgJson.version;
/** Where the API documentation is served. */
const DOCS_PATH = "/api/v0/docs";

/** The landing page and the console's files. */
export function consoleRoutes(ctx: AppContext) {
  return new Elysia()
    .use(publicAccess)
    .get("/", async ({ request }) => {
      if (!wantsHtml(request)) return Response.json({ name: SERVICE_NAME, version: SERVICE_VERSION, docs: DOCS_PATH });
      const principal = await sessionPrincipal(ctx, request);
      if (!principal || principal.kind !== "user") {
        return new Response(landingPage({ name: SERVICE_NAME, version: SERVICE_VERSION, docs: DOCS_PATH }), { headers: PAGE_HEADERS });
      }
      // the page's script follows at once: build it now, in the background
      consoleAssets().catch((error: unknown) => ctx.log({ level: "error", event: "console_build_failed", message: (error as Error).message }));
      return new Response(consolePage({ name: SERVICE_NAME, version: SERVICE_VERSION, userName: principal.userName }), { headers: CONSOLE_HEADERS });
    }, {
      access: "public",
      detail: {
        summary: "Landing page: `{ name, version, docs }` for API clients; for browsers the console when signed in at /signin, else a page with the sign-in and docs links",
        tags: ["auth"],
        security: [],
      },
    })
    .get("/console/:file", async ({ params, request }) => {
      const file = (await consoleAssets()).get(params.file);
      if (!file) throw notFound(`no console file '${params.file}': the console's files are app.js, console.css and favicon.svg`);
      const headers: Record<string, string> = { "content-type": file.type, etag: file.etag, "cache-control": "no-cache", vary: "accept-encoding" };
      if (request.headers.get("if-none-match") === file.etag) return new Response(null, { status: 304, headers });
      const gzip = /\bgzip\b/.test(request.headers.get("accept-encoding") ?? "");
      if (gzip) headers["content-encoding"] = "gzip";
      return new Response(gzip ? file.gzip : file.body, { headers });
    }, { access: "public", params: t.Object({ file: t.String() }), detail: { hide: true } });
}
