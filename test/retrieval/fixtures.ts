/**
 * A small e-commerce package for the retrieval tests: Malloy models with
 * `#(doc)` and `#(index)` annotations over CSV data generated here.
 * @module
 */
import { bytes } from "../fixtures/engine_package.ts";

function rows(n: number, make: (i: number) => unknown[]): string {
  return Array.from({ length: n }, (_, i) => make(i).join(",")).join("\n");
}

const CARRIERS = ["DHL", "UPS", "FedEx", "DHL", "DHL", "UPS"];
const METHODS = ["card", "paypal", "card", "bank transfer", "card"];
const STATUSES = ["delivered", "shipped", "pending", "delivered", "cancelled", "returned", "delivered"];

/** `shipments.csv`: one row per parcel. */
export const SHIPMENTS_CSV = "shipment_id,carrier_name,promised_dt,delivered_dt,delay_days,ship_cost\n" +
  rows(60, (i) => [`S${i}`, CARRIERS[i % CARRIERS.length], "2024-01-0" + ((i % 9) + 1), "2024-01-1" + (i % 10), (i * 7) % 5 - 1, 5 + (i % 4)]);

/** `orders.csv`: one row per order. */
export const ORDERS_CSV = "order_id,order_dt,order_status,payment_method,amount\n" +
  rows(80, (i) => [`O${i}`, "2024-02-" + String((i % 27) + 1).padStart(2, "0"), STATUSES[i % STATUSES.length], METHODS[i % METHODS.length], 10 + i]);

/** The shipments model (`fieldRename` renames the delay measure, for version tests). */
export function shipmentsModel(options: { delayMeasure?: string } = {}): string {
  const delay = options.delayMeasure ?? "avg_delivery_delay";
  return `#(doc) Parcels sent to customers
source: shipments is duckdb.table('data/shipments.csv') extend {
  #(doc) Parcel carrier company
  #(index)
  dimension: carrier is carrier_name

  #(doc) Date the parcel was promised to arrive
  dimension: promised_date is promised_dt

  #(doc) True when the parcel arrived after the promised date
  dimension: is_late is delay_days > 0

  #(doc) Average number of days between the promised and the actual delivery date
  measure: ${delay} is delay_days.avg()

  #(doc) Share of parcels delivered after the promised date
  measure: late_shipment_pct is count() { where: delay_days > 0 } / count()

  #(doc) Total postage paid to carriers
  measure: shipping_cost is ship_cost.sum()

  measure: shipment_count is count()

  #(doc) Delay per carrier
  view: delays_by_carrier is { group_by: carrier; aggregate: ${delay} }
}
`;
}

/** The orders model. */
export const ORDERS_MODEL = `#(doc) Web shop orders
source: orders is duckdb.table('data/orders.csv') extend {
  #(doc) pending, shipped, delivered, cancelled or returned
  #(index)
  dimension: status is order_status

  #(doc) How the customer paid
  #(index)
  dimension: pay_method is payment_method

  #(doc) Date the order was placed
  dimension: ordered_on is order_dt

  measure: order_count is count()

  #(doc) Sum of order amounts
  measure: gross_revenue is amount.sum()

  #(doc) Share of orders sent back by the customer
  measure: return_rate is count() { where: order_status = 'returned' } / count()
}
`;

/** The files of the e-commerce package. */
export function ecommerceFiles(options: { delayMeasure?: string } = {}): Map<string, Uint8Array> {
  return new Map([
    ["publisher.json", bytes(JSON.stringify({ name: "ecommerce", description: "web shop" }))],
    ["models/shipments.malloy", bytes(shipmentsModel(options))],
    ["models/orders.malloy", bytes(ORDERS_MODEL)],
    ["data/shipments.csv", bytes(SHIPMENTS_CSV)],
    ["data/orders.csv", bytes(ORDERS_CSV)],
  ]);
}
