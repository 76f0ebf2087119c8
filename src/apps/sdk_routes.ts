/**
 * `GET /sdk/publisher.js`: the runtime of Publisher-style data apps
 * (`window.Publisher`: `query`, `queryFull`, `context`, `setToken`, `embed`,
 * live reload on the package's events), so a page written for Malloy
 * Publisher (`<script src="/sdk/publisher.js">`) runs here unmodified. The
 * script holds no credential: a page uses the app token the platform
 * injected into it. No authentication; served on `APP_ORIGIN` too.
 * @module
 */
import { Elysia } from "elysia";
import { join } from "node:path";
import { publicAccess } from "../http/route_access.ts";
import { SDK_PATH } from "./origin.ts";

/** The runtime, read once (it ships with the service). */
const SDK_SOURCE = await Bun.file(join(import.meta.dir, "publisher_sdk.js")).text();
const SDK_ETAG = `"${new Bun.CryptoHasher("sha256").update(SDK_SOURCE).digest("hex").slice(0, 32)}"`;

/** The route of the data-app runtime. */
export function sdkRoutes() {
  return new Elysia().use(publicAccess).get(SDK_PATH, ({ request }) => {
    const headers = {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "no-cache",
      etag: SDK_ETAG,
      // a sandboxed page (origin `null`) or APP_ORIGIN loads it; it holds no secret
      "access-control-allow-origin": "*",
      "cross-origin-resource-policy": "cross-origin",
    };
    if (request.headers.get("if-none-match") === SDK_ETAG) return new Response(null, { status: 304, headers });
    return new Response(SDK_SOURCE, { headers });
  }, {
    access: "public",
    detail: {
      summary: "The runtime of Publisher-style data apps: window.Publisher (query, queryFull, context, setToken, embed) and live reload",
      description: "Load it with `<script src=\"/sdk/publisher.js\"></script>` in a page of a package's `public/`. `Publisher.query(modelPath, " +
        "malloy, opts)` answers rows, `Publisher.queryFull(...)` Malloy's result envelope (`schema.fields`, `data.array_value`); `opts`: " +
        "`queryName`, `sourceName`, `versionId`, `limit`, `environment`, `package`. `Publisher.context` is `{ organization, environment, " +
        "package }`. Requests use the page's app token (`setToken(token)` replaces it), and the page reloads when the package is " +
        "republished (its event stream). See docs/publisher-apps.md.",
      tags: ["data"],
      security: [],
    },
  });
}
