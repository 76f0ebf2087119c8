/**
 * One organization's slow queries cannot take every query slot of a node:
 * with QUERY_CONCURRENCY 2 and QUERY_CONCURRENCY_PER_ORGANIZATION 1, acme's
 * second slow query waits for acme's first, while beta's query answers at once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { shopFiles } from "./fixtures.ts";

let w: World;
const q = (org: string) => `${API}/organizations/${org}/environments/prod/packages/shop/models/models/shop.malloy/query`;
const SLOW = `run: duckdb.sql("select a.range as x from range(300000) a, range(300000) b") -> { aggregate: s is x.sum() }`;

beforeAll(async () => {
  w = await startWorld({ QUERY_CONCURRENCY: "2", QUERY_CONCURRENCY_PER_ORGANIZATION: "1", QUERY_TIMEOUT_MS: "60000" });
  const files = await shopFiles();
  expect((await publish(w, "shop", "1.0.0", { token: w.admin, files })).status).toBe(201);
  expect((await w.s.call("POST", `${API}/organizations`, { token: w.admin, body: { name: "beta" } })).status).toBe(201);
  expect((await w.s.call("POST", `${API}/organizations/beta/environments`, { token: w.admin, body: { name: "prod" } })).status).toBe(201);
  expect((await publish(w, "shop", "1.0.0", { token: w.admin, files, prefix: `${API}/organizations/beta/environments/prod` })).status).toBe(201);
  // both models compiled and warm
  for (const org of ["acme", "beta"]) {
    expect((await w.s.call("POST", q(org), { token: w.admin, body: { query: "orders -> { aggregate: order_count }" } })).status).toBe(200);
  }
}, 120_000);
afterAll(() => w.s.close());

describe("query slots per organization", () => {
  test("another organization's query answers while one organization's slow queries hold and wait for its share", async () => {
    const stop = new AbortController();
    const settled: string[] = [];
    const slow = (n: number) => w.s.service.handle(new Request(`http://localhost${q("acme")}`, {
      method: "POST",
      headers: { authorization: `Bearer ${w.admin}`, "content-type": "application/json" },
      body: JSON.stringify({ query: SLOW }),
      signal: stop.signal,
    })).then((r) => r.text()).catch(() => "").finally(() => settled.push(`acme ${n}`));
    const first = slow(1);
    await Bun.sleep(300);
    const second = slow(2);
    await Bun.sleep(300);
    // acme holds its one slot and its second query waits; the node's other slot is beta's
    const fast = await w.s.call("POST", q("beta"), { token: w.admin, body: { query: "orders -> { aggregate: order_count }" } });
    expect(fast.status).toBe(200);
    expect(fast.body.data).toEqual([{ order_count: 10 }]);
    // and acme's own fast query waits behind its slow ones (its share is full)
    let acmeFastDone = false;
    const acmeFast = w.s.call("POST", q("acme"), { token: w.admin, body: { query: "orders -> { aggregate: order_count }" } }).finally(() => {
      acmeFastDone = true;
    });
    await Bun.sleep(500);
    expect(acmeFastDone).toBe(false);
    expect(settled).toEqual([]);
    stop.abort();
    await Promise.all([first, second]);
    expect((await acmeFast).status).toBe(200);
  }, 60_000);
});
