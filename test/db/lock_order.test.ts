/**
 * `beginRetrying` runs a transaction again when PostgreSQL ends it as a
 * deadlock victim: two transactions lock two rows in opposite orders, one of
 * them is failed with 40P01 by the server, and both still complete.
 *
 * Runs in the server pass (TEST_DATABASE_URL set, as in CI): the embedded
 * database has one session, where two transactions never interleave.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openDatabase, type Database } from "../../src/db/database.ts";
import { beginRetrying } from "../../src/db/lock_order.ts";
import { SERVER_URL } from "../helpers/service.ts";

if (SERVER_URL) {
  describe("beginRetrying on the server", () => {
    let db: Database;
    const table = `lock_order_${crypto.randomUUID().replaceAll("-", "")}`;

    beforeAll(async () => {
      db = await openDatabase({ url: SERVER_URL, max: 4 });
      await db.sql`CREATE TABLE ${db.sql(table)} (id int PRIMARY KEY, n int NOT NULL DEFAULT 0)`;
      await db.sql`INSERT INTO ${db.sql(table)} (id) VALUES (1), (2)`;
    });
    afterAll(async () => {
      await db.sql`DROP TABLE IF EXISTS ${db.sql(table)}`;
      await db.close();
    });

    /** Locks `first`, waits until the other transaction holds its first row, then locks `second`. */
    function crossing(first: number, second: number, ready: { count: number }, attempts: number[]) {
      return (tx: Parameters<Parameters<typeof beginRetrying>[1]>[0]) => (async () => {
        attempts.push(first);
        await tx`UPDATE ${tx(table)} SET n = n + 1 WHERE id = ${first}`;
        ready.count++;
        // only the first attempts cross: a retry runs alone
        for (let i = 0; i < 200 && ready.count < 2; i++) await Bun.sleep(5);
        await tx`UPDATE ${tx(table)} SET n = n + 1 WHERE id = ${second}`;
      })();
    }

    test("two transactions crossing locks both complete; the victim ran twice, its first attempt wrote nothing", async () => {
      const ready = { count: 0 };
      const attempts: number[] = [];
      await Promise.all([
        beginRetrying(db.sql, crossing(1, 2, ready, attempts)),
        beginRetrying(db.sql, crossing(2, 1, ready, attempts)),
      ]);
      expect(attempts.length).toBe(3);
      const rows = await db.sql<{ id: number; n: number }[]>`SELECT id, n FROM ${db.sql(table)} ORDER BY id`;
      expect(rows.map((r) => ({ id: r.id, n: r.n }))).toEqual([{ id: 1, n: 2 }, { id: 2, n: 2 }]);
    });

    test("without retries the deadlock reaches the caller; other errors are never retried", async () => {
      const ready = { count: 0 };
      const attempts: number[] = [];
      const results = await Promise.allSettled([
        beginRetrying(db.sql, crossing(1, 2, ready, attempts), 1),
        beginRetrying(db.sql, crossing(2, 1, ready, attempts), 1),
      ]);
      const failed = results.filter((r) => r.status === "rejected");
      expect(failed).toHaveLength(1);
      expect(((failed[0] as PromiseRejectedResult).reason as { code: string }).code).toBe("40P01");
      let runs = 0;
      const refused = await beginRetrying(db.sql, async (tx) => {
        runs++;
        await tx`INSERT INTO ${tx(table)} (id) VALUES (1)`;
      }).catch((e) => e);
      expect(refused.code).toBe("23505");
      expect(runs).toBe(1);
    });
  });
}
