/**
 * The compiled-query and SQL caches of the query path (src/engine/query/prepare.ts,
 * src/rls/enforce.ts, the SQL guard's per-connection memo) never answer
 * across versions, organizations, bound attribute values or callers with
 * different access: every test runs the same query text twice or more, so
 * the second run is served from the caches, and checks the answer (rows and
 * SQL) against what that caller must get.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bytes } from "../fixtures/engine_package.ts";
import { API, publish, startWorld } from "../packages/helpers.ts";
import { admin, SALES_QUERY, type SalesWorld, salesFiles, startSalesWorld } from "../rls/world.ts";

let w: SalesWorld;
let viewer: string;
let modeler: string;

const q = (auth: { token?: string; apiKey?: string }, body: object) => w.s.call("POST", SALES_QUERY, { ...auth, body });
const revenue = (r: { status: number; body: Record<string, unknown> }) => {
  if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
  return (r.body.data as { revenue: number }[])[0]!.revenue;
};
const REVENUE = { query: "orders -> { aggregate: revenue }" };

beforeAll(async () => {
  w = await startSalesWorld();
  for (const [name, permission] of [["vic", "viewer"], ["mod", "modeler"]] as const) {
    const token = await w.s.createUser(name);
    await admin(w, "POST", "/organizations/acme/permissions", { userGroupId: `user:${name}`, permission: "member" }, 201);
    await admin(w, "POST", "/organizations/acme/environments/prod/packages/sales/permissions", { userGroupId: `user:${name}`, permission }, 201);
    await admin(w, "PUT", `/organizations/acme/attributes/region/users/${name}`, { value: "EU" }, [200, 201]);
    if (name === "vic") viewer = token;
    else modeler = token;
  }
}, 120_000);

afterAll(async () => {
  await w?.s.close();
}, 120_000);

describe("bound attribute values", () => {
  test("callers with different values share no answer or SQL; a changed value counts on the next query", async () => {
    // ann: EU through sales_eu; bob: US (own value); the same text, interleaved
    for (let i = 0; i < 2; i++) {
      expect(revenue(await q({ token: w.ann }, REVENUE))).toBe(30);
      expect(revenue(await q({ token: w.bob }, REVENUE))).toBe(45);
      expect(revenue(await q({ apiKey: w.salesKey }, REVENUE))).toBe(30);
    }
    const annSql = (await q({ token: w.ann }, { ...REVENUE, dryRun: true })).body.sql as string;
    const bobSql = (await q({ token: w.bob }, { ...REVENUE, dryRun: true })).body.sql as string;
    expect(annSql).toContain("EU");
    expect(annSql).not.toContain("US");
    expect(bobSql).toContain("US");
    expect(bobSql).not.toContain("EU");
    // sales_eu moves to US: ann and the API key follow at once
    await admin(w, "PUT", "/organizations/acme/attributes/region/groups/sales_eu", { value: "US", rank: 1 }, [200, 201]);
    expect(revenue(await q({ token: w.ann }, REVENUE))).toBe(45);
    expect(revenue(await q({ apiKey: w.salesKey }, REVENUE))).toBe(45);
    // and back; a removed value refuses instead of answering the last one
    await admin(w, "PUT", "/organizations/acme/attributes/region/groups/sales_eu", { value: "EU", rank: 1 }, [200, 201]);
    expect(revenue(await q({ token: w.ann }, REVENUE))).toBe(30);
    await admin(w, "DELETE", "/organizations/acme/attributes/region/groups/sales_eu", undefined, [200, 204]);
    const refused = await q({ token: w.ann }, REVENUE);
    expect(refused.status).toBe(403);
    expect(refused.body.message as string).toContain("region");
    await admin(w, "PUT", "/organizations/acme/attributes/region/groups/sales_eu", { value: "EU", rank: 1 }, [200, 201]);
  }, 120_000);
});

describe("callers with different access", () => {
  test("text a modeler ran (compiled unrestricted) is refused to a viewer and to an API key", async () => {
    const direct = { query: "duckdb.table('data/orders.csv') -> { aggregate: c is count() }" };
    for (let i = 0; i < 2; i++) {
      const ok = await q({ token: modeler }, direct);
      expect(ok.status).toBe(200);
      expect((ok.body.data as { c: number }[])[0]!.c).toBe(5);
      expect((await q({ token: viewer }, direct)).status).toBe(403);
      expect((await q({ apiKey: w.salesKey }, direct)).status).toBe(403);
    }
  }, 120_000);

  test("an #(authorize) source answered to finance is refused to others, and to a member removed from finance", async () => {
    const salary = { query: "payroll -> { aggregate: total_salary }" };
    for (let i = 0; i < 2; i++) {
      const ok = await q({ token: w.bob }, salary);
      expect(ok.status).toBe(200);
      expect((ok.body.data as { total_salary: number }[])[0]!.total_salary).toBe(300);
      expect((await q({ token: w.ann }, salary)).status).toBe(403);
      expect((await q({ token: w.admin }, salary)).status).toBe(403);
    }
    // bob keeps reading the package through a grant of his own, so only the membership changes
    await admin(w, "POST", "/organizations/acme/environments/prod/packages/sales/permissions", { userGroupId: "user:bob", permission: "viewer" }, 201);
    await admin(w, "DELETE", "/organizations/acme/groups/finance/members", { members: [{ principal: "user:bob" }] }, [200, 204]);
    expect((await q({ token: w.bob }, salary)).status).toBe(403);
    await admin(w, "POST", "/organizations/acme/groups/finance/members", { members: [{ principal: "user:bob", status: "member" }] }, [200, 201]);
    expect((await q({ token: w.bob }, salary)).status).toBe(200);
  }, 120_000);
});

describe("versions", () => {
  test("a new version answers its own data at once; the old one by versionId; archiving falls back and refuses", async () => {
    expect(revenue(await q({ token: w.bob }, REVENUE))).toBe(45);
    const files = salesFiles();
    files.set("data/orders.csv", bytes("id,region,amount\n1,EU,1\n2,US,2\n3,US,3\n"));
    const published = await publish(w, "sales", "2.0.0", { token: w.admin, files });
    expect(published.status).toBe(201);
    expect(revenue(await q({ token: w.bob }, REVENUE))).toBe(5);
    expect(revenue(await q({ token: w.bob }, { ...REVENUE, versionId: "1.0.0" }))).toBe(45);
    expect(revenue(await q({ token: w.bob }, REVENUE))).toBe(5);
    const sql2 = (await q({ token: w.bob }, { ...REVENUE, dryRun: true })).body;
    const answer2 = await q({ token: w.bob }, REVENUE);
    expect((answer2.body.metadata as { versionId: string }).versionId).toBe("2.0.0");
    expect(sql2.sql).toBeString();
    await admin(w, "PATCH", "/organizations/acme/environments/prod/packages/sales/versions/2.0.0", { archiveStatus: "archive" }, 200);
    const back = await q({ token: w.bob }, REVENUE);
    expect(revenue(back)).toBe(45);
    expect((back.body.metadata as { versionId: string }).versionId).toBe("1.0.0");
    const archived = await q({ token: w.bob }, { ...REVENUE, versionId: "2.0.0" });
    expect(archived.status).toBe(400);
    await admin(w, "PATCH", "/organizations/acme/environments/prod/packages/sales/versions/2.0.0", { archiveStatus: "unarchive" }, 200);
    expect(revenue(await q({ token: w.bob }, REVENUE))).toBe(5);
  }, 120_000);
});

describe("organizations", () => {
  test("the same package, version and query text in two organizations answer each its own data", async () => {
    const other = await startWorld();
    try {
      const model = "source: orders is duckdb.table('data/orders.csv') extend { measure: revenue is amount.sum() }\n";
      const filesOf = (csv: string) => new Map([
        ["publisher.json", bytes(JSON.stringify({ name: "plain" }))],
        ["models/plain.malloy", bytes(model)],
        ["data/orders.csv", bytes(csv)],
      ]);
      // one service, two organizations: acme (of `other`) and beta
      await other.s.call("POST", `${API}/organizations`, { token: other.admin, body: { name: "beta" } });
      await other.s.call("POST", `${API}/organizations/beta/environments`, { token: other.admin, body: { name: "prod" } });
      expect((await publish(other, "plain", "1.0.0", { token: other.admin, files: filesOf("id,amount\n1,10\n2,20\n") })).status).toBe(201);
      expect((await publish(other, "plain", "1.0.0", { token: other.admin, files: filesOf("id,amount\n1,1000\n"), prefix: `${API}/organizations/beta/environments/prod` })).status).toBe(201);
      const ask = (org: string) => other.s.call("POST", `${API}/organizations/${org}/environments/prod/packages/plain/models/models/plain.malloy/query`, { token: other.admin, body: REVENUE });
      for (let i = 0; i < 2; i++) {
        expect(revenue(await ask("acme"))).toBe(30);
        expect(revenue(await ask("beta"))).toBe(1000);
      }
    } finally {
      await other.s.close();
    }
  }, 120_000);
});
