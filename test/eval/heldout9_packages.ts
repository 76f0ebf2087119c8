/**
 * The ninth held-out set's models: four models written by Malloy's own
 * authors in the public repository malloydata/malloy-samples (snapshot
 * bff195e, 2026-04-29), transcribed as their metadata would list them, on
 * subjects no other set uses: ecommerce/ecommerce.malloy (a fictitious
 * clothing store: users, product, inventory_items, order_items and the
 * derived user_order_facts, over the four `*_table` sources they extend),
 * names/names.malloy (US baby names by state, gender and year: names, the
 * derived cohort, and names2 joining them), auto_recalls/auto_recalls.malloy
 * (NHTSA vehicle recalls from a CSV, column names with spaces) and
 * bigquery/the_met/the_met.malloy (the Metropolitan Museum of Art's
 * objects, with their images joined).
 *
 * Kept as the samples write them: source, field, measure and view names,
 * joins, extends, the `#` tags (`# currency`, `# percent`, `# link`,
 * `# line_chart`, `# dashboard`, `# list_detail`...). The samples have no
 * `#(doc)` lines, so no field, source or model here has a doc. Columns the
 * models read from tables are listed with the tables' types: the products
 * parquet as the snapshot holds it; the other ecommerce parquets, the
 * names parquet and the recalls CSV (absent from the snapshot) by their
 * public schemas (thelook_ecommerce; BigQuery usa_names.usa_1910_current,
 * whose `year` the model renames `year_born`; data.gov's Recalls_Data
 * header before its completion-rate column was added); the_met's two
 * BigQuery tables by their published schemas. Listed values stand for
 * what a run indexes; they are plausible, partly sampled, not exhaustive.
 *
 * Simplified: the_met joins its images table as an inline source (`join_one:
 * images is bigquery.table(...) extend {...} with object_id`); here it is a
 * source `images` of its own, joined by that name. Fields of a join's join
 * (order_items' `inventory_items.product.brand`) are reachable in queries
 * but not listed on the joining source, as with every set (one level).
 * Views defined inside views, the source-level `where:` of met_objects and
 * the multi-stage pipelines of names2's views are not represented beyond
 * the view's name.
 *
 * Written with their questions (test/eval/heldout9_questions.ts) and
 * expected shapes (test/eval/shapes/heldout9.ts) without reading the
 * retrieval code or any of its output, and committed before any score was
 * run on them.
 * @module
 */
import { evalPackage, type EvalPackage } from "./schema.ts";

const CATEGORIES = "Intimates; Jeans; Tops & Tees; Fashion Hoodies & Sweatshirts; Swim; Sleep & Lounge; Shorts; Sweaters; Accessories; Active; " +
  "Outerwear & Coats; Underwear; Pants; Dresses; Socks; Maternity; Plus; Suits & Sport Coats; Socks & Hosiery; Pants & Capris; Leggings; " +
  "Blazers & Jackets; Skirts; Suits; Jumpsuits & Rompers; Clothing Sets";
const BRANDS = "Allegra K; Calvin Klein; Carhartt; Hanes; Volcom; Nautica; Levi's; Quiksilver; Tommy Hilfiger; Columbia; Hurley; Dockers; Diesel; " +
  "Speedo; American Apparel; Wrangler; Motherhood Maternity; Champion; 7 For All Mankind; Lucky Brand; Dickies; SmartWool; O'Neill; Jones New York";
const USER_STATES = "California; Texas; Guangdong; England; São Paulo; Shanghai; Florida; New York; Beijing; Île-de-France; Bavaria; Gyeonggi-do; " +
  "Illinois; Ohio; Washington; Zhejiang";
const USER_COUNTRIES = "China; United States; Brasil; South Korea; France; United Kingdom; Germany; Spain; Japan; Australia; Belgium; Poland; Colombia";

const ECOMMERCE: EvalPackage = evalPackage("ecommerce", "ecommerce.malloy", undefined, {
  users_table: {
    fields: ["id n", "first_name s", "last_name s", "email s", "age n", "gender s = F; M", `state s = ${USER_STATES}`, "street_address s",
      "postal_code s", "city s", `country s = ${USER_COUNTRIES}`, "latitude n", "longitude n",
      "traffic_source s = Search; Organic; Facebook; Email; Display", "created_at t"],
  },
  product_table: {
    fields: ["id n", "cost n", `category s = ${CATEGORIES}`, "name s", `brand s = ${BRANDS}`, "retail_price n", "department s = Women; Men", "sku s",
      "distribution_center_id s = 1; 2; 3; 4; 5; 6; 7; 8; 9; 10"],
  },
  inventory_items_table: {
    fields: ["id n", "product_id n", "created_at t", "sold_at t", "cost n", `product_category s = ${CATEGORIES}`, "product_name s",
      `product_brand s = ${BRANDS}`, "product_retail_price n", "product_department s = Women; Men", "product_sku s",
      "product_distribution_center_id n"],
  },
  order_items_table: {
    fields: ["id n", "order_id n", "user_id n", "product_id n", "inventory_item_id n", "status s = Complete; Shipped; Processing; Cancelled; Returned",
      "created_at t", "shipped_at t", "delivered_at t", "returned_at t", "sale_price n"],
  },
  users: { extends: "users_table", fields: ["full_name s", "user_count m"] },
  product: { extends: "product_table", fields: ["product_count m"] },
  inventory_items: {
    extends: "inventory_items_table",
    joins: { product: "product" },
    fields: ["inventory_item_count m", "total_cost m"],
  },
  user_order_facts: {
    fields: ["user_id n", "first_order t", "most_recent_order t", "lifetime_orders n", "lifetime_spend n", "top_customer b",
      "lifetime_order_tier s = 1 to 3; 4 to 6; 7 to 10; 11+", "spend_category s = Low Spend; Mid Spend; High Spend; VIP"],
  },
  order_items: {
    extends: "order_items_table",
    joins: { users: "users", inventory_items: "inventory_items", user_order_facts: "user_order_facts" },
    fields: ["gross_margin n", "order_count m", "order_item_count m", "total_sales m # currency", "percent_of_sales m # percent",
      "total_gross_margin m # currency", "average_gross_margin m # currency", "product_count m", "user_count m", "total_sales_2022 m",
      "total_sales_2021 m", "top_categories v", "top_brands v", "top_products v", "top_customers v", "recent_purchases v", "by_year v", "by_month v",
      "sales_by_state v", "sales_by_month_2022 v", "orders_by_status v", "frequent_returners v", "brand_dashboard v", "customer_dashboard v",
      "business_overview_dashboard v", "sales_summary_yoy v", "search_index v"],
  },
});

const US_STATES = "AK; AL; AR; AZ; CA; CO; CT; DC; DE; FL; GA; HI; IA; ID; IL; IN; KS; KY; LA; MA; MD; ME; MI; MN; MO; MS; MT; NC; ND; NE; NH; NJ; " +
  "NM; NV; NY; OH; OK; OR; PA; RI; SC; SD; TN; TX; UT; VA; VT; WA; WI; WV; WY";

const NAMES: EvalPackage = evalPackage("names", "names.malloy", undefined, {
  names: {
    fields: [`state s = ${US_STATES}`, "gender s = F; M", "year_born n", "name s", "number n", "decade n", "population m", "births_per_100k m",
      "by_name v", "by_state v", "by_gender v", "by_decade v"],
  },
  cohort: {
    fields: ["gender s = F; M", `state s = ${US_STATES}`, "year_born n", "cohort_size n", "population m"],
  },
  names2: {
    extends: "names",
    joins: { cohort: "cohort" },
    fields: ["names_chart v", "iconic_names_by_state v", "gender_year v # line_chart", "gender_by_state v # shape_map", "gender_neutral_names v",
      "kelly_time_space_dashboard v # dashboard", "resurgent_names v", "name_dashboard v # dashboard", "search_index v"],
  },
});

const MANUFACTURERS = "Ford Motor Company; Chrysler (FCA US, LLC); General Motors, LLC; Forest River, Inc.; Daimler Trucks North America, LLC; " +
  "Honda (American Honda Motor Co.); Toyota Motor Engineering & Manufacturing; Nissan North America, Inc.; Volkswagen Group of America, Inc.; " +
  "Mercedes-Benz USA, LLC; BMW of North America, LLC; Harley-Davidson Motor Company; Tesla, Inc.; Kia America, Inc.; Hyundai Motor America; " +
  "Thor Motor Coach; Winnebago Industries, Inc.; Subaru of America, Inc.";
const COMPONENTS = "ELECTRICAL SYSTEM; AIR BAGS; SERVICE BRAKES, HYDRAULIC; POWER TRAIN; STEERING; FUEL SYSTEM, GASOLINE; SEAT BELTS; STRUCTURE; " +
  "EXTERIOR LIGHTING; EQUIPMENT; VISIBILITY; ENGINE AND ENGINE COOLING; SUSPENSION; TIRES; CHILD SEAT; WHEELS; LATCHES/LOCKS/LINKAGES; " +
  "BACK OVER PREVENTION; VEHICLE SPEED CONTROL; PARKING BRAKE; SEATS; ELECTRONIC STABILITY CONTROL (ESC)";

const AUTO_RECALLS: EvalPackage = evalPackage("auto_recalls", "auto_recalls.malloy", undefined, {
  recalls: {
    fields: ["`Report Received Date` d", "`NHTSA ID` s", "`Recall Link` s", `Manufacturer s = ${MANUFACTURERS}`, "Subject s", `Component s = ${COMPONENTS}`,
      "`Mfr Campaign Number` s", "`Recall Type` s = Vehicle; Equipment; Tire; Child Seat", "`Potentially Affected` n", "`Recall Description` s",
      "`Consequence Summary` s", "`Corrective Action` s", "`Park Outside Advisory` s = Yes; No", "`Do Not Drive Advisory` s = Yes; No",
      "recall_url s # link", "recall_count m", "percent_of_recalls m", "total_defects m", "by_manufacturer v", "by_type v", "by_year v",
      "by_year_manufacturer_line_chart v # line_chart", "recent_recalls v", "biggest_recalls v", "recall_dashboard v # dashboard"],
  },
});

const DEPARTMENTS = "The American Wing; Ancient Near Eastern Art; Arms and Armor; Arts of Africa, Oceania, and the Americas; Asian Art; The Cloisters; " +
  "Costume Institute; Drawings and Prints; Egyptian Art; European Paintings; European Sculpture and Decorative Arts; Greek and Roman Art; " +
  "Islamic Art; The Robert Lehman Collection; The Libraries; Medieval Art; Musical Instruments; Photographs; Modern and Contemporary Art";
const CLASSIFICATIONS = "Prints; Photographs; Drawings; Books; Ceramics; Textiles-Woven; Glass; Metalwork; Paintings; Sculpture; Furniture; Vases; " +
  "Negatives; Ephemera; Jewelry; Coins; Costumes; Arms; Armor; Musical Instruments";
const CULTURES = "American; French; Japanese; China; British; Italian; German; Greek, Attic; Roman; Iran; Egyptian; Netherlandish; Spanish; Coptic";
const NATIONALITIES = "American; French; British; Japanese; German; Italian; Dutch; Spanish; Flemish; Austrian";
const PERIODS = "Edo period (1615–1868); Qing dynasty (1644–1911); Ming dynasty (1368–1644); New Kingdom; Middle Kingdom; Late Period; " +
  "Archaic; Classical; Hellenistic; Imperial; Meiji period (1868–1912); Sasanian";
const MEDIA = "Albumen silver print from glass negative; Gelatin silver print; Etching; Engraving; Oil on canvas; Terracotta; Bronze; Silk; " +
  "Commercial color lithograph; Porcelain; Silver; Wood; Glass; Faience";
const GEO_COUNTRIES = "Egypt; United States; Iran; Peru; Mexico; Italy; Cyprus; Syria; Iraq; Turkey; France; England; Nigeria; Papua New Guinea";

const THE_MET: EvalPackage = evalPackage("the_met", "the_met.malloy", undefined, {
  images: {
    fields: ["object_id n", "public_caption s", "title s", "original_image_url s", "caption s", "is_oasc b", "gcs_url s"],
  },
  met_objects: {
    joins: { images: "images" },
    fields: ["object_number s", "is_highlight b", "is_public_domain b", "object_id n", `department s = ${DEPARTMENTS}`, "object_name s", "title s",
      `culture s = ${CULTURES}`, `period s = ${PERIODS}`, "dynasty s = Dynasty 18; Dynasty 12; Dynasty 26; Dynasty 19; Dynasty 11", "reign s",
      "portfolio s", "artist_role s = Artist; Designer; Maker; Manufacturer; Publisher; Photographer; Author; Printer", "artist_prefix s",
      "artist_display_name s", "artist_display_bio s", "artist_suffix s", "artist_alpha_sort s", `artist_nationality s = ${NATIONALITIES}`,
      "artist_begin_date s", "artist_end_date s", "object_date s", "object_begin_date n", "object_end_date n", `medium s = ${MEDIA}`,
      "dimensions s", "credit_line s", "geography_type s = Made in; From; Found; Excavated", "city s", "state s", "county s",
      `country s = ${GEO_COUNTRIES}`, "region s", "subregion s", "locale s", "locus s", "excavation s", "river s",
      `classification s = ${CLASSIFICATIONS}`, "rights_and_reproduction s", "link_resource s", "metadata_date t", "repository s",
      "object_count m", "image_count m", "object_era n", "image_thumb s", "by_classification v # list_detail", "by_department v", "by_artist v",
      "by_object_date v", "by_object_era v # bar_chart", "image_list v", "by_country v # list_detail", "random_image_list v # list",
      "over_view_dashboard v", "department_dashboard v"],
  },
});

/** All packages of the ninth held-out set. */
export const HELDOUT9_PACKAGES: EvalPackage[] = [ECOMMERCE, NAMES, AUTO_RECALLS, THE_MET];
