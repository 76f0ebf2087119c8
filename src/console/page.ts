/**
 * The console's HTML shell: no inline script or style, so its CSP allows
 * scripts of this origin only; the page script (`/console/app.js`) gets a
 * short-lived access token with the browser session and calls the REST API.
 * @module
 */

/**
 * CSP of the console page: scripts and connections of this origin only (no
 * inline script, no eval); inline styles are allowed because Malloy's renderer
 * inserts its own style sheets and sizes its charts with style attributes.
 */
const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

/** Headers of the console page. */
export const CONSOLE_HEADERS: Record<string, string> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": CONSOLE_CSP,
  "x-frame-options": "DENY",
  "cache-control": "no-store",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** The console page of a signed-in browser. */
export function consolePage(options: { name: string; version: string; userName: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="/console/favicon.svg"><title>Console · ${escapeHtml(options.name)}</title><link rel="stylesheet" href="/console/console.css"><script type="module" src="/console/app.js"></script></head>
<body><header class="top"><a class="brand" href="#/">${escapeHtml(options.name)}</a><span class="muted">v${escapeHtml(options.version)}</span>
<nav id="topnav"></nav><span class="spacer"></span><a href="/api/v0/docs" target="_blank" rel="noopener">API docs</a>
<span id="who" class="muted">${escapeHtml(options.userName)}</span><form method="post" action="/signout"><button type="submit" class="link">Sign out</button></form></header>
<div id="crumbs" class="crumbs"></div><main id="main"><p class="muted">Loading the console…</p><noscript>The console needs JavaScript.</noscript></main></body></html>`;
}
