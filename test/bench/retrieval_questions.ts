/**
 * Labelled questions for the retrieval benchmark, written as users ask them,
 * before any tuning. Each names the package and one or more acceptable
 * targets as `source.name` (or `source` for a source, `query:name` for a
 * named query). A question counts as a hit at k when any target is among the
 * top k entities of the merged ranking.
 * @module
 */

/** One labelled question. */
export interface BenchQuestion {
  pkg: string;
  question: string;
  targets: string[];
}

/** The question set. */
export const QUESTIONS: BenchQuestion[] = [
  // ecommerce
  { pkg: "ecommerce", question: "What is the average delivery delay by carrier?", targets: ["shipments.avg_delivery_delay", "shipments.delays_by_carrier"] },
  { pkg: "ecommerce", question: "how many orders did we get last month", targets: ["orders.order_count"] },
  { pkg: "ecommerce", question: "revenue by country", targets: ["orders.gross_revenue", "orders.net_revenue", "orders.top_countries"] },
  { pkg: "ecommerce", question: "which parcels arrived too late", targets: ["shipments.is_late", "shipments.late_shipment_pct"] },
  { pkg: "ecommerce", question: "show avg_order_value per sales channel", targets: ["orders.avg_order_value"] },
  { pkg: "ecommerce", question: "orders paid with paypal", targets: ["orders.payment_method"] },
  { pkg: "ecommerce", question: "how much do we spend on postage", targets: ["shipments.shipping_cost"] },
  { pkg: "ecommerce", question: "what fraction of purchases get sent back", targets: ["orders.return_rate"] },
  { pkg: "ecommerce", question: "tardy shipments percentage", targets: ["shipments.late_shipment_pct"] },
  { pkg: "ecommerce", question: "which items are selling best", targets: ["products.best_sellers", "products.units_sold"] },
  { pkg: "ecommerce", question: "customer lifetime value by loyalty tier", targets: ["customers.avg_ltv"] },
  { pkg: "ecommerce", question: "how long does it take a package to reach the buyer", targets: ["shipments.avg_transit_hrs", "shipments.avg_delivery_delay", "shipments.delivery_delay_days"] },
  { pkg: "ecommerce", question: "orders shipped to Germany", targets: ["orders.ship_country"] },
  { pkg: "ecommerce", question: "profitability of goods", targets: ["products.avg_margin_pct"] },
  { pkg: "ecommerce", question: "number of clients", targets: ["customers.customer_count"] },
  { pkg: "ecommerce", question: "inventory on hand", targets: ["products.stock_qty"] },
  { pkg: "ecommerce", question: "when did people register", targets: ["customers.signup_dt"] },
  { pkg: "ecommerce", question: "sales trend over time", targets: ["orders.sales_by_month", "query:monthly_revenue"] },
  { pkg: "ecommerce", question: "Adidas units sold", targets: ["products.brand", "products.units_sold"] },
  { pkg: "ecommerce", question: "customers who come back and purchase again", targets: ["customers.repeat_buyer_pct"] },

  // flights
  { pkg: "faa", question: "flight_count by origin", targets: ["flights.flight_count"] },
  { pkg: "faa", question: "which airline is most punctual", targets: ["flights.on_time_pct", "query:carrier_league_table"] },
  { pkg: "faa", question: "average arrival delay per carrier", targets: ["flights.avg_arr_delay"] },
  { pkg: "faa", question: "how far do planes fly in total", targets: ["flights.total_distance"] },
  { pkg: "faa", question: "flights departing from JFK", targets: ["flights.origin"] },
  { pkg: "faa", question: "how many airports are in each state", targets: ["airports.by_state", "airports.airport_count"] },
  { pkg: "faa", question: "which airports sit highest above sea level", targets: ["airports.elevation", "airports.avg_elevation"] },
  { pkg: "faa", question: "share of trips that got called off", targets: ["flights.cancellation_rate", "flights.cancelled"] },
  { pkg: "faa", question: "who builds the planes", targets: ["aircraft.mfr_name", "aircraft.fleet_by_mfr"] },
  { pkg: "faa", question: "how old is the fleet", targets: ["aircraft.aircraft_age", "aircraft.year_built"] },
  { pkg: "faa", question: "most popular routes", targets: ["flights.route_summary", "query:busiest_routes"] },
  { pkg: "faa", question: "helicopter landing sites in Texas", targets: ["airports.fac_type", "airports.state"] },
  { pkg: "faa", question: "capacity: how many passengers could we carry", targets: ["flights.seats_flown", "aircraft.seats", "aircraft.avg_seats"] },
  { pkg: "faa", question: "time spent on the runway before takeoff", targets: ["flights.taxi_out"] },
  { pkg: "faa", question: "planes that landed at an unplanned airport", targets: ["flights.diverted"] },
  { pkg: "faa", question: "number of aircraft by engine type", targets: ["aircraft.aircraft_count"] },

  // hr
  { pkg: "people", question: "headcount by department", targets: ["employees.headcount", "employees.headcount_by_dept"] },
  { pkg: "people", question: "average salary by gender", targets: ["employees.avg_salary", "employees.pay_equity"] },
  { pkg: "people", question: "staff turnover per quarter", targets: ["employees.attrition_rate", "employees.attrition_by_quarter", "query:quarterly_attrition"] },
  { pkg: "people", question: "how much do we pay our people in total", targets: ["employees.total_payroll"] },
  { pkg: "people", question: "who quit voluntarily", targets: ["employees.term_reason"] },
  { pkg: "people", question: "how long have employees been with the company", targets: ["employees.avg_tenure", "employees.tenure_yrs"] },
  { pkg: "people", question: "workers based in Berlin", targets: ["employees.office_loc"] },
  { pkg: "people", question: "who works from home", targets: ["employees.is_remote"] },
  { pkg: "people", question: "sick leave per person", targets: ["absences.sick_day_rate", "absences.absence_type"] },
  { pkg: "people", question: "how many vacancies are unfilled", targets: ["requisitions.open_reqs"] },
  { pkg: "people", question: "how quickly do we recruit", targets: ["requisitions.avg_time_to_fill"] },
  { pkg: "people", question: "candidates accepting our job proposals", targets: ["requisitions.offer_accept_rate"] },
  { pkg: "people", question: "employee appraisal scores", targets: ["employees.perf_rating"] },
  { pkg: "people", question: "who reports to whom", targets: ["employees.mgr_id"] },
  { pkg: "people", question: "yearly spending allowance of each team", targets: ["departments.budget_usd", "departments.total_budget"] },
  { pkg: "people", question: "recently onboarded staff", targets: ["employees.new_hires", "employees.hire_dt"] },
  { pkg: "people", question: "bonus_amt by job_level", targets: ["employees.bonus_amt"] },
  { pkg: "people", question: "compensation fairness between men and women", targets: ["employees.pay_equity"] },
];

/**
 * Held-out questions, written before the recall work on compound splitting
 * and multi-hop lexicon relations, and never used to tune it: recall on them
 * is reported separately to show whether a change generalizes.
 */
export const HELD_OUT_QUESTIONS: BenchQuestion[] = [
  // ecommerce
  { pkg: "ecommerce", question: "typical basket size in euros", targets: ["orders.avg_order_value", "orders.total_amt"] },
  { pkg: "ecommerce", question: "how heavy are the boxes", targets: ["shipments.pkg_weight_kg"] },
  { pkg: "ecommerce", question: "promo codes used at checkout", targets: ["orders.coupon_code"] },
  { pkg: "ecommerce", question: "clients' email providers", targets: ["customers.email_domain"] },
  { pkg: "ecommerce", question: "price of each item", targets: ["products.unit_price"] },
  { pkg: "ecommerce", question: "which shipping company handles the most parcels", targets: ["shipments.carrier_nm", "shipments.delays_by_carrier"] },
  // flights
  { pkg: "faa", question: "when do planes leave", targets: ["flights.dep_time"] },
  { pkg: "faa", question: "map coordinates of each airfield", targets: ["airports.latitude", "airports.longitude"] },
  { pkg: "faa", question: "late departures by airline", targets: ["flights.dep_delay", "flights.delay_dashboard"] },
  { pkg: "faa", question: "miles travelled per trip", targets: ["flights.distance", "flights.total_distance"] },
  { pkg: "faa", question: "how many seats does each plane have", targets: ["aircraft.seats", "aircraft.avg_seats"] },
  // hr
  { pkg: "people", question: "time off taken per worker", targets: ["absences.absence_days", "absences.days_absent", "absences.sick_day_rate"] },
  { pkg: "people", question: "seniority grade of staff", targets: ["employees.job_level"] },
  { pkg: "people", question: "who is in charge of each department", targets: ["departments.dept_head"] },
  { pkg: "people", question: "number of job applications received", targets: ["requisitions.applicant_cnt"] },
  { pkg: "people", question: "people who left the company", targets: ["employees.term_dt", "employees.term_reason", "employees.attrition_rate"] },
];
