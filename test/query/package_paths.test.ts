/**
 * Paths a query sees are the package's files as its author wrote them:
 * `read_csv('data/orders.csv', filename=true)` and `glob('data/*')` answered
 * `<DATA_DIR>/packages/<sha256>/data/orders.csv`, the server's own folder.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SALES_MODEL, SALES_QUERY, type SalesWorld, startSalesWorld } from "../rls/world.ts";

const MODEL = `${SALES_MODEL}
source: files is duckdb.sql("""select file, 'in ' || file as said from glob('data/*')""")
`;

let w: SalesWorld;
beforeAll(async () => {
  w = await startSalesWorld({}, { model: MODEL });
}, 300_000);
afterAll(() => w?.s.close());

const q = (token: string, query: string) => w.s.call("POST", SALES_QUERY, { token, body: { query } });

describe("file paths in rows", () => {
  test("read_csv's filename column and glob() name package-relative files (admin, querying the connection)", async () => {
    const named = await q(w.admin, `run: duckdb.sql("""select distinct filename from read_csv('data/orders.csv', filename=true)""") -> { select: filename }`);
    expect([named.status, named.body.data]).toEqual([200, [{ filename: "data/orders.csv" }]]);
    const globbed = await q(w.admin, `run: duckdb.sql("""select file from glob('data/*')""") -> { select: file; order_by: file }`);
    expect(globbed.body.data).toEqual([{ file: "data/orders.csv" }, { file: "data/payroll.csv" }]);
  });

  test("a model's source over glob(): a viewer reads package-relative paths, also inside longer strings", async () => {
    const r = await q(w.ann, "run: files -> { select: file, said; order_by: file }");
    expect([r.status, r.body.data]).toEqual([200, [{ file: "data/orders.csv", said: "in data/orders.csv" }, { file: "data/payroll.csv", said: "in data/payroll.csv" }]]);
    expect(JSON.stringify(r.body)).not.toContain("/packages/");
  });
});
