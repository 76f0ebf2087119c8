/**
 * Trino connections run queries only and keep no state between requests
 * (src/engine/guards/trino_guard.ts). The warehouse is a loopback stand-in for
 * Trino's client protocol (`POST /v1/statement`, then `nextUri`), reached by
 * the real trino-client under @malloydata/db-trino: like Trino it refuses a
 * text holding a second statement, reports `updateType` for anything but a
 * query, and answers `X-Trino-Set-Session` / `X-Trino-Added-Prepare` headers
 * that a stateful client would send back on every later request.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { TrinoConnection } from "@malloydata/db-trino";
import { createMalloyConnection } from "../../src/connections/drivers.ts";
import { hostPolicy } from "../../src/connections/host_policy.ts";
import { API, publish, smallPackage, startWorld, type World } from "../packages/helpers.ts";

setDefaultTimeout(60_000);

interface Sent {
  sql: string;
  session: string | null;
  prepared: string | null;
}

const sent: Sent[] = [];
/** Statements the stand-in ran (fetched past their first answer). */
const executed: string[] = [];
const cancelled: string[] = [];
let server: ReturnType<typeof Bun.serve>;
let w: World;
const E = `${API}/organizations/acme/environments/prod`;
const Q = `${E}/packages/wh/models/models/flights.malloy/query`;
const ROWS = [{ id: 1, name: "a" }, { id: 2, name: "b" }];

/** Trino's update type of a statement (none for a query), as far as a stand-in needs it. */
function updateTypeOf(sql: string): string | undefined {
  const words = sql.trim().split(/\s+/).map((w) => w.toUpperCase());
  if (["SELECT", "WITH", "DESCRIBE", "SHOW", "VALUES", "EXPLAIN"].includes(words[0] ?? "")) return undefined;
  if (["CREATE", "DROP", "ALTER", "SET", "RESET"].includes(words[0] ?? "")) return `${words[0]} ${words[1]}`;
  return words[0];
}

function answer(id: string, sql: string, nextUri: string) {
  const type = updateTypeOf(sql);
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (type === "SET SESSION") {
    const m = /^SET SESSION\s+(\w+)\s*=\s*'?([^']*)'?/i.exec(sql.trim());
    headers["X-Trino-Set-Session"] = `${m?.[1]}=${m?.[2]}`;
  }
  if (type === "PREPARE") headers["X-Trino-Added-Prepare"] = `${sql.trim().split(/\s+/)[1]}=${encodeURIComponent(sql)}`;
  let body: Record<string, unknown>;
  if (type) body = { id, nextUri, updateType: type, stats: { state: "RUNNING" } };
  else if (/^DESCRIBE /i.test(sql.trim())) {
    body = {
      id,
      columns: ["Column", "Type", "Extra", "Comment"].map((name) => ({ name, type: "varchar" })),
      data: [["id", "integer", "", ""], ["name", "varchar", "", ""]],
      nextUri,
      stats: { state: "RUNNING" },
    };
  } else {
    body = {
      id,
      columns: [{ name: "id", type: "integer" }, { name: "name", type: "varchar" }],
      data: /LIMIT 0\s*$/i.test(sql) ? [] : ROWS.map((r) => [r.id, r.name]),
      nextUri,
      stats: { state: "RUNNING" },
    };
  }
  return new Response(JSON.stringify(body), { headers });
}

beforeAll(async () => {
  const queries = new Map<string, string>();
  let n = 0;
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const base = `http://127.0.0.1:${server.port}`;
      if (request.method === "POST" && url.pathname === "/v1/statement") {
        const sql = await request.text();
        sent.push({ sql, session: request.headers.get("x-trino-session"), prepared: request.headers.get("x-trino-prepared-statement") });
        const id = `q${++n}`;
        if (sql.trim().replace(/;\s*$/, "").includes(";")) {
          return Response.json({
            id,
            stats: { state: "FAILED" },
            error: { message: `line 1:${sql.indexOf(";") + 1}: mismatched input ';'. Expecting: <EOF>`, errorCode: 1, errorName: "SYNTAX_ERROR", errorType: "USER_ERROR" },
          });
        }
        queries.set(id, sql);
        return Response.json({ id, nextUri: `${base}/v1/statement/executing/${id}/1`, stats: { state: "QUEUED" } });
      }
      const m = /^\/v1\/statement\/executing\/([^/]+)\/(\d)$/.exec(url.pathname);
      if (m && request.method === "DELETE") {
        cancelled.push(m[1]!);
        return new Response(null, { status: 204 });
      }
      // page 1: the statement runs and answers; page 2: the end (like Trino, the last data page still has a nextUri)
      if (m && request.method === "GET" && m[2] === "1") {
        const sql = queries.get(m[1]!) ?? "";
        executed.push(sql);
        return answer(m[1]!, sql, `${base}/v1/statement/executing/${m[1]}/2`);
      }
      if (m && request.method === "GET") {
        // Trino repeats a query's columns in every answer once known, the last one included
        const first = (await answer(m[1]!, queries.get(m[1]!) ?? "", "").json()) as { columns?: unknown; updateType?: string };
        return Response.json({ id: m[1], columns: first.updateType ? undefined : first.columns, stats: { state: "FINISHED" } });
      }
      return Response.json({ error: "not found" }, { status: 404 });
    },
  });
  w = await startWorld({ ALLOWED_CONNECTION_HOSTS: "127.0.0.1", QUERY_TIMEOUT_MS: "20000" });
  const c = await w.s.call("POST", `${E}/connections`, {
    token: w.admin,
    body: { name: "tr", type: "trino", trinoConnection: { server: `http://127.0.0.1:${server.port}`, catalog: "cat", schema: "sch", userName: "reader" } },
  });
  if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
  const p = await publish(w, "wh", "1.0.0", { token: w.admin, files: smallPackage() });
  if (p.status !== 201) throw new Error(`publish: ${p.status} ${JSON.stringify(p.body)}`);
}, 120_000);

afterAll(async () => {
  await w?.s.close();
  server?.stop(true);
}, 120_000);

const run = (query: string) => w.s.call("POST", Q, { token: w.admin, body: { query } });
const spec = () => ({
  id: "tr-direct",
  envId: "env",
  name: "tr",
  type: "trino" as const,
  config: { server: `http://127.0.0.1:${server.port}`, catalog: "cat", schema: "sch", userName: "reader" },
  secret: {},
});
const guarded = () => createMalloyConnection(spec(), { dataDir: w.dataDir, hostPolicy: hostPolicy(["127.0.0.1"]) });

describe("a Trino connection runs queries only", () => {
  test("a sql() source answers its rows; its columns come from a LIMIT 0 query, not PREPARE", async () => {
    const before = sent.length;
    const r = await run(`run: tr.sql("""SELECT id, name FROM items""") -> { select: * }`);
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(ROWS);
    const texts = sent.slice(before).map((s) => s.sql);
    expect(texts).toContain("SELECT * FROM (SELECT id, name FROM items) AS malloy_schema LIMIT 0");
    expect(texts.filter((t) => /^\s*PREPARE/i.test(t))).toEqual([]);
    expect(sent.every((s) => s.prepared === null)).toBe(true);
  });

  test("a table source reads DESCRIBE and answers rows", async () => {
    const r = await run("run: tr.table('cat.sch.items') -> { select: * }");
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual(ROWS);
    expect(sent.some((s) => s.sql === "DESCRIBE cat.sch.items")).toBe(true);
  });

  test("a second statement in sql() is refused by Trino's parser and nothing of it runs", async () => {
    const r = await run(`run: tr.sql("""SELECT id, name FROM items; DROP TABLE items""") -> { select: * }`);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain("mismatched input ';'");
    expect(executed.filter((sql) => /DROP/i.test(sql))).toEqual([]);
  });

  test("without the guard, the driver's client keeps a SET SESSION for every later request (what the guard prevents)", async () => {
    const c = new TrinoConnection("tr", undefined, { server: `http://127.0.0.1:${server.port}`, catalog: "cat", user: "reader" });
    await c.runSQL("SET SESSION query_max_run_time = '1d'").catch(() => {});
    const before = sent.length;
    await c.runSQL("SELECT 1 AS one");
    expect(sent[before]!.session).toBe("query_max_run_time=1d");
  });

  const refused: [string, string][] = [
    ["SET SESSION", "SET SESSION query_max_run_time = '1d'"],
    ["INSERT", "INSERT INTO items VALUES (3, 'c')"],
    ["CREATE TABLE", "create table copy AS SELECT * FROM items"],
    ["PREPARE", "PREPARE q FROM SELECT 1"],
    ["CALL", "CALL system.flush_metadata_cache()"],
  ];
  for (const [type, sql] of refused) {
    test(`guarded: a statement Trino reports as ${type} is refused and cancelled, and leaves nothing for later requests`, async () => {
      const c = await guarded();
      const error = await c.runSQL(sql).catch((e: Error) => e);
      expect((error as Error).message).toBe(`query not allowed: Trino runs this text as ${type}, not a query; a Trino connection runs exactly one SELECT per query`);
      expect((error as { kind?: string }).kind).toBe("not_allowed");
      const id = `q${sent.length}`;
      expect(cancelled).toContain(id);
      const before = sent.length;
      expect((await c.runSQL("SELECT id, name FROM items")).rows).toEqual(ROWS);
      expect(sent[before]).toEqual({ sql: "SELECT id, name FROM items", session: null, prepared: null });
    });
  }
});
