import { describe, expect, test } from "bun:test";
import { judgeFirstStep, SHAPE_SETS } from "./judge_shape.ts";
import type { EvalPackage } from "./schema.ts";
import { shapeProblems } from "./shape_format.ts";

const pkgOf = (name: string): EvalPackage => SHAPE_SETS.flatMap((s) => s.packages).find((p) => p.name === name)!;

// Hand-written first steps for questions of the tuning half: the right ones must be accepted,
// the wrong ones refused with the reason a reader would give.
const RIGHT: Array<[pkg: string, question: string, query: string]> = [
  ["tpch", "revenue by ship mode", "run: lineitem -> { group_by: l_shipmode; aggregate: revenue }"],
  ["tpch", "revenue from Europe", "run: lineitem -> { aggregate: revenue; where: orders.customer.nation.region.r_name = 'EUROPE' }"],
  ["tpch", "how many orders", "run: orders -> { aggregate: order_count }"],
  ["tpch", "how many orders", "run: lineitem -> { aggregate: orders.order_count }"],
  ["tpch", "how many orders", "run: orders -> { aggregate: n is count() }"],
  ["tpch", "how many orders", "run: lineitem -> { aggregate: n is orders.count() }"],
  ["tpch", "airmail shipments", "run: lineitem -> { where: l_shipmode ? 'AIR' | 'REG AIR'; select: l_orderkey, l_shipmode }"],
  ["tpch", "urgent orders", "run: orders -> { where: o_orderpriority ~ f'1-URGENT'; aggregate: order_count }"],
  ["tpch", "customer segment on line items", "run: lineitem -> { group_by: orders.customer.c_mktsegment; aggregate: revenue }"],
  ["tpch", "order date", "run: orders -> { group_by: o_orderdate }"],
  ["jaffle_shop", "customers by type", "run: customers -> customers_by_type"],
  ["jaffle_shop", "customers by type", "run: customers -> { group_by: customer_type; aggregate: customer_count }"],
  ["jaffle_shop", "how many food orders", "run: orders -> { where: is_food_order; aggregate: order_count }"],
  ["jaffle_shop", "order total of first orders", "run: first_orders -> { select: order_id, order_total }"],
  ["chinook", "sales per year", "run: invoices -> { group_by: InvoiceDate.year; aggregate: total_sales }"],
  ["chinook", "sales per year", "run: invoices -> { group_by: y is year(InvoiceDate); aggregate: total_sales }"],
  ["northwind", "best selling products", "run: OrderDetails -> { group_by: Products.ProductName; aggregate: sales; order_by: sales desc; limit: 10 }"],
  ["northwind", "products no longer sold", "run: Products -> { where: Discontinued = true; select: ProductName }"],
  ["sakila", "rentals by month", "run: rental -> { group_by: rental_date.month; aggregate: rental_count }"],
  ["sakila", "films with behind the scenes footage", "run: film -> { where: special_features ~ '%Behind the Scenes%'; select: title }"],
  ["movielens", "viewers", "run: users -> { select: * }"],
  // a source joining the same source twice: the shape names the join path (heldout6)
  ["ontime", "name of the destination airport", "run: flights -> { group_by: dest_airport.Description; aggregate: flight_count }"],
  // a column name with spaces, as the recalls CSV's header has (heldout9)
  ["auto_recalls", "recalls per year", "run: recalls -> { group_by: y is year(`Report Received Date`); aggregate: recall_count }"],
];

const WRONG: Array<[pkg: string, question: string, query: string, reason: string]> = [
  ["tpch", "revenue by ship mode", "run: lineitem -> { group_by: l_shipmode, l_extendedprice; aggregate: revenue }", "groups by lineitem.l_extendedprice"],
  ["tpch", "revenue by ship mode", "run: lineitem -> { group_by: l_shipmode; aggregate: lineitem_count }", "aggregates no lineitem.revenue"],
  ["tpch", "revenue from Europe", "run: lineitem -> { aggregate: revenue }", "no where on region.r_name=EUROPE"],
  ["tpch", "revenue from Europe", "run: lineitem -> { aggregate: revenue; where: orders.customer.nation.region.r_name = 'ASIA' }", "no where on region.r_name=EUROPE"],
  ["tpch", "how many orders", "run: orders -> { group_by: o_orderstatus; aggregate: order_count }", "one total"],
  ["tpch", "how many orders", "run: lineitem -> { aggregate: n is count() }", "aggregates no orders.order_count or count(orders)"],
  ["tpch", "airmail shipments", "run: lineitem -> { where: l_shipmode ? 'AIR' | 'RAIL'; select: l_orderkey }", "no where on lineitem.l_shipmode"],
  ["tpch", "customer segment on line items", "run: customer -> { group_by: c_mktsegment }", "runs on 'customer'"],
  ["jaffle_shop", "customers by type", "run: customers -> { group_by: customer_name; aggregate: customer_count }", "does not group by customers.customer_type"],
  ["jaffle_shop", "how many food orders", "run: orders -> { where: not is_food_order; aggregate: order_count }", "where not is_food_order is not asked for"],
  ["jaffle_shop", "order total of first orders", "run: orders -> { select: order_id, order_total }", "runs on 'orders'"],
  ["chinook", "sales per year", "run: invoices -> { group_by: InvoiceDate.month; aggregate: total_sales }", "does not group by invoices.InvoiceDate@year"],
  ["chinook", "sales per year", "run: invoices -> { group_by: m is month(InvoiceDate); aggregate: total_sales }", "groups by invoices.InvoiceDate@month_of_year"],
  ["chinook", "tracks by genre", "run: tracks -> { nest: tracks_by_genre }", "does not run tracks.tracks_by_genre"],
  ["northwind", "best selling products", "run: OrderDetails -> { group_by: Products.ProductName; aggregate: sales; order_by: ProductName; limit: 10 }", "not ordered by the measure desc"],
  ["northwind", "best selling products", "run: OrderDetails -> { group_by: Products.ProductName; aggregate: sales; order_by: sales desc }", "no limit"],
  ["northwind", "unit price of products", "run: OrderDetails -> { group_by: UnitPrice }", "does not show Products.UnitPrice"],
  ["sakila", "rentals by month", "run: rental -> { group_by: rental_date, rental_id; aggregate: rental_count }", "groups by rental.rental_id"],
  ["movielens", "comedies", "run: movies -> { where: primary_genre = 'Comedy', release_year > 2000; select: title }", "where release_year > 2000 is not asked for"],
  ["movielens", "how many users", "run: users -> { aggregate: user_count; where: gender = 'F' }", "is not asked for"],
  ["tpch", "how many orders", "run: orders -> { aggregate: no_such_measure }", "does not compile"],
  ["ontime", "name of the destination airport", "run: flights -> { group_by: origin_airport.Description }", "does not show flights.dest_airport.Description"],
  ["auto_recalls", "recalls per year", "run: recalls -> { group_by: `Report Received Date`.month; aggregate: recall_count }", "does not group by recalls.Report Received Date@year"],
];

describe("judgeFirstStep on the tuning half (and one heldout6 and one heldout9 question)", () => {
  test.each(RIGHT)("%s: %s is answered by %s", async (pkg, question, query) => {
    const verdict = await judgeFirstStep(pkgOf(pkg), question, query);
    expect(verdict.reasons).toEqual([]);
    expect(verdict.answers).toBe(true);
  });
  test.each(WRONG)("%s: %s is not answered by %s", async (pkg, question, query, reason) => {
    const verdict = await judgeFirstStep(pkgOf(pkg), question, query);
    expect(verdict.answers).toBe(false);
    expect(verdict.reasons.join(" / ")).toContain(reason);
  });
  test("a question without a shape is an error, not a verdict", () => {
    expect(() => judgeFirstStep(pkgOf("tpch"), "no such question", "run: orders -> { aggregate: order_count }")).toThrow("no expected shape");
  });
});

describe("the shapes", () => {
  test("the check finds names a package lacks", () => {
    expect(shapeProblems(pkgOf("tpch"), "measure: lineitem.l_quantity; group: orders.o_clerk@month; filter: region.r_name=EUROPA || view: orders.by_month; source: nowhere")).toEqual([
      "measure: 'lineitem.l_quantity' is a dimension, not a measure",
      "group: grain 'month' on 'orders.o_clerk' (string)",
      "filter: 'EUROPA' is not a listed value of 'region.r_name'",
      "no source 'nowhere'",
      "view: no field 'orders.by_month'",
    ]);
    expect(shapeProblems(pkgOf("jaffle_shop"), "field: first_orders.order_total")).toEqual(["field: write 'orders.order_total' for 'first_orders.order_total' (its own source)"]);
  });
  test.each(SHAPE_SETS.map((s) => [s.name, s] as const))("%s: one shape per question, naming only what its package has", (_name, set) => {
    const keys = new Set(set.questions.map((q) => `${q.pkg} | ${q.question}`));
    expect([...keys].filter((k) => !set.shapes.has(k))).toEqual([]);
    expect([...set.shapes.keys()].filter((k) => !keys.has(k))).toEqual([]);
    const problems: string[] = [];
    for (const [key, shape] of set.shapes) {
      const pkg = set.packages.find((p) => p.name === key.split(" | ")[0]);
      if (!pkg) { problems.push(`${key}: unknown package`); continue; }
      for (const p of shapeProblems(pkg, shape)) problems.push(`${key}: ${p}`);
    }
    expect(problems).toEqual([]);
  });
});
