/**
 * The packages `get_context` searches are the packages the caller may read,
 * as the packages API lists them, whatever path the read comes through: a
 * grant on the package, its environment or its organization, a nested group,
 * a group's API key; not a pending request nor an organization's viewer role.
 * The search reads them for all of an organization's packages in one
 * statement (sql/197_readable_packages.sql), the API one package at a time
 * (`effective_rank`): the two must agree.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Principal } from "../../src/access/principal.ts";
import { NotFoundError } from "../../src/errors.ts";
import { rankQuestion } from "../../src/retrieval/search.ts";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";

let w: World;
const ENVS = { prod: ["alpha", "beta", "gamma"], dev: ["delta"] };

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
  expect((await w.s.call("POST", `${API}/organizations/acme/environments`, { token: w.admin, body: { name: "dev" } })).status).toBe(201);
  for (const [env, names] of Object.entries(ENVS)) {
    for (const name of names) expect((await publish(w, name, "1.0.0", { token: w.admin, prefix: `${API}/organizations/acme/environments/${env}` })).status).toBe(201);
  }
}, 120_000);

afterAll(async () => {
  await w.s.close();
}, 120_000);

const sql = () => w.s.service.db.sql;
async function idOf(table: "packages" | "environments" | "groups", name: string): Promise<string> {
  const [row] = await sql()`SELECT id FROM ${sql()(table)} WHERE name = ${name}`;
  return row!.id as string;
}
async function grant(resource: { kind: string; id: string }, principal: { kind: string; id: string }, role: string, pending = false): Promise<void> {
  await sql()`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role, pending)
    VALUES (${resource.kind}, ${resource.id}, ${principal.kind}, ${principal.id}, ${role}, ${pending})`;
}
async function user(name: string): Promise<{ token: string; principal: Principal; id: string }> {
  const token = await w.s.createUser(name);
  const [u] = await sql()`SELECT id FROM users WHERE user_name = ${name}`;
  return { token, id: u!.id as string, principal: { kind: "user", userId: u!.id as string, userName: name, systemAdmin: false } };
}
async function group(name: string): Promise<string> {
  expect((await w.s.call("POST", `${API}/organizations/acme/groups`, { token: w.admin, body: { name } })).status).toBe(201);
  return await idOf("groups", name);
}

/** `env/package` the packages API lists to a caller (an environment it cannot read lists nothing). */
async function listed(auth: { token?: string; apiKey?: string }): Promise<string[]> {
  const out: string[] = [];
  for (const env of Object.keys(ENVS)) {
    const r = await w.s.call("GET", `${API}/organizations/acme/environments/${env}/packages`, auth);
    if (r.status === 404) continue;
    expect(r.status).toBe(200);
    for (const p of r.body as { name: string }[]) out.push(`${env}/${p.name}`);
  }
  return out.sort();
}

/** `env/package` of the versions get_context searches for a caller in the whole organization. */
async function searched(principal: Principal): Promise<string[]> {
  const found = await rankQuestion(sql(), principal, { organization: "acme", question: "flights by carrier", scope: {} });
  return found.versions.map((v) => `${v.environmentName}/${v.packageName}`).sort();
}

test("get_context searches exactly the packages the packages API lists to each caller", async () => {
  const org = { kind: "organization", id: w.orgId };
  const prod = { kind: "environment", id: await idOf("environments", "prod") };
  const dev = { kind: "environment", id: await idOf("environments", "dev") };
  const beta = { kind: "package", id: await idOf("packages", "beta") };
  const gamma = { kind: "package", id: await idOf("packages", "gamma") };

  const cases: Array<{ who: string; auth: { token?: string; apiKey?: string }; principal: Principal; expected: string[] }> = [];
  const add = (who: string, u: { token: string; principal: Principal }, expected: string[]) => cases.push({ who, auth: { token: u.token }, principal: u.principal, expected });

  const envViewer = await user("env_viewer");
  await grant(prod, { kind: "user", id: envViewer.id }, "viewer");
  add("environment viewer", envViewer, ["prod/alpha", "prod/beta", "prod/gamma"]);

  const pkgViewer = await user("pkg_viewer");
  await grant(beta, { kind: "user", id: pkgViewer.id }, "viewer");
  add("package viewer", pkgViewer, ["prod/beta"]);

  const orgModeler = await user("org_modeler");
  await grant(org, { kind: "user", id: orgModeler.id }, "modeler");
  add("organization modeler", orgModeler, ["dev/delta", "prod/alpha", "prod/beta", "prod/gamma"]);

  const orgAdmin = await user("org_admin");
  await grant(org, { kind: "user", id: orgAdmin.id }, "admin");
  add("organization admin", orgAdmin, ["dev/delta", "prod/alpha", "prod/beta", "prod/gamma"]);

  const orgViewer = await user("org_viewer");
  await grant(org, { kind: "user", id: orgViewer.id }, "viewer");
  add("organization viewer", orgViewer, []);

  const asking = await user("asking");
  await grant(prod, { kind: "user", id: asking.id }, "viewer", true);
  await grant(gamma, { kind: "user", id: asking.id }, "viewer");
  add("a pending request on prod, a grant on gamma", asking, ["prod/gamma"]);

  // a member of `inner`, itself a member of `outer`, which may read dev and gamma
  const nested = await user("nested");
  const inner = await group("inner");
  const outer = await group("outer");
  await sql()`INSERT INTO group_members (group_id, member_user_id, status) VALUES (${inner}, ${nested.id}, 'member')`;
  await sql()`INSERT INTO group_members (group_id, member_group_id, status) VALUES (${outer}, ${inner}, 'member')`;
  await grant(dev, { kind: "group", id: outer }, "viewer");
  await grant(gamma, { kind: "group", id: outer }, "viewer");
  add("member of a nested group", nested, ["dev/delta", "prod/gamma"]);

  const sysadmin = await user("root");
  await sql()`UPDATE users SET system_admin = true WHERE id = ${sysadmin.id}`;
  add("system administrator", { ...sysadmin, principal: { ...sysadmin.principal, systemAdmin: true } as Principal }, ["dev/delta", "prod/alpha", "prod/beta", "prod/gamma"]);

  // a group's API key: the group's grants (beta) and those of the groups it belongs to (outer: dev, gamma)
  const bots = await group("bots");
  await grant(beta, { kind: "group", id: bots }, "viewer");
  await sql()`INSERT INTO group_members (group_id, member_group_id, status) VALUES (${outer}, ${bots}, 'member')`;
  const key = await w.s.call("POST", `${API}/organizations/acme/groups/bots/tokens?name=ci`, { token: w.admin });
  expect(key.status).toBe(201);
  const botsPrincipal: Principal = { kind: "group", groupId: bots, groupName: "bots", orgId: w.orgId, orgName: "acme", tokenId: key.body.id ?? "t" };
  cases.push({ who: "group API key", auth: { apiKey: key.body.secret }, principal: botsPrincipal, expected: ["dev/delta", "prod/beta", "prod/gamma"] });

  for (const c of cases) {
    const api = await listed(c.auth);
    expect({ who: c.who, api }).toEqual({ who: c.who, api: c.expected });
    // a caller who may read no package of the organization: nothing searched, or the organization not found
    const search = await searched(c.principal).catch((e) => (e instanceof NotFoundError ? [] : Promise.reject(e)));
    expect({ who: c.who, search }).toEqual({ who: c.who, search: c.expected });
  }
}, 60_000);
