import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { API, createOrg, grantOrg, insertDocument, insertEnv, insertPackage, insertWorkspace } from "./fixtures.ts";

let s: TestService;
let alice: string;
let aliceKey: string;
let docB: string;

beforeAll(async () => {
  s = await startTestService();
  const admin = await s.adminToken();
  await createOrg(s, "orga");
  const b = await createOrg(s, "orgb");
  alice = await s.createUser("alice");
  await s.createUser("bob");
  await grantOrg(s, "orga", "user:alice", "admin");
  await grantOrg(s, "orgb", "user:bob", "admin");
  await s.call("POST", `${API}/organizations/orga/groups`, { token: alice, body: { name: "ga" } });
  aliceKey = (await s.call("POST", `${API}/organizations/orga/groups/ga/tokens?name=k`, { token: alice })).body.secret;
  const env = await insertEnv(s, b, "prod");
  await insertPackage(s, env, "sales");
  const ws = await insertWorkspace(s, b, "shared");
  docB = await insertDocument(s, ws, "notes");
  await s.call("POST", `${API}/organizations/orgb/groups`, { token: admin, body: { name: "gb" } });
  await s.call("POST", `${API}/organizations/orgb/groups/gb/members`, { token: admin, body: { members: [{ principal: "user:bob" }] } });
  await s.call("POST", `${API}/organizations/orgb/groups/gb/tokens?name=tb`, { token: admin });
  await s.call("PUT", `${API}/organizations/orgb/attributes/ab`, { token: admin, body: { type: "string" } });
}, 60_000);
afterAll(() => s.close());

function routes(): [string, string, unknown?][] {
  const B = `${API}/organizations/orgb`;
  const grant = { userGroupId: "user:alice", permission: "viewer" };
  const perm = (base: string, role: string): [string, string, unknown?][] => [
    ["GET", `${base}/permissions`],
    ["POST", `${base}/permissions`, { userGroupId: "user:alice", permission: role }],
    ["POST", `${base}/permissions?requestPermission=true`, { userGroupId: "user:alice", permission: role }],
    ["GET", `${base}/permissions/user:bob`],
    ["GET", `${base}/permissions/user:alice`],
    ["PATCH", `${base}/permissions/user:bob`, { permission: role }],
    ["DELETE", `${base}/permissions/user:bob`],
    ["DELETE", `${base}/permissions/user:alice`],
  ];
  void grant;
  return [
    ["GET", B],
    ["PATCH", B, { description: "x" }],
    ["DELETE", B],
    ["GET", `${B}/users`],
    ["GET", `${B}/users/bob`],
    ["GET", `${B}/users/alice`],
    ...perm(B, "member"),
    ...perm(`${B}/environments/prod`, "viewer"),
    ...perm(`${B}/projects/prod`, "viewer"),
    ...perm(`${B}/environments/prod/packages/sales`, "viewer"),
    ...perm(`${B}/projects/prod/packages/sales`, "viewer"),
    ...perm(`${B}/workspaces/shared`, "viewer"),
    ...perm(`${B}/workspaces/shared/documents/${docB}`, "viewer"),
    ["GET", `${B}/groups`],
    ["POST", `${B}/groups`, { name: "mine" }],
    ["GET", `${B}/groups/gb`],
    ["PATCH", `${B}/groups/gb`, { description: "x" }],
    ["DELETE", `${B}/groups/gb`],
    ["GET", `${B}/groups/gb/members`],
    ["POST", `${B}/groups/gb/members`, { members: [{ principal: "user:alice", status: "admin" }] }],
    ["DELETE", `${B}/groups/gb/members`, { members: [{ principal: "user:bob" }] }],
    ["PATCH", `${B}/groups/gb/members/user:bob`, { status: "admin" }],
    ["POST", `${B}/groups/gb/tokens?name=steal`],
    ["GET", `${B}/groups/gb/tokens`],
    ["DELETE", `${B}/groups/gb/tokens/tb`],
    ["GET", `${B}/attributes`],
    ["GET", `${B}/attributes/ab`],
    ["PUT", `${B}/attributes/ab`, { type: "number" }],
    ["PUT", `${B}/attributes/new`, { type: "number" }],
    ["PUT", `${B}/attributes/ab/users/bob`, { value: "x" }],
    ["DELETE", `${B}/attributes/ab/users/bob`],
    ["PUT", `${B}/attributes/ab/groups/gb`, { value: "x", rank: 1 }],
    ["DELETE", `${B}/attributes/ab/groups/gb`],
  ];
}

describe("isolation between organizations", () => {
  test("an admin of organization A gets 404 on every route of organization B", async () => {
    const seen: string[] = [];
    for (const [method, path, body] of routes()) {
      const r = await s.call(method, path, { token: alice, body });
      if (r.status !== 404 || r.body.code !== "RESOURCE_NOT_FOUND") seen.push(`${method} ${path} -> ${r.status}`);
    }
    // any signed-in user may ask to join an organization (API.md, access requests): its own request is all it sees
    expect(seen).toEqual([
      "POST /api/v0/organizations/orgb/permissions?requestPermission=true -> 201",
      "GET /api/v0/organizations/orgb/permissions/user:alice -> 200",
      "DELETE /api/v0/organizations/orgb/permissions/user:alice -> 204",
    ]);
  });

  test("a group token of organization A gets 404 on every route of organization B", async () => {
    const seen: string[] = [];
    for (const [method, path, body] of routes()) {
      const r = await s.call(method, path, { apiKey: aliceKey, body });
      if (r.status !== 404) seen.push(`${method} ${path} -> ${r.status}`);
    }
    expect(seen).toEqual([]);
  });

  test("nothing of organization B changed", async () => {
    const bob = await s.login("bob", "pw-bob-secret");
    expect((await s.call("GET", `${API}/organizations/orgb/groups/gb/members`, { token: bob })).body.members).toEqual([{ userGroupId: "user:bob", status: "member" }]);
    expect((await s.call("GET", `${API}/organizations/orgb/groups/gb/tokens`, { token: bob })).body.map((t: { name: string }) => t.name)).toEqual(["tb"]);
    expect((await s.call("GET", `${API}/organizations/orgb/attributes/ab`, { token: bob })).body.type).toBe("string");
    const [n] = await s.service.db.sql`SELECT count(*)::int AS n FROM grants WHERE principal_id = (SELECT id FROM users WHERE user_name = 'alice') AND resource_kind <> 'organization'`;
    expect(n!.n).toBe(0);
  });
});
