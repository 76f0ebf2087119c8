/**
 * Prepared statements kept between queries hold nothing big: a kept CSV scan
 * pinned its reader's 30.5 MiB buffer, so under QUERY_MEMORY_LIMIT=256MiB the
 * ninth different query over a CSV file of one package failed with "Out of
 * Memory" (8 x 30.5 MiB held by statements of finished queries). CSV scans
 * are now run and released; Parquet scans are still kept.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { API, publish, startWorld, type World } from "../packages/helpers.ts";
import { shopFiles } from "./fixtures.ts";

let w: World;
const Q = `${API}/organizations/acme/environments/prod/packages/shop/models/models/shop.malloy/query`;
const query = (text: string) => w.s.call("POST", Q, { token: w.admin, body: { query: text } });

beforeAll(async () => {
  // one query at a time: every query reuses the one session of the package
  w = await startWorld({ QUERY_MEMORY_LIMIT: "256MiB", QUERY_THREADS: "1", QUERY_CONCURRENCY: "1" });
  expect((await publish(w, "shop", "1.0.0", { token: w.admin, files: await shopFiles() })).status).toBe(201);
}, 120_000);
afterAll(() => w.s.close());

describe("kept prepared statements", () => {
  test("twenty different queries over a CSV file in one session all answer under a 256 MiB limit", async () => {
    for (let i = 0; i < 20; i++) {
      const r = await query(`run: orders -> { where: amount > ${i}; aggregate: order_count }`);
      expect([i, r.status, r.status === 200 ? "" : String(r.body.message).slice(0, 120)]).toEqual([i, 200, ""]);
    }
  });

  test("the same over a Parquet file (its statements are kept) and a repeated query still answer", async () => {
    for (let i = 0; i < 20; i++) {
      const r = await query(`run: orders -> { where: customers.id > ${i % 3}; group_by: customers.region; aggregate: n is count() }`);
      expect(r.status).toBe(200);
    }
    const again = await query("run: orders -> { aggregate: order_count }");
    expect(again.body.data).toEqual([{ order_count: 10 }]);
  });
});
