import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { openWarehouse, type Warehouse, type WarehouseConnection } from "../helpers/warehouse.ts";
import { API, publish, smallPackage, startWorld, type World } from "../packages/helpers.ts";

setDefaultTimeout(60_000);

// The warehouse: a fresh database on TEST_DATABASE_URL's server (127.0.0.1:5432), or an embedded PGlite behind its socket.
let warehouse: Warehouse;
let pg: WarehouseConnection;
let w: World;
const E = `${API}/organizations/acme/environments/prod`;
const Q = `${E}/packages/wh/models/models/flights.malloy/query`;

beforeAll(async () => {
  warehouse = await openWarehouse("guard");
  pg = warehouse.connection;
  await warehouse.run("CREATE TABLE canary (n integer); INSERT INTO canary VALUES (1), (2), (3);");
  // The connection host policy (another change) refuses loopback unless listed here.
  w = await startWorld({ ALLOWED_CONNECTION_HOSTS: `${pg.host},127.0.0.1,::1,localhost`, QUERY_TIMEOUT_MS: "20000" });
  const c = await w.s.call("POST", `${E}/connections`, { token: w.admin, body: { name: "warehouse", type: "postgres", postgresConnection: pg } });
  if (c.status !== 201) throw new Error(`connection: ${c.status} ${JSON.stringify(c.body)}`);
  const p = await publish(w, "wh", "1.0.0", { token: w.admin, files: smallPackage() });
  if (p.status !== 201) throw new Error(`publish: ${p.status} ${JSON.stringify(p.body)}`);
}, 120_000);

afterAll(async () => {
  await w?.s.close();
  await warehouse?.close();
}, 120_000);

const sqlQuery = (sql: string) => w.s.call("POST", Q, { token: w.admin, body: { query: `run: warehouse.sql("""${sql}""") -> { select: * }` } });

async function canaryRows(): Promise<number> {
  const [row] = await warehouse.run("SELECT count(*)::int AS n FROM canary");
  return row!.n as number;
}

describe("a PostgreSQL connection runs one read-only statement per query", () => {
  test("a SELECT runs", async () => {
    const r = await sqlQuery("SELECT n FROM canary ORDER BY n");
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
  });

  test.each([
    ["; DROP TABLE", "SELECT 1 AS x; DROP TABLE canary"],
    ["; DELETE in another case with a comment", "select 1 as x /* hi */; DeLeTe FROM canary"],
    ["closing the schema lookup's parenthesis", "SELECT 1 AS x) t; DELETE FROM canary; SELECT * FROM (SELECT 1 AS x"],
    ["pg_read_file", "SELECT pg_read_file('/etc/passwd') AS x"],
    ["PG_READ_FILE quoted and schema-qualified", `SELECT "pg_catalog"."pg_read_file"('/etc/hostname') AS x`],
    ["pg_ls_dir in a CTE", "WITH d AS (SELECT * FROM pg_ls_dir('.') AS f) SELECT * FROM d"],
    ["lo_import", "SELECT lo_import('/etc/passwd') AS x"],
    ["dblink", "SELECT * FROM dblink('host=127.0.0.1', 'select 1') AS t(x int)"],
    ["set_config turning read-only off", "SELECT set_config('transaction_read_only', 'off', true) AS x"],
    ["current_setting", "SELECT current_setting('data_directory') AS x"],
    ["query_to_xml running a string", "SELECT query_to_xml('DELETE FROM canary RETURNING n', true, false, '') AS x"],
    ["a data-modifying CTE", "WITH d AS (DELETE FROM canary RETURNING n) SELECT * FROM d"],
    ["pg_authid", "SELECT rolname FROM pg_authid"],
  ])("%s is refused with 400 QUERY_NOT_ALLOWED or fails, and nothing changes", async (_, sql) => {
    const r = await sqlQuery(sql);
    expect(r.status).toBe(400);
    if (r.body.code !== "QUERY_NOT_ALLOWED") {
      // statements PostgreSQL cannot even plan (unknown function dblink, a data-modifying CTE inside Malloy's subquery) fail before running
      expect(r.body.message).toMatch(/does not exist|syntax error|WITH clause containing a data-modifying statement|read-only/);
    }
    expect(await canaryRows()).toBe(3);
  });

  test("a refused multi-statement is QUERY_NOT_ALLOWED", async () => {
    const r = await sqlQuery("SELECT 1 AS x; DROP TABLE canary");
    expect(r.body).toMatchObject({ code: "QUERY_NOT_ALLOWED" });
    expect(r.body.message).toContain("more than one statement");
  });

  test("pg_read_file and lo_import are QUERY_NOT_ALLOWED whatever the case", async () => {
    for (const sql of ["SELECT Pg_Read_File('/etc/passwd') AS x", "SELECT LO_IMPORT('/etc/passwd') AS x"]) {
      const r = await sqlQuery(sql);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("QUERY_NOT_ALLOWED");
    }
  });
});
