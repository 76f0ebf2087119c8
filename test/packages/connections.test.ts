import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { API, publish, smallPackage, startWorld, userWith, type World } from "./helpers.ts";
import { environmentConnection } from "../../src/connections/store.ts";
import { openDatabase, type Database } from "../../src/db/database.ts";
import { SERVER_URL } from "../helpers/service.ts";

setDefaultTimeout(60_000);

const PASSWORD = "pg-Secret-Pa55word-xyz";
let w: World;
let viewer: string;
let modeler: string;
const C = `${API}/organizations/acme/environments/prod/connections`;
// The warehouse: the PostgreSQL server of TEST_DATABASE_URL, or an embedded PGlite behind its socket
// (the same wire protocol), so the suite needs no server of its own.
let warehouse: Database | undefined;
const pg = { host: "127.0.0.1", port: 5432, databaseName: "postgres", userName: "postgres", password: PASSWORD };
const seen: string[] = [];

beforeAll(async () => {
  if (SERVER_URL) {
    const u = new URL(SERVER_URL);
    pg.host = u.hostname;
    pg.port = Number(u.port || 5432);
  } else {
    warehouse = await openDatabase({ tcp: true });
    pg.port = Number(new URL(warehouse.url).port);
  }
  w = await startWorld({ ALLOWED_CONNECTION_HOSTS: pg.host });
  viewer = await userWith(w, "viewer", { kind: "environment", id: w.envId, role: "viewer" });
  modeler = await userWith(w, "modeler", { kind: "environment", id: w.envId, role: "modeler" });
}, 240_000);
afterAll(async () => {
  await w.s.close();
  await warehouse?.close();
}, 120_000);

async function call(method: string, path: string, token: string, body?: unknown) {
  const r = await w.s.call(method, path, { token, body });
  seen.push(JSON.stringify(r.body ?? ""));
  return r;
}

describe("postgres (a real server on loopback)", () => {
  test("create checks the connection and answers without the password", async () => {
    const r = await call("POST", C, modeler, { name: "pg", type: "postgres", postgresConnection: pg });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ name: "pg", type: "postgres", postgresConnection: { host: pg.host, port: pg.port, databaseName: "postgres", userName: "postgres" } });
    expect(r.body.postgresConnection.password).toBeUndefined();
    expect(r.body.secretFieldsSet).toEqual(["password"]);
  });
  test("get and list never return credentials; viewer reads, outsider 404", async () => {
    expect((await call("GET", `${C}/pg`, viewer)).body.postgresConnection.password).toBeUndefined();
    expect((await call("GET", C, viewer)).body.map((c: { name: string }) => c.name)).toEqual(["pg"]);
    const outsider = await userWith(w, "outsider");
    expect((await call("GET", `${C}/pg`, outsider)).status).toBe(404);
    expect((await call("GET", `${C}/nope`, viewer)).status).toBe(404);
  });
  test("stored encrypted: the column does not hold the password", async () => {
    const [row] = await w.s.service.db.sql`SELECT config::text AS config, secret FROM connections WHERE name = 'pg'`;
    expect(row!.secret).toStartWith("v1:");
    expect(`${row!.config}${row!.secret}`).not.toContain(PASSWORD);
    expect(Buffer.from(String(row!.secret).slice(3), "base64").toString("latin1")).not.toContain(PASSWORD);
  });
  test("a wrong port is 400: a modeler reads only 'connection failed', an admin the driver's reason; viewer may not create (403)", async () => {
    const r = await call("POST", C, modeler, { name: "pg2", type: "postgres", postgresConnection: { ...pg, port: 1 } });
    expect(r.status).toBe(400);
    expect(r.body.message).toStartWith("connection failed");
    expect(r.body.message).not.toMatch(/ECONNREFUSED|refused|port|password/i);
    const a = await call("POST", C, w.admin, { name: "pg2", type: "postgres", postgresConnection: { ...pg, port: 1 } });
    expect(a.status).toBe(400);
    expect(a.body.message).toContain("failed its check");
    expect(a.body.message).toMatch(/ECONNREFUSED|connect/i);
    expect((await call("POST", C, viewer, { name: "pg3", type: "postgres", postgresConnection: pg })).status).toBe(403);
    const [n] = await w.s.service.db.sql`SELECT count(*)::int AS n FROM connections`;
    expect(n!.n).toBe(1);
  });
  test("duplicate name 409; reserved name duckdb 400", async () => {
    expect((await call("POST", C, modeler, { name: "pg", type: "postgres", postgresConnection: pg })).status).toBe(409);
    expect((await call("POST", C, modeler, { name: "duckdb", type: "duckdb" })).status).toBe(400);
  });
  test("a package model can use the environment connection by name", async () => {
    const files = smallPackage({ "models/pg.malloy": 'source: one is pg.sql("""SELECT 1 AS one""") extend { measure: n is count() }\n' });
    const r = await publish(w, "pgpkg", "1.0.0", { token: modeler, files });
    expect(r.status).toBe(201);
    const conn = await environmentConnection(w.s.service.db.sql, { envId: w.envId, name: "pg" }, { dataDir: w.dataDir });
    expect(conn!.dialectName).toBe("postgres");
    expect((await conn!.runSQL("SELECT 41 + 1 AS answer")).totalRows).toBe(1);
    // the same Malloy connection is reused until the row changes
    expect(await environmentConnection(w.s.service.db.sql, { envId: w.envId, name: "pg" }, { dataDir: w.dataDir })).toBe(conn);
    expect(await environmentConnection(w.s.service.db.sql, { envId: w.envId, name: "missing" }, { dataDir: w.dataDir })).toBeUndefined();
  });
  test("update re-checks: a broken change is 400 and keeps the old settings; a good one applies", async () => {
    expect((await call("PATCH", `${C}/pg`, modeler, { postgresConnection: { port: 1 } })).status).toBe(400);
    expect((await call("GET", `${C}/pg`, viewer)).body.postgresConnection.port).toBe(pg.port);
    const ok = await call("PATCH", `${C}/pg`, modeler, { postgresConnection: { databaseName: "postgres", password: `${PASSWORD}-2` } });
    expect(ok.status).toBe(200);
    expect(ok.body.postgresConnection.password).toBeUndefined();
    expect((await call("PATCH", `${C}/pg`, viewer, { postgresConnection: { port: 5432 } })).status).toBe(403);
  });
  test("no response ever carried a password", () => {
    for (const body of seen) expect(body).not.toContain(PASSWORD);
  });
  test("delete removes the row and its credentials; viewer 403", async () => {
    expect((await call("DELETE", `${C}/pg`, viewer)).status).toBe(403);
    expect((await call("DELETE", `${C}/pg`, modeler)).status).toBe(204);
    expect((await call("GET", `${C}/pg`, viewer)).status).toBe(404);
    const [n] = await w.s.service.db.sql`SELECT count(*)::int AS n FROM connections`;
    expect(n!.n).toBe(0);
  });
});

describe("duckdb", () => {
  test("in memory and in a database file kept by the service", async () => {
    expect((await call("POST", C, modeler, { name: "mem", type: "duckdb", duckdbConnection: {} })).status).toBe(201);
    const file = await call("POST", C, modeler, { name: "local", type: "duckdb", duckdbConnection: { databaseName: "warehouse" } });
    expect(file.status).toBe(201);
    expect(file.body.duckdbConnection).toEqual({ databaseName: "warehouse" });
    expect((await call("POST", C, modeler, { name: "bad", type: "duckdb", duckdbConnection: { databaseName: "../x" } })).status).toBe(400);
    const conn = await environmentConnection(w.s.service.db.sql, { envId: w.envId, name: "mem" }, { dataDir: w.dataDir });
    expect((await conn!.runSQL("SELECT 2 AS two")).rows[0]).toEqual({ two: 2 });
  });
});

describe("cloud types: configuration and validation errors", () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ["missing type settings", { type: "postgres" }, "host"],
    ["unknown type", { type: "oracle" }, "type must be one of"],
    ["settings of another type", { type: "postgres", mysqlConnection: { host: "x" } }, "postgresConnection"],
    ["unknown field", { type: "postgres", postgresConnection: { host: "x", colour: "blue" } }, "colour"],
    ["port out of range", { type: "postgres", postgresConnection: { host: "x", port: 70000 } }, "port"],
    ["bigquery without key", { type: "bigquery", bigqueryConnection: { defaultProjectId: "p" } }, "serviceAccountKeyJson"],
    ["bigquery malformed key JSON", { type: "bigquery", bigqueryConnection: { defaultProjectId: "p", serviceAccountKeyJson: "{not json" } }, "not valid JSON"],
    ["bigquery key without private_key", { type: "bigquery", bigqueryConnection: { defaultProjectId: "p", serviceAccountKeyJson: '{"client_email":"a@b"}' } }, "private_key"],
    ["snowflake without account", { type: "snowflake", snowflakeConnection: { userName: "u", password: "p" } }, "account"],
    ["snowflake without password or key", { type: "snowflake", snowflakeConnection: { account: "a", userName: "u" } }, "password or"],
    ["trino without server", { type: "trino", trinoConnection: { userName: "u" } }, "server"],
    ["trino server not a URL", { type: "trino", trinoConnection: { server: "trino.local", userName: "u" } }, "http"],
    ["mysql without user", { type: "mysql", mysqlConnection: { host: "h" } }, "userName"],
    ["motherduck without token", { type: "motherduck", motherduckConnection: { database: "db" } }, "accessToken"],
  ];
  for (const [label, body, needle] of cases) {
    test(`${label}: 400`, async () => {
      const r = await call("POST", C, modeler, { name: "cloud", ...body });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("VALIDATION_ERROR");
      expect(r.body.message).toContain(needle);
    });
  }
  test("trino on an unreachable loopback port: 400 quickly", async () => {
    const start = performance.now();
    const r = await call("POST", C, modeler, { name: "tr", type: "trino", trinoConnection: { server: "http://127.0.0.1:1", userName: "u", password: "trino-pw-123" } });
    expect(r.status).toBe(400);
    expect(r.body.message).toStartWith("connection failed");
    expect(r.body.message).not.toContain("trino-pw-123");
    expect(performance.now() - start).toBeLessThan(5000);
  });
  test("mysql on an unreachable loopback port: 400", async () => {
    const r = await call("POST", C, modeler, { name: "my", type: "mysql", mysqlConnection: { host: "127.0.0.1", port: 1, userName: "u", password: "my-pw-123" } });
    expect(r.status).toBe(400);
    expect(r.body.message).not.toContain("my-pw-123");
  });
  test("nothing was stored by refused creates", async () => {
    const rows = await w.s.service.db.sql`SELECT name FROM connections ORDER BY name`;
    expect(rows.map((r) => r.name)).toEqual(["local", "mem"]);
  });
});
