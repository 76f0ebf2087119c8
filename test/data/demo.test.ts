import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rm } from "node:fs/promises";
import { API, startWorld, userWith, type World } from "../packages/helpers.ts";

let w: World;

beforeAll(async () => {
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
}, 120_000);

afterAll(async () => {
  await w.s.close();
  await rm(w.dataDir, { recursive: true, force: true });
}, 120_000);

describe("demo environment", () => {
  test("creates `demo` with the sample package, queryable at once", async () => {
    const r = await w.s.call("POST", `${API}/organizations/acme/demo-environment`, { token: w.admin });
    expect(r.status).toBe(201);
    expect(r.body.environment.name).toBe("demo");
    expect(r.body.package).toMatchObject({ name: "shop", latestVersion: "1.0.0", models: ["models/shop.malloy"] });
    const q = await w.s.call(r.body.tryQuery.method, r.body.tryQuery.path, { token: w.admin, body: r.body.tryQuery.body });
    expect(q.status).toBe(200);
    expect(q.body.data.length).toBe(5);
    expect(q.body.data[0]).toHaveProperty("product_category");
    expect(q.body.data[0].revenue).toBeGreaterThan(0);
    const custom = await w.s.call("POST", `${API}/organizations/acme/environments/demo/packages/shop/models/models/shop.malloy/query`, {
      token: w.admin,
      body: { query: "run: orders -> { aggregate: order_count }" },
    });
    expect(custom.status).toBe(200);
    expect(custom.body.data).toEqual([{ order_count: 2000 }]);
    const app = await w.s.call("GET", `${r.body.package.app}index.html`, { token: w.admin });
    expect(app.status).toBe(200);
    expect(app.headers.get("content-type")).toStartWith("text/html");
  });

  test("the next one is demo-2; a taken explicit name is 409", async () => {
    const r = await w.s.call("POST", `${API}/organizations/acme/demo-environment`, { token: w.admin, body: {} });
    expect(r.status).toBe(201);
    expect(r.body.environment.name).toBe("demo-2");
    const dup = await w.s.call("POST", `${API}/organizations/acme/demo-environment`, { token: w.admin, body: { name: "demo" } });
    expect(dup.status).toBe(409);
  });

  test("needs organization admin or modeler: members 403, outsiders 404", async () => {
    const member = await userWith(w, "member", { kind: "organization", id: w.orgId, role: "member" });
    expect((await w.s.call("POST", `${API}/organizations/acme/demo-environment`, { token: member })).status).toBe(403);
    const outsider = await userWith(w, "outsider");
    expect((await w.s.call("POST", `${API}/organizations/acme/demo-environment`, { token: outsider })).status).toBe(404);
    const modeler = await userWith(w, "modeler", { kind: "organization", id: w.orgId, role: "modeler" });
    const r = await w.s.call("POST", `${API}/organizations/acme/demo-environment`, { token: modeler, body: { name: "modeler-demo" } });
    expect(r.status).toBe(201);
    expect(r.body.environment.permission).toBe("admin");
  });
});

describe("self-service organization", () => {
  test("any user creates one and becomes its admin, with a demo environment", async () => {
    const token = await userWith(w, "alice");
    const r = await w.s.call("POST", `${API}/demo/organizations`, { token });
    expect(r.status).toBe(201);
    expect(r.body.name).toMatch(/^alice-sandbox-[0-9a-f]{6}$/);
    expect(r.body.permission).toBe("admin");
    expect(r.body.demoEnvironment.environment.name).toBe("demo");
    const org = await w.s.call("GET", `${API}/organizations/${r.body.name}`, { token });
    expect(org.status).toBe(200);
    expect(org.body.permission).toBe("admin");
    const q = await w.s.call("POST", r.body.demoEnvironment.tryQuery.path, { token, body: r.body.demoEnvironment.tryQuery.body });
    expect(q.status).toBe(200);
  });

  test("one per user (409 for the second); system admins are not limited; names are checked", async () => {
    const token = await userWith(w, "bob");
    const first = await w.s.call("POST", `${API}/demo/organizations`, { token, body: { name: "bobs-place", demoEnvironment: false } });
    expect(first.status).toBe(201);
    expect(first.body.demoEnvironment).toBeNull();
    const second = await w.s.call("POST", `${API}/demo/organizations`, { token, body: { demoEnvironment: false } });
    expect(second.status).toBe(409);
    const carol = await userWith(w, "carol");
    expect((await w.s.call("POST", `${API}/demo/organizations`, { token: carol, body: { name: "bobs-place" } })).status).toBe(409);
    expect((await w.s.call("POST", `${API}/demo/organizations`, { token: carol, body: { name: "bad name" } })).status).toBe(400);
    for (const name of ["admin-one", "admin-two"]) {
      const r = await w.s.call("POST", `${API}/demo/organizations`, { token: w.admin, body: { name, demoEnvironment: false } });
      expect(r.status).toBe(201);
    }
  });

  test("needs a user's token", async () => {
    expect((await w.s.call("POST", `${API}/demo/organizations`)).status).toBe(401);
  });
});

describe("self-service organization whose demo environment cannot be made", () => {
  let small: World;
  beforeAll(async () => {
    // the sample package is larger than this service accepts: its publish fails
    small = await startWorld({ INDEX_ON_PUBLISH: "false", MAX_PACKAGE_BYTES: "2000" });
  }, 120_000);
  afterAll(async () => {
    await small.s.close();
    await rm(small.dataDir, { recursive: true, force: true });
  }, 120_000);

  test("answers the publish error and leaves no organization behind; the user may try again", async () => {
    const token = await userWith(small, "erin");
    const r = await small.s.call("POST", `${API}/demo/organizations`, { token, body: { name: "erins-place" } });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(typeof r.body.code).toBe("string");
    expect((await small.s.call("GET", `${API}/organizations/erins-place`, { token: small.admin })).status).toBe(404);
    const again = await small.s.call("POST", `${API}/demo/organizations`, { token, body: { name: "erins-place", demoEnvironment: false } });
    expect(again.status).toBe(201);
    expect(again.body.demoEnvironment).toBeNull();
  }, 60_000);
});
