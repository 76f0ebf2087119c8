/**
 * Three realistic Malloy packages, written as the metadata `modelMetadata()`
 * extracts (field names and `#(doc)` text as modelers write them), plus the
 * indexed values of their `#(index)` dimensions. Used by the retrieval
 * benchmark and tests.
 * @module
 */
import type { FieldMetadata, ModelMetadata, SourceMetadata } from "../../src/engine/compile/metadata.ts";

/** A benchmark package: its models and indexed values by `source.field`. */
export interface BenchPackage {
  name: string;
  models: ModelMetadata[];
  values: Record<string, string[]>;
}

/** A dimension. */
export function dim(name: string, dataType: string, description?: string, indexed = false): FieldMetadata {
  return { name, path: name, fieldType: "dimension", dataType, description, indexed, joinPath: [] };
}

/** A measure. */
export function msr(name: string, description?: string): FieldMetadata {
  return { name, path: name, fieldType: "measure", dataType: "number", description, indexed: false, joinPath: [] };
}

/** A view. */
export function view(name: string, description?: string): FieldMetadata {
  return { name, path: name, fieldType: "view", dataType: "view", description, indexed: false, joinPath: [] };
}

/** A source from its fields (sorted into dimensions, measures, views). */
export function source(name: string, description: string | undefined, fields: FieldMetadata[]): SourceMetadata {
  return {
    name,
    description,
    connection: "duckdb",
    dimensions: fields.filter((f) => f.fieldType === "dimension"),
    measures: fields.filter((f) => f.fieldType === "measure"),
    views: fields.filter((f) => f.fieldType === "view"),
    joins: [],
  };
}

/** E-commerce: orders, shipments, customers, products. */
export const ECOMMERCE: BenchPackage = {
  name: "ecommerce",
  models: [{
    modelPath: "orders.malloy",
    description: "Online store sales",
    sources: [
      source("orders", "One row per customer order placed on the web shop", [
        dim("order_id", "string", "Order number shown to the customer"),
        dim("order_dt", "date", "Date the order was placed"),
        dim("order_status", "string", "pending, paid, shipped, delivered, cancelled or returned", true),
        dim("cust_id", "string"),
        dim("ship_country", "string", "Destination country of the order", true),
        dim("payment_method", "string", "card, paypal, bank transfer or gift card", true),
        dim("sales_channel", "string", "web, mobile app or marketplace", true),
        dim("coupon_code", "string", "Promotion code applied at checkout"),
        dim("discount_pct", "number", "Discount applied to the order, 0-100"),
        dim("total_amt", "number", "Order total in EUR including VAT"),
        msr("order_count", "Number of orders"),
        msr("gross_revenue", "Sum of order totals including VAT"),
        msr("net_revenue", "Order totals after discounts and refunds, excluding VAT"),
        msr("avg_order_value", "Average order total"),
        msr("return_rate", "Share of orders that were returned"),
        msr("cancel_rate", "Share of orders cancelled before shipping"),
        view("sales_by_month", "Orders and revenue per month"),
        view("top_countries", "Countries ranked by revenue"),
        view("channel_mix", "Orders per sales channel"),
      ]),
      source("shipments", "Parcels handed to carriers; one order can ship in several parcels", [
        dim("shipment_id", "string"),
        dim("carrier_nm", "string", "Parcel carrier (DHL, UPS, ...)", true),
        dim("warehouse", "string", "Fulfilment center the parcel left from", true),
        dim("shipped_at", "timestamp", "When the parcel was handed to the carrier"),
        dim("delivered_at", "timestamp", "Delivery scan time"),
        dim("promised_dt", "date", "Delivery date promised at checkout"),
        dim("delivery_delay_days", "number", "Days between promised date and actual delivery; negative when early"),
        dim("pkg_weight_kg", "number", "Parcel weight"),
        dim("is_late", "boolean", "Delivered after the promised date"),
        msr("shipment_count", "Number of parcels"),
        msr("avg_delivery_delay", "Average delay in days against the promised date"),
        msr("late_shipment_pct", "Percent of parcels delivered after the promised date"),
        msr("avg_transit_hrs", "Average hours from handover to delivery"),
        msr("shipping_cost", "Total postage paid to carriers"),
        view("delays_by_carrier", "Average delay and late share per carrier"),
        view("warehouse_throughput", "Parcels shipped per warehouse per week"),
      ]),
      source("customers", "Registered shop accounts", [
        dim("cust_id", "string"),
        dim("cust_name", "string", "Full name"),
        dim("email_domain", "string"),
        dim("signup_dt", "date", "Account creation date"),
        dim("loyalty_tier", "string", "bronze, silver, gold", true),
        dim("home_region", "string", "Sales region of the billing address", true),
        dim("birth_yr", "number"),
        msr("customer_count", "Number of customers"),
        msr("avg_ltv", "Average lifetime value: revenue per customer since signup"),
        msr("repeat_buyer_pct", "Share of customers with more than one order"),
        view("cohorts", "Customers by signup month with their later spend"),
      ]),
      source("products", "Catalogue items", [
        dim("sku", "string"),
        dim("prod_name", "string", undefined, true),
        dim("category", "string", "Top level catalogue category", true),
        dim("brand", "string", undefined, true),
        dim("unit_price", "number", "List price in EUR"),
        dim("stock_qty", "number", "Units on hand across warehouses"),
        dim("supplier_nm", "string"),
        msr("product_count"),
        msr("units_sold", "Quantity sold"),
        msr("avg_margin_pct", "Average gross margin percent"),
        msr("stockout_count", "Products with zero stock"),
        view("best_sellers", "Products by units sold"),
      ]),
    ],
    queries: [
      { name: "monthly_revenue", description: "Net revenue per month for the finance report", sourceName: "orders" },
      { name: "late_parcels_last_week", sourceName: "shipments" },
    ],
  }],
  values: {
    "orders.order_status": ["pending", "paid", "shipped", "delivered", "cancelled", "returned"],
    "orders.ship_country": ["Germany", "France", "Netherlands", "Spain", "Italy", "Austria", "Belgium", "Poland"],
    "orders.payment_method": ["card", "paypal", "bank transfer", "gift card", "klarna"],
    "orders.sales_channel": ["web", "mobile app", "marketplace"],
    "shipments.carrier_nm": ["DHL", "UPS", "DPD", "Hermes", "GLS", "PostNL"],
    "shipments.warehouse": ["Leipzig", "Rotterdam", "Lyon"],
    "customers.loyalty_tier": ["bronze", "silver", "gold"],
    "customers.home_region": ["DACH", "Benelux", "Nordics", "Southern Europe", "Eastern Europe"],
    "products.category": ["shoes", "outerwear", "accessories", "kids", "sportswear"],
    "products.brand": ["Adidas", "Nike", "Vaude", "Jack Wolfskin"],
    "products.prod_name": ["Trail Runner 2", "Rain Jacket Pro", "Wool Beanie", "Kids Parka"],
  },
};

/** Flights: flights, airports, aircraft. */
export const FLIGHTS: BenchPackage = {
  name: "faa",
  models: [{
    modelPath: "flights.malloy",
    description: "US domestic flights (FAA)",
    sources: [
      source("flights", "One row per scheduled flight leg", [
        dim("carrier", "string", "Two-letter airline code", true),
        dim("origin", "string", "Departure airport code", true),
        dim("destination", "string", "Arrival airport code", true),
        dim("dep_time", "timestamp", "Scheduled departure"),
        dim("arr_time", "timestamp"),
        dim("dep_delay", "number", "Minutes late at departure"),
        dim("arr_delay", "number", "Minutes late at arrival"),
        dim("distance", "number", "Miles flown"),
        dim("tail_num", "string", "Aircraft registration"),
        dim("flight_num", "string"),
        dim("cancelled", "boolean"),
        dim("diverted", "boolean", "Landed somewhere other than the destination"),
        dim("taxi_out", "number", "Minutes from gate to takeoff"),
        msr("flight_count", "Number of flights"),
        msr("total_distance"),
        msr("avg_arr_delay", "Average arrival delay in minutes"),
        msr("on_time_pct", "Share of flights arriving within 15 minutes of schedule"),
        msr("cancellation_rate"),
        msr("seats_flown", "Sum of aircraft seats over flights"),
        view("by_carrier", "Flights and distance per carrier"),
        view("by_month", "Flight counts per month"),
        view("route_summary", "Top origin-destination pairs"),
        view("delay_dashboard", "Delay statistics by carrier and airport"),
      ]),
      source("airports", "Airports and heliports from the FAA registry", [
        dim("code", "string", "Three-letter airport code", true),
        dim("full_name", "string"),
        dim("city", "string", undefined, true),
        dim("state", "string", "Two-letter state", true),
        dim("faa_region", "string", undefined, true),
        dim("fac_type", "string", "Facility type: AIRPORT, HELIPORT, SEAPLANE BASE", true),
        dim("elevation", "number", "Feet above sea level"),
        dim("latitude", "number"),
        dim("longitude", "number"),
        msr("airport_count"),
        msr("avg_elevation"),
        view("by_state", "Airports per state"),
      ]),
      source("aircraft", "Registered aircraft", [
        dim("tail_num", "string"),
        dim("mfr_name", "string", undefined, true),
        dim("model_name", "string"),
        dim("year_built", "number"),
        dim("seats", "number"),
        dim("engine_type", "string", "Turbo-fan, turbo-jet, reciprocating", true),
        dim("aircraft_age", "number", "Years since built"),
        msr("aircraft_count"),
        msr("avg_seats"),
        view("fleet_by_mfr", "Aircraft count per manufacturer"),
      ]),
    ],
    queries: [
      { name: "carrier_league_table", description: "Carriers ranked by on-time performance", sourceName: "flights" },
      { name: "busiest_routes", sourceName: "flights" },
    ],
  }],
  values: {
    "flights.carrier": ["AA", "UA", "DL", "WN", "B6", "AS", "NK"],
    "flights.origin": ["JFK", "LAX", "ORD", "ATL", "SFO", "DFW", "SEA", "BOS"],
    "flights.destination": ["JFK", "LAX", "ORD", "ATL", "SFO", "DFW", "SEA", "BOS"],
    "airports.code": ["JFK", "LAX", "ORD", "ATL", "SFO", "DFW", "SEA", "BOS"],
    "airports.city": ["New York", "Los Angeles", "Chicago", "Atlanta", "San Francisco", "Dallas", "Seattle", "Boston"],
    "airports.state": ["NY", "CA", "IL", "GA", "TX", "WA", "MA"],
    "airports.faa_region": ["AEA", "AWP", "AGL", "ASO", "ASW", "ANM", "ANE"],
    "airports.fac_type": ["AIRPORT", "HELIPORT", "SEAPLANE BASE", "GLIDERPORT"],
    "aircraft.mfr_name": ["BOEING", "AIRBUS", "EMBRAER", "BOMBARDIER", "CESSNA"],
    "aircraft.engine_type": ["Turbo-fan", "Turbo-jet", "Reciprocating", "Turbo-prop"],
  },
};

/** HR: employees, departments, absences, recruiting. */
export const HR: BenchPackage = {
  name: "people",
  models: [{
    modelPath: "hr.malloy",
    description: "People analytics",
    sources: [
      source("employees", "Current and former staff, one row per employment", [
        dim("emp_id", "string"),
        dim("full_nm", "string"),
        dim("hire_dt", "date", "First day of employment"),
        dim("term_dt", "date", "Last day; null while employed"),
        dim("term_reason", "string", "voluntary, dismissal, retirement, end of contract", true),
        dim("dept_name", "string", undefined, true),
        dim("job_title", "string", undefined, true),
        dim("job_level", "string", "IC1-IC6, M1-M4", true),
        dim("mgr_id", "string", "Employee id of the line manager"),
        dim("base_salary", "number", "Annual base pay in USD"),
        dim("bonus_amt", "number", "Last annual bonus in USD"),
        dim("gender", "string", undefined, true),
        dim("office_loc", "string", "Office city", true),
        dim("is_remote", "boolean", "Works fully remote"),
        dim("perf_rating", "number", "Last review score 1-5"),
        dim("tenure_yrs", "number", "Years since hire date"),
        msr("headcount", "Active employees"),
        msr("avg_salary", "Average base salary"),
        msr("total_payroll", "Sum of base salary and bonus"),
        msr("attrition_rate", "Leavers in the period divided by average headcount"),
        msr("avg_tenure", "Average years of service"),
        msr("new_hires", "Employees hired in the period"),
        view("headcount_by_dept", "Active headcount per department"),
        view("attrition_by_quarter", "Leavers and attrition rate per quarter"),
        view("pay_equity", "Average salary by gender and job level"),
      ]),
      source("departments", "Org units", [
        dim("dept_name", "string", undefined, true),
        dim("cost_center", "string"),
        dim("division", "string", undefined, true),
        dim("dept_head", "string", "Name of the department head"),
        dim("budget_usd", "number", "Annual budget"),
        msr("dept_count"),
        msr("total_budget"),
      ]),
      source("absences", "Leave and sick days booked in the HR system", [
        dim("emp_id", "string"),
        dim("absence_type", "string", "sick, vacation, parental, unpaid", true),
        dim("start_dt", "date"),
        dim("end_dt", "date"),
        dim("days_absent", "number", "Working days"),
        msr("absence_days", "Total working days absent"),
        msr("sick_day_rate", "Sick days per employee per year"),
        view("absence_by_type"),
      ]),
      source("requisitions", "Open and filled job openings", [
        dim("req_id", "string"),
        dim("opened_dt", "date"),
        dim("filled_dt", "date"),
        dim("hiring_mgr", "string"),
        dim("req_status", "string", "open, on hold, filled, cancelled", true),
        dim("applicant_cnt", "number", "Applications received"),
        msr("open_reqs", "Requisitions still open"),
        msr("avg_time_to_fill", "Average days from opening to accepted offer"),
        msr("offer_accept_rate", "Offers accepted divided by offers made"),
        view("pipeline_by_dept", "Open requisitions per department"),
      ]),
    ],
    queries: [
      { name: "quarterly_attrition", description: "Attrition per quarter for the board deck", sourceName: "employees" },
    ],
  }],
  values: {
    "employees.term_reason": ["voluntary", "dismissal", "retirement", "end of contract"],
    "employees.dept_name": ["Engineering", "Sales", "Marketing", "Finance", "Customer Support", "Legal"],
    "employees.job_title": ["Software Engineer", "Account Executive", "Support Agent", "Data Analyst", "Recruiter"],
    "employees.job_level": ["IC1", "IC2", "IC3", "IC4", "M1", "M2"],
    "employees.gender": ["female", "male", "non-binary"],
    "employees.office_loc": ["Berlin", "London", "New York", "Singapore"],
    "departments.dept_name": ["Engineering", "Sales", "Marketing", "Finance", "Customer Support", "Legal"],
    "departments.division": ["Product", "Go To Market", "G&A"],
    "absences.absence_type": ["sick", "vacation", "parental", "unpaid"],
    "requisitions.req_status": ["open", "on hold", "filled", "cancelled"],
  },
};

/** All benchmark packages. */
export const BENCH_PACKAGES: BenchPackage[] = [ECOMMERCE, FLIGHTS, HR];
