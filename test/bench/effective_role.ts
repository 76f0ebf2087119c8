/**
 * Effective-role resolution latency: a user in 3 levels of nested groups, an
 * organization with 1,000 grants. Embedded PGlite by default; a PostgreSQL
 * server when DATABASE_URL is set (a scratch database is created and dropped).
 *
 *   bun test/bench/effective_role.ts
 * @module
 */
import postgres from "postgres";
import { openDatabase, type Database } from "../../src/db/database.ts";
import { migrate } from "../../src/db/migrate.ts";

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);

async function open(): Promise<{ db: Database; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) return { db: await openDatabase({}), drop: async () => {} };
  const name = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    db: await openDatabase({ url: u.toString(), max: 4 }),
    drop: async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const { db, drop } = await open();
const sql = db.sql;
try {
  await migrate(sql);
  const [org] = await sql`INSERT INTO organizations (name) VALUES ('bench') RETURNING id`;
  const orgId = org!.id as string;
  const [user] = await sql`INSERT INTO users (user_name, email) VALUES ('u', 'u@x') RETURNING id`;
  const userId = user!.id as string;
  const groups: string[] = [];
  for (const n of ["g1", "g2", "g3"]) groups.push((await sql`INSERT INTO groups (org_id, name) VALUES (${orgId}, ${n}) RETURNING id`)[0]!.id as string);
  await sql`INSERT INTO group_members (group_id, member_user_id, status) VALUES (${groups[0]!}, ${userId}, 'member')`;
  await sql`INSERT INTO group_members (group_id, member_group_id, status) VALUES (${groups[1]!}, ${groups[0]!}, 'member')`;
  await sql`INSERT INTO group_members (group_id, member_group_id, status) VALUES (${groups[2]!}, ${groups[1]!}, 'member')`;
  // 1,000 grants: 50 environments x 10 packages, other users' grants on them, and the target grant through g3
  await sql`INSERT INTO users (user_name, email) SELECT 'x' || i, 'x' || i || '@x' FROM generate_series(1, 200) i`;
  await sql`INSERT INTO environments (org_id, name) SELECT ${orgId}, 'env' || i FROM generate_series(1, 50) i`;
  await sql`INSERT INTO packages (env_id, name) SELECT e.id, 'pkg' || i FROM environments e, generate_series(1, 10) i`;
  await sql`
    INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role)
    SELECT 'package', p.id, 'user', u.id, 'viewer'
      FROM (SELECT id, row_number() OVER () AS n FROM packages) p
      JOIN (SELECT id, row_number() OVER () AS n FROM users WHERE user_name LIKE 'x%') u ON u.n = 1 + (p.n % 200)
     WHERE p.n > 1
    UNION ALL
    SELECT 'environment', e.id, 'user', u.id, 'viewer'
      FROM (SELECT id, row_number() OVER () AS n FROM environments) e
      JOIN (SELECT id, row_number() OVER () AS n FROM users WHERE user_name LIKE 'x%') u ON u.n BETWEEN e.n AND e.n + 9`;
  const [env] = await sql`SELECT id FROM environments WHERE name = 'env50'`;
  await sql`INSERT INTO grants (resource_kind, resource_id, principal_kind, principal_id, role) VALUES ('environment', ${env!.id as string}, 'group', ${groups[2]!}, 'modeler')`;
  const [count] = await sql`SELECT count(*)::int AS n FROM grants WHERE resource_kind <> 'organization'`;
  const [pkg] = await sql`SELECT p.id FROM packages p WHERE p.env_id = ${env!.id as string} LIMIT 1`;
  const pkgId = pkg!.id as string;

  const check = await sql`SELECT effective_rank('user', ${userId}::uuid, 'package', ${pkgId}::uuid) AS r`;
  if (Number(check[0]!.r) !== 2) throw new Error(`expected rank 2 through g1 < g2 < g3, got ${check[0]!.r}`);
  for (let i = 0; i < 100; i++) await sql`SELECT effective_rank('user', ${userId}::uuid, 'package', ${pkgId}::uuid) AS r`;
  const times: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await sql`SELECT effective_rank('user', ${userId}::uuid, 'package', ${pkgId}::uuid) AS r`;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(JSON.stringify({
    database: db.kind,
    grants: count!.n,
    nesting: 3,
    calls: CALLS,
    p50_ms: Math.round(pct(times, 50) * 1000) / 1000,
    p99_ms: Math.round(pct(times, 99) * 1000) / 1000,
    max_ms: Math.round(times[times.length - 1]! * 1000) / 1000,
  }));
} finally {
  await db.close();
  await drop();
}
