/**
 * Validation of the parameters of the OAuth endpoints: redirect URIs, the
 * RFC 8707 `resource` (one of our MCP endpoints), scopes; and the JSON error
 * answers of RFC 6749 section 5.2 / RFC 7591 section 3.2.2.
 * @module
 */
import { MCP_SCOPES } from "../mcp/protected_resource.ts";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
const NAME = "[a-zA-Z0-9_-]+";
const MCP_PATH = new RegExp(`^/mcp/${NAME}(/workspace/${NAME})?$`);

/** Why a redirect URI cannot be registered, or null when it can: https, or http on loopback; absolute; no fragment. */
export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== "string" || uri.length > 2000) return "each redirect_uri must be a string of at most 2000 characters";
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect_uri '${uri}' is not an absolute URL`;
  }
  if (url.hash !== "" || uri.includes("#")) return `redirect_uri '${uri}' must not contain a fragment`;
  if (url.username || url.password) return `redirect_uri '${uri}' must not contain credentials`;
  if (url.protocol === "https:") return null;
  if (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)) return null;
  return `redirect_uri '${uri}' must use https, or http on a loopback address (127.0.0.1, [::1], localhost)`;
}

/**
 * The RFC 8707 resource of a request, when it names one of this service's MCP
 * endpoints (`<origin>/mcp/{org}` or `<origin>/mcp/{org}/workspace/{ws}`);
 * otherwise an `{ error }` saying what to send.
 */
export function checkResource(resource: string | null, origin: string): { resource: string } | { error: string } {
  if (!resource) return { error: `resource is required (RFC 8707): send the MCP endpoint URL, e.g. ${origin}/mcp/<organization>` };
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return { error: `resource '${resource}' is not an absolute URL; send the MCP endpoint URL, e.g. ${origin}/mcp/<organization>` };
  }
  if (url.origin !== origin || !MCP_PATH.test(url.pathname) || url.search !== "" || url.hash !== "" || resource.includes("#")) {
    return { error: `resource '${resource}' is not an MCP endpoint of this server; use ${origin}/mcp/<organization> or ${origin}/mcp/<organization>/workspace/<workspace>` };
  }
  return { resource: `${url.origin}${url.pathname}` };
}

/** The granted scope of a request: `mcp` when absent; an `{ error }` for a scope we do not issue. */
export function checkScope(scope: string | null): { scope: string } | { error: string } {
  const asked = (scope ?? "").split(" ").filter((s) => s !== "");
  const unknown = asked.filter((s) => !(MCP_SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0) return { error: `scope '${unknown.join(" ")}' is not offered; request '${MCP_SCOPES.join(" ")}' or omit scope` };
  return { scope: MCP_SCOPES.join(" ") };
}

/** An OAuth error answer: `{ error, error_description }`, never cached. */
export function oauthError(error: string, description: string, status = 400): Response {
  const headers = { "cache-control": "no-store", "access-control-allow-origin": "*" };
  return Response.json({ error, error_description: description }, { status, headers });
}

/** A successful OAuth JSON answer (token, registration), never cached. */
export function oauthJson(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { "cache-control": "no-store", pragma: "no-cache", "access-control-allow-origin": "*" } });
}

/** Form fields of a `application/x-www-form-urlencoded` body; null when the body is of another type. */
export async function formFields(request: Request): Promise<URLSearchParams | null> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return null;
  const text = await request.text();
  if (text.length > 64 * 1024) return null;
  return new URLSearchParams(text);
}
