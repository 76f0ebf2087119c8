/**
 * The success responses the OpenAPI document declares (src/docs/schemas.ts and
 * each folder's schemas.ts) are checked against real answers: a scenario calls
 * the operations of most families, and every successful JSON answer must pass
 * TypeBox's `Value.Check` against its operation's documented schema, so the
 * document cannot drift from what the API answers. The document must type the
 * success answers of at least 90% of its operations.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import { Value } from "@sinclair/typebox/value";
import type { TSchema } from "@sinclair/typebox";
import { SUCCESS, successKey } from "../../src/docs/schemas.ts";
import { API, publish, smallPackage, startWorld, userWith, type World } from "../packages/helpers.ts";

let w: World;
let doc: { paths: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: TSchema }> }> }>> };

/** One recorded answer. */
interface Answer {
  method: string;
  path: string;
  status: number;
  body: unknown;
  type: string;
}
const answers: Answer[] = [];

async function call(method: string, path: string, options: { token?: string; body?: unknown; apiKey?: string } = {}) {
  const r = await w.s.call(method, path, { token: options.apiKey ? undefined : options.token ?? w.admin, apiKey: options.apiKey, body: options.body });
  answers.push({ method, path: path.split("?")[0]!, status: r.status, body: r.body, type: r.headers.get("content-type") ?? "" });
  return r;
}

const O = `${API}/organizations/acme`;
const E = `${O}/environments/prod`;
const P = `${E}/packages/flights`;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "true" });
  const files = smallPackage({ "public/index.html": "<!doctype html><title>app</title>" });
  const pub = await publish(w, "flights", "1.0.0", { token: w.admin, files });
  expect(pub.status).toBe(201);
  answers.push({ method: "POST", path: P, status: pub.status, body: pub.body, type: pub.headers.get("content-type") ?? "" });
  const viewer = await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });

  // status and identity
  await call("GET", "/health");
  await call("GET", "/health/ready");
  await call("GET", `${API}/status`);
  await call("GET", "/", { token: "" });
  await call("GET", `${API}/coding/extension-version?version=0.1.0`);
  // organizations, users
  await call("GET", `${API}/organizations`);
  await call("POST", `${API}/organizations`, { body: { name: "other" } });
  await call("GET", O);
  await call("PATCH", `${API}/organizations/other`, { body: { description: "changed" } });
  await call("GET", `${O}/users`);
  await call("POST", `${O}/permissions`, { body: { userGroupId: "user:viewer", permission: "member" } });
  await call("GET", `${O}/users/viewer`);
  await call("POST", `${API}/users`, { body: { userName: "sam", email: "sam@example.com", password: "pw-sam-secret-long" } });
  await call("GET", `${API}/users/sam`);
  await call("PATCH", `${API}/users/sam`, { body: { email: "sam2@example.com" } });
  // environments, connections
  await call("GET", `${O}/environments`);
  await call("POST", `${O}/environments`, { body: { name: "staging" } });
  await call("GET", E);
  await call("PATCH", `${O}/environments/staging`, { body: { description: "s" } });
  await call("GET", `${E}/connections`);
  await call("POST", `${E}/connections`, { body: { name: "lake", type: "duckdb" } });
  await call("GET", `${E}/connections/lake`);
  await call("PATCH", `${E}/connections/lake`, { body: { description: "lake" } });
  // packages, versions, models, queries
  await call("GET", `${E}/packages`);
  await call("GET", `${O}/packages`);
  await call("GET", P);
  await call("PATCH", P, { body: { description: "flights" } });
  await call("GET", `${P}/versions`);
  await call("GET", `${P}/versions/1.0.0`);
  await call("PATCH", `${P}/versions/1.0.0`, { body: { archiveStatus: "unarchive" } });
  await call("GET", `${P}/models`);
  await call("GET", `${P}/models/models/flights.malloy`);
  await call("POST", `${P}/models/models/flights.malloy/query`, { body: { query: "run: flights -> { aggregate: n is count() }" } });
  await call("POST", `${P}/models/models/flights.malloy/query`, { body: { query: "run: flights -> { aggregate: n is count() }", dryRun: true } });
  await call("POST", `${P}/app-token`);
  // runs, indexes, materializations
  const runs = await call("GET", `${P}/runs`);
  const runId = (runs.body as { id: string }[])[0]?.id;
  if (runId) await call("GET", `${P}/runs/${runId}`);
  await call("POST", `${P}/versions/1.0.0/runs`, { body: {} });
  const indexes = await call("GET", `${P}/versions/1.0.0/indexes`);
  const indexId = (indexes.body as { id: string }[])[0]?.id;
  if (indexId) await call("GET", `${P}/versions/1.0.0/indexes/${indexId}`);
  const mats = await call("GET", `${P}/versions/1.0.0/materializations`);
  const matId = (mats.body as { id: string }[])[0]?.id;
  if (matId) await call("GET", `${P}/versions/1.0.0/materializations/${matId}`);
  // groups, members, tokens
  await call("GET", `${O}/groups`);
  await call("POST", `${O}/groups`, { body: { name: "crew" } });
  await call("GET", `${O}/groups/crew`);
  await call("PATCH", `${O}/groups/crew`, { body: { description: "crew" } });
  await call("POST", `${O}/groups/crew/members`, { body: { members: [{ principal: "user:viewer" }] } });
  await call("GET", `${O}/groups/crew/members`);
  await call("PATCH", `${O}/groups/crew/members/user:viewer`, { body: { status: "admin" } });
  await call("POST", `${O}/groups/crew/tokens?name=bot`);
  await call("GET", `${O}/groups/crew/tokens`);
  // permissions at every level
  for (const base of [O, E, P]) {
    await call("POST", `${base}/permissions`, { body: { userGroupId: "user:sam", permission: base === O ? "member" : "viewer" } });
    await call("GET", `${base}/permissions`);
    await call("GET", `${base}/permissions/user:sam`);
    await call("PATCH", `${base}/permissions/user:sam`, { body: { permission: "modeler" } });
  }
  await call("GET", `${API}/permissions`);
  await call("POST", `${API}/permissions`, { body: { userGroupId: "user:sam", permission: "admin" } });
  // invites
  const invite = await call("POST", `${API}/invites`, { body: {} });
  await call("GET", `${API}/invites`);
  const inviteToken = (invite.body as { token?: string }).token;
  if (inviteToken) await call("GET", `${API}/invites/${inviteToken}`);
  // attributes
  await call("PUT", `${O}/attributes/region`, { body: { type: "string" } });
  await call("GET", `${O}/attributes`);
  await call("GET", `${O}/attributes/region`);
  await call("PUT", `${O}/attributes/region/users/viewer`, { body: { value: "EU" } });
  await call("PUT", `${O}/attributes/region/groups/crew`, { body: { value: "US" } });
  await call("GET", `${O}/users/viewer/attributes`);
  await call("GET", `${O}/groups/crew/attributes`);
  await call("GET", `${O}/query-log`);
  // workspaces, documents, bookmarks
  await call("GET", `${O}/workspaces`);
  await call("POST", `${O}/workspaces`, { body: { name: "ws1" } });
  await call("POST", `${O}/workspaces/personal`);
  await call("GET", `${O}/workspaces/ws1`);
  await call("PATCH", `${O}/workspaces/ws1`, { body: { description: "w" } });
  await call("POST", `${O}/workspaces/ws1/packages?environmentName=prod&packageName=flights`);
  await call("GET", `${O}/workspaces/ws1/packages`);
  const created = await call("POST", `${O}/workspaces/ws1/documents`, { body: { name: "n", content: "c" } });
  await call("GET", `${O}/workspaces/ws1/documents`);
  const docId = (created.body as { id?: string }).id;
  if (docId) {
    await call("GET", `${O}/workspaces/ws1/documents/${docId}`);
    await call("PATCH", `${O}/workspaces/ws1/documents/${docId}`, { body: { content: "d" } });
    await call("POST", `${O}/workspaces/ws1/documents/${docId}/permissions`, { body: { userGroupId: "user:sam", permission: "viewer" } });
    await call("GET", `${O}/workspaces/ws1/documents/${docId}/permissions`);
  }
  await call("POST", `${O}/workspaces/ws1/permissions`, { body: { userGroupId: "user:sam", permission: "viewer" } });
  await call("GET", `${O}/workspaces/ws1/permissions`);
  await call("POST", `${O}/bookmarks`, { body: { bookmarkType: "workspace", objectId: "ws1" } });
  await call("GET", `${O}/bookmarks`);
  await call("GET", `${O}/bookmarks/workspace/ws1`);
  // retrieval, coding, watch mode, demo
  await call("POST", `${API}/retrieval/context`, { body: { organization: "acme", search_targets: [{ entity_type: "source" }] } });
  await call("POST", `${API}/retrieval/connection-entities`, { body: { organization: "acme", environment_name: "prod", connection_name: "lake", skip_matching: true } });
  await call("GET", `${API}/coding/docs/search?q=measure`);
  await call("POST", `${API}/coding/docs/answer`, { body: { question: "How do I define a measure?", limit: 2 } });
  const manifests = await call("GET", `${API}/coding/manifests`);
  const manifest = (manifests.body as { name?: string }[])[0]?.name;
  if (manifest) await call("GET", `${API}/coding/manifests/${manifest}/skills`);
  await call("GET", `${API}/watch-mode/status`);
  await call("POST", `${O}/demo-environment`, { body: {} });
  await call("POST", `${API}/demo/organizations`, { token: viewer, body: { name: "viewers-demo" } });
  await call("POST", `${API}/auth/token`, { token: "", body: { userName: "viewer", password: "pw-viewer-secret" } });
  // deletions last
  await call("DELETE", `${O}/bookmarks/workspace/ws1`);
  await call("DELETE", `${O}/attributes/region/users/viewer`);
  await call("DELETE", `${O}/groups/crew/tokens/bot`);
  await call("DELETE", `${E}/connections/lake`);
  await call("DELETE", `${O}/environments/staging`);
  const recorded = JSON.stringify(answers, null, 1);
  if (process.env.RESPONSE_SCHEMAS_DUMP) await Bun.write(process.env.RESPONSE_SCHEMAS_DUMP, recorded);
  doc = (await w.s.call("GET", `${API}/openapi.json`)).body;
}, 300_000);

afterAll(async () => {
  await w?.s.close();
  if (w) await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

/**
 * The OpenAPI path template of a request path (`{param}` matches a segment, `*` the rest). The document lists
 * each operation once: under `/environments/`, but the specification's update-version operation, under `/projects/`.
 */
function templateOf(method: string, path: string): string | undefined {
  const spelled = (from: string, to: string) => path.replace(new RegExp(`^(/api/v0/organizations/[^/]+)/${from}(?=/|$)`), `$1/${to}`);
  return templateMatching(method, path) ?? templateMatching(method, spelled("projects", "environments")) ?? templateMatching(method, spelled("environments", "projects"));
}

function templateMatching(method: string, path: string): string | undefined {
  const candidates = Object.keys(doc.paths).filter((t) => doc.paths[t]![method.toLowerCase()]);
  const match = (t: string) => {
    const pattern = t.replace(/\/$/, "").split("/").map((seg) => seg === "*" ? ".*" : seg.startsWith("{") ? "[^/]+" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("/");
    return new RegExp(`^${pattern}/?$`).test(path);
  };
  // the most literal template wins (`/workspaces/personal` before `/workspaces/{ws}`)
  return candidates.filter(match).sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))[0];
}

test("every successful JSON answer of the scenario passes its operation's documented schema", () => {
  const problems: string[] = [];
  const checked = new Set<string>();
  for (const a of answers) {
    if (a.status === 204) {
      // a documented 204 is an answer without a body
      const template = templateOf(a.method, a.path);
      const registered = template ? SUCCESS[successKey(a.method, template)] : undefined;
      if (registered?.status !== 204 || a.body !== "") problems.push(`${a.method} ${a.path} 204: documented ${registered?.status}, body ${JSON.stringify(a.body)}`);
      else checked.add(`${a.method} ${template}`);
      continue;
    }
    if (a.status >= 300 || !a.type.includes("json")) continue;
    const template = templateOf(a.method, a.path);
    if (!template) {
      problems.push(`${a.method} ${a.path}: no operation in the document`);
      continue;
    }
    const op = doc.paths[template]![a.method.toLowerCase()]!;
    const documented = op.responses?.[String(a.status)]?.content?.["application/json"]?.schema;
    const registered = SUCCESS[successKey(a.method, template)];
    const schema = registered?.status === a.status || (registered && a.status === 200 && registered.status === 201) ? registered.json : undefined;
    if (!schema) {
      problems.push(`${a.method} ${template} ${a.status}: no schema in the registry (documented: ${JSON.stringify(documented ?? null).slice(0, 80)})`);
      continue;
    }
    if (registered!.status === a.status) {
      // the document carries the registry's schema, as JSON
      expect(documented as unknown).toEqual(JSON.parse(JSON.stringify(schema)));
    }
    checked.add(`${a.method} ${template}`);
    if (!Value.Check(schema, a.body)) {
      const errors = [...Value.Errors(schema, a.body)].slice(0, 3).map((e) => `${e.path}: ${e.message}`);
      problems.push(`${a.method} ${template} ${a.status}: ${errors.join("; ")}`);
    }
  }
  expect(problems).toEqual([]);
  console.log(`checked ${checked.size} operations against real answers`);
  expect(checked.size).toBeGreaterThanOrEqual(80);
});

test("the document types the success answer of at least 90% of its operations", async () => {
  const paths = doc.paths;
  let operations = 0;
  let typed = 0;
  const untyped: string[] = [];
  for (const [path, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      operations++;
      const success = Object.entries(op.responses ?? {}).filter(([s]) => /^[23]/.test(s));
      const ok = success.length > 0 && success.every(([status, res]) => {
        if (status === "204" || status.startsWith("3")) return !res.content;
        return Object.values(res.content ?? {}).some((c) => c.schema && Object.keys(c.schema).length > 0);
      });
      if (ok) typed++;
      else untyped.push(`${method.toUpperCase()} ${path}`);
    }
  }
  console.log(`typed success answers: ${typed} of ${operations} operations; untyped: ${untyped.join(", ")}`);
  expect(typed / operations).toBeGreaterThanOrEqual(0.9);
});
