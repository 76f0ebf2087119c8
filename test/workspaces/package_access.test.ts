import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { connectClient, serveOnLoopback, type Served } from "../helpers/mcp.ts";

let w: World;
let served: Served;
let client: Client;
let mo: string; // organization modeler: package modeler, creates and manages the workspace
let wm: string; // workspace manager with only package viewer
let vi: string; // workspace viewer with package modeler
let out: string; // outside the organization
let pa: string; // package admin who only views the workspace
const O = `${API}/organizations/acme`;
const WP = `${O}/workspaces/sales/packages`;
const FLIGHTS = "?environmentName=prod&packageName=flights";
const args = { environment_name: "prod", package_name: "flights", model_uri: "models/flights.malloy", query_name: "by_carrier", source_name: "flights" };

function text(result: object): string {
  return (result as { content: { text: string }[] }).content[0]!.text;
}

async function grant(path: string, userGroupId: string, permission: string): Promise<void> {
  const r = await w.s.call("POST", `${path}/permissions`, { token: w.admin, body: { userGroupId, permission } });
  expect([path, userGroupId, r.status]).toEqual([path, userGroupId, 201]);
}

beforeAll(async () => {
  w = await startWorld();
  expect((await publish(w, "flights", "1.0.0", { token: w.admin })).status).toBe(201);
  expect((await publish(w, "other", "1.0.0", { token: w.admin })).status).toBe(201);
  mo = await w.s.createUser("mo");
  wm = await w.s.createUser("wm");
  vi = await w.s.createUser("vi");
  out = await w.s.createUser("out");
  pa = await w.s.createUser("pa");
  await grant(O, "user:mo", "modeler");
  await grant(O, "user:wm", "member");
  await grant(O, "user:vi", "member");
  const P = `${O}/environments/prod/packages/flights`;
  await grant(P, "user:wm", "viewer");
  await grant(P, "user:vi", "modeler");
  await grant(O, "user:pa", "member");
  await grant(P, "user:pa", "admin");
  expect((await w.s.call("POST", `${O}/workspaces`, { token: mo, body: { name: "sales" } })).status).toBe(201);
  await grant(`${O}/workspaces/sales`, "user:wm", "manager");
  await grant(`${O}/workspaces/sales`, "user:vi", "viewer");
  await grant(`${O}/workspaces/sales`, "user:pa", "viewer");
  // an agent: a group token whose group reads the package and views the workspace
  expect((await w.s.call("POST", `${O}/groups`, { token: w.admin, body: { name: "agents" } })).status).toBe(201);
  const key = (await w.s.call("POST", `${O}/groups/agents/tokens?name=x`, { token: w.admin })).body.secret as string;
  await grant(P, "group:agents", "viewer");
  await grant(`${O}/workspaces/sales`, "group:agents", "viewer");
  served = serveOnLoopback(w.s.service.handle);
  client = await connectClient(`${served.url}/mcp/acme/workspace/sales`, `ApiKey ${key}`);
}, 60_000);
afterAll(async () => {
  await client?.close();
  served?.stop();
  await w?.s.close();
}, 120_000);

describe("workspace package access", () => {
  test("without access the MCP workspace endpoint does not find the package", async () => {
    const result = await client.callTool({ name: "execute_query", arguments: args });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("RESOURCE_NOT_FOUND");
    expect(text(result)).toContain("not found in workspace 'sales'");
    expect((await w.s.call("GET", WP, { token: mo })).body).toEqual([]);
  });

  test("refusals: manager without sharing rights 403, viewer 403, outsider 404, unknown package 404, bad names 400", async () => {
    const manager = await w.s.call("POST", `${WP}${FLIGHTS}`, { token: wm });
    expect([manager.status, manager.body.code]).toEqual([403, "INSUFFICIENT_PERMISSIONS"]);
    expect(manager.body.message).toContain("package admin or modeler");
    const viewer = await w.s.call("POST", `${WP}${FLIGHTS}`, { token: vi });
    expect([viewer.status, viewer.body.message]).toEqual([403, expect.stringContaining("manager")]);
    for (const method of ["GET", "POST", "DELETE"]) {
      expect([method, (await w.s.call(method, `${WP}${FLIGHTS}`, { token: out })).status]).toEqual([method, 404]);
    }
    expect((await w.s.call("POST", `${WP}?environmentName=prod&packageName=nope`, { token: mo })).status).toBe(404);
    expect((await w.s.call("POST", `${O}/workspaces/nope/packages${FLIGHTS}`, { token: mo })).status).toBe(404);
    expect((await w.s.call("POST", `${WP}?environmentName=prod`, { token: mo })).status).toBe(400);
    expect((await w.s.call("POST", `${WP}?environmentName=prod&packageName=a%20b`, { token: mo })).status).toBe(400);
    expect((await w.s.call("GET", WP, { token: mo })).body).toEqual([]);
  });

  test("the package's permission routes are no way around the workspace manager: workspace grants need its manager too", async () => {
    const PP = `${O}/environments/prod/packages/flights/permissions`;
    // wm's personal workspace exists, but nobody else sees it
    expect((await w.s.call("POST", `${O}/workspaces/personal`, { token: wm })).status).toBe(201);
    for (const ws of ["sales", "personal-wm", "nope"]) {
      // pa administers the package but does not manage the workspace: the same 400 whether it exists, is invisible or is missing
      const r = await w.s.call("POST", PP, { token: pa, body: { userGroupId: `workspace:${ws}`, permission: "viewer" } });
      expect([ws, r.status, r.body.code]).toEqual([ws, 400, "VALIDATION_ERROR"]);
      expect(r.body.message).toBe(`userGroupId 'workspace:${ws}' names no workspace of this organization that you manage; a workspace manager adds the package with POST .../workspaces/${ws}/packages`);
      expect((await w.s.call("GET", `${PP}/workspace:${ws}`, { token: w.admin })).status).toBe(404);
    }
    // the system administrator manages shared workspaces, never another user's personal one
    expect((await w.s.call("POST", PP, { token: w.admin, body: { userGroupId: "workspace:personal-wm", permission: "viewer" } })).status).toBe(400);
    expect((await w.s.call("GET", WP, { token: mo })).body).toEqual([]);
    const listed = await client.callTool({ name: "execute_query", arguments: args });
    expect(listed.isError).toBe(true);
  });

  test("a workspace manager who can share the package adds it (201, then 200); the workspace endpoint reaches it", async () => {
    const added = await w.s.call("POST", `${WP}${FLIGHTS}`, { token: mo });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ environmentName: "prod", packageName: "flights" });
    expect((await w.s.call("POST", `${WP}${FLIGHTS}`, { token: mo })).status).toBe(200);
    const perms = await w.s.call("GET", `${O}/environments/prod/packages/flights/permissions/workspace:sales`, { token: w.admin });
    expect([perms.status, perms.body.permission]).toEqual([200, "viewer"]);
    const listed = await w.s.call("GET", WP, { token: vi });
    expect(listed.body.map((a: { packageName: string }) => a.packageName)).toEqual(["flights"]);
    const result = await client.callTool({ name: "execute_query", arguments: args });
    expect(result.isError).toBeFalsy();
    const envelope = JSON.parse(text(result));
    expect(envelope.data).toEqual([
      { carrier: "AA", flight_count: 3, total_distance: 7536 },
      { carrier: "UA", flight_count: 3, total_distance: 6257 },
      { carrier: "WN", flight_count: 2, total_distance: 478 },
    ]);
    // other packages stay out of the workspace
    const other = await client.callTool({ name: "execute_query", arguments: { ...args, package_name: "other" } });
    expect(other.isError).toBe(true);
  });

  test("the list shows only packages the caller can read", async () => {
    expect((await w.s.call("POST", `${WP}?environmentName=prod&packageName=other`, { token: mo })).status).toBe(201);
    const mine = await w.s.call("GET", WP, { token: mo });
    expect(mine.body.map((a: { packageName: string }) => a.packageName)).toEqual(["flights", "other"]);
    const vis = await w.s.call("GET", WP, { token: vi });
    expect(vis.body.map((a: { packageName: string }) => a.packageName)).toEqual(["flights"]);
  });

  test("removing access takes the package out of the workspace again; removing twice is 404", async () => {
    expect((await w.s.call("DELETE", `${WP}${FLIGHTS}`, { token: wm })).status).toBe(403);
    expect((await w.s.call("DELETE", `${WP}${FLIGHTS}`, { token: mo })).status).toBe(204);
    const result = await client.callTool({ name: "execute_query", arguments: args });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("not found in workspace 'sales'");
    expect((await w.s.call("DELETE", `${WP}${FLIGHTS}`, { token: mo })).status).toBe(404);
  });

  test("deleting the workspace drops its package access", async () => {
    const [ws] = await w.s.service.db.sql`SELECT id FROM workspaces WHERE name = 'sales'`;
    expect((await w.s.call("DELETE", `${O}/workspaces/sales`, { token: mo })).status).toBe(204);
    const [{ n }] = await w.s.service.db.sql`SELECT count(*)::int AS n FROM grants WHERE principal_id = ${ws!.id as string}` as unknown as [{ n: number }];
    expect(n).toBe(0);
  });
});
