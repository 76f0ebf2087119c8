import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { effectiveValues } from "../../src/attributes/effective.ts";
import type { Db } from "../../src/db/database.ts";

/** Effective values of a user as a name → value record (the rules live once, in effectiveValues). */
async function resolveAttributes(db: Db, o: { userId: string; orgId: string }): Promise<Record<string, unknown>> {
  const values = await effectiveValues(db, { kind: "user", id: o.userId }, { orgId: o.orgId });
  return Object.fromEntries(values.map((v) => [v.name, v.value]));
}

async function resolveAttribute(db: Db, o: { userId: string; orgId: string; name: string }): Promise<unknown> {
  return (await resolveAttributes(db, o))[o.name];
}
import { API, createOrg, grantOrg, userId } from "./fixtures.ts";

let s: TestService;
let admin: string;
let orgId: string;
let modeler: string;
let member: string;
const A = `${API}/organizations/aorg/attributes`;

beforeAll(async () => {
  s = await startTestService();
  admin = await s.adminToken();
  orgId = await createOrg(s, "aorg");
  modeler = await s.createUser("mod");
  member = await s.createUser("mem");
  await s.createUser("deep");
  await grantOrg(s, "aorg", "user:mod", "modeler");
  await grantOrg(s, "aorg", "user:mem", "member");
  for (const g of ["inner", "middle", "outer", "side"]) await s.call("POST", `${API}/organizations/aorg/groups`, { token: admin, body: { name: g } });
  const add = (g: string, p: string) => s.call("POST", `${API}/organizations/aorg/groups/${g}/members`, { token: admin, body: { members: [{ principal: p }] } });
  await add("inner", "user:deep");
  await add("middle", "group:inner");
  await add("outer", "group:middle");
  await add("side", "user:deep");
}, 60_000);
afterAll(() => s.close());

describe("attribute routes", () => {
  test("declare, replace, get, list with paging and embedded values", async () => {
    const created = await s.call("PUT", `${A}/region`, { token: admin, body: { type: "string", defaultValue: "eu" } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ name: "region", type: "string", defaultValue: "eu", userValues: [], groupValues: [] });
    expect((await s.call("PUT", `${A}/region`, { token: admin, body: { type: "string", defaultValue: "us" } })).status).toBe(200);
    expect((await s.call("PUT", `${A}/region`, { token: admin, body: { type: "string", defaultValue: 3 } })).status).toBe(400);
    expect((await s.call("PUT", `${A}/region`, { token: admin, body: { type: "date" } })).status).toBe(400);
    expect((await s.call("PUT", `${A}/region`, { token: modeler, body: { type: "string" } })).status).toBe(403);
    for (const [name, type] of [["b_flag", "boolean"], ["c_limit", "number"], ["d_tags", "string_list"]]) {
      expect((await s.call("PUT", `${A}/${name}`, { token: admin, body: { type } })).status).toBe(201);
    }
    expect((await s.call("PUT", `${A}/region/users/mem`, { token: admin, body: { value: "apac" } })).status).toBe(200);
    expect((await s.call("PUT", `${A}/region/users/mem`, { token: admin, body: { value: 7 } })).status).toBe(400);
    expect((await s.call("PUT", `${A}/region/users/mem`, { token: admin, body: {} })).status).toBe(400);
    expect((await s.call("PUT", `${A}/d_tags/users/mem`, { token: admin, body: { value: ["a", 1] } })).status).toBe(400);
    expect((await s.call("PUT", `${A}/region/users/nobody`, { token: admin, body: { value: "x" } })).status).toBe(404);
    expect((await s.call("PUT", `${A}/region/groups/side`, { token: admin, body: { value: "latam", rank: 2 } })).body).toEqual({ groupName: "side", value: "latam", rank: 2 });
    expect((await s.call("PUT", `${A}/region/groups/nope`, { token: admin, body: { value: "x" } })).status).toBe(404);
    expect((await s.call("PUT", `${A}/nope/users/mem`, { token: admin, body: { value: "x" } })).status).toBe(404);

    const got = await s.call("GET", `${A}/region`, { token: modeler });
    expect(got.body).toEqual({
      name: "region", type: "string", defaultValue: "us",
      userValues: [{ userName: "mem", value: "apac" }],
      groupValues: [{ groupName: "side", value: "latam", rank: 2 }],
    });
    expect((await s.call("GET", `${A}/region`, { token: member })).status).toBe(403);

    const page1 = await s.call("GET", `${A}?limit=2`, { token: modeler });
    expect(page1.body.map((a: { name: string }) => a.name)).toEqual(["b_flag", "c_limit"]);
    const next = page1.headers.get("link")!.match(/<([^>]+)>/)![1]!;
    const page2 = await s.call("GET", next, { token: modeler });
    expect(page2.body.map((a: { name: string }) => a.name)).toEqual(["d_tags", "region"]);
    expect(page2.body[1].userValues.length).toBe(1);

    expect((await s.call("DELETE", `${A}/region/users/mem`, { token: admin })).status).toBe(204);
    expect((await s.call("DELETE", `${A}/region/users/mem`, { token: admin })).status).toBe(204);
    expect((await s.call("DELETE", `${A}/region/groups/side`, { token: admin })).status).toBe(204);
    expect((await s.call("DELETE", `${A}/region/groups/side`, { token: admin })).status).toBe(204);
    expect((await s.call("GET", `${A}/region`, { token: admin })).body).toMatchObject({ userValues: [], groupValues: [] });
    // changing the type while values exist is refused; the values stay
    await s.call("PUT", `${A}/c_limit/users/mem`, { token: admin, body: { value: 5 } });
    expect((await s.call("PUT", `${A}/c_limit`, { token: admin, body: { type: "string" } })).status).toBe(409);
    expect((await s.call("GET", `${A}/c_limit`, { token: admin })).body.userValues).toEqual([{ userName: "mem", value: 5 }]);
  });
});

describe("resolveAttribute", () => {
  test("user value, else lowest-ranked group value across nested groups, else default", async () => {
    const deep = await userId(s, "deep");
    await s.call("PUT", `${A}/tier`, { token: admin, body: { type: "number", defaultValue: 0 } });
    expect(await resolveAttribute(s.service.db.sql, { userId: deep, orgId, name: "tier" })).toBe(0);
    await s.call("PUT", `${A}/tier/groups/outer`, { token: admin, body: { value: 3 } });
    expect(await resolveAttribute(s.service.db.sql, { userId: deep, orgId, name: "tier" })).toBe(3);
    await s.call("PUT", `${A}/tier/groups/side`, { token: admin, body: { value: 2, rank: 5 } });
    expect(await resolveAttribute(s.service.db.sql, { userId: deep, orgId, name: "tier" })).toBe(2);
    await s.call("PUT", `${A}/tier/groups/middle`, { token: admin, body: { value: 1, rank: 5 } });
    // tie on rank 5: group name decides (middle < side)
    expect(await resolveAttribute(s.service.db.sql, { userId: deep, orgId, name: "tier" })).toBe(1);
    await s.call("PUT", `${A}/tier/groups/outer`, { token: admin, body: { value: 9, rank: 1 } });
    expect(await resolveAttribute(s.service.db.sql, { userId: deep, orgId, name: "tier" })).toBe(9);
    await s.call("PUT", `${A}/tier/users/deep`, { token: admin, body: { value: 42 } });
    expect(await resolveAttribute(s.service.db.sql, { userId: deep, orgId, name: "tier" })).toBe(42);
    const mem = await userId(s, "mem");
    expect(await resolveAttribute(s.service.db.sql, { userId: mem, orgId, name: "tier" })).toBe(0);
    expect(await resolveAttribute(s.service.db.sql, { userId: deep, orgId, name: "undeclared" })).toBeUndefined();
  });

  test("string_list unions group values through nesting; the user's own list replaces them", async () => {
    const deep = await userId(s, "deep");
    await s.call("PUT", `${A}/regions`, { token: admin, body: { type: "string_list", defaultValue: ["none"] } });
    expect(await resolveAttribute(s.service.db.sql, { userId: deep, orgId, name: "regions" })).toEqual(["none"]);
    await s.call("PUT", `${A}/regions/groups/inner`, { token: admin, body: { value: ["eu", "us"], rank: 2 } });
    await s.call("PUT", `${A}/regions/groups/outer`, { token: admin, body: { value: ["apac", "eu"], rank: 1 } });
    expect(await resolveAttribute(s.service.db.sql, { userId: deep, orgId, name: "regions" })).toEqual(["apac", "eu", "us"]);
    await s.call("PUT", `${A}/regions/users/deep`, { token: admin, body: { value: ["mine"] } });
    const all = await resolveAttributes(s.service.db.sql, { userId: deep, orgId });
    expect(all.regions).toEqual(["mine"]);
    expect(all.tier).toBe(42);
  });
});
