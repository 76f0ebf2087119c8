/**
 * Query log entries that wait to share an INSERT (src/query_log/writer.ts,
 * the query runner's `waitMs` while queries wait for an engine slot) are
 * never lost: every answered query of a saturated node is in the log, and
 * entries still waiting when the service closes are written before the
 * database closes.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readConfig } from "../../src/config.ts";
import { queryLogWriter } from "../../src/query_log/writer.ts";
import { startService } from "../../src/service.ts";
import { freshDatabase } from "../helpers/service.ts";
import { API } from "../packages/helpers.ts";
import { SALES_QUERY, type SalesWorld, startSalesWorld } from "../rls/world.ts";

let w: SalesWorld;

beforeAll(async () => {
  // one engine slot: concurrent queries wait for it, so their entries wait to share INSERTs
  w = await startSalesWorld({ QUERY_CONCURRENCY: "1" });
}, 120_000);

afterAll(async () => {
  await w?.s.close();
}, 120_000);

describe("query log under load", () => {
  test("every query answered while others waited for a slot is in the log", async () => {
    const texts = Array.from({ length: 12 }, (_, i) => `orders -> { aggregate: revenue, n${i} is count() }`);
    const answers = await Promise.all(texts.map((query) => w.s.call("POST", SALES_QUERY, { token: w.ann, body: { query } })));
    expect(answers.map((a) => a.status)).toEqual(texts.map(() => 200));
    const listed = await w.s.call("GET", `${API}/organizations/acme/query-log?limit=50`, { token: w.admin });
    const logged = (listed.body as { query: string; status: string; principal: string }[]).filter((e) => texts.includes(e.query));
    expect(logged.map((e) => e.query).sort()).toEqual([...texts].sort());
    expect(logged.every((e) => e.status === "ok" && e.principal === "user:ann")).toBe(true);
  }, 60_000);
});

test("an entry still waiting for its INSERT when the service closes is written before the database closes", async () => {
  const db = await freshDatabase();
  let rowsAtClose = -1;
  const watched = {
    ...db,
    async close() {
      const [row] = await db.sql`SELECT count(*)::int AS n FROM query_log WHERE query = 'waiting entry'`;
      rowsAtClose = row!.n as number;
      await db.close();
    },
  };
  const config = readConfig({ BOOTSTRAP_ADMIN_PASSWORD: "admin-password-for-tests", LOG_REQUESTS: "false" });
  const service = await startService(config, { db: watched, log: () => {} });
  const [org] = await db.sql`INSERT INTO organizations (name) VALUES ('acme') RETURNING id`;
  const written = queryLogWriter(service.ctx).record({
    orgId: org!.id as string, at: new Date(), principal: "user:admin", via: "rest", environmentName: "prod", packageName: "sales",
    modelPath: "models/sales.malloy", query: "waiting entry", boundAttributes: [], ms: 1, status: "ok", rows: 1,
  }, { waitMs: 60_000 });
  await service.close();
  await written;
  expect(rowsAtClose).toBe(1);
}, 60_000);
