/**
 * MySQL connections run one read-only statement at a time (src/engine/guards/mysql_guard.ts),
 * against a real MySQL or MariaDB server (TEST_MYSQL_URL, default mysql://root@127.0.0.1:3306, the MariaDB
 * server of this machine; `.ci/run` starts it when it is not running):
 * statement injection through sql() and table(), writes through stored functions, and
 * accounts holding the FILE privilege are refused, while plain queries answer rows.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import mysql from "mysql2/promise";
import { API, publish, smallPackage, startWorld, type World } from "../packages/helpers.ts";

setDefaultTimeout(60_000);

const id = crypto.randomUUID().replaceAll("-", "").slice(0, 10);
const DB = `mg_${id}`;
const RO = `mg_ro_${id}`;
const FILE_USER = `mg_file_${id}`;
const ROLE_USER = `mg_role_${id}`;
const ROLE = `mg_filerole_${id}`;
const PW = "warehouse-pw-1";
const E = `${API}/organizations/acme/environments/prod`;
const Q = `${E}/packages/wh/models/models/flights.malloy/query`;
let w: World;
let root: mysql.Connection;

const ADMIN_URL = new URL(process.env.TEST_MYSQL_URL || "mysql://root@127.0.0.1:3306");
const HOST = ADMIN_URL.hostname;
const PORT = Number(ADMIN_URL.port || 3306);
const ADMIN_USER = decodeURIComponent(ADMIN_URL.username || "root");
const mysqlConnection = (user: string) => ({ host: HOST, port: PORT, databaseName: DB, userName: user, password: PW });

beforeAll(async () => {
  root = await mysql.createConnection({
    host: HOST, port: PORT, user: ADMIN_USER, password: decodeURIComponent(ADMIN_URL.password) || undefined, multipleStatements: true,
  });
  await root.query(`
    CREATE DATABASE ${DB};
    CREATE TABLE ${DB}.items (id INT, name VARCHAR(20), price DECIMAL(10,2), at DATETIME);
    INSERT INTO ${DB}.items VALUES (1, 'a', 1.50, '2024-01-01 00:00:00'), (2, 'b', 2.50, '2024-02-01 00:00:00');
    CREATE TABLE ${DB}.writes (n INT);
    CREATE FUNCTION ${DB}.bump() RETURNS INT MODIFIES SQL DATA BEGIN INSERT INTO ${DB}.writes VALUES (1); RETURN 1; END;
    CREATE USER '${RO}'@'%' IDENTIFIED BY '${PW}';
    GRANT SELECT, INSERT, CREATE, DROP, EXECUTE, CREATE TEMPORARY TABLES ON ${DB}.* TO '${RO}'@'%';
    CREATE USER '${FILE_USER}'@'%' IDENTIFIED BY '${PW}';
    GRANT SELECT ON ${DB}.* TO '${FILE_USER}'@'%';
    GRANT FILE ON *.* TO '${FILE_USER}'@'%';
    CREATE ROLE ${ROLE};
    GRANT FILE ON *.* TO ${ROLE};
    CREATE USER '${ROLE_USER}'@'%' IDENTIFIED BY '${PW}';
    GRANT SELECT ON ${DB}.* TO '${ROLE_USER}'@'%';
    GRANT ${ROLE} TO '${ROLE_USER}'@'%';
    SET DEFAULT ROLE ${ROLE} FOR '${ROLE_USER}'@'%';
  `);
  w = await startWorld({ ALLOWED_CONNECTION_HOSTS: `${HOST},127.0.0.1,localhost`, QUERY_TIMEOUT_MS: "3000" });
  // the account may write (INSERT, CREATE, DROP, temporary tables): only the guarded session keeps queries from doing so
  const c = await w.s.call("POST", `${E}/connections`, { token: w.admin, body: { name: "shop", type: "mysql", mysqlConnection: mysqlConnection(RO) } });
  if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
  const p = await publish(w, "wh", "1.0.0", { token: w.admin, files: smallPackage() });
  if (p.status !== 201) throw new Error(`publish: ${p.status} ${JSON.stringify(p.body)}`);
}, 120_000);

afterAll(async () => {
  await w?.s.close();
  if (root) {
    await root.query(`DROP DATABASE IF EXISTS ${DB}; DROP USER IF EXISTS '${RO}'@'%', '${FILE_USER}'@'%', '${ROLE_USER}'@'%'; DROP ROLE IF EXISTS ${ROLE};`).catch(() => {});
    await root.end();
  }
}, 120_000);

const run = (query: string) => w.s.call("POST", Q, { token: w.admin, body: { query } });
const sqlQuery = (sql: string) => run(`run: shop.sql("""${sql}""") -> { select: * }`);

async function tables(): Promise<string[]> {
  const [rows] = await root.query(`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ?`, [DB]);
  return (rows as { t: string }[]).map((r) => r.t).sort();
}

async function count(table: string): Promise<number> {
  const [rows] = await root.query(`SELECT count(*) AS n FROM ${DB}.${table}`);
  return Number((rows as { n: number }[])[0]!.n);
}

describe("a MySQL connection runs one read-only statement at a time", () => {
  test("a table source and a sql() source answer rows", async () => {
    const t = await run(`run: shop.table('items') -> { group_by: name; aggregate: total is price.sum(); order_by: name }`);
    expect(t.status).toBe(200);
    expect(t.body.data).toEqual([{ name: "a", total: 1.5 }, { name: "b", total: 2.5 }]);
    const s = await sqlQuery("SELECT id, name, at FROM items ORDER BY id");
    expect(s.status).toBe(200);
    expect(s.body.data).toEqual([
      { id: 1, name: "a", at: "2024-01-01T00:00:00.000Z" },
      { id: 2, name: "b", at: "2024-02-01T00:00:00.000Z" },
    ]);
  });

  test.each([
    ["a second statement after the schema lookup's parenthesis", `SELECT 1 AS x); CREATE TABLE ${DB}.pwned (a INT); CREATE TEMPORARY TABLE zz AS (SELECT 1 AS x`],
    ["in lower case with a comment before the semicolon", `select 1 as x) /* c */ ; create table ${DB}.pwned2 (a int); select (1`],
    ["a DROP after a line comment", `SELECT 1 AS x) -- c\n; DROP TABLE ${DB}.items; SELECT (1`],
    ["an INSERT alone", `INSERT INTO ${DB}.writes VALUES (7)`],
    ["a write through a stored function", "SELECT bump() AS x"],
    ["a write through a stored function in a subquery", "SELECT x FROM (SELECT bump() AS x) AS t"],
    ["SET lifting read-only", "SET SESSION TRANSACTION READ WRITE"],
  ])("%s fails and changes nothing", async (_, sql) => {
    const before = await tables();
    const r = await sqlQuery(sql);
    expect(r.status).toBe(400);
    expect(await tables()).toEqual(before);
    expect(await count("writes")).toBe(0);
    expect(await count("items")).toBe(2);
  });

  test("a table() path holding a second statement fails and changes nothing", async () => {
    const r = await run(`run: shop.table('items; DROP TABLE ${DB}.items') -> { select: * }`);
    expect(r.status).toBe(400);
    expect(await count("items")).toBe(2);
  });

  test("after refused statements the session still answers, still read-only", async () => {
    expect((await sqlQuery("SELECT count(*) AS n FROM items")).body.data).toEqual([{ n: 2 }]);
    expect((await sqlQuery("SELECT bump() AS x")).status).toBe(400);
    expect(await count("writes")).toBe(0);
  });

  test("a statement running past the query timeout is stopped", async () => {
    const r = await sqlQuery("SELECT sleep(30) AS x FROM items");
    expect(r.status).not.toBe(200);
  });

  test.each([
    ["the server's administrator (ALL PRIVILEGES)", ADMIN_USER],
    ["an account granted FILE", FILE_USER],
    ["an account whose default role holds FILE", ROLE_USER],
  ])("%s is refused as a connection, with what to grant instead", async (_, user) => {
    const body = { name: `f${crypto.randomUUID().slice(0, 6)}`, type: "mysql", mysqlConnection: { ...mysqlConnection(user), password: user === ADMIN_USER ? decodeURIComponent(ADMIN_URL.password) || undefined : PW } };
    const r = await w.s.call("POST", `${E}/connections`, { token: w.admin, body });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("FILE privilege");
    expect(r.body.message).toContain("no FILE privilege");
  });
});
