/**
 * get_context through the database: publish real packages, await indexing,
 * search as different callers and scopes (REST and the searcher).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { apiErrorOf } from "../../src/http/error_handler.ts";
import type { Principal } from "../../src/access/principal.ts";
import { waitForRuns } from "../../src/runs/worker.ts";
import { createContextSearcher, type ContextSearcher } from "../../src/retrieval/search.ts";
import type { ContextResult } from "../../src/retrieval/answer/context_result.ts";
import { API, publish, startWorld, userWith, type World } from "../packages/helpers.ts";
import { ecommerceFiles } from "./fixtures.ts";

let w: World;
let searcher: ContextSearcher;
let admin: Principal;

async function userPrincipal(userName: string): Promise<Principal> {
  const [u] = await w.s.service.db.sql`SELECT id, system_admin FROM users WHERE user_name = ${userName}`;
  return { kind: "user", userId: u!.id as string, userName, systemAdmin: u!.system_admin as boolean };
}

/** Entities of the result as `package/source.name`, in result order. */
function entityKeys(result: ContextResult): string[] {
  return result.sources.flatMap((s) => s.phrases.flatMap((p) => p.entities.map((e) => `${s.package_name}/${s.source_name}.${e.name}`)));
}

/** Best entities of the question over all phrases, best score first. */
function top(result: ContextResult, n: number): string[] {
  const all = result.sources.flatMap((s) => s.phrases.flatMap((p) => p.entities.map((e) => ({ key: `${s.package_name}/${s.source_name}.${e.name}`, score: e.score }))));
  const best = new Map<string, number>();
  for (const e of all) best.set(e.key, Math.max(best.get(e.key) ?? 0, e.score));
  return [...best.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k]) => k);
}

beforeAll(async () => {
  w = await startWorld();
  const shop = await publish(w, "shop", "1.0.0", { token: w.admin, files: ecommerceFiles() });
  expect(shop.status).toBe(201);
  expect(shop.body.version.indexStatus).toBe("indexing");
  const other = await publish(w, "secret", "1.0.0", { token: w.admin, files: ecommerceFiles({ delayMeasure: "hidden_delay_metric" }) });
  expect(other.status).toBe(201);
  await waitForRuns(w.s.service.ctx);
  searcher = createContextSearcher(w.s.service.ctx);
  admin = await userPrincipal("admin");
}, 120_000);

afterAll(async () => {
  await w.s.close();
}, 120_000);

describe("indexing after publish", () => {
  test("the version ends indexed, every entity has a row with a vector of the default model and indexed values", async () => {
    const v = await w.s.call("GET", `${API}/organizations/acme/environments/prod/packages/shop/versions/1.0.0`, { token: w.admin });
    expect(v.status).toBe(200);
    expect(v.body.indexStatus).toBe("indexed");
    const [counts] = await w.s.service.db.sql`
      SELECT (SELECT count(*)::int FROM model_entities me JOIN packages p ON p.id = me.package_id WHERE p.name = 'shop') AS entities,
             count(*)::int AS rows, count(ee.model)::int AS vectors, count(ee.indexed_values)::int AS valued
        FROM entity_embeddings ee JOIN model_entities me ON me.id = ee.entity_id JOIN packages p ON p.id = me.package_id WHERE p.name = 'shop'`;
    expect(counts!.rows).toBe(counts!.entities);
    expect(counts!.vectors).toBe(counts!.rows);
    // 3 explicit #(index) dimensions, and the low-cardinality string dimensions indexed automatically.
    expect(counts!.valued).toBeGreaterThan(3);
    const [status] = await w.s.service.db.sql`SELECT ee.indexed_values FROM entity_embeddings ee JOIN model_entities me ON me.id = ee.entity_id
      JOIN packages p ON p.id = me.package_id WHERE p.name = 'shop' AND me.path = 'order_dt'`;
    expect(status!.indexed_values).toBeNull(); // a date, never indexed automatically
    const [carrier] = await w.s.service.db.sql`SELECT ee.indexed_values, ee.model FROM entity_embeddings ee JOIN model_entities me ON me.id = ee.entity_id
      JOIN packages p ON p.id = me.package_id WHERE p.name = 'shop' AND me.path = 'carrier'`;
    expect(carrier!.model).toBe("wink-glove-100d");
    expect(carrier!.indexed_values).toEqual([{ value: "DHL", count: 30 }, { value: "UPS", count: 20 }, { value: "FedEx", count: 10 }]);
  });
});

describe("get_context search", () => {
  test("a question sharing words with its target finds it first, with scope fields for execute_query", async () => {
    const r = await searcher.search(admin, { organization: "acme", natural_language_query: "average delivery delay by carrier", environment_name: "prod", package_name: "shop" });
    // The question is ranked as a whole: the delay measure, the carrier dimension and the view that
    // answers both (delays_by_carrier) lead, each once.
    const best = top(r, 5);
    expect(best[0]).toBe("shop/shipments.avg_delivery_delay");
    expect(best).toContain("shop/shipments.delays_by_carrier");
    expect(best).toContain("shop/shipments.carrier");
    const phrase = r.sources.find((s) => s.source_name === "shipments")!.phrases[0]!;
    expect(phrase.phrase).toBe("average delivery delay by carrier");
    expect(phrase.entities[0]!.name).toBe("avg_delivery_delay");
    const keys = entityKeys(r);
    expect(new Set(keys).size).toBe(keys.length);
    const source = r.sources.find((s) => s.source_name === "shipments")!;
    expect(source).toMatchObject({ model_uri: "models/shipments.malloy", environment_name: "prod", package_name: "shop", version_id: "1.0.0" });
    const entity = source.phrases[0]!.entities[0]!;
    expect(Object.keys(entity).sort()).toEqual(expect.arrayContaining(["data_type", "description", "field_type", "match_reason", "name", "score"]));
    expect(r.next_steps.join("\n")).toContain("package_name 'shop'");
    expect(r.malloy_documentation.length).toBeGreaterThan(100);
    expect(r.malloy_documentation.length).toBeLessThan(1500);
  });

  test("a question sharing no word with its target still finds it (semantic and synonyms)", async () => {
    const r = await searcher.search(admin, { organization: "acme", natural_language_query: "how tardy were the parcels", environment_name: "prod", package_name: "shop" });
    const found = top(r, 5);
    expect(found.some((k) => ["shop/shipments.late_shipment_pct", "shop/shipments.is_late", "shop/shipments.avg_delivery_delay"].includes(k))).toBe(true);
    const reasons = r.sources.flatMap((s) => s.phrases.flatMap((p) => p.entities.map((e) => e.match_reason))).join(" ");
    expect(reasons).toContain("semantic similarity");
  });

  test("indexed values appear in values and a value match is reported", async () => {
    const r = await searcher.search(admin, { organization: "acme", natural_language_query: "orders paid with paypal", environment_name: "prod", package_name: "shop" });
    const entities = r.sources.flatMap((s) => s.phrases.flatMap((p) => p.entities));
    const pay = entities.find((e) => e.name === "pay_method" && e.match_reason.includes("indexed value 'paypal'"));
    expect(pay).toBeDefined();
    expect(pay!.values).toEqual(expect.arrayContaining(["card", "paypal", "bank transfer"]));
    expect(r.next_steps.join("\n")).toContain("where: pay_method = 'paypal'");
  });

  test("each broken scope rule is a VALIDATION_ERROR naming the rule", async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ package_name: "shop" }, "package_name requires environment_name"],
      [{ environment_name: "prod", model_uri: "models/orders.malloy" }, "model_uri requires environment_name and package_name"],
      [{ environment_name: "prod", package_name: "shop", source_name: "orders" }, "source_name requires environment_name, package_name and model_uri"],
    ];
    for (const [scope, message] of cases) {
      const error = await searcher.search(admin, { organization: "acme", natural_language_query: "orders", ...scope }).catch((e) => e);
      expect(apiErrorOf(error)?.code).toBe("VALIDATION_ERROR");
      expect(apiErrorOf(error)?.message).toContain(message);
    }
  });

  test("model_uri and source_name narrow the search", async () => {
    const r = await searcher.search(admin, {
      organization: "acme", natural_language_query: "how many", environment_name: "prod", package_name: "shop", model_uri: "models/orders.malloy", source_name: "orders",
    });
    expect(new Set(r.sources.map((s) => s.source_name))).toEqual(new Set(["orders"]));
  });

  test("a caller without access to a package never sees its entities (user token and group API key)", async () => {
    const [shop] = await w.s.service.db.sql`SELECT id FROM packages WHERE name = 'shop'`;
    const token = await userWith(w, "reader", { kind: "package", id: shop!.id as string, role: "viewer" });
    const reader = await userPrincipal("reader");
    const r = await searcher.search(reader, { organization: "acme", natural_language_query: "average delivery delay" });
    expect(r.sources.length).toBeGreaterThan(0);
    expect(new Set(r.sources.map((s) => s.package_name))).toEqual(new Set(["shop"]));
    const all = await searcher.search(admin, { organization: "acme", natural_language_query: "hidden delay metric" });
    expect(entityKeys(all)).toContain("secret/shipments.hidden_delay_metric");
    const denied = await searcher.search(reader, { organization: "acme", natural_language_query: "hidden delay metric" });
    expect(entityKeys(denied).some((k) => k.startsWith("secret/"))).toBe(false);
    const named = await searcher.search(reader, { organization: "acme", natural_language_query: "delay", environment_name: "prod", package_name: "secret" }).catch((e) => e);
    expect(apiErrorOf(named)?.status).toBe(404);
    // Through REST, as the user.
    const rest = await w.s.call("POST", `${API}/retrieval/context`, { token, body: { organization: "acme", search_targets: [{ entity_type: "measure", search_text: "hidden delay metric" }] } });
    expect(rest.status).toBe(200);
    expect(rest.body.results[0].items.every((i: { package_name: string }) => i.package_name === "shop")).toBe(true);
    // A group API key with the secret package only.
    await w.s.call("POST", `${API}/organizations/acme/groups`, { token: w.admin, body: { name: "bots" } });
    const grant = await w.s.call("POST", `${API}/organizations/acme/environments/prod/packages/secret/permissions`, { token: w.admin, body: { userGroupId: "group:bots", permission: "viewer" } });
    expect(grant.status).toBe(201);
    const key = await w.s.call("POST", `${API}/organizations/acme/groups/bots/tokens?name=ci`, { token: w.admin });
    const viaKey = await w.s.call("POST", `${API}/retrieval/context`, { apiKey: key.body.secret, body: { organization: "acme", search_targets: [{ entity_type: "measure", search_text: "delivery delay" }] } });
    expect(viaKey.status).toBe(200);
    expect(viaKey.body.results[0].items.length).toBeGreaterThan(0);
    expect(viaKey.body.results[0].items.every((i: { package_name: string }) => i.package_name === "secret")).toBe(true);
    const stranger = await userWith(w, "stranger");
    const none = await w.s.call("POST", `${API}/retrieval/context`, { token: stranger, body: { organization: "acme", search_targets: [{ entity_type: "measure" }] } });
    expect(none.status).toBe(404);
    // search_text is words to search for: over 2,000 characters is refused before any search runs
    const long = await w.s.call("POST", `${API}/retrieval/context`, { token, body: { organization: "acme", search_targets: [{ entity_type: "measure", search_text: "d".repeat(2_001) }] } });
    expect(long.status).toBe(400);
    expect(long.body.code).toBe("VALIDATION_ERROR");
    expect(long.body.message).toContain("2,000");
    // each target is searched in each scope: at most 50 searches per request
    const searches = (targets: number, scopes: number) => w.s.call("POST", `${API}/retrieval/context`, {
      token,
      body: {
        organization: "acme",
        search_targets: Array.from({ length: targets }, () => ({ entity_type: "measure", search_text: "delay" })),
        scopes: Array.from({ length: scopes }, () => ({ environment_name: "prod" })),
      },
    });
    const many = await searches(11, 5);
    expect(many.status).toBe(400);
    expect(many.body.code).toBe("VALIDATION_ERROR");
    expect(many.body.message).toContain("55 searches");
    const fifty = await searches(10, 5);
    expect(fifty.status).toBe(200);
    expect(fifty.body.results).toHaveLength(10);
  });

  test("archived versions are not searched: the latest unarchived version is", async () => {
    const v2 = await publish(w, "shop", "2.0.0", { token: w.admin, files: ecommerceFiles({ delayMeasure: "mean_lateness_days" }) });
    expect(v2.status).toBe(201);
    await waitForRuns(w.s.service.ctx);
    const ask = () => searcher.search(admin, { organization: "acme", natural_language_query: "mean lateness days", environment_name: "prod", package_name: "shop" });
    expect(entityKeys(await ask())).toContain("shop/shipments.mean_lateness_days");
    const archived = await w.s.call("PATCH", `${API}/organizations/acme/environments/prod/packages/shop/versions/2.0.0`, { token: w.admin, body: { archiveStatus: "archive" } });
    expect(archived.status).toBe(200);
    const after = await ask();
    expect(entityKeys(after)).not.toContain("shop/shipments.mean_lateness_days");
    expect(after.sources.every((s) => s.version_id === "1.0.0")).toBe(true);
    await w.s.call("PATCH", `${API}/organizations/acme/environments/prod/packages/shop/versions/2.0.0`, { token: w.admin, body: { archiveStatus: "unarchive" } });
    expect(entityKeys(await ask())).toContain("shop/shipments.mean_lateness_days");
  });
});

describe("POST /retrieval/context", () => {
  test("search targets by type, prominent items without search text, dimensional values, scope rules", async () => {
    const r = await w.s.call("POST", `${API}/retrieval/context`, {
      token: w.admin,
      body: {
        organization: "acme",
        scopes: { environment_name: "prod", package_name: "shop" },
        search_targets: [
          { entity_type: "measure", search_text: "postage" },
          { entity_type: "source" },
          { entity_type: "dimensional_value", search_text: "fedex" },
          { entity_type: "dimension" },
        ],
        limit: 3,
      },
    });
    expect(r.status).toBe(200);
    const [measures, sources, values, dims] = r.body.results;
    expect(measures.items[0]).toMatchObject({ name: "shipping_cost", field_type: "measure", package_name: "shop", model_uri: "models/shipments.malloy" });
    expect(measures.items.every((i: { field_type: string }) => i.field_type === "measure")).toBe(true);
    expect(sources.items.map((i: { name: string }) => i.name)).toEqual(["shipments", "orders"]);
    expect(values.items[0]).toMatchObject({ name: "carrier", value: "FedEx", count: 10 });
    expect(dims.items).toHaveLength(3);
    expect(dims.items[0].match_reason).toContain("documented, indexed");
    const bad = await w.s.call("POST", `${API}/retrieval/context`, {
      token: w.admin, body: { organization: "acme", scopes: [{ package_name: "shop" }], search_targets: [{ entity_type: "view" }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(bad.body.message).toContain("package_name requires environment_name");
  });
});
