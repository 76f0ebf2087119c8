/**
 * Snowflake connections run one statement per request (src/engine/guards/snowflake_guard.ts):
 * every statement carries MULTI_STATEMENT_COUNT=1, which overrides the
 * account, user and session values, so Snowflake refuses a text holding a
 * second statement. The warehouse is a loopback stand-in for Snowflake's REST
 * protocol (login and query requests, reached by the real snowflake-sdk through
 * its `accessUrl` option) on an account whose administrator set
 * MULTI_STATEMENT_COUNT=0, the case where Snowflake runs every statement.
 * The service's own connections cannot be pointed at loopback (an account
 * name always means `<account>.snowflakecomputing.com`), so the last test
 * checks the options createMalloyConnection hands the driver.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { SnowflakeConnection } from "@malloydata/db-snowflake";
import type { Connection, StreamingConnection } from "@malloydata/malloy";
import { createMalloyConnection } from "../../src/connections/drivers.ts";
import { guardSnowflake } from "../../src/engine/guards/snowflake_guard.ts";

setDefaultTimeout(60_000);

interface Statement {
  sqlText: string;
  parameters?: Record<string, unknown>;
}

const received: Statement[] = [];
/** Statements the stand-in "ran" (each part of an accepted text). */
const executed: string[] = [];
let server: ReturnType<typeof Bun.serve>;
const sessions: Connection[] = [];

async function jsonBody(request: Request): Promise<Record<string, any>> {
  let bytes = new Uint8Array(await request.arrayBuffer());
  if (request.headers.get("content-encoding") === "gzip") bytes = Bun.gunzipSync(bytes);
  return bytes.length > 0 ? JSON.parse(new TextDecoder().decode(bytes)) : {};
}

// the SDK parses a body only when content-type is exactly application/json
const json = (value: unknown) => new Response(JSON.stringify(value), { headers: { "content-type": "application/json" } });

function statementsOf(text: string): string[] {
  return text.split(";").map((s) => s.trim()).filter((s) => s.length > 0);
}

/** Snowflake's answer to a query request, for an account whose MULTI_STATEMENT_COUNT is 0. */
function answer(statement: Statement, session: { count?: number }) {
  const parts = statementsOf(statement.sqlText);
  const fromStatement = statement.parameters?.MULTI_STATEMENT_COUNT;
  const allowed = fromStatement !== undefined ? Number(fromStatement) : session.count ?? 0;
  if (allowed !== 0 && parts.length !== allowed) {
    return {
      success: false,
      code: "000008",
      message: `Actual statement count ${parts.length} did not match the desired statement count ${allowed}.`,
      data: { queryId: crypto.randomUUID(), sqlState: "0A000", errorCode: "000008", internalError: false },
    };
  }
  for (const part of parts) {
    executed.push(part);
    const set = /^ALTER SESSION SET MULTI_STATEMENT_COUNT\s*=\s*(\d+)$/i.exec(part);
    if (set) session.count = Number(set[1]);
  }
  const describe = /^DESCRIBE TABLE/i.test(parts[0] ?? "");
  return {
    success: true,
    code: null,
    message: null,
    data: {
      parameters: [],
      rowtype: describe
        ? ["name", "type"].map((name) => ({ name, database: "", schema: "", table: "", byteLength: 100, type: "text", scale: null, precision: null, nullable: false, collation: null, length: 100 }))
        : [{ name: "ONE", database: "", schema: "", table: "", byteLength: null, type: "fixed", scale: 0, precision: 1, nullable: false, collation: null, length: null }],
      rowset: describe ? [["ONE", "NUMBER(1,0)"]] : [["1"]],
      total: 1,
      returned: 1,
      queryId: crypto.randomUUID(),
      finalDatabaseName: "DB",
      finalSchemaName: "PUBLIC",
      finalWarehouseName: "WH",
      finalRoleName: "READER",
      numberOfBinds: 0,
      arrayBindSupported: false,
      statementTypeId: 4096,
      version: 1,
      sendResultTime: Date.now(),
      queryResultFormat: "json",
    },
  };
}

beforeAll(() => {
  const bySession = new Map<string, { count?: number }>();
  let nextSession = 1;
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      const body = request.method === "POST" ? await jsonBody(request) : {};
      if (path === "/session/v1/login-request") {
        const token = `session-${nextSession++}`;
        bySession.set(token, {});
        return json({
          success: true,
          code: null,
          message: null,
          data: { token, masterToken: `master-${token}`, validityInSeconds: 3600, masterValidityInSeconds: 14400, sessionId: nextSession, parameters: [], sessionInfo: { databaseName: "DB", schemaName: "PUBLIC", warehouseName: "WH", roleName: "READER" } },
        });
      }
      if (path === "/queries/v1/query-request") {
        const token = /Snowflake Token="([^"]+)"/.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
        const statement = { sqlText: String(body.sqlText ?? ""), parameters: body.parameters };
        received.push(statement);
        return json(answer(statement, bySession.get(token) ?? {}));
      }
      return json({ success: true, code: null, message: null, data: null });
    },
  });
});

afterAll(async () => {
  for (const c of sessions) await (c as unknown as { close: () => Promise<void> }).close().catch(() => {});
  server?.stop(true);
});

/** A Malloy Snowflake connection to the stand-in (the driver's own class and the real snowflake-sdk). */
function standInConnection(): SnowflakeConnection {
  const c = new SnowflakeConnection("sf", {
    connOptions: { account: "standin", accessUrl: `http://127.0.0.1:${server.port}`, username: "reader", password: "pw" } as never,
  });
  sessions.push(c);
  return c;
}

const SCRIPT = "SELECT 1 AS one; DROP TABLE orders";

describe("a Snowflake connection runs one statement per request", () => {
  test("without the guard, this account runs every statement of a text (what the guard prevents)", async () => {
    const c = standInConnection();
    const result = await c.runSQL(SCRIPT);
    expect(result.rows).toEqual([{ ONE: 1 }]);
    expect(executed).toContain("DROP TABLE orders");
  });

  test("guarded: a script is refused by Snowflake's own count (400 QUERY_NOT_ALLOWED) and nothing of it runs", async () => {
    const c = guardSnowflake(standInConnection()) as SnowflakeConnection;
    const before = executed.length;
    const error = await c.runSQL("SELECT 1 AS one; DELETE FROM orders").catch((e: Error) => e);
    expect((error as Error).message).toBe(
      "query not allowed: Snowflake counts more than one statement in this text; a Snowflake connection runs exactly one statement per request",
    );
    expect((error as { kind?: string }).kind).toBe("not_allowed");
    expect(executed.slice(before).filter((s) => /DELETE/.test(s))).toEqual([]);
    expect((await c.runSQL("SELECT 1 AS one")).rows).toEqual([{ ONE: 1 }]);
  });

  test("guarded: every statement sent carries MULTI_STATEMENT_COUNT=1, Malloy's session setup included", async () => {
    const c = guardSnowflake(standInConnection()) as SnowflakeConnection;
    const before = received.length;
    await c.runSQL("SELECT 1 AS one");
    const sent = received.slice(before);
    expect(sent.some((s) => s.sqlText.startsWith("ALTER SESSION SET TIMEZONE"))).toBe(true);
    for (const s of sent) expect(s.parameters?.MULTI_STATEMENT_COUNT).toBe(1);
  });

  test("guarded: a streamed query and a sql() schema lookup refuse a script too", async () => {
    const c = guardSnowflake(standInConnection()) as SnowflakeConnection & StreamingConnection;
    const before = executed.length;
    const rows: unknown[] = [];
    const streamed = await (async () => {
      for await (const row of c.runSQLStream("SELECT 1 AS one; TRUNCATE TABLE orders")) rows.push(row);
    })().catch((e: Error) => e);
    expect((streamed as Error).message).toMatch(/^query not allowed: Snowflake counts more than one statement/);
    expect(rows).toEqual([]);
    const schema = await c.fetchSchemaForSQLStruct({ connection: "sf", selectStr: "SELECT 1 AS one); DROP TABLE orders; SELECT (1" } as never, {});
    expect(JSON.stringify(schema)).toContain("query not allowed: Snowflake counts more than one statement");
    expect(executed.slice(before).filter((s) => /TRUNCATE|DROP/.test(s))).toEqual([]);
    const ok = await c.fetchSchemaForSQLStruct({ connection: "sf", selectStr: "SELECT 1 AS one" } as never, {});
    expect(ok.structDef?.fields.map((f) => f.name)).toEqual(["ONE"]);
  });

  test("guarded: a session changed to MULTI_STATEMENT_COUNT=0 still runs one statement per request", async () => {
    const c = guardSnowflake(standInConnection()) as SnowflakeConnection;
    await c.runSQL("ALTER SESSION SET MULTI_STATEMENT_COUNT = 0");
    const before = executed.length;
    const error = await c.runSQL("SELECT 1 AS one; DROP TABLE orders").catch((e: Error) => e);
    expect((error as Error).message).toMatch(/^query not allowed: Snowflake counts more than one statement/);
    expect(executed.slice(before)).toEqual([]);
  });

  test("createMalloyConnection hands the driver the stored fields only, and guards its sessions", async () => {
    const c = await createMalloyConnection(
      {
        id: "sf-1",
        envId: "env",
        name: "sf",
        type: "snowflake",
        config: { account: "acme-xy12345", userName: "reader", warehouse: "WH", database: "DB", schema: "PUBLIC", role: "READER" },
        secret: { password: "pw" },
      },
      { dataDir: "/tmp" },
    );
    sessions.push(c);
    const internals = c as unknown as { connOptions: Record<string, unknown>; setupSQL?: string; executor: { pool_: object } };
    expect(Object.fromEntries(Object.entries(internals.connOptions).filter(([, v]) => v !== undefined))).toEqual({
      account: "acme-xy12345",
      // added by snowflake-sdk from the account: the destination is always Snowflake's
      accessUrl: "https://acme-xy12345.snowflakecomputing.com",
      host: "acme-xy12345.snowflakecomputing.com",
      username: "reader",
      password: "pw",
      warehouse: "WH",
      database: "DB",
      schema: "PUBLIC",
      role: "READER",
    });
    // no setup statements of our own, and nothing that changes the statement count
    expect(internals.setupSQL).toBeUndefined();
    // the pool's acquire is the guard's (generic-pool's own lives on its prototype)
    expect(Object.hasOwn(internals.executor.pool_, "acquire")).toBe(true);
  });
});
