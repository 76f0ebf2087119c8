/**
 * `POST /oauth/register`: dynamic client registration (RFC 7591) of public
 * clients (`token_endpoint_auth_method: none`, PKCE instead of a secret).
 * @module
 */
import type { Db } from "../db/database.ts";
import { oauthError, oauthJson, redirectUriProblem } from "./params.ts";
import { insertClient } from "./store.ts";
import { randomSecret } from "./tokens.ts";

const MAX_REDIRECT_URIS = 10;
const GRANT_TYPES = ["authorization_code", "refresh_token"];

function invalid(description: string): Response {
  return oauthError("invalid_client_metadata", description);
}

/** Registers a client from a JSON body of client metadata; answers 201 with its `client_id`. */
export async function registerClient(db: Db, request: Request): Promise<Response> {
  const type = (request.headers.get("content-type") ?? "").toLowerCase();
  if (!type.includes("application/json")) return invalid("send the client metadata as JSON (Content-Type: application/json)");
  const text = await request.text();
  if (text.length > 16 * 1024) return invalid("client metadata is larger than 16 KiB");
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    return invalid("request body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return invalid("client metadata must be a JSON object");
  const uris = body.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > MAX_REDIRECT_URIS) {
    return oauthError("invalid_redirect_uri", `redirect_uris must be an array of 1 to ${MAX_REDIRECT_URIS} URLs`);
  }
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return oauthError("invalid_redirect_uri", problem);
  }
  const method = body.token_endpoint_auth_method ?? "none";
  if (method !== "none") {
    return invalid(`token_endpoint_auth_method '${method}' is not supported: clients here are public, register with 'none' and use PKCE`);
  }
  const grantTypes = body.grant_types ?? ["authorization_code", "refresh_token"];
  if (!Array.isArray(grantTypes) || grantTypes.some((g) => !GRANT_TYPES.includes(g))) {
    return invalid(`grant_types may only contain ${GRANT_TYPES.join(" and ")}`);
  }
  const responseTypes = body.response_types ?? ["code"];
  if (!Array.isArray(responseTypes) || responseTypes.some((r) => r !== "code")) return invalid("response_types may only contain 'code'");
  const name = body.client_name ?? "";
  if (typeof name !== "string" || name.length > 200) return invalid("client_name must be a string of at most 200 characters");
  const client = await insertClient(db, { clientId: `mcp-${randomSecret(18)}`, clientName: name, redirectUris: uris as string[] });
  return oauthJson({
    client_id: client.clientId,
    client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
    client_name: client.clientName || undefined,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: "none",
    grant_types: grantTypes,
    response_types: responseTypes,
  }, 201);
}
