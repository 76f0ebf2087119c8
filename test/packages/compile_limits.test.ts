import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { bytes } from "../fixtures/engine_package.ts";
import { shopFiles } from "../query/fixtures.ts";
import { API, packageRowCounts, publish, startWorld, type World } from "./helpers.ts";

// COMPILE_TIMEOUT_MS through the API: models compile in worker threads, and a
// compile past the limit has its worker terminated and answers as before.

let w: World;

/** The shop package plus a model of `count` sources, each with a dimension, a measure and a view. */
async function wideShop(count: number): Promise<Map<string, Uint8Array>> {
  const files = await shopFiles();
  files.set("publisher.json", bytes('{"name": "wide"}'));
  files.set("models/wide.malloy", bytes(Array.from({ length: count }, (_, i) =>
    `source: s${i} is duckdb.table('data/orders.csv') extend {\n  dimension: d${i} is concat(status, '${i}')\n  measure: m${i} is amount.sum() * ${i}\n  view: v${i} is { group_by: d${i}; aggregate: m${i} }\n}`).join("\n")));
  return files;
}

const query = (body: unknown) =>
  w.s.call("POST", `${API}/organizations/acme/environments/prod/packages/wide/models/models/wide.malloy/query`, { token: w.admin, body });

beforeAll(async () => {
  // no index run after a publish: it would load the model in the background while a test lowers the
  // limit, and a query joining that load would inherit its 5 ms limit
  w = await startWorld({ INDEX_ON_PUBLISH: "false" });
}, 120_000);
afterAll(() => w.s.close(), 120_000);

describe("COMPILE_TIMEOUT_MS", () => {
  test("a publish whose model compiles past the limit is refused with the problem, and stores nothing", async () => {
    const before = await packageRowCounts(w);
    w.s.config.compileTimeoutMs = 5;
    try {
      const r = await publish(w, "wide", "0.0.1", { token: w.admin, files: await wideShop(100) });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
      const problem = (r.body.problems as { file?: string; message: string }[]).find((p) => p.file === "models/wide.malloy");
      expect(problem?.message).toContain("did not compile within 5 ms (COMPILE_TIMEOUT_MS)");
      expect(await packageRowCounts(w)).toEqual(before);
    } finally {
      w.s.config.compileTimeoutMs = 120_000;
    }
  }, 120_000);

  test("a model's first load past the limit answers kind timeout, caches nothing, and loads once the limit allows", async () => {
    expect((await publish(w, "wide", "1.0.0", { token: w.admin, files: await wideShop(100) })).status).toBe(201);
    w.s.config.compileTimeoutMs = 5;
    try {
      const r = await query({ query: "run: s7 -> v7" });
      expect(r.status).toBe(400);
      expect(r.body.kind).toBe("timeout");
      expect(r.body.message).toContain("model 'models/wide.malloy' of version 1.0.0 did not compile within 5 ms (COMPILE_TIMEOUT_MS)");
    } finally {
      w.s.config.compileTimeoutMs = 120_000;
    }
    const ok = await query({ query: "run: s7 -> v7" });
    expect(ok.status).toBe(200);
    expect(ok.body.data.length).toBe(3);
  }, 120_000);
});
