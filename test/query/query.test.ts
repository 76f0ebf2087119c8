import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { QueryError } from "../../src/engine/mod.ts";
import { apiErrorOf } from "../../src/http/error_handler.ts";
import type { Principal } from "../../src/access/principal.ts";
import { modelCacheOf } from "../../src/archives/compiled_models.ts";
import { createQueryRunner } from "../../src/query/service.ts";
import { API, publish, startWorld, userWith, type World } from "../packages/helpers.ts";
import { BY_REGION, BY_STATUS, SHOP_MODEL, shopFiles } from "./fixtures.ts";

let w: World;
const E = `${API}/organizations/acme/environments/prod`;
const Q = `${E}/packages/shop/models/models/shop.malloy/query`;

function query(body: unknown, options: { token?: string; apiKey?: string; path?: string } = {}) {
  const auth = options.apiKey ? { apiKey: options.apiKey } : { token: options.token ?? w.admin };
  return w.s.call("POST", options.path ?? Q, { ...auth, body });
}

beforeAll(async () => {
  w = await startWorld();
  expect((await publish(w, "shop", "1.0.0", { token: w.admin, files: await shopFiles() })).status).toBe(201);
  const v2 = SHOP_MODEL.replace("measure: order_count is count()", "measure: order_count is count()\n  measure: avg_amount is amount.avg()");
  expect((await publish(w, "shop", "2.0.0", { token: w.admin, files: await shopFiles({ model: v2 }) })).status).toBe(201);
}, 120_000);
afterAll(() => w.s.close());

describe("REST query: results", () => {
  test("a view (queryName + sourceName): exact rows, schema and metadata", async () => {
    const r = await query({ queryName: "by_region", sourceName: "orders" });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(BY_REGION);
    expect(r.body.totalRows).toBe(3);
    expect(r.body.executionTime).toBeGreaterThan(0);
    expect(r.body.metadata).toMatchObject({
      schema: [{ name: "region", type: "string" }, { name: "order_count", type: "number" }, { name: "revenue", type: "number" }],
      sourceName: "orders",
      queryName: "by_region",
      versionId: "2.0.0",
      modelPath: "models/shop.malloy",
      connection: "duckdb",
      truncated: false,
      rowLimit: 1000,
    });
    expect(r.body.metadata.sql).toContain("GROUP BY");
    // the package's files by their path in the package; the server's folders stay private
    expect(r.body.metadata.sql).toContain("'data/orders.csv'");
    expect(r.body.metadata.sql).not.toContain(w.dataDir);
  });

  test("a named top-level query (with its source) and an ad-hoc query with a join", async () => {
    const named = await query({ queryName: "by_status", sourceName: "orders" });
    expect(named.status).toBe(200);
    expect(named.body.data).toEqual(BY_STATUS);
    expect(named.body.metadata.queryName).toBe("by_status");
    const adhoc = await query({ query: "orders -> { group_by: customers.name; aggregate: revenue; order_by: name }" });
    expect(adhoc.status).toBe(200);
    expect(adhoc.body.data).toEqual([
      { name: "Ada", revenue: 60.5 },
      { name: "Bo", revenue: 15 },
      { name: "Cy", revenue: 150 },
      { name: "Di", revenue: 20 },
    ]);
    const run = await query({ query: "run: orders -> { aggregate: order_count }" });
    expect(run.body.data).toEqual([{ order_count: 10 }]);
  });

  test("the /projects spelling and an encoded model path reach the same route", async () => {
    const r = await query({ queryName: "by_region", sourceName: "orders" }, {
      path: `${API}/organizations/acme/projects/prod/packages/shop/models/models%2Fshop.malloy/query`,
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(BY_REGION);
  });

  test("big integers beyond 2^53 serialize as strings, dates as ISO strings", async () => {
    const r = await query({
      query: `run: duckdb.sql("select 9007199254740993::bigint as big, 7::bigint as small, date '2024-01-02' as d") -> { select: * }`,
    });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([{ big: "9007199254740993", small: 7, d: "2024-01-02T00:00:00.000Z" }]);
  });
});

describe("REST query: argument rules and errors", () => {
  test("each argument rule is a 400 that names the rule", async () => {
    const both = await query({ query: "orders -> by_region", queryName: "by_region", sourceName: "orders" });
    expect(both.status).toBe(400);
    expect(both.body.code).toBe("VALIDATION_ERROR");
    expect(both.body.message).toContain("not both");
    const neither = await query({});
    expect(neither.status).toBe(400);
    expect(neither.body.message).toContain("neither was given");
    const noSource = await query({ queryName: "by_region" });
    expect(noSource.status).toBe(400);
    expect(noSource.body.message).toContain("queryName needs sourceName");
    const sourceWithQuery = await query({ query: "orders -> by_region", sourceName: "orders" });
    expect(sourceWithQuery.status).toBe(400);
    expect(sourceWithQuery.body.message).toContain("sourceName goes with queryName only");
    const snake = await query({ query_name: "by_region", source_name: "orders" });
    expect(snake.status).toBe(400);
    expect(snake.body.message).toContain("queryName");
    const badType = await query({ query: 42 });
    expect(badType.status).toBe(400);
  });

  test("unknown view, source, model and path: 400 or 404 with what exists", async () => {
    const view = await query({ queryName: "nope", sourceName: "orders" });
    expect(view.status).toBe(400);
    expect(view.body.message).toContain("'by_region'");
    const source = await query({ queryName: "by_region", sourceName: "nope" });
    expect(source.status).toBe(400);
    expect(source.body.message).toContain("no source named 'nope'");
    const model = await query({ query: "orders -> by_region" }, { path: `${E}/packages/shop/models/models/none.malloy/query` });
    expect(model.status).toBe(404);
    expect(model.body.message).toContain("models/none.malloy");
    const escape = await query({ query: "x" }, { path: `${E}/packages/shop/models/models/..%2F..%2Fetc/passwd.malloy/query` });
    expect(escape.status).toBe(400);
    const notQuery = await query({ query: "x" }, { path: `${E}/packages/shop/models/models/shop.malloy/run` });
    expect(notQuery.status).toBe(404);
    expect((await query({ query: "x" }, { path: `${E}/packages/nope/models/models/shop.malloy/query` })).status).toBe(404);
  });

  test("a compile error is a 400 with problems at line and column", async () => {
    const r = await query({ query: "run: orders -> {\n  aggregate: no_such_measure\n}" });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe("VALIDATION_ERROR");
    expect(r.body.kind).toBe("compile");
    expect(r.body.message).toContain("no_such_measure");
    expect(r.body.problems[0]).toMatchObject({ file: "query", line: 2, column: 14 });
  });

  test("the sandbox: reading /etc/passwd fails with 400 and leaks nothing", async () => {
    for (const text of [
      "run: duckdb.table('/etc/passwd') -> { select: * }",
      `run: duckdb.sql("select * from read_text('/etc/passwd')") -> { select: * }`,
      `run: duckdb.sql("select content from read_text('/etc/passwd')") -> { select: content }`,
    ]) {
      const r = await query({ query: text });
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body)).not.toContain("root:");
      expect(JSON.stringify(r.body)).not.toContain(w.dataDir);
    }
  });
});

describe("versions", () => {
  test("an archived version is refused by name; without versionId the latest unarchived answers", async () => {
    const V = `${E}/packages/shop/versions/2.0.0`;
    expect((await w.s.call("PATCH", V, { token: w.admin, body: { archiveStatus: "archive" } })).status).toBe(200);
    try {
      const named = await query({ queryName: "by_region", sourceName: "orders", versionId: "2.0.0" });
      expect(named.status).toBe(400);
      expect(named.body.code).toBe("VALIDATION_ERROR");
      expect(named.body.message).toContain("archived");
      expect(named.body.message).toContain('"archiveStatus": "unarchive"');
      const latest = await query({ queryName: "by_region", sourceName: "orders" });
      expect(latest.status).toBe(200);
      expect(latest.body.metadata.versionId).toBe("1.0.0");
    } finally {
      await w.s.call("PATCH", V, { token: w.admin, body: { archiveStatus: "unarchive" } });
    }
    const again = await query({ queryName: "by_region", sourceName: "orders", versionId: "2.0.0" });
    expect(again.status).toBe(200);
  });

  test("an older version by name; an unknown version is 404; a bad versionId 400", async () => {
    const old = await query({ query: "orders -> { aggregate: order_count }", versionId: "1.0.0" });
    expect(old.body.metadata.versionId).toBe("1.0.0");
    // avg_amount exists only in 2.0.0
    expect((await query({ query: "orders -> { aggregate: avg_amount }", versionId: "1.0.0" })).status).toBe(400);
    expect((await query({ query: "orders -> { aggregate: avg_amount }" })).body.data).toEqual([{ avg_amount: 24.55 }]);
    const unknown = await query({ query: "orders -> by_region", versionId: "9.9.9" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toContain("9.9.9");
    expect((await query({ query: "orders -> by_region", versionId: "1/2" })).status).toBe(400);
  });
});

describe("access", () => {
  test("a viewer can query; an outsider gets 404; no credentials 401", async () => {
    const viewer = await userWith(w, "vic", { kind: "environment", id: w.envId, role: "viewer" });
    const outsider = await userWith(w, "ozzy");
    expect((await query({ queryName: "by_region", sourceName: "orders" }, { token: viewer })).status).toBe(200);
    const hidden = await query({ queryName: "by_region", sourceName: "orders" }, { token: outsider });
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe("RESOURCE_NOT_FOUND");
    expect((await w.s.call("POST", Q, { body: { query: "orders -> by_region" } })).status).toBe(401);
  });

  test("an API key of a group granted viewer can query; a key of another organization gets 404", async () => {
    const G = `${API}/organizations/acme/groups`;
    expect((await w.s.call("POST", G, { token: w.admin, body: { name: "bots" } })).status).toBe(201);
    const key = await w.s.call("POST", `${G}/bots/tokens?name=t`, { token: w.admin });
    expect(key.status).toBe(201);
    const grant = await w.s.call("POST", `${E}/permissions`, { token: w.admin, body: { userGroupId: "group:bots", permission: "viewer" } });
    expect(grant.status).toBe(201);
    const ok = await query({ queryName: "by_status", sourceName: "orders" }, { apiKey: key.body.secret });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual(BY_STATUS);

    expect((await w.s.call("POST", `${API}/organizations`, { token: w.admin, body: { name: "other" } })).status).toBe(201);
    await w.s.call("POST", `${API}/organizations/other/groups`, { token: w.admin, body: { name: "spies" } });
    const foreign = await w.s.call("POST", `${API}/organizations/other/groups/spies/tokens?name=t`, { token: w.admin });
    expect(foreign.status).toBe(201);
    const denied = await query({ queryName: "by_status", sourceName: "orders" }, { apiKey: foreign.body.secret });
    expect(denied.status).toBe(404);
  });
});

describe("access decisions cached per request (the caller's rank on the package)", () => {
  const view = { queryName: "by_region", sourceName: "orders" };

  test("a revoked environment grant is refused on the next query; a granted one answers at once", async () => {
    const token = await w.s.createUser("cached-viewer");
    expect((await w.s.call("POST", `${API}/organizations/acme/permissions`, { token: w.admin, body: { userGroupId: "user:cached-viewer", permission: "member" } })).status).toBe(201);
    expect((await query(view, { token })).status).toBe(404);
    expect((await query(view, { token })).status).toBe(404);
    const grant = await w.s.call("POST", `${E}/permissions`, { token: w.admin, body: { userGroupId: "user:cached-viewer", permission: "viewer" } });
    expect(grant.status).toBe(201);
    expect((await query(view, { token })).status).toBe(200);
    const again = await query(view, { token });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(BY_REGION);
    expect((await w.s.call("DELETE", `${E}/permissions/user:cached-viewer`, { token: w.admin })).status).toBe(204);
    expect((await query(view, { token })).status).toBe(404);
  });

  test("an API key whose group loses the grant through a group it belonged to is refused on the next query", async () => {
    const G = `${API}/organizations/acme/groups`;
    expect((await w.s.call("POST", G, { token: w.admin, body: { name: "readers" } })).status).toBe(201);
    expect((await w.s.call("POST", G, { token: w.admin, body: { name: "agents" } })).status).toBe(201);
    const nest = await w.s.call("POST", `${G}/readers/members`, { token: w.admin, body: { members: [{ principal: "group:agents" }] } });
    expect(nest.status).toBe(200);
    expect((await w.s.call("POST", `${E}/permissions`, { token: w.admin, body: { userGroupId: "group:readers", permission: "viewer" } })).status).toBe(201);
    const key = await w.s.call("POST", `${G}/agents/tokens?name=t`, { token: w.admin });
    expect(key.status).toBe(201);
    const apiKey = key.body.secret as string;
    for (let i = 0; i < 2; i++) expect((await query(view, { apiKey })).status).toBe(200);
    const leave = await w.s.call("DELETE", `${G}/readers/members`, { token: w.admin, body: { members: [{ principal: "group:agents" }] } });
    expect(leave.status).toBeLessThan(300);
    expect((await query(view, { apiKey })).status).toBe(404);
  });

  test("a package deleted and published again under the same name answers with the new package's access", async () => {
    const token = await w.s.createUser("pkg-viewer");
    expect((await w.s.call("POST", `${API}/organizations/acme/permissions`, { token: w.admin, body: { userGroupId: "user:pkg-viewer", permission: "member" } })).status).toBe(201);
    const files = await shopFiles();
    expect((await publish(w, "again", "1.0.0", { token: w.admin, files })).status).toBe(201);
    const P = `${E}/packages/again`;
    expect((await w.s.call("POST", `${P}/permissions`, { token: w.admin, body: { userGroupId: "user:pkg-viewer", permission: "viewer" } })).status).toBe(201);
    const path = `${P}/models/models/shop.malloy/query`;
    for (let i = 0; i < 2; i++) expect((await query(view, { token, path })).status).toBe(200);
    expect((await w.s.call("DELETE", P, { token: w.admin })).status).toBe(204);
    expect((await publish(w, "again", "1.0.0", { token: w.admin, files })).status).toBe(201);
    expect((await query(view, { token, path })).status).toBe(404);
  });
});

describe("createQueryRunner", () => {
  async function adminPrincipal(): Promise<Principal> {
    const [u] = await w.s.service.db.sql`SELECT id FROM users WHERE user_name = 'admin'`;
    return { kind: "user", userId: u!.id as string, userName: "admin", systemAdmin: true };
  }

  test("run() takes the MCP tool's snake_case arguments", async () => {
    const runner = createQueryRunner(w.s.service.ctx);
    expect(createQueryRunner(w.s.service.ctx)).toBe(runner);
    const base = { organization: "acme", environment_name: "prod", package_name: "shop", model_uri: "models/shop.malloy" };
    const result = await runner.run(await adminPrincipal(), { ...base, query_name: "by_region", source_name: "orders", version_id: "1.0.0" });
    expect(result.data).toEqual(BY_REGION);
    expect(result.metadata.versionId).toBe("1.0.0");
    expect(Object.keys(result).sort()).toEqual(["data", "executionTime", "metadata", "totalRows"]);

    const rule = await runner.run(await adminPrincipal(), { ...base, query_name: "by_region" }).catch((e) => e);
    expect(apiErrorOf(rule)?.code).toBe("VALIDATION_ERROR");
    expect(rule.message).toContain("query_name needs source_name");

    const compile = await runner.run(await adminPrincipal(), { ...base, query: "orders -> { aggregate: nope }" }).catch((e) => e);
    expect(compile).toBeInstanceOf(QueryError);
    expect(compile.kind).toBe("compile");
    expect(compile.problems[0]).toMatchObject({ line: 1 });
  });

  test("a workspace restriction needs the workspace's access to the package", async () => {
    const runner = createQueryRunner(w.s.service.ctx);
    const sql = w.s.service.db.sql;
    const [ws] = await sql`INSERT INTO workspaces (org_id, name) VALUES (${w.orgId}, 'team') RETURNING id`;
    const args = { organization: "acme", environment_name: "prod", package_name: "shop", model_uri: "models/shop.malloy", query: "orders -> { aggregate: order_count }", workspace: "team" };
    const missing = await runner.run(await adminPrincipal(), args).catch((e) => e);
    expect(apiErrorOf(missing)?.status).toBe(404);
    const [pkg] = await sql`SELECT id FROM packages WHERE name = 'shop'`;
    await sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
              VALUES ('package', ${pkg!.id as string}, 'workspace', ${ws!.id as string}, 'viewer')`;
    expect((await runner.run(await adminPrincipal(), args)).data).toEqual([{ order_count: 10 }]);
    expect(apiErrorOf(await runner.run(await adminPrincipal(), { ...args, workspace: "nowhere" }).catch((e) => e))?.status).toBe(404);
  });

  test("deleting a package evicts its compiled models", async () => {
    expect((await publish(w, "gone", "1.0.0", { token: w.admin, files: await shopFiles() })).status).toBe(201);
    const path = `${E}/packages/gone/models/models/shop.malloy/query`;
    expect((await query({ query: "orders -> { aggregate: order_count }" }, { path })).status).toBe(200);
    const cache = modelCacheOf(w.s.service.ctx);
    const before = cache.size;
    expect((await w.s.call("DELETE", `${E}/packages/gone`, { token: w.admin })).status).toBe(204);
    expect(cache.size).toBe(before - 1);
    expect((await query({ query: "orders -> { aggregate: order_count }" }, { path })).status).toBe(404);
  });
});
