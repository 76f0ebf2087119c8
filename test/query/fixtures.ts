/**
 * The shop package of the query tests: orders in CSV, customers in Parquet
 * (written here by an unrestricted in-memory DuckDB), a model with `#(doc)`,
 * a join, a view and a named top-level query.
 * @module
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { bytes } from "../fixtures/engine_package.ts";

/** Orders: 10 rows. */
export const ORDERS_CSV = `id,customer_id,amount,status,ordered_on
1,1,10.5,shipped,2024-01-01
2,1,20,shipped,2024-01-02
3,2,5,cancelled,2024-01-02
4,2,7.25,shipped,2024-01-03
5,3,100,pending,2024-01-04
6,3,50,shipped,2024-01-05
7,4,12,pending,2024-01-06
8,4,8,shipped,2024-01-07
9,1,30,cancelled,2024-01-08
10,2,2.75,shipped,2024-01-09
`;

/** The shop model. */
export const SHOP_MODEL = `#(doc) Orders of the shop
source: orders is duckdb.table('data/orders.csv') extend {
  primary_key: id

  #(doc) Revenue in dollars
  measure: revenue is amount.sum()
  measure: order_count is count()

  join_one: customers is duckdb.table('data/customers.parquet') on customer_id = customers.id

  #(doc) Orders and revenue per region
  view: by_region is {
    group_by: customers.region
    aggregate: order_count, revenue
    order_by: region
  }
}

#(doc) Orders per status
query: by_status is orders -> {
  group_by: status
  aggregate: order_count
  order_by: status
}
`;

/** Rows of the view `by_region`. */
export const BY_REGION = [
  { region: "east", order_count: 5, revenue: 210.5 },
  { region: "north", order_count: 3, revenue: 15 },
  { region: "west", order_count: 2, revenue: 20 },
];

/** Rows of the named query `by_status`. */
export const BY_STATUS = [
  { status: "cancelled", order_count: 2 },
  { status: "pending", order_count: 2 },
  { status: "shipped", order_count: 6 },
];

/** Writes the result of a SQL query as Parquet with an in-memory DuckDB. */
export async function parquetOf(select: string): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), "query-parquet-"));
  const path = join(dir, "out.parquet");
  const instance = await DuckDBInstance.create(":memory:", { autoinstall_known_extensions: "false", autoload_known_extensions: "false" });
  const connection = await instance.connect();
  try {
    await connection.run(`COPY (${select}) TO '${path}' (FORMAT parquet)`);
    return new Uint8Array(await readFile(path));
  } finally {
    connection.closeSync();
    instance.closeSync();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The files of the shop package; `model` replaces the model text (e.g. for a second version). */
export async function shopFiles(options: { model?: string } = {}): Promise<Map<string, Uint8Array>> {
  const customers = await parquetOf(
    "SELECT * FROM (VALUES (1, 'Ada', 'east'), (2, 'Bo', 'north'), (3, 'Cy', 'east'), (4, 'Di', 'west')) AS t(id, name, region)",
  );
  return new Map<string, Uint8Array>([
    ["publisher.json", bytes(JSON.stringify({ name: "shop", description: "the shop" }))],
    ["models/shop.malloy", bytes(options.model ?? SHOP_MODEL)],
    ["data/orders.csv", bytes(ORDERS_CSV)],
    ["data/customers.parquet", customers],
  ]);
}
