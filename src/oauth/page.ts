/**
 * The server-rendered pages of `/oauth/authorize`: the sign-in and consent
 * form, and the error page shown when the client or its redirect URI cannot be
 * trusted (so no redirect is possible). No scripts, no external assets.
 * @module
 */

/** What the consent form shows and carries back in hidden fields. */
export interface ConsentForm {
  /** Hidden fields: the authorization request and the CSRF token. */
  fields: Record<string, string>;
  clientName: string;
  clientId: string;
  redirectUri: string;
  resource: string;
  scope: string;
  userName?: string;
  error?: string;
}

const HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
};

const STYLE = `body{font:15px system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.3rem}label{display:block;margin:.8rem 0 .2rem}input[type=text],input[type=password]{width:100%;padding:.4rem;box-sizing:border-box}
.who{background:#f3f3f3;padding:.6rem;border-radius:4px}.error{color:#a00}button{margin:1rem .5rem 0 0;padding:.4rem 1rem}code{word-break:break-all}`;

/** Escapes text for HTML content and attribute values. */
function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body>${body}</body></html>`;
}

/** The sign-in and consent form (`status` 401 after wrong credentials). */
export function consentPage(form: ConsentForm, options: { status?: number; headers?: Record<string, string> } = {}): Response {
  const hidden = Object.entries(form.fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("\n");
  const client = form.clientName ? `${escapeHtml(form.clientName)} (<code>${escapeHtml(form.clientId)}</code>)` : `<code>${escapeHtml(form.clientId)}</code>`;
  const body = `<h1>Sign in to authorize an application</h1>
<p class="who">${client} asks to use the MCP server <code>${escapeHtml(form.resource)}</code>
with your permissions (scope <code>${escapeHtml(form.scope)}</code>).
You will be sent back to <code>${escapeHtml(form.redirectUri)}</code>.</p>
${form.error ? `<p class="error" role="alert">${escapeHtml(form.error)}</p>` : ""}
<form method="post" action="/oauth/authorize">
${hidden}
<label for="userName">User name or email</label>
<input id="userName" name="userName" type="text" autocomplete="username" required value="${escapeHtml(form.userName ?? "")}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password">
<button type="submit" name="consent" value="approve">Sign in and allow</button>
<button type="submit" name="consent" value="deny" formnovalidate>Deny</button>
</form>`;
  return new Response(page("Authorize application", body), { status: options.status ?? 200, headers: { ...HEADERS, ...options.headers } });
}

/** A 400 page for a request that cannot be sent back to its client. */
export function errorPage(message: string, status = 400): Response {
  const body = `<h1>This authorization request cannot be completed</h1><p class="error">${escapeHtml(message)}</p>
<p>Start the connection again from your application; if it keeps failing, ask its vendor or your administrator.</p>`;
  return new Response(page("Authorization error", body), { status, headers: HEADERS });
}
