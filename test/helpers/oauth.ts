/**
 * OAuth test helpers: PKCE pairs, client registration, and a "browser" that
 * drives the sign-in and consent form of `/oauth/authorize` with fetch
 * (carrying the CSRF cookie by hand) and reads the code from the redirect.
 * @module
 */
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { connectClient } from "./mcp.ts";

/** Default redirect URI of the test clients (never contacted: redirects are not followed). */
export const REDIRECT_URI = "http://127.0.0.1:9/callback";

/** A PKCE verifier and its S256 challenge. */
export async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  const verifier = b64(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = b64(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
  return { verifier, challenge };
}

/** Registers a public client; returns its `client_id`. */
export async function registerClient(base: string, redirectUris: string[] = [REDIRECT_URI]): Promise<string> {
  const r = await fetch(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "test client", redirect_uris: redirectUris, token_endpoint_auth_method: "none" }),
  });
  if (r.status !== 201) throw new Error(`registration failed: ${r.status} ${await r.text()}`);
  return (await r.json()).client_id;
}

/** The hidden fields of the consent form and its CSRF cookie. */
export interface LoadedForm {
  status: number;
  fields: Record<string, string>;
  cookie: string;
  html: string;
}

/** GETs an authorization URL and reads the form's hidden fields and the CSRF cookie. */
export async function loadForm(url: string | URL): Promise<LoadedForm> {
  const r = await fetch(url, { redirect: "manual" });
  const html = await r.text();
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1]!] = m[2]!.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
  }
  const cookie = (r.headers.get("set-cookie") ?? "").split(";")[0]!;
  return { status: r.status, fields, cookie, html };
}

/** POSTs the consent form; returns the raw response (a 302 on success). */
export async function submitForm(base: string, form: LoadedForm, options: { userName: string; password: string; consent?: string }): Promise<Response> {
  const body = new URLSearchParams({ ...form.fields, userName: options.userName, password: options.password, consent: options.consent ?? "approve" });
  return await fetch(`${base}/oauth/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: form.cookie },
    body,
  });
}

/** What an authorization request asks for. */
export interface AuthorizeOptions {
  clientId: string;
  resource: string;
  challenge: string;
  userName: string;
  password: string;
  redirectUri?: string;
  state?: string;
}

/** The authorization URL of a request. */
export function authorizeUrl(base: string, o: Omit<AuthorizeOptions, "userName" | "password">): URL {
  const url = new URL(`${base}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: o.clientId,
    redirect_uri: o.redirectUri ?? REDIRECT_URI,
    code_challenge: o.challenge,
    code_challenge_method: "S256",
    state: o.state ?? "st-1",
    resource: o.resource,
    scope: "mcp",
  }).toString();
  return url;
}

/** Signs in and consents; returns the redirect's URL (with `code`, `state`, `iss`). */
export async function authorize(base: string, o: AuthorizeOptions): Promise<URL> {
  const form = await loadForm(authorizeUrl(base, o));
  if (form.status !== 200) throw new Error(`authorization page answered ${form.status}: ${form.html}`);
  const r = await submitForm(base, form, o);
  if (r.status !== 302) throw new Error(`consent answered ${r.status}: ${await r.text()}`);
  return new URL(r.headers.get("location")!);
}

/** POSTs a form-encoded token request; returns status and JSON body. */
export async function tokenRequest(base: string, params: Record<string, string>) {
  const r = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(params),
  });
  // deno-lint-ignore no-explicit-any
  return { status: r.status, headers: r.headers, body: (await r.json()) as any };
}

/**
 * An MCP SDK client of `userName` signed in through the OAuth flow (client
 * registration, PKCE, consent, token bound to the resource) against the
 * service served at `base`, for organization `org`.
 */
export async function oauthMcpClient(base: string, user: { org: string; userName: string; password: string }): Promise<Client> {
  const resource = `${base}/mcp/${user.org}`;
  const clientId = await registerClient(base);
  const { verifier, challenge } = await pkce();
  const redirect = await authorize(base, { clientId, resource, challenge, userName: user.userName, password: user.password });
  const token = await tokenRequest(base, {
    grant_type: "authorization_code", code: redirect.searchParams.get("code")!, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier, resource,
  });
  if (token.status !== 200) throw new Error(`OAuth token for ${user.userName}: ${token.status} ${JSON.stringify(token.body)}`);
  return await connectClient(resource, `Bearer ${token.body.access_token}`);
}
