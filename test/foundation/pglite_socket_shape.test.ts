/**
 * src/db/database.ts (`keepExtendedQueriesTogether`) replaces the private
 * `processQueue` loop of @electric-sql/pglite-socket's `QueryQueueManager`:
 * upstream dequeues protocol messages one by one and keeps a connection's
 * messages together only inside a transaction, so concurrent postgres.js
 * queries (Parse/Bind/Describe/Execute/Sync on the unnamed portal) interleave
 * across connections and get each other's rows or `portal "" does not exist`
 * (electric-sql/pglite issue #1046, pull request #977, open upstream).
 *
 * The patch relies on private fields of the installed version. This test fails
 * when an upgrade changes them, so the patch is re-read (or dropped, once the
 * upstream fix is released) rather than silently doing nothing.
 */
import { expect, test } from "bun:test";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** The installed package.json (its `exports` do not list it, so it is read from the resolved entry's folder). */
const pkg = JSON.parse(readFileSync(join(dirname(Bun.resolveSync("@electric-sql/pglite-socket", import.meta.dir)), "..", "package.json"), "utf8")) as { version: string };

test("the installed pglite-socket is the version the queue patch was written for", () => {
  expect(pkg.version).toBe("0.2.17");
});

test("PGLiteSocketServer has the private query queue the patch replaces", async () => {
  const db = new PGlite();
  try {
    const server = new PGLiteSocketServer({ db, port: 0, host: "127.0.0.1" });
    const q = (server as unknown as { queryQueue: Record<string, unknown> }).queryQueue;
    expect(q).toBeDefined();
    expect(Array.isArray(q.queue)).toBe(true);
    expect(q.processing).toBe(false);
    expect(q.lastHandlerId).toBeNull();
    expect(typeof q.processQueue).toBe("function");
    expect(typeof q.enqueue).toBe("function");
    // the database methods the replacement loop calls
    const inner = q.db as Record<string, unknown>;
    for (const method of ["isInTransaction", "runExclusive", "execProtocolRawStream"]) expect(typeof inner[method]).toBe("function");
    // the upstream loop the patch replaces: handler affinity decided from lastHandlerId while in a transaction
    const source = String(Object.getPrototypeOf(q).processQueue);
    expect(source).toContain("lastHandlerId");
    expect(source).toContain("isInTransaction");
    expect(source).toContain("findIndex");
  } finally {
    await db.close();
  }
}, 60_000);
