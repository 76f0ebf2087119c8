import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { shopFiles } from "./fixtures.ts";

// A node configured with a tiny row limit and a short timeout (10 s: long enough for a small query on a busy
// machine, far too short for SLOW, which sums 10^11 rows: minutes unless cancelled)
let w: World;
const Q = `${API}/organizations/acme/environments/prod/packages/shop/models/models/shop.malloy/query`;
const SLOW = `run: duckdb.sql("select a.range as x from range(1000000) a, range(100000) b") -> { aggregate: s is x.sum() }`;

const query = (body: unknown) => w.s.call("POST", Q, { token: w.admin, body });

beforeAll(async () => {
  w = await startWorld({ QUERY_ROW_LIMIT: "4", QUERY_TIMEOUT_MS: "10000" });
  expect((await publish(w, "shop", "1.0.0", { token: w.admin, files: await shopFiles() })).status).toBe(201);
  // the first query loads the model, which on a loaded machine can take longer than the limit:
  // load it before the tests, so that they measure queries, not the first load
  let warm = 0;
  for (let i = 0; i < 20 && warm !== 200; i++) warm = (await query({ query: "orders -> { aggregate: order_count }" })).status;
  expect(warm).toBe(200);
}, 120_000);
afterAll(() => w.s.close());

describe("node limits", () => {
  test("QUERY_ROW_LIMIT cuts the rows; totalRows counts them all; metadata says truncated", async () => {
    const r = await query({ query: "orders -> { select: id; order_by: id }" });
    expect([r.status, r.body.message]).toEqual([200, undefined]);
    expect(r.body.data).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }]);
    expect(r.body.totalRows).toBe(10);
    expect(r.body.metadata).toMatchObject({ truncated: true, rowLimit: 4 });
    const small = await query({ query: "orders -> { group_by: status }" });
    expect(small.body.totalRows).toBe(3);
    expect(small.body.metadata.truncated).toBe(false);
  });

  test("QUERY_TIMEOUT_MS cancels a slow query with a message saying so; the next query works", async () => {
    const started = performance.now();
    const slow = await query({ query: SLOW });
    expect(slow.status).toBe(400);
    expect(slow.body.kind).toBe("timeout");
    expect(slow.body.message).toContain("did not finish within 10000 ms");
    expect(performance.now() - started).toBeLessThan(30_000); // cancelled, not run to its end
    const next = await query({ query: "orders -> { aggregate: order_count }" });
    expect(next.status).toBe(200);
    expect(next.body.data).toEqual([{ order_count: 10 }]);
  }, 60_000);
});
