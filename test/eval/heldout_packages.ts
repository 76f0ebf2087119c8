/**
 * The held-out set's models: three public schemas not in the development
 * set (Olist Brazilian e-commerce, NYC TLC yellow taxi trips, the Stack
 * Overflow data dump), written as Malloy models of them would list their
 * fields: the schemas' own column names, a few `#(doc)` lines and `# label`
 * tags, as outside models have. Written with their questions
 * (test/eval/heldout_questions.ts) before any score was run on them.
 * @module
 */
import { evalPackage, type EvalPackage } from "./schema.ts";

const OLIST: EvalPackage = evalPackage("olist", "olist.malloy", "Olist: orders of a Brazilian e-commerce marketplace", {
  customers: {
    fields: ["customer_id s", "customer_unique_id s | Identifies a person across orders", "customer_zip_code_prefix s",
      "customer_city s = sao paulo; rio de janeiro; belo horizonte; brasilia; curitiba; campinas; porto alegre; salvador; guarulhos",
      "customer_state s = SP; RJ; MG; RS; PR; SC; BA; DF; GO; ES; PE; CE", "customer_count m"],
  },
  sellers: {
    fields: ["seller_id s", "seller_zip_code_prefix s",
      "seller_city s = sao paulo; curitiba; rio de janeiro; belo horizonte; ribeirao preto; guarulhos; ibitinga; santo andre; campinas",
      "seller_state s = SP; PR; MG; RJ; SC; RS; GO; DF; BA; ES", "seller_count m"],
  },
  category_translation: {
    fields: ["product_category_name s",
      "product_category_name_english s = health_beauty; computers_accessories; auto; bed_bath_table; furniture_decor; sports_leisure; perfumery; housewares; telephony; watches_gifts; toys; baby; stationery; food_drink"],
  },
  products: {
    joins: { category: "category_translation" },
    fields: ["product_id s",
      "product_category_name s = beleza_saude; informatica_acessorios; automotivo; cama_mesa_banho; moveis_decoracao; esporte_lazer; perfumaria; utilidades_domesticas; telefonia; relogios_presentes; brinquedos; bebes; papelaria; alimentos_bebidas",
      "product_name_lenght n", "product_description_lenght n", "product_photos_qty n", "product_weight_g n", "product_length_cm n",
      "product_height_cm n", "product_width_cm n", "product_count m", "avg_weight_g m"],
  },
  orders: {
    joins: { customers: "customers" },
    fields: ["order_id s", "customer_id s", "order_status s = delivered; shipped; canceled; unavailable; invoiced; processing; created; approved",
      "order_purchase_timestamp t", "order_approved_at t", "order_delivered_carrier_date t # label=\"Handed to carrier\"",
      "order_delivered_customer_date t", "order_estimated_delivery_date t", "order_count m", "delivered_order_count m",
      "late_delivery_count m | Delivered after the estimated delivery date", "avg_delivery_days m | Days from purchase to delivery at the customer",
      "orders_by_status v", "orders_by_month v"],
  },
  order_items: {
    joins: { orders: "orders", products: "products", sellers: "sellers" },
    fields: ["order_id s", "order_item_id n | Sequence of the item within the order", "product_id s", "seller_id s",
      "shipping_limit_date t | Deadline for the seller to hand the item to the carrier", "price n", "freight_value n # label=\"Shipping fee\"",
      "item_count m", "total_price m", "total_freight m", "avg_price m", "top_categories v", "top_sellers v"],
  },
  payments: {
    joins: { orders: "orders" },
    fields: ["order_id s", "payment_sequential n", "payment_type s = credit_card; boleto; voucher; debit_card; not_defined", "payment_installments n",
      "payment_value n", "payment_count m", "total_payment_value m", "avg_installments m", "payments_by_type v"],
  },
  reviews: {
    joins: { orders: "orders" },
    fields: ["review_id s", "order_id s", "review_score n | 1 to 5", "review_comment_title s", "review_comment_message s", "review_creation_date t",
      "review_answer_timestamp t", "review_count m", "avg_review_score m", "low_score_reviews m | Reviews scored 1 or 2"],
  },
  geolocation: {
    fields: ["geolocation_zip_code_prefix s", "geolocation_lat n", "geolocation_lng n", "geolocation_city s", "geolocation_state s"],
  },
});

const ZONES = "JFK Airport; LaGuardia Airport; Times Sq/Theatre District; Upper East Side North; Midtown Center; Central Park; East Harlem North; Williamsburg (North Side); Astoria; Park Slope";

const NYC_TAXI: EvalPackage = evalPackage("nyc_taxi", "taxi.malloy", "NYC TLC trip records", {
  taxi_zones: {
    fields: ["LocationID n", "Borough s = Manhattan; Brooklyn; Queens; Bronx; Staten Island; EWR; Unknown", `Zone s = ${ZONES}`,
      "service_zone s = Yellow Zone; Boro Zone; Airports; EWR", "zone_count m"],
  },
  trips: {
    doc: "Yellow taxi trip records",
    joins: { pickup_zone: "taxi_zones", dropoff_zone: "taxi_zones" },
    fields: ["VendorID n", "vendor_name s = Creative Mobile Technologies; VeriFone", "tpep_pickup_datetime t", "tpep_dropoff_datetime t",
      "passenger_count n", "trip_distance n # label=\"Trip distance (miles)\"", "RatecodeID n",
      "rate_code s = Standard rate; JFK; Newark; Nassau or Westchester; Negotiated fare; Group ride", "store_and_fwd_flag s = Y; N",
      "PULocationID n", "DOLocationID n", "payment_type n", "payment_type_name s = Credit card; Cash; No charge; Dispute; Unknown",
      "fare_amount n", "extra n", "mta_tax n", "tip_amount n", "tolls_amount n", "improvement_surcharge n", "total_amount n",
      "congestion_surcharge n", "airport_fee n", "trip_minutes n | Minutes from pickup to dropoff",
      "trip_count m", "total_fare m", "total_revenue m | Sum of total_amount", "avg_trip_distance m", "avg_tip m",
      "tip_percentage m | Tips as a share of the fare", "avg_trip_minutes m", "total_passengers m",
      "airport_trip_count m | Trips starting or ending at an airport zone", "trips_by_hour v", "trips_by_pickup_borough v", "busiest_zones v"],
  },
  fhv_trips: {
    doc: "For-hire vehicle trip records",
    joins: { pickup_zone: "taxi_zones" },
    fields: ["dispatching_base_num s", "pickup_datetime t", "dropOff_datetime t", "PUlocationID n", "DOlocationID n", "SR_Flag n",
      "Affiliated_base_number s", "fhv_trip_count m"],
  },
});

const TAGS = "python; javascript; java; c#; php; android; html; jquery; c++; css; sql; r";

const STACKOVERFLOW: EvalPackage = evalPackage("stackoverflow", "stackoverflow.malloy", "Stack Overflow public data dump", {
  users: {
    fields: ["id n", "display_name s", "reputation n", "up_votes n", "down_votes n", "views n | Profile views", "location s", "creation_date t",
      "last_access_date t", "about_me s", "website_url s", "user_count m", "avg_reputation m"],
  },
  questions: {
    doc: "Questions posted on Stack Overflow",
    joins: { owner: "users" },
    fields: ["id n", "title s", "body s", "accepted_answer_id n", "answer_count n", "comment_count n", "creation_date t", "favorite_count n",
      "last_activity_date t", "owner_user_id n", "score n", `tags s = ${TAGS}`, "view_count n", "question_count m",
      "unanswered_count m | Questions with no answer", "avg_score m", "total_views m", "questions_by_tag v", "questions_by_month v"],
  },
  answers: {
    joins: { question: "questions", owner: "users" },
    fields: ["id n", "body s", "parent_id n", "creation_date t", "owner_user_id n", "score n", "comment_count n", "answer_count m",
      "avg_answer_score m", "accepted_answer_count m"],
  },
  comments: {
    joins: { user: "users" },
    fields: ["id n", "post_id n", "text s", "score n", "user_id n", "creation_date t", "comment_count m"],
  },
  votes: {
    fields: ["id n", "post_id n", "vote_type_id n",
      "vote_type s = UpMod; DownMod; AcceptedByOriginator; Favorite; Close; Reopen; Spam; Offensive; Deletion; Bounty start",
      "creation_date d", "vote_count m"],
  },
  badges: {
    joins: { user: "users" },
    fields: ["id n",
      "name s = Teacher; Student; Editor; Supporter; Autobiographer; Commentator; Scholar; Popular Question; Nice Answer; Good Answer; Famous Question; Necromancer; Yearling",
      "user_id n", "date t", "class n | 1 gold, 2 silver, 3 bronze # label=\"Badge level\"", "tag_based b", "badge_count m"],
  },
  tags: {
    fields: [`tag_name s = ${TAGS}`, "count n | Number of questions with the tag", "excerpt_post_id n", "wiki_post_id n", "tag_count m"],
  },
});

/** All packages of the held-out set. */
export const HELDOUT_PACKAGES: EvalPackage[] = [OLIST, NYC_TAXI, STACKOVERFLOW];
