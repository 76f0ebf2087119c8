/**
 * `GET /api/v0/docs`: the API documentation page, rendered by Swagger UI
 * served from this service's own `node_modules` (no CDN: it works offline)
 * and reading `/api/v0/openapi.json`.
 * @module
 */
import { Elysia } from "elysia";
import { publicAccess } from "../http/route_access.ts";
import { dirname, join } from "node:path";

const SWAGGER_DIR = dirname(Bun.resolveSync("swagger-ui-dist/package.json", import.meta.dir));
/** Where the page's assets are served. */
const ASSETS = "/api/v0/docs/assets";
/** The OpenAPI document the page renders. */
const SPEC_PATH = "/api/v0/openapi.json";

const ASSET_FILES: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>API documentation</title>
<meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="stylesheet" href="${ASSETS}/swagger-ui.css"><link rel="icon" href="${ASSETS}/favicon-32x32.png"></head>
<body><div id="docs" data-spec-url="${SPEC_PATH}"></div><script src="${ASSETS}/swagger-ui-bundle.js"></script><script src="${ASSETS}/init.js"></script></body></html>`;

const INIT = `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(SPEC_PATH)}, dom_id: "#docs", deepLinking: true });`;

const PAGE_CSP = "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The documentation page and its bundled assets. */
export function docsRoutes() {
  return new Elysia()
    .use(publicAccess)
    .get("/api/v0/docs", () => new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": PAGE_CSP, "cache-control": "no-cache" } }), {
      access: "public",
      detail: { summary: "API documentation page (Swagger UI served locally, reading /api/v0/openapi.json)", tags: ["status"], security: [] },
    })
    .get(`${ASSETS}/:file`, ({ params }) => {
      if (params.file === "init.js") return new Response(INIT, { headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" } });
      const type = ASSET_FILES[params.file];
      if (!type) return new Response(JSON.stringify({ code: "RESOURCE_NOT_FOUND", message: `no documentation asset '${params.file}'` }), { status: 404, headers: { "content-type": "application/json" } });
      return new Response(Bun.file(join(SWAGGER_DIR, params.file)), { headers: { "content-type": type, "cache-control": "public, max-age=86400" } });
    }, { detail: { hide: true } });
}
