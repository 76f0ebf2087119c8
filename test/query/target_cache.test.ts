/**
 * The query runner keeps each caller's target (package, rank, version, built
 * materializations, attribute values) under the generation of the cached
 * access decisions (src/query/service.ts, sql/160_query_target_changes.sql).
 * Each test runs the same query twice (the second from the cache), changes
 * one thing the target rests on, and asserts the very next answer.
 * Versions archived or published through the API, group values and built
 * materializations are covered by query_cache.test.ts and runs/serve.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bytes } from "../fixtures/engine_package.ts";
import { publish } from "../packages/helpers.ts";
import { admin, SALES_QUERY, type SalesWorld, salesFiles, startSalesWorld } from "../rls/world.ts";

let w: SalesWorld;
let cara: string;

const REVENUE = { query: "orders -> { aggregate: revenue }" };
const q = (token: string, body: object = REVENUE) => w.s.call("POST", SALES_QUERY, { token, body });

async function twice(token: string, body: object = REVENUE) {
  const first = await q(token, body);
  const second = await q(token, body);
  expect(second.status).toBe(first.status);
  return second;
}

function revenue(r: { status: number; body: Record<string, unknown> }): number {
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return (r.body.data as { revenue: number }[])[0]!.revenue;
}

beforeAll(async () => {
  w = await startSalesWorld();
  // cara: a viewer with no value of her own and in no group that has one
  cara = await w.s.createUser("cara");
  await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: "user:cara", permission: "member" }, 201);
  await admin(w, "POST", "/organizations/acme/environments/prod/packages/sales/permissions", { userGroupId: "user:cara", permission: "viewer" }, 201);
}, 120_000);

afterAll(async () => {
  await w?.s.close();
}, 120_000);

describe("attribute values", () => {
  test("a user's own value, changed or removed, counts on the next query", async () => {
    expect(revenue(await twice(w.bob))).toBe(45);
    await admin(w, "PUT", "/organizations/acme/attributes/region/users/bob", { value: "EU" }, [200, 201]);
    expect(revenue(await q(w.bob))).toBe(30);
    await admin(w, "DELETE", "/organizations/acme/attributes/region/users/bob", undefined, [200, 204]);
    const refused = await q(w.bob);
    expect(refused.status).toBe(403);
    expect(refused.body.message as string).toContain("region");
    await admin(w, "PUT", "/organizations/acme/attributes/region/users/bob", { value: "US" }, [200, 201]);
    expect(revenue(await q(w.bob))).toBe(45);
  }, 60_000);

  test("an attribute's default value, set or changed, counts on the next query", async () => {
    expect((await twice(cara)).status).toBe(403);
    await admin(w, "PUT", "/organizations/acme/attributes/region", { type: "string", defaultValue: "APAC" }, 200);
    expect(revenue(await twice(cara))).toBe(7);
    await admin(w, "PUT", "/organizations/acme/attributes/region", { type: "string", defaultValue: "US" }, 200);
    expect(revenue(await q(cara))).toBe(45);
    await admin(w, "PUT", "/organizations/acme/attributes/region", { type: "string", defaultValue: null }, 200);
    expect((await q(cara)).status).toBe(403);
  }, 60_000);
});

describe("versions changed straight in the database", () => {
  test("a deleted version and an archived one are not answered on the next query", async () => {
    const files = salesFiles();
    files.set("data/orders.csv", bytes("id,region,amount\n1,US,1000\n"));
    expect((await publish(w, "sales", "3.0.0", { token: w.admin, files })).status).toBe(201);
    const newest = await twice(w.bob);
    expect(revenue(newest)).toBe(1000);
    expect((newest.body.metadata as { versionId: string }).versionId).toBe("3.0.0");
    // another client of the database (a script, another node): no API call tells this process
    await w.s.service.db.sql`DELETE FROM package_versions WHERE version_id = '3.0.0'`;
    const back = await q(w.bob);
    expect(revenue(back)).toBe(45);
    expect((back.body.metadata as { versionId: string }).versionId).toBe("1.0.0");
    await w.s.service.db.sql`UPDATE package_versions SET archive_status = 'archive' WHERE version_id = '1.0.0'`;
    const none = await q(w.bob);
    expect(none.status).toBe(404);
    expect(none.body.message as string).toContain("no unarchived version");
    await w.s.service.db.sql`UPDATE package_versions SET archive_status = 'unarchive' WHERE version_id = '1.0.0'`;
    expect(revenue(await q(w.bob))).toBe(45);
  }, 60_000);
});
