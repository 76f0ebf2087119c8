/**
 * The MCP endpoints as OAuth protected resources (RFC 9728): their public
 * address, the `WWW-Authenticate` challenge that points at their metadata,
 * the metadata document, and the Origin check against DNS rebinding.
 * @module
 */

/** Scopes a future authorization server will issue for the MCP endpoints. */
export const MCP_SCOPES = ["mcp"] as const;

/** Options of {@link publicOrigin}. */
export interface OriginOptions {
  /** Honor `X-Forwarded-Proto` / `X-Forwarded-Host` (only behind a proxy you run). */
  trustProxy?: boolean;
}

/** The origin clients use to reach the service, e.g. `https://data.example.com`. */
export function publicOrigin(request: Request, options: OriginOptions = {}): string {
  const url = new URL(request.url);
  if (options.trustProxy) {
    const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim();
    const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
    if (proto === "http" || proto === "https") url.protocol = `${proto}:`;
    if (host && /^[a-zA-Z0-9.\-\[\]:]+$/.test(host)) url.host = host;
  }
  return url.origin;
}

/**
 * The service's origin for issuer, metadata and links: `PUBLIC_URL` when set
 * (the request's `Host` then decides nothing), else {@link publicOrigin}.
 */
export function serviceOrigin(config: { publicUrl?: string; trustProxy: boolean }, request: Request): string {
  return config.publicUrl ?? publicOrigin(request, { trustProxy: config.trustProxy });
}

/**
 * `Cache-Control` of a document that names the service's origin (OAuth and
 * protected resource metadata): publicly cacheable only when `PUBLIC_URL`
 * fixes that origin. Otherwise the origin is the request's own (`Host`, or
 * `X-Forwarded-Host` with `TRUST_PROXY`), which a shared cache in front of the
 * service does not key on: one request naming another host would have it hand
 * every client that host's endpoints, so only the client may keep it.
 */
export function discoveryCacheControl(config: { publicUrl?: string }): string {
  return config.publicUrl ? "public, max-age=300" : "private, max-age=300";
}

/** Path of an MCP endpoint: `/mcp/{org}` or `/mcp/{org}/workspace/{workspace}`. */
export function mcpPath(org: string, workspace?: string): string {
  return workspace === undefined ? `/mcp/${org}` : `/mcp/${org}/workspace/${workspace}`;
}

/** Address of the protected resource metadata of an MCP endpoint (RFC 9728 section 3.1). */
function metadataUrl(origin: string, path: string): string {
  return `${origin}/.well-known/oauth-protected-resource${path}`;
}

/** The `WWW-Authenticate` value of a 401 from an MCP endpoint. */
export function challenge(origin: string, path: string, options: { invalidToken?: boolean } = {}): string {
  const error = options.invalidToken ? ', error="invalid_token"' : "";
  return `Bearer resource_metadata="${metadataUrl(origin, path)}"${error}`;
}

/** The protected resource metadata document of an MCP endpoint. */
export function resourceMetadata(origin: string, path: string): Record<string, unknown> {
  return {
    resource: `${origin}${path}`,
    authorization_servers: [origin],
    bearer_methods_supported: ["header"],
    scopes_supported: [...MCP_SCOPES],
    resource_name: `Malloy semantic models MCP server (${path})`,
    resource_documentation: `${origin}/api/v0/docs`,
  };
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * Whether a request's `Origin` may call the MCP endpoints: no `Origin` (not a
 * browser), a page on this machine (loopback), or one of `allowed`. Anything
 * else is refused, so a page whose DNS name was rebound to this server cannot
 * use it (MCP transport spec: servers must validate `Origin`).
 */
export function originAllowed(request: Request, allowed: readonly string[]): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if ((url.protocol === "http:" || url.protocol === "https:") && LOOPBACK.has(url.hostname)) return true;
  return allowed.includes(url.origin);
}
