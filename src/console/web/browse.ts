/**
 * Browsing: organizations, environments, packages and a package's models,
 * versions, runs and access. Every list is what the REST API answers for the
 * signed-in user; actions appear only where the user's role allows them.
 * @module
 */
import { api, apiOrNull } from "./api.ts";
import { badge, h, link, table, tabs, when } from "./dom.ts";
import { accessPanel, keysPanel, queryLogPanel } from "./admin.ts";
import { runsPanel } from "./runs.ts";

/** An organization as the API lists it. */
interface Organization {
  name: string;
  displayName?: string;
  description?: string;
  permission?: string;
}

interface Environment {
  name: string;
  description?: string;
  permission?: string;
}

interface Package {
  name: string;
  description?: string;
  latestVersion?: string | null;
  indexStatus?: string;
  updatedAt?: string;
  permission?: string;
}

interface Version {
  id: string;
  createdAt: string;
  archiveStatus: string;
  indexStatus: string;
  isLatest?: boolean;
}

interface ModelItem {
  path: string;
  description?: string;
  sources: string[];
  queries: string[];
}

const enc = encodeURIComponent;

/** The organizations of the user. */
export async function homeView(): Promise<HTMLElement> {
  const orgs = await api<Organization[]>("GET", "/organizations");
  return h("section", {}, h("h1", {}, "Organizations"),
    orgs.length === 0
      ? h("p", { class: "muted" }, "You belong to no organization yet. A system administrator creates one (POST /api/v0/organizations) and grants you a role. ",
        "If you were granted an environment directly, open it by its address: #/o/<organization>/e/<environment>.")
      : h("div", { class: "cards" }, orgs.map((o) => h("a", { class: "card", href: `#/o/${enc(o.name)}` },
        h("h3", {}, o.displayName || o.name), h("p", { class: "muted" }, o.description || ""), h("span", { class: "role" }, `your role: ${o.permission ?? "member"}`)))));
}

/** An organization: its environments, API keys, access and (admins) query log. */
export async function organizationView(org: string, tab?: string): Promise<HTMLElement> {
  // a user granted an environment or package directly is no member: the organization itself is 404 to it
  const [known, envs] = await Promise.all([
    apiOrNull<Organization>(`/organizations/${enc(org)}`),
    api<Environment[]>("GET", `/organizations/${enc(org)}/environments`),
  ]);
  const info: Organization = known ?? { name: org, permission: "none (granted inside it)" };
  const admin = info.permission === "admin";
  const items = [
    { id: "environments", label: "Environments", show: (panel: HTMLElement) => panel.append(table(envs, {
      Environment: (e) => link(`/o/${enc(org)}/e/${enc(e.name)}`, e.name),
      Description: (e) => e.description ?? "",
      "Your role": (e) => e.permission ?? "",
    }, { empty: "No environment you can read." })) },
    { id: "keys", label: "API keys", show: (panel: HTMLElement) => void keysPanel(panel, org) },
    { id: "access", label: "Access", show: (panel: HTMLElement) => void accessPanel(panel, `/organizations/${enc(org)}`, "organization") },
  ];
  if (admin) items.push({ id: "log", label: "Query log", show: (panel: HTMLElement) => void queryLogPanel(panel, org) });
  return h("section", {}, h("h1", {}, info.displayName || org, " ", h("span", { class: "role" }, `your role: ${info.permission}`)),
    info.description ? h("p", { class: "muted" }, info.description) : null,
    tabs(items, tab));
}

/** An environment: its packages and who has access. */
export async function environmentView(org: string, env: string): Promise<HTMLElement> {
  const base = `/organizations/${enc(org)}/environments/${enc(env)}`;
  const [info, pkgs] = await Promise.all([api<Environment>("GET", base), api<Package[]>("GET", `${base}/packages`)]);
  return h("section", {}, h("h1", {}, env, " ", h("span", { class: "role" }, `your role: ${info.permission ?? ""}`)),
    info.description ? h("p", { class: "muted" }, info.description) : null,
    tabs([
      { id: "packages", label: "Packages", show: (panel) => panel.append(table(pkgs, {
        Package: (p) => link(`/o/${enc(org)}/e/${enc(env)}/p/${enc(p.name)}`, p.name),
        Description: (p) => h("span", { class: "clip" }, p.description ?? ""),
        "Latest version": (p) => p.latestVersion ?? "—",
        Index: (p) => badge(p.indexStatus),
        Updated: (p) => when(p.updatedAt),
      }, { empty: "No package yet: publish one with POST .../packages/{name} (multipart) or the CLI." })) },
      { id: "access", label: "Access", show: (panel) => void accessPanel(panel, base, "environment") },
    ]));
}

/** A package: models (and notebooks) of a version, versions, runs with live progress, access. */
export async function packageView(where: { org: string; env: string; pkg: string; tab?: string; version?: string; signal: AbortSignal }): Promise<HTMLElement> {
  const { org, env, pkg } = where;
  const base = `/organizations/${enc(org)}/environments/${enc(env)}/packages/${enc(pkg)}`;
  const route = `/o/${enc(org)}/e/${enc(env)}/p/${enc(pkg)}`;
  const [info, versions] = await Promise.all([api<Package>("GET", base), api<Version[]>("GET", `${base}/versions`)]);
  const shown = where.version ?? info.latestVersion ?? undefined;
  const modelsPanel = async (panel: HTMLElement) => {
    const models = await apiOrNull<ModelItem[]>(`${base}/models${where.version ? `?versionId=${enc(where.version)}` : ""}`) ?? [];
    panel.append(h("p", { class: "muted" }, `Models and notebooks of version ${shown ?? "—"}`, where.version && where.version !== info.latestVersion ? " (not the latest)" : " (the latest)",
      "; the Versions tab opens another version's."));
    panel.append(table(models, {
      Model: (m) => link(`${route}/m/${m.path}${where.version ? `?v=${enc(where.version)}` : ""}`, m.path),
      Kind: (m) => (m.path.endsWith(".malloynb") ? badge("notebook") : badge("model")),
      Sources: (m) => m.sources.join(", "),
      "Named queries": (m) => m.queries.join(", ") || "—",
    }, { empty: "This version has no model." }));
  };
  return h("section", {}, h("h1", {}, pkg, " ", h("span", { class: "role" }, `your role: ${info.permission ?? ""}`)),
    h("p", { class: "muted" }, info.description ?? ""),
    h("p", {}, "Latest version ", h("strong", {}, info.latestVersion ?? "—"), " · index ", badge(info.indexStatus),
      " · ", h("a", { href: `/api/v0${base}/app/`, target: "_blank", rel: "noopener" }, "open the package's app")),
    tabs([
      { id: "models", label: "Models", show: (panel) => void modelsPanel(panel) },
      { id: "versions", label: "Versions", show: (panel) => panel.append(table(versions, {
        Version: (v) => h("span", {}, link(`${route}?tab=models&v=${enc(v.id)}`, v.id, { title: "this version's models" }), v.isLatest ? h("span", { class: "badge s-latest" }, "latest") : null),
        Published: (v) => when(v.createdAt),
        Status: (v) => badge(v.archiveStatus === "unarchive" ? "active" : v.archiveStatus),
        Index: (v) => badge(v.indexStatus),
      })) },
      { id: "runs", label: "Runs", show: (panel) => void runsPanel(panel, { base, signal: where.signal, permission: info.permission, latestVersion: info.latestVersion }) },
      { id: "access", label: "Access", show: (panel) => void accessPanel(panel, base, "package") },
    ], where.tab));
}
