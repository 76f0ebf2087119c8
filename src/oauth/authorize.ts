/**
 * `GET /oauth/authorize` (shows the sign-in and consent form) and
 * `POST /oauth/authorize` (checks the credentials like `POST /auth/token`,
 * then redirects back with a single-use code, or with `error=access_denied`).
 *
 * An invalid authorization request gets a 400 error page, never a redirect:
 * with open dynamic registration no redirect URI is trusted before the user
 * has signed in (RFC 9700 section 4.11.2, RFC 6749 section 4.1.2.1). Only the
 * user's own answer to the form (deny, or a signed-in approval) redirects back.
 *
 * Sign-in: failures are limited per account and per client address like
 * `POST /auth/token` (a locked account gets 429 even with the right password).
 *
 * CSRF: the form carries `csrf_token` = expiry + HMAC over a nonce kept in an
 * HttpOnly SameSite=Strict cookie and over the authorization request itself,
 * so a form posted from elsewhere, or with altered hidden fields, is refused.
 * @module
 */
import type { AppContext } from "../context.ts";
import { RateLimitedError } from "../errors.ts";
import { checkPassword } from "../auth/signin.ts";
import { serviceOrigin } from "../mcp/protected_resource.ts";
import { consentPage, errorPage } from "./page.ts";
import { checkResource, checkScope, formFields } from "./params.ts";
import { findClient, insertAuthorization, type OAuthClient } from "./store.ts";
import { base64url, hashSecret, randomSecret, validChallenge } from "./tokens.ts";

/** Lifetime of an authorization code, seconds. */
const CODE_TTL_SECONDS = 60;
/** How long the consent form may stay open, seconds. */
const FORM_TTL_SECONDS = 15 * 60;
const COOKIE = "oauth_csrf";
const PARAMS = ["response_type", "client_id", "redirect_uri", "code_challenge", "code_challenge_method", "state", "resource", "scope"] as const;

/** A validated authorization request. */
interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  codeChallenge: string;
  state: string | null;
  resource: string;
  scope: string;
}

/** Redirects to the client's redirect URI with the given parameters, plus `state` and `iss` (RFC 9207). */
function redirectBack(redirectUri: string, params: Record<string, string>, options: { state: string | null; origin: string }): Response {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  if (options.state !== null) url.searchParams.set("state", options.state);
  url.searchParams.set("iss", options.origin);
  return new Response(null, { status: 302, headers: { location: url.toString(), "cache-control": "no-store" } });
}

/** Checks an authorization request: the validated request, or the answer to send (error page or error redirect). */
async function validate(ctx: AppContext, params: URLSearchParams, origin: string): Promise<AuthorizationRequest | Response> {
  const clientId = params.get("client_id");
  if (!clientId) return errorPage("client_id is missing: the application must register at /oauth/register and send its client_id");
  const client = await findClient(ctx.sql, clientId);
  if (!client) return errorPage(`client_id '${clientId}' is not registered here; the application must register again at /oauth/register`);
  const asked = params.get("redirect_uri");
  const redirectUri = asked ?? (client.redirectUris.length === 1 ? client.redirectUris[0]! : null);
  if (redirectUri === null) return errorPage("redirect_uri is missing and the client registered several; the application must send one of them");
  if (!client.redirectUris.includes(redirectUri)) {
    return errorPage(`redirect_uri '${redirectUri}' is not one the client registered; it must match a registered redirect URI exactly`);
  }
  const state = params.get("state");
  const fail = (error: string, description: string) => errorPage(`${error}: ${description}`);
  if (params.get("response_type") !== "code") return fail("unsupported_response_type", "response_type must be 'code'");
  const challenge = params.get("code_challenge");
  if (!challenge || !validChallenge(challenge)) {
    return fail("invalid_request", "code_challenge is required: PKCE with S256, 43 base64url characters (RFC 7636)");
  }
  if (params.get("code_challenge_method") !== "S256") return fail("invalid_request", "code_challenge_method must be S256");
  const resource = checkResource(params.get("resource"), origin);
  if ("error" in resource) return fail("invalid_target", resource.error);
  const scope = checkScope(params.get("scope"));
  if ("error" in scope) return fail("invalid_scope", scope.error);
  return { client, redirectUri, codeChallenge: challenge, state, resource: resource.resource, scope: scope.scope };
}

async function hmac(secret: string, text: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(`oauth csrf v1:${secret}`), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  return base64url(new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(text))));
}

function canonical(params: URLSearchParams): string {
  return JSON.stringify(PARAMS.map((p) => params.get(p)));
}

async function csrfToken(secret: string, nonce: string, params: URLSearchParams): Promise<string> {
  const expires = Math.floor(Date.now() / 1000) + FORM_TTL_SECONDS;
  return `${expires}.${await hmac(secret, `${nonce}.${expires}.${canonical(params)}`)}`;
}

async function csrfValid(secret: string, nonce: string | undefined, options: { token: string | null; params: URLSearchParams }): Promise<boolean> {
  if (!nonce || !options.token) return false;
  const [expires, mac] = options.token.split(".");
  if (!expires || !mac || Number(expires) < Date.now() / 1000) return false;
  const expected = await hmac(secret, `${nonce}.${expires}.${canonical(options.params)}`);
  if (expected.length !== mac.length) return false;
  let diff = 0;
  for (let i = 0; i < mac.length; i++) diff |= expected.charCodeAt(i) ^ mac.charCodeAt(i);
  return diff === 0;
}

function cookieNonce(request: Request): string | undefined {
  const cookies = request.headers.get("cookie") ?? "";
  const found = cookies.split(";").map((c) => c.trim()).find((c) => c.startsWith(`${COOKIE}=`));
  const value = found?.slice(COOKIE.length + 1);
  return value && /^[A-Za-z0-9_-]{20,64}$/.test(value) ? value : undefined;
}

/** Shows the form; after wrong credentials with a message, the typed user name and status 401 (429 when locked). */
async function showForm(
  ctx: AppContext,
  request: Request,
  options: { auth: AuthorizationRequest; params: URLSearchParams; error?: string; userName?: string; status?: number; headers?: Record<string, string> },
) {
  const existing = cookieNonce(request);
  const nonce = existing ?? randomSecret(24);
  const fields: Record<string, string> = {};
  for (const p of PARAMS) {
    const v = options.params.get(p);
    if (v !== null) fields[p] = v;
  }
  fields.csrf_token = await csrfToken(ctx.jwtSecret, nonce, options.params);
  const secure = new URL(request.url).protocol === "https:" || serviceOrigin(ctx.config, request).startsWith("https:");
  const cookie = `${COOKIE}=${nonce}; Path=/oauth/authorize; HttpOnly; SameSite=Strict; Max-Age=${FORM_TTL_SECONDS}${secure ? "; Secure" : ""}`;
  const { auth } = options;
  return consentPage(
    {
      fields,
      clientName: auth.client.clientName,
      clientId: auth.client.clientId,
      redirectUri: auth.redirectUri,
      resource: auth.resource,
      scope: auth.scope,
      userName: options.userName,
      error: options.error,
    },
    { status: options.status ?? (options.error ? 401 : 200), headers: { ...options.headers, ...(existing ? {} : { "set-cookie": cookie }) } },
  );
}

/** `GET /oauth/authorize`. */
export async function showAuthorization(ctx: AppContext, request: Request): Promise<Response> {
  const origin = serviceOrigin(ctx.config, request);
  const params = new URL(request.url).searchParams;
  const auth = await validate(ctx, params, origin);
  if (auth instanceof Response) return auth;
  return await showForm(ctx, request, { auth, params });
}

/** `POST /oauth/authorize`: the submitted form (sign-in attempt limits as `POST /auth/token`). */
export async function submitAuthorization(ctx: AppContext, request: Request): Promise<Response> {
  const origin = serviceOrigin(ctx.config, request);
  const form = await formFields(request);
  if (!form) return errorPage("the form must be posted as application/x-www-form-urlencoded from the sign-in page");
  const params = new URLSearchParams();
  for (const p of PARAMS) {
    const v = form.get(p);
    if (v !== null) params.set(p, v);
  }
  if (!(await csrfValid(ctx.jwtSecret, cookieNonce(request), { token: form.get("csrf_token"), params }))) {
    return errorPage("the sign-in form expired or was not sent from this server's page; start the connection again from your application", 403);
  }
  const auth = await validate(ctx, params, origin);
  if (auth instanceof Response) return auth;
  if (form.get("consent") !== "approve") {
    return redirectBack(auth.redirectUri, { error: "access_denied", error_description: "the user denied the request" }, { state: auth.state, origin });
  }
  const login = (form.get("userName") ?? "").trim();
  const password = form.get("password") ?? "";
  let user;
  try {
    user = await checkPassword(ctx, request, login.includes("@") ? { email: login } : { userName: login }, password);
  } catch (error) {
    if (!(error instanceof RateLimitedError)) throw error;
    const headers = { "retry-after": String(error.retryAfterSeconds) };
    return await showForm(ctx, request, { auth, params, error: `${error.message}.`, userName: login, status: 429, headers });
  }
  if (!user) {
    return await showForm(ctx, request, { auth, params, error: "User name or password is wrong; try again.", userName: login });
  }
  const code = randomSecret();
  await insertAuthorization(ctx.sql, {
    clientId: auth.client.clientId,
    userId: user.id,
    resource: auth.resource,
    scope: auth.scope,
    codeHash: await hashSecret(code),
    redirectUri: auth.redirectUri,
    codeChallenge: auth.codeChallenge,
    ttlSeconds: CODE_TTL_SECONDS,
  });
  return redirectBack(auth.redirectUri, { code }, { state: auth.state, origin });
}
