/**
 * Authorization server metadata (RFC 8414) of the service: the issuer is the
 * service's public origin, the one the MCP endpoints' protected resource
 * metadata lists in `authorization_servers`.
 * @module
 */
import { MCP_SCOPES } from "../mcp/protected_resource.ts";

/** The metadata document served at `/.well-known/oauth-authorization-server`. */
export function authorizationServerMetadata(origin: string): Record<string, unknown> {
  return {
    issuer: origin,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    registration_endpoint: `${origin}/oauth/register`,
    revocation_endpoint: `${origin}/oauth/revoke`,
    scopes_supported: [...MCP_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${origin}/api/v0/docs`,
  };
}
