import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chmod, mkdir, mkdtemp, readdir, readFile, readlink, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, secureDataDir, type Database } from "../../src/db/database.ts";
import { secretKey } from "../../src/connections/secrets.ts";
import { freshDatabase } from "../helpers/service.ts";

// services start slowly on a loaded machine (the preload's 60 s does not reach every file of a multi-file run)
setDefaultTimeout(120_000);

let db: Database;
beforeAll(async () => {
  db = await freshDatabase();
}, 120_000);
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

describe("the embedded database is private", () => {
  /** Inodes of the TCP sockets this process listens on (/proc/net/tcp{,6} state 0A, matched to /proc/self/fd). */
  async function listeningInodes(): Promise<Set<string>> {
    const mine = new Set<string>();
    for (const fd of await readdir("/proc/self/fd").catch(() => [] as string[])) {
      const link = await readlink(`/proc/self/fd/${fd}`).catch(() => "");
      const m = /^socket:\[(\d+)\]$/.exec(link);
      if (m) mine.add(m[1]!);
    }
    const out = new Set<string>();
    for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
      const text = await readFile(table, "utf8").catch(() => "");
      for (const line of text.split("\n").slice(1)) {
        const cols = line.trim().split(/\s+/);
        if (cols[3] === "0A" && mine.has(cols[9]!)) out.add(cols[9]!);
      }
    }
    return out;
  }

  async function walk(dir: string): Promise<string[]> {
    const out: string[] = [];
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, e.name);
      out.push(full);
      if (e.isDirectory()) out.push(...(await walk(full)));
    }
    return out;
  }

  test("DATA_DIR becomes 0700 (also when it existed as 0755); PGlite's files, its socket and secret.key are this user's only", async () => {
    const root = await mkdtemp(join(tmpdir(), "datadir-"));
    const dataDir = join(root, "data");
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    const umask = process.umask();
    await secureDataDir(dataDir);
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    const before = await listeningInodes();
    const own = await openDatabase({ dataDir: join(dataDir, "pg") });
    try {
      await own.sql`CREATE TABLE t (x int)`;
      await own.sql`INSERT INTO t VALUES (1)`;
      expect((await own.sql`SELECT x FROM t`)[0]!.x).toBe(1);
      // no TCP port: the process listens on nothing new
      const after = await listeningInodes();
      expect([...after].filter((i) => !before.has(i))).toEqual([]);
      // the unix socket sits in DATA_DIR/run (0700), the socket itself 0600
      const socketDir = decodeURIComponent(new URL(own.url).searchParams.get("host")!);
      expect(socketDir).toBe(join(dataDir, "run"));
      expect((await stat(socketDir)).mode & 0o777).toBe(0o700);
      const sockets = await readdir(socketDir);
      expect(sockets.length).toBe(1);
      expect((await stat(join(socketDir, sockets[0]!))).mode & 0o077).toBe(0);
      // connection credentials' key file
      await secretKey({ dataDir });
      expect((await stat(join(dataDir, "secret.key"))).mode & 0o777).toBe(0o600);
      // while open: the PGlite folder is 0700, so nothing in it is reachable by other users
      expect((await stat(join(dataDir, "pg"))).mode & 0o777).toBe(0o700);
    } finally {
      await own.close();
      // after close: every file PGlite wrote is 0600 or stricter, every folder 0700 or stricter
      const files = await walk(dataDir);
      expect(files.length).toBeGreaterThan(10);
      const open = [];
      for (const f of files) if (((await stat(f)).mode & 0o077) !== 0) open.push(f);
      expect(open).toEqual([]);
      // the socket file is gone after close
      expect(await readdir(join(dataDir, "run"))).toEqual([]);
      process.umask(umask);
      await rm(root, { recursive: true, force: true });
    }
  }, 180_000);

  test("an in-memory embedded database also has only a socket in a fresh 0700 folder", async () => {
    const before = await listeningInodes();
    const mem = await openDatabase({});
    try {
      expect([...(await listeningInodes())].filter((i) => !before.has(i))).toEqual([]);
      const socketDir = decodeURIComponent(new URL(mem.url).searchParams.get("host")!);
      expect((await stat(socketDir)).mode & 0o777).toBe(0o700);
      expect((await mem.sql`SELECT 1 AS one`)[0]!.one).toBe(1);
    } finally {
      await mem.close();
    }
  }, 180_000);
});
