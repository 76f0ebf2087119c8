/**
 * `POST /oauth/token` (authorization code with PKCE, refresh token with
 * rotation) and `POST /oauth/revoke` (RFC 7009). Bodies are form-encoded;
 * answers and errors are JSON per RFC 6749 section 5.
 *
 * Reuse detection: a code redeemed twice, or a refresh token presented after
 * it was rotated, revokes the whole grant (every refresh token of it, and the
 * access tokens issued under it, which the MCP endpoint checks).
 * @module
 */
import type { AppContext } from "../context.ts";
import { serviceOrigin } from "../mcp/protected_resource.ts";
import { checkScope, formFields, oauthError, oauthJson } from "./params.ts";
import {
  findClient,
  grantOfRefreshToken,
  insertRefreshToken,
  redeemCode,
  revokeGrant,
  rotateRefreshToken,
  type OAuthGrant,
} from "./store.ts";
import { hashSecret, isOAuthAccessToken, randomSecret, s256, signAccessToken, validVerifier, verifyAccessToken } from "./tokens.ts";

/** Lifetime of a refresh token, seconds (each use rotates it). */
const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** Issues an access token and a new refresh token of a grant. */
async function issueTokens(ctx: AppContext, grant: OAuthGrant, origin: string): Promise<Response> {
  const ttl = ctx.config.jwtTtlSeconds;
  const accessToken = await signAccessToken(ctx.jwtSecret, {
    issuer: origin,
    audience: grant.resource,
    userId: grant.userId,
    clientId: grant.clientId,
    scope: grant.scope,
    grantId: grant.id,
    ttlSeconds: ttl,
  });
  const refreshToken = randomSecret();
  await insertRefreshToken(ctx.sql, grant.id, { tokenHash: await hashSecret(refreshToken), ttlSeconds: REFRESH_TOKEN_TTL_SECONDS });
  return oauthJson({ access_token: accessToken, token_type: "Bearer", expires_in: ttl, refresh_token: refreshToken, scope: grant.scope });
}

/** The RFC 8707 `resource` of a token request, when sent, must be the grant's. */
function resourceProblem(form: URLSearchParams, grant: OAuthGrant): Response | null {
  const resource = form.get("resource");
  if (resource === null || resource === grant.resource || resource === `${grant.resource}/`) return null;
  return oauthError("invalid_target", `resource '${resource}' is not the resource this grant was authorized for (${grant.resource})`);
}

async function authorizationCodeGrant(ctx: AppContext, form: URLSearchParams, origin: string): Promise<Response> {
  const code = form.get("code");
  const verifier = form.get("code_verifier");
  const redirectUri = form.get("redirect_uri");
  const clientId = form.get("client_id");
  if (!code || !verifier || !redirectUri || !clientId) {
    return oauthError("invalid_request", "grant_type=authorization_code needs code, code_verifier, redirect_uri and client_id");
  }
  if (!validVerifier(verifier)) return oauthError("invalid_request", "code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636)");
  const redeemed = await redeemCode(ctx.sql, await hashSecret(code));
  if (!redeemed) return oauthError("invalid_grant", "authorization code is unknown; authorize again");
  const { grant } = redeemed;
  if (redeemed.reused) {
    await revokeGrant(ctx.sql, grant.id);
    return oauthError("invalid_grant", "authorization code was already used; the tokens issued for it are revoked, authorize again");
  }
  if (grant.clientId !== clientId) return oauthError("invalid_grant", "authorization code was issued to another client");
  if (redeemed.expired) return oauthError("invalid_grant", "authorization code expired (codes live 60 s); authorize again");
  if (grant.revoked) return oauthError("invalid_grant", "this authorization was revoked; authorize again");
  if (redeemed.redirectUri !== redirectUri) return oauthError("invalid_grant", "redirect_uri differs from the one of the authorization request");
  if ((await s256(verifier)) !== redeemed.codeChallenge) {
    return oauthError("invalid_grant", "code_verifier does not match the code_challenge of the authorization request");
  }
  const target = resourceProblem(form, grant);
  if (target) return target;
  return await issueTokens(ctx, grant, origin);
}

async function refreshTokenGrant(ctx: AppContext, form: URLSearchParams, origin: string): Promise<Response> {
  const token = form.get("refresh_token");
  const clientId = form.get("client_id");
  if (!token || !clientId) return oauthError("invalid_request", "grant_type=refresh_token needs refresh_token and client_id");
  const presented = await rotateRefreshToken(ctx.sql, await hashSecret(token));
  if (!presented) return oauthError("invalid_grant", "refresh token is unknown; authorize again");
  const { grant } = presented;
  if (grant.clientId !== clientId) return oauthError("invalid_grant", "refresh token was issued to another client");
  if (grant.revoked) return oauthError("invalid_grant", "this authorization was revoked; authorize again");
  if (presented.reused) {
    await revokeGrant(ctx.sql, grant.id);
    return oauthError("invalid_grant", "refresh token was already used (tokens rotate on every refresh); every token of this authorization is revoked, authorize again");
  }
  if (presented.expired) return oauthError("invalid_grant", "refresh token expired; authorize again");
  const scope = form.get("scope");
  if (scope !== null && "error" in checkScope(scope)) return oauthError("invalid_scope", `scope '${scope}' exceeds the granted scope '${grant.scope}'`);
  const target = resourceProblem(form, grant);
  if (target) return target;
  return await issueTokens(ctx, grant, origin);
}

/** `POST /oauth/token`. */
export async function tokenEndpoint(ctx: AppContext, request: Request): Promise<Response> {
  const origin = serviceOrigin(ctx.config, request);
  const form = await formFields(request);
  if (!form) return oauthError("invalid_request", "send the token request as application/x-www-form-urlencoded (at most 64 KiB)");
  if (request.headers.get("authorization")) {
    return oauthError("invalid_client", "clients here are public: send client_id in the body and no Authorization header", 401);
  }
  const clientId = form.get("client_id");
  if (clientId && !(await findClient(ctx.sql, clientId))) {
    return oauthError("invalid_client", `client_id '${clientId}' is not registered; register at /oauth/register`, 401);
  }
  const grantType = form.get("grant_type");
  if (grantType === "authorization_code") return await authorizationCodeGrant(ctx, form, origin);
  if (grantType === "refresh_token") return await refreshTokenGrant(ctx, form, origin);
  if (!grantType) return oauthError("invalid_request", "grant_type is required: authorization_code or refresh_token");
  return oauthError("unsupported_grant_type", `grant_type '${grantType}' is not supported; use authorization_code or refresh_token`);
}

/**
 * `POST /oauth/revoke` (RFC 7009): revokes the grant of a refresh token or of
 * an access token. Answers 200 for unknown tokens too, as the RFC asks.
 */
export async function revokeEndpoint(ctx: AppContext, request: Request): Promise<Response> {
  const origin = serviceOrigin(ctx.config, request);
  const form = await formFields(request);
  const token = form?.get("token");
  if (!form || !token) return oauthError("invalid_request", "send token (and client_id) as application/x-www-form-urlencoded");
  const clientId = form.get("client_id");
  let grant: Pick<OAuthGrant, "id" | "clientId"> | null = null;
  if (isOAuthAccessToken(token)) {
    const verified = await verifyAccessToken(token, { secret: ctx.jwtSecret, issuer: origin }).catch(() => null);
    if (verified) grant = { id: verified.grantId, clientId: verified.clientId };
  } else {
    grant = await grantOfRefreshToken(ctx.sql, await hashSecret(token));
  }
  if (grant && clientId && grant.clientId !== clientId) {
    return oauthError("invalid_client", "this token was issued to another client", 401);
  }
  if (grant) await revokeGrant(ctx.sql, grant.id);
  return oauthJson({});
}
