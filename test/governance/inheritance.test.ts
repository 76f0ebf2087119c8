import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { API, createOrg, grantOrg, insertDocument, insertEnv, insertPackage, insertWorkspace } from "./fixtures.ts";

let s: TestService;
let admin: string;
let docId: string;
let personalDocId: string;
const O = `${API}/organizations/iorg`;
const tokens: Record<string, string> = {};

async function grant(base: string, userGroupId: string, permission: string): Promise<void> {
  const r = await s.call("POST", `${base}/permissions`, { token: admin, body: { userGroupId, permission } });
  if (r.status !== 201) throw new Error(`grant ${permission} on ${base} to ${userGroupId}: ${r.status} ${JSON.stringify(r.body)}`);
}

async function members(group: string, principals: string[]): Promise<void> {
  const r = await s.call("POST", `${O}/groups/${group}/members`, { token: admin, body: { members: principals.map((principal) => ({ principal })) } });
  if (r.status !== 200) throw new Error(`members of ${group}: ${r.status} ${JSON.stringify(r.body)}`);
}

/**
 * What a user sees of a resource, through granting a third user on it:
 * "manage" (201), "sees" (403: visible but may not manage) or "hidden" (404).
 */
async function probe(user: string, base: string): Promise<string> {
  const r = await s.call("POST", `${base}/permissions`, { token: tokens[user], body: { userGroupId: "user:target", permission: "viewer" } });
  if (r.status === 201) {
    await s.call("DELETE", `${base}/permissions/user:target`, { token: admin });
    return "manage";
  }
  return r.status === 403 ? "sees" : r.status === 404 ? "hidden" : `status ${r.status}`;
}

const ENV = `${O}/environments/prod`;
const PKG = `${ENV}/packages/sales`;
const OTHER_ENV = `${O}/environments/dev`;
const WS = `${O}/workspaces/shared`;
const DOC = () => `${WS}/documents/${docId}`;
const PWS = `${O}/workspaces/own`;
const PDOC = () => `${PWS}/documents/${personalDocId}`;

beforeAll(async () => {
  s = await startTestService();
  admin = await s.adminToken();
  const org = await createOrg(s, "iorg");
  for (const u of ["target", "orgadm", "orgmod", "envadm", "envview", "nested", "wsmgr", "wsview", "both", "owner", "docedit"]) {
    tokens[u] = await s.createUser(u);
    await grantOrg(s, "iorg", `user:${u}`, u === "orgadm" ? "admin" : u === "orgmod" ? "modeler" : "member");
  }
  const prod = await insertEnv(s, org, "prod");
  await insertEnv(s, org, "dev");
  await insertPackage(s, prod, "sales");
  const ws = await insertWorkspace(s, org, "shared");
  docId = await insertDocument(s, ws, "notes");
  const own = await insertWorkspace(s, org, "own", "owner");
  personalDocId = await insertDocument(s, own, "diary");
  for (const g of ["g1", "g2", "g3", "viewers"]) await s.call("POST", `${O}/groups`, { token: admin, body: { name: g } });
  await members("g1", ["user:nested"]);
  await members("g2", ["group:g1"]);
  await members("g3", ["group:g2"]);
  await members("viewers", ["user:both"]);
  await grant(ENV, "group:g3", "admin");
  await grant(ENV, "user:envadm", "admin");
  await grant(ENV, "user:envview", "viewer");
  await grant(ENV, "user:both", "viewer");
  await grant(ENV, "group:viewers", "admin");
  await grant(WS, "user:wsmgr", "manager");
  await grant(WS, "user:wsview", "viewer");
  await grant(DOC(), "user:docedit", "editor");
}, 120_000);
afterAll(() => s.close());

describe("effective roles as users see them", () => {
  test("organization admin manages everything in the organization except personal workspaces", async () => {
    for (const base of [ENV, PKG, OTHER_ENV, WS, DOC()]) expect([base, await probe("orgadm", base)]).toEqual([base, "manage"]);
    expect(await probe("orgadm", PWS)).toBe("hidden");
    expect(await probe("orgadm", PDOC())).toBe("hidden");
  });

  test("organization modeler is modeler of environments and packages (shares packages as viewer or modeler, not environments), nothing on workspaces", async () => {
    expect(await probe("orgmod", ENV)).toBe("sees");
    expect(await probe("orgmod", PKG)).toBe("manage");
    expect(await probe("orgmod", WS)).toBe("hidden");
  });

  test("an environment grant reaches its packages only", async () => {
    expect(await probe("envadm", ENV)).toBe("manage");
    expect(await probe("envadm", PKG)).toBe("manage");
    expect(await probe("envadm", OTHER_ENV)).toBe("hidden");
    expect(await probe("envadm", WS)).toBe("hidden");
    expect(await probe("envview", ENV)).toBe("sees");
    expect(await probe("envview", PKG)).toBe("sees");
  });

  test("a grant to a group of a group of a group of the user applies", async () => {
    expect(await probe("nested", ENV)).toBe("manage");
    expect(await probe("nested", PKG)).toBe("manage");
    expect(await probe("nested", OTHER_ENV)).toBe("hidden");
    await s.call("DELETE", `${O}/groups/g2/members`, { token: admin, body: { members: [{ principal: "group:g1" }] } });
    expect(await probe("nested", ENV)).toBe("hidden");
    await members("g2", ["group:g1"]);
    expect(await probe("nested", ENV)).toBe("manage");
  });

  test("the strongest grant wins (direct viewer, admin through a group)", async () => {
    expect(await probe("both", ENV)).toBe("manage");
  });

  test("workspace managers are editors of its documents; workspace viewers only read them", async () => {
    expect(await probe("wsmgr", WS)).toBe("manage");
    expect(await probe("wsmgr", DOC())).toBe("manage");
    expect(await probe("wsview", WS)).toBe("sees");
    expect(await probe("wsview", DOC())).toBe("sees");
    expect(await probe("docedit", DOC())).toBe("manage");
    expect(await probe("docedit", WS)).toBe("hidden");
  });

  test("a personal workspace is its owner's only", async () => {
    expect(await probe("owner", PWS)).toBe("manage");
    expect(await probe("owner", PDOC())).toBe("manage");
    expect(await probe("wsmgr", PWS)).toBe("hidden");
  });

  test("the organization response reports the caller's level", async () => {
    expect((await s.call("GET", O, { token: tokens.orgmod })).body.permission).toBe("modeler");
    expect((await s.call("GET", O, { token: tokens.nested })).body.permission).toBe("member");
  });
});
