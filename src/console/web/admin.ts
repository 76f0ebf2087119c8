/**
 * API keys of the groups the user administers (create shows the secret once;
 * revoke), who has access to what (read-only), and the query log of an
 * organization (its admins). What the user may not do is not offered; the
 * API refuses it anyway.
 * @module
 */
import { api, ApiFailure, apiOrNull } from "./api.ts";
import { badge, errorBox, fill, h, table, when } from "./dom.ts";

interface Group {
  name: string;
  description?: string;
}

interface Token {
  name: string;
  groupName: string;
  createdAt: string;
  expiresAt: string;
  expired: boolean;
  secret?: string;
}

interface Permission {
  userGroupId: string;
  permission: string;
  createdAt: string;
  pending?: boolean;
}

interface LogEntry {
  at: string;
  principal: string;
  via: string;
  environmentName: string;
  packageName: string;
  versionId: string;
  modelPath: string;
  query?: string | null;
  queryName?: string | null;
  sourceName?: string | null;
  rows?: number | null;
  ms?: number | null;
  status: string;
  error?: string | null;
}

const enc = encodeURIComponent;

/** The API keys tab of an organization: one section per group whose tokens the user may manage. */
export async function keysPanel(panel: HTMLElement, org: string): Promise<void> {
  const body = h("div", {}, h("p", { class: "muted" }, "Loading groups…"));
  panel.append(h("p", { class: "muted" }, "An API key acts with its group's permissions (header ", h("code", {}, "Authorization: ApiKey <key>"),
    "), for MCP clients and scripts. Group admins and organization admins manage them."), body);
  try {
    const groups = await api<Group[]>("GET", `/organizations/${enc(org)}/groups?limit=1000`);
    // the groups whose tokens the user may list are the ones it administers
    const managed = (await Promise.all(groups.map(async (g) => ({ g, tokens: await apiOrNull<Token[]>(`/organizations/${enc(org)}/groups/${enc(g.name)}/tokens`) }))))
      .filter((x) => x.tokens !== null);
    if (groups.length === 0) {
      fill(body, h("p", { class: "muted", "data-testid": "no-keys" }, "This organization has no group yet. API keys belong to groups: an organization admin creates one (POST /api/v0/organizations/",
        org, "/groups), grants it roles, and then manages its keys here."));
      return;
    }
    if (managed.length === 0) {
      fill(body, h("p", { class: "muted", "data-testid": "no-keys" }, "You administer no group of this organization, so you manage no API key here. Ask a group admin for a key."));
      return;
    }
    fill(body, managed.map(({ g, tokens }) => groupKeys(org, g, tokens ?? [])));
  } catch (error) {
    fill(body, errorBox(error));
  }
}

function groupKeys(org: string, group: Group, initial: Token[]): HTMLElement {
  const base = `/organizations/${enc(org)}/groups/${enc(group.name)}/tokens`;
  const list = h("div", {});
  const secretBox = h("div", {});
  const show = (tokens: Token[]) => fill(list, table(tokens, {
    Key: (t) => h("code", {}, t.name),
    Created: (t) => when(t.createdAt),
    Expires: (t) => when(t.expiresAt),
    State: (t) => badge(t.expired ? "expired" : "active"),
    "": (t) => h("button", { type: "button", class: "small danger", "data-revoke": t.name, onclick: async () => {
      if (!confirm(`Revoke API key '${t.name}' of group ${group.name}? Clients using it stop working at once.`)) return;
      try {
        await api("DELETE", `${base}/${enc(t.name)}`);
        fill(secretBox);
        show(await api<Token[]>("GET", base));
      } catch (error) {
        fill(secretBox, errorBox(error));
      }
    } }, "Revoke"),
  }, { empty: "No API key yet." }));
  show(initial);
  const name = h("input", { name: "keyName", placeholder: "key name, e.g. claude-desktop", pattern: "[A-Za-z0-9_\\-]+", required: true, "aria-label": "key name" }) as HTMLInputElement;
  const days = h("input", { type: "number", min: 1, value: 90, class: "limit", "aria-label": "days valid" }) as HTMLInputElement;
  const form = h("form", { class: "inline", onsubmit: async (e: Event) => {
    e.preventDefault();
    try {
      const expiresAt = new Date(Date.now() + Math.max(1, Number(days.value) || 90) * 86_400_000).toISOString();
      const created = await api<Token>("POST", `${base}?name=${enc(name.value)}&expiresAt=${enc(expiresAt)}`);
      fill(secretBox, h("div", { class: "secret", role: "status" },
        h("p", {}, h("strong", {}, `API key '${created.name}' created.`), " Copy it now: it is shown this once and never again."),
        h("code", { class: "secret-value", "data-testid": "secret" }, created.secret ?? ""),
        h("button", { type: "button", class: "small", onclick: () => void navigator.clipboard?.writeText(created.secret ?? "") }, "Copy")));
      name.value = "";
      show(await api<Token[]>("GET", base));
    } catch (error) {
      fill(secretBox, errorBox(error));
    }
  } }, name, h("label", {}, " valid for ", days, " days "), h("button", { type: "submit", class: "primary" }, "Create API key"));
  return h("div", { class: "group-keys", "data-group": group.name }, h("h3", {}, `Group ${group.name}`), group.description ? h("p", { class: "muted" }, group.description) : null, form, secretBox, list);
}

/** Who has access to a resource (its permissions list; admins of it may read it). */
export async function accessPanel(panel: HTMLElement, path: string, level: string): Promise<void> {
  try {
    const grants = await api<Permission[]>("GET", `${path}/permissions`);
    panel.append(h("p", { class: "muted" }, `Direct grants on this ${level}; roles are also inherited from the level above and through groups.`),
      table(grants, {
        Who: (g) => h("code", {}, g.userGroupId),
        Role: (g) => h("span", {}, g.permission, g.pending ? h("span", { class: "badge s-queued" }, "requested") : null),
        Since: (g) => when(g.createdAt),
      }, { empty: `No direct grant on this ${level}.` }));
  } catch (error) {
    if (error instanceof ApiFailure && (error.status === 403 || error.status === 404)) {
      panel.append(h("p", { class: "muted" }, `Only admins of this ${level} see who has access to it.`));
    } else {
      panel.append(errorBox(error));
    }
  }
}

/** The query log of an organization (organization admins). */
export async function queryLogPanel(panel: HTMLElement, org: string): Promise<void> {
  try {
    const entries = await api<LogEntry[]>("GET", `/organizations/${enc(org)}/query-log?limit=100`);
    panel.append(h("p", { class: "muted" }, "Every query (REST, MCP, apps), newest first; the last 100."), h("div", { class: "scroll" }, table(entries, {
      At: (e) => when(e.at),
      Who: (e) => h("code", {}, e.principal),
      Via: (e) => e.via,
      Package: (e) => `${e.environmentName}/${e.packageName}@${e.versionId}`,
      Query: (e) => h("code", { class: "clip" }, e.queryName ? `${e.sourceName ? `${e.sourceName} -> ` : ""}${e.queryName}` : (e.query ?? "")),
      Rows: (e) => e.rows ?? "—",
      ms: (e) => e.ms ?? "—",
      Status: (e) => h("span", { title: e.error ?? "" }, badge(e.status)),
    }, { empty: "No query yet." })));
  } catch (error) {
    panel.append(errorBox(error));
  }
}
