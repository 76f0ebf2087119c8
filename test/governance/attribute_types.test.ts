/**
 * Attribute types end to end: boolean values (user, group, default) are
 * stored, listed and resolved, and fill a `#(bind)` boolean parameter of a
 * published model; redeclaring an attribute with another type while values
 * exist answers 409 naming the values and the published sources that bind it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bytes } from "../fixtures/engine_package.ts";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { admin } from "../rls/world.ts";

const MODEL = `##! experimental.parameters

#(bind) active_param=active
source: items(active_param::boolean) is duckdb.table('data/items.csv') extend {
  where: active = active_param
  measure: item_count is count()
}
`;
const ITEMS_CSV = `id,active
1,true
2,true
3,false
`;
const ATTR = "/organizations/acme/attributes";
const QUERY = `${API}/organizations/acme/environments/prod/packages/items/models/models/items.malloy/query`;

let w: World;
let on: string;
let off: string;
let dflt: string;

beforeAll(async () => {
  w = await startWorld();
  await admin(w, "PUT", `${ATTR}/active`, { type: "boolean", defaultValue: false }, 201);
  const files = new Map([
    ["publisher.json", bytes(JSON.stringify({ name: "items", description: "boolean binding" }))],
    ["models/items.malloy", bytes(MODEL)],
    ["data/items.csv", bytes(ITEMS_CSV)],
  ]);
  const published = await publish(w, "items", "1.0.0", { token: w.admin, files });
  if (published.status !== 201) throw new Error(`publish: ${published.status} ${JSON.stringify(published.body)}`);
  on = await w.s.createUser("on");
  off = await w.s.createUser("off");
  dflt = await w.s.createUser("dflt");
  for (const u of ["on", "off", "dflt"]) await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: `user:${u}`, permission: "member" }, 201);
  await admin(w, "POST", "/organizations/acme/groups", { name: "actives" }, 201);
  await admin(w, "POST", "/organizations/acme/groups/actives/members", { members: [{ principal: "user:on", status: "member" }] }, [200, 201]);
  await admin(w, "POST", "/organizations/acme/environments/prod/permissions", { userGroupId: "group:actives", permission: "viewer" }, 201);
  for (const u of ["off", "dflt"]) await admin(w, "POST", "/organizations/acme/environments/prod/permissions", { userGroupId: `user:${u}`, permission: "viewer" }, 201);
}, 120_000);
afterAll(() => w?.s.close());

describe("boolean attributes", () => {
  test("user, group and default values are set, listed and resolved", async () => {
    const group = await w.s.call("PUT", `${API}${ATTR}/active/groups/actives`, { token: w.admin, body: { value: true, rank: 1 } });
    expect(group.status).toBe(200);
    expect(group.body).toEqual({ groupName: "actives", value: true, rank: 1 });
    const user = await w.s.call("PUT", `${API}${ATTR}/active/users/off`, { token: w.admin, body: { value: false } });
    expect(user.status).toBe(200);
    expect(user.body).toEqual({ userName: "off", value: false });
    expect((await w.s.call("PUT", `${API}${ATTR}/active/users/off`, { token: w.admin, body: { value: "false" } })).status).toBe(400);
    const got = await w.s.call("GET", `${API}${ATTR}/active`, { token: w.admin });
    expect(got.body).toEqual({
      name: "active", type: "boolean", defaultValue: false,
      userValues: [{ userName: "off", value: false }],
      groupValues: [{ groupName: "actives", value: true, rank: 1 }],
    });
    const redeclared = await w.s.call("PUT", `${API}${ATTR}/flag2`, { token: w.admin, body: { type: "boolean", defaultValue: true } });
    expect(redeclared.status).toBe(201);
    expect(redeclared.body.defaultValue).toBe(true);
  });

  test("a #(bind) to a boolean parameter filters rows by the caller's value", async () => {
    const count = { query: "run: items -> { aggregate: item_count }" };
    const as = async (token: string) => {
      const r = await w.s.call("POST", QUERY, { token, body: count });
      expect(r.status).toBe(200);
      return r.body.data;
    };
    expect(await as(on)).toEqual([{ item_count: 2 }]); // group value true
    expect(await as(off)).toEqual([{ item_count: 1 }]); // own value false
    expect(await as(dflt)).toEqual([{ item_count: 1 }]); // default false
  });
});

describe("redeclaring an attribute", () => {
  test("another type while values exist is 409 naming the values and the binding sources; values stay", async () => {
    const r = await w.s.call("PUT", `${API}${ATTR}/active`, { token: w.admin, body: { type: "string" } });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe("CONFLICT");
    expect(r.body.message).toContain("1 user value and 1 group value");
    expect(r.body.message).toContain("items@1.0.0 models/items.malloy#items");
    const got = await w.s.call("GET", `${API}${ATTR}/active`, { token: w.admin });
    expect(got.body.type).toBe("boolean");
    expect(got.body.userValues).toEqual([{ userName: "off", value: false }]);
  });

  test("the same type keeps the values; another type without values is accepted", async () => {
    const same = await w.s.call("PUT", `${API}${ATTR}/active`, { token: w.admin, body: { type: "boolean", defaultValue: true } });
    expect(same.status).toBe(200);
    expect(same.body.userValues).toEqual([{ userName: "off", value: false }]);
    expect(same.body.groupValues).toEqual([{ groupName: "actives", value: true, rank: 1 }]);
    await admin(w, "PUT", `${ATTR}/tier`, { type: "number" }, 201);
    const changed = await w.s.call("PUT", `${API}${ATTR}/tier`, { token: w.admin, body: { type: "string" } });
    expect(changed.status).toBe(200);
    expect(changed.body.type).toBe("string");
  });
});
