import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Database } from "../../src/db/database.ts";
import { freshDatabase } from "../helpers/service.ts";

let db: Database;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(() => db.close());

test("concurrent queries each get their own rows", async () => {
  const results = await Promise.all(
    Array.from({ length: 60 }, (_, i) => db.sql`SELECT ${i}::int AS i, repeat('x', ${i * 7}) AS pad, pg_sleep(0.001)`),
  );
  results.forEach((rows, i) => {
    expect(rows[0]!.i).toBe(i);
    expect((rows[0]!.pad as string).length).toBe(i * 7);
  });
});

test("queries inside concurrent transactions and outside them never see each other's rows", async () => {
  const wrong: string[] = [];
  await Promise.all(
    Array.from({ length: 24 }, async (_, i) => {
      if (i % 3 === 0) {
        const [r] = await db.sql`SELECT ${i}::int AS i`;
        if (r!.i !== i) wrong.push(`plain ${i} got ${r!.i}`);
        return;
      }
      await db.sql.begin(async (tx) => {
        for (let k = 0; k < 3; k++) {
          const [r] = await tx`SELECT ${i * 10 + k}::int AS v, ${"t" + i}::text AS t`;
          if (r!.v !== i * 10 + k || r!.t !== `t${i}`) wrong.push(`tx ${i}.${k} got ${r!.v}/${r!.t}`);
        }
      });
    }),
  );
  expect(wrong).toEqual([]);
});

test("concurrent transactions commit or roll back independently, and errors do not jam the pool", async () => {
  await db.sql`CREATE TABLE tx_probe (n int PRIMARY KEY)`;
  const outcomes = await Promise.allSettled(
    Array.from({ length: 16 }, (_, i) =>
      db.sql.begin(async (tx) => {
        await tx`INSERT INTO tx_probe (n) VALUES (${i})`;
        await tx`SELECT pg_sleep(0.002)`;
        if (i % 2 === 1) throw new Error(`roll back ${i}`);
      }),
    ),
  );
  expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(8);
  const rows = await db.sql`SELECT n FROM tx_probe ORDER BY n`;
  expect(rows.map((r) => r.n)).toEqual([0, 2, 4, 6, 8, 10, 12, 14]);
  // a failing statement does not break the next ones
  await expect(db.sql`SELECT * FROM no_such_table`).rejects.toThrow();
  const [after] = await db.sql`SELECT count(*)::int AS n FROM tx_probe`;
  expect(after!.n).toBe(8);
});

test("pgvector is available and HNSW indexes work", async () => {
  await db.sql`CREATE TABLE vec_probe (id int, e vector(3))`;
  await db.sql`INSERT INTO vec_probe VALUES (1, '[1,0,0]'), (2, '[0,1,0]'), (3, '[0.9,0.1,0]')`;
  await db.sql`CREATE INDEX ON vec_probe USING hnsw (e vector_cosine_ops)`;
  const rows = await db.sql`SELECT id FROM vec_probe ORDER BY e <=> '[1,0,0]' LIMIT 2`;
  expect(rows.map((r) => r.id)).toEqual([1, 3]);
});
