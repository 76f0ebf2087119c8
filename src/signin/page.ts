/**
 * HTML of the browser pages: sign-in, and the landing page of `/`. Plain
 * server-rendered HTML without scripts; every page forbids framing.
 * @module
 */

/** Headers of every sign-in and landing page: no framing, no scripts, no caching. */
export const PAGE_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
};

/** Escapes text for HTML content and attribute values. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.8rem 0 .2rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1rem;padding:.5rem 1.2rem}.error{color:#a00}.muted{color:#666;font-size:.9rem}`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<link rel="icon" href="/console/favicon.svg"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** The sign-in form; `returnTo` is where a successful sign-in goes. */
export function signInPage(options: { returnTo: string; error?: string; userName?: string; idpUrl?: string }): string {
  const idp = options.idpUrl
    ? `<p><a href="${escapeHtml(options.idpUrl)}">Sign in with your identity provider</a></p><p class="muted">or with a password:</p>`
    : "";
  return page("Sign in", `<h1>Sign in</h1>${options.error ? `<p class="error">${escapeHtml(options.error)}</p>` : ""}${idp}
<form method="post" action="/signin">
<input type="hidden" name="return" value="${escapeHtml(options.returnTo)}">
<label for="userName">User name or email</label><input id="userName" name="userName" autocomplete="username" required value="${escapeHtml(options.userName ?? "")}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`);
}

/** The landing page of `/` for a browser that is not signed in (signed in, `/` is the console). */
export function landingPage(options: { name: string; version: string; docs: string }): string {
  const who = `<p><a href="/signin">Sign in</a> to open the console (browse models, run queries, see runs and API keys) and in-package apps in this browser.</p>`;
  return page(options.name, `<h1>${escapeHtml(options.name)}</h1><p class="muted">version ${escapeHtml(options.version)}</p>
<ul><li><a href="${escapeHtml(options.docs)}">API documentation</a></li><li><a href="/api/v0/openapi.json">OpenAPI document</a></li><li><a href="/health">Health</a></li></ul>${who}`);
}
