import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestService, type TestService } from "../helpers/service.ts";
import { API, createOrg, grantOrg } from "../governance/fixtures.ts";

let s: TestService;
let ann: string;
let bob: string;
let out: string;
let apiKey: string;
const B = `${API}/organizations/borg/bookmarks`;

beforeAll(async () => {
  s = await startTestService();
  await createOrg(s, "borg");
  await createOrg(s, "other");
  ann = await s.createUser("ann");
  bob = await s.createUser("bob");
  out = await s.createUser("out");
  await grantOrg(s, "borg", "user:ann", "modeler");
  await grantOrg(s, "borg", "user:bob", "member");
  await grantOrg(s, "other", "user:ann", "member");
  const admin = await s.adminToken();
  await s.call("POST", `${API}/organizations/borg/groups`, { token: admin, body: { name: "bots" } });
  apiKey = (await s.call("POST", `${API}/organizations/borg/groups/bots/tokens?name=k`, { token: admin })).body.secret;
  expect((await s.call("POST", `${API}/organizations/borg/workspaces`, { token: ann, body: { name: "team" } })).status).toBe(201);
}, 60_000);
afterAll(() => s.close());

describe("bookmarks", () => {
  test("create for the current user; 409 on a duplicate", async () => {
    const r = await s.call("POST", B, { token: ann, body: { bookmarkType: "workspace", objectId: "team", name: "My team" } });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ bookmarkType: "workspace", objectId: "team", name: "My team" });
    expect(typeof r.body.createdAt).toBe("string");
    const dup = await s.call("POST", B, { token: ann, body: { bookmarkType: "workspace", objectId: "team" } });
    expect([dup.status, dup.body.code]).toEqual([409, "CONFLICT"]);
    expect((await s.call("POST", B, { token: ann, body: { bookmarkType: "model", objectId: "prod/sales/models/orders.malloy" } })).status).toBe(201);
    expect((await s.call("POST", B, { token: ann, body: { bookmarkType: "chat", objectId: "c-42", name: "Revenue question" } })).status).toBe(201);
  });

  test("validation: unknown type 400, empty objectId 400, a workspace the caller cannot see 404", async () => {
    const bad = await s.call("POST", B, { token: ann, body: { bookmarkType: "package", objectId: "x" } });
    expect([bad.status, bad.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect((await s.call("POST", B, { token: ann, body: { bookmarkType: "chat", objectId: "" } })).status).toBe(400);
    expect((await s.call("POST", B, { token: bob, body: { bookmarkType: "workspace", objectId: "team" } })).status).toBe(404);
    expect((await s.call("POST", B, { token: ann, body: { bookmarkType: "workspace", objectId: "nope" } })).status).toBe(404);
    expect((await s.call("GET", `${B}/package/x`, { token: ann })).status).toBe(400);
  });

  test("list, filter by type, get by type and object id (an id with slashes, encoded)", async () => {
    const all = await s.call("GET", B, { token: ann });
    expect(all.body.map((b: { bookmarkType: string }) => b.bookmarkType)).toEqual(["chat", "model", "workspace"]);
    const models = await s.call("GET", `${B}?bookmarkType=model`, { token: ann });
    expect(models.body.map((b: { objectId: string }) => b.objectId)).toEqual(["prod/sales/models/orders.malloy"]);
    const one = await s.call("GET", `${B}/model/${encodeURIComponent("prod/sales/models/orders.malloy")}`, { token: ann });
    expect([one.status, one.body.objectId]).toEqual([200, "prod/sales/models/orders.malloy"]);
    const chat = await s.call("GET", `${B}/chat/c-42`, { token: ann });
    expect([chat.status, chat.body.name]).toEqual([200, "Revenue question"]);
    expect((await s.call("GET", `${B}/chat/c-43`, { token: ann })).status).toBe(404);
    const paged = await s.call("GET", `${B}?limit=2`, { token: ann });
    expect(paged.body.length).toBe(2);
    const next = paged.headers.get("link")!.match(/<([^>]+)>/)![1]!;
    expect((await s.call("GET", next, { token: ann })).body.map((b: { objectId: string }) => b.objectId)).toEqual(["team"]);
  });

  test("per-user and per-organization isolation", async () => {
    expect((await s.call("GET", B, { token: bob })).body).toEqual([]);
    expect((await s.call("GET", `${B}/chat/c-42`, { token: bob })).status).toBe(404);
    expect((await s.call("DELETE", `${B}/chat/c-42`, { token: bob })).status).toBe(404);
    expect((await s.call("POST", B, { token: bob, body: { bookmarkType: "chat", objectId: "c-42" } })).status).toBe(201);
    expect((await s.call("GET", B, { token: bob })).body.map((b: { objectId: string }) => b.objectId)).toEqual(["c-42"]);
    expect((await s.call("GET", `${API}/organizations/other/bookmarks`, { token: ann })).body).toEqual([]);
    expect((await s.call("GET", `${B}/chat/c-42`, { token: ann })).body.name).toBe("Revenue question");
  });

  test("outsiders 404, API keys 403, anonymous 401", async () => {
    for (const [method, path, body] of [
      ["GET", B],
      ["POST", B, { bookmarkType: "chat", objectId: "z" }],
      ["GET", `${B}/chat/c-42`],
      ["DELETE", `${B}/chat/c-42`],
    ] as const) {
      const outsider = await s.call(method, path, { token: out, body });
      expect([method, path, outsider.status]).toEqual([method, path, 404]);
      const key = await s.call(method, path, { apiKey, body });
      expect([method, path, key.status, key.body.code]).toEqual([method, path, 403, "INSUFFICIENT_PERMISSIONS"]);
      expect((await s.call(method, path, { body })).status).toBe(401);
    }
  });

  test("delete is final", async () => {
    expect((await s.call("DELETE", `${B}/chat/c-42`, { token: ann })).status).toBe(204);
    expect((await s.call("GET", `${B}/chat/c-42`, { token: ann })).status).toBe(404);
    expect((await s.call("DELETE", `${B}/chat/c-42`, { token: ann })).status).toBe(404);
    expect((await s.call("GET", `${B}/chat/c-42`, { token: bob })).status).toBe(200);
  });
});

describe("bookmarks are bounded", () => {
  test("at most 1,000 per user and organization: the next one is 400; another organization or user is not affected", async () => {
    const [u] = await s.service.db.sql`SELECT id FROM users WHERE user_name = 'bob'`;
    const [o] = await s.service.db.sql`SELECT id FROM organizations WHERE name = 'borg'`;
    const before = (await s.service.db.sql`SELECT count(*)::int AS n FROM bookmarks WHERE user_id = ${u!.id as string} AND org_id = ${o!.id as string}`)[0]!.n as number;
    await s.service.db.sql`INSERT INTO bookmarks (org_id, user_id, bookmark_type, object_id, name)
      SELECT ${o!.id as string}, ${u!.id as string}, 'chat', 'fill-' || i, '' FROM generate_series(1, ${999 - before}) i`;
    expect((await s.call("POST", B, { token: bob, body: { bookmarkType: "chat", objectId: "the-last" } })).status).toBe(201);
    const over = await s.call("POST", B, { token: bob, body: { bookmarkType: "chat", objectId: "one-too-many" } });
    expect([over.status, over.body.code]).toEqual([400, "VALIDATION_ERROR"]);
    expect(over.body.message).toContain("1000 bookmarks");
    expect((await s.call("POST", B, { token: ann, body: { bookmarkType: "chat", objectId: "ann-still-can" } })).status).toBe(201);
    expect((await s.call("DELETE", `${B}/chat/the-last`, { token: bob })).status).toBe(204);
    expect((await s.call("POST", B, { token: bob, body: { bookmarkType: "chat", objectId: "room-again" } })).status).toBe(201);
  });
});
