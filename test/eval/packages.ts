/**
 * The development set's models: six public schemas (TPC-H, jaffle_shop,
 * Northwind, Chinook, MovieLens, Sakila) written as Malloy models of them
 * would list their fields, with the names those schemas use (prefixes,
 * CamelCase, abbreviations) and sparse docs, as outside models have.
 * @module
 */
import { evalPackage, type EvalPackage } from "./schema.ts";

const NATIONS = "ALGERIA; ARGENTINA; BRAZIL; CANADA; EGYPT; ETHIOPIA; FRANCE; GERMANY; INDIA; INDONESIA; IRAN; IRAQ; JAPAN; JORDAN; KENYA; MOROCCO; MOZAMBIQUE; PERU; CHINA; ROMANIA; SAUDI ARABIA; VIETNAM; RUSSIA; UNITED KINGDOM; UNITED STATES";

export const TPCH: EvalPackage = evalPackage("tpch", "tpch.malloy", "TPC-H decision support benchmark", {
  region: { fields: ["r_regionkey n", "r_name s = AFRICA; AMERICA; ASIA; EUROPE; MIDDLE EAST", "r_comment s", "region_count m"] },
  nation: { joins: { region: "region" }, fields: ["n_nationkey n", "n_name s = " + NATIONS, "n_regionkey n", "n_comment s", "nation_count m"] },
  customer: {
    joins: { nation: "nation" },
    fields: ["c_custkey n", "c_name s", "c_address s", "c_nationkey n", "c_phone s", "c_acctbal n | Account balance",
      "c_mktsegment s = AUTOMOBILE; BUILDING; FURNITURE; MACHINERY; HOUSEHOLD", "c_comment s", "customer_count m", "total_acctbal m"],
  },
  supplier: {
    joins: { nation: "nation" },
    fields: ["s_suppkey n", "s_name s", "s_address s", "s_phone s", "s_acctbal n", "s_comment s", "supplier_count m"],
  },
  part: {
    fields: ["p_partkey n", "p_name s", "p_mfgr s = Manufacturer#1; Manufacturer#2; Manufacturer#3; Manufacturer#4; Manufacturer#5",
      "p_brand s = Brand#11; Brand#12; Brand#13; Brand#21; Brand#22; Brand#23; Brand#34; Brand#55",
      "p_type s = PROMO BURNISHED COPPER; LARGE BRUSHED BRASS; STANDARD POLISHED TIN; SMALL PLATED STEEL; ECONOMY ANODIZED NICKEL; MEDIUM BRUSHED BRASS",
      "p_size n", "p_container s = SM CASE; SM BOX; MED BAG; LG BOX; LG CASE; JUMBO PKG; WRAP PACK", "p_retailprice n", "p_comment s", "part_count m", "avg_retail_price m"],
  },
  partsupp: {
    joins: { part: "part", supplier: "supplier" },
    fields: ["ps_partkey n", "ps_suppkey n", "ps_availqty n", "ps_supplycost n", "ps_comment s", "inventory_value m | Supply cost times available quantity"],
  },
  orders: {
    doc: "One row per order",
    joins: { customer: "customer" },
    fields: ["o_orderkey n", "o_custkey n", "o_orderstatus s = F; O; P", "o_totalprice n", "o_orderdate d",
      "o_orderpriority s = 1-URGENT; 2-HIGH; 3-MEDIUM; 4-NOT SPECIFIED; 5-LOW", "o_clerk s", "o_shippriority n", "o_comment s",
      "order_count m", "total_order_value m", "avg_order_value m", "orders_by_priority v", "orders_by_year v"],
  },
  lineitem: {
    doc: "Order lines",
    joins: { orders: "orders", part: "part", supplier: "supplier" },
    fields: ["l_orderkey n", "l_partkey n", "l_suppkey n", "l_linenumber n", "l_quantity n", "l_extendedprice n", "l_discount n", "l_tax n",
      "l_returnflag s = R; A; N", "l_linestatus s = O; F", "l_shipdate d", "l_commitdate d", "l_receiptdate d",
      "l_shipinstruct s = DELIVER IN PERSON; COLLECT COD; NONE; TAKE BACK RETURN", "l_shipmode s = REG AIR; AIR; RAIL; SHIP; TRUCK; MAIL; FOB", "l_comment s",
      "revenue m | Sum of extended price after discount", "total_quantity m", "avg_discount m", "lineitem_count m", "avg_price m",
      "late_line_count m | Lines received after the commit date", "pricing_summary v | Pricing summary report (Q1)", "shipping_modes v"],
  },
});

export const JAFFLE: EvalPackage = evalPackage("jaffle_shop", "jaffle_shop.malloy", "Jaffle Shop: a fictional restaurant chain", {
  customers: {
    doc: "One record per person who has purchased one or more items",
    fields: ["customer_id s", "customer_name s", "count_lifetime_orders n", "first_ordered_at t", "last_ordered_at t",
      "lifetime_spend_pretax n", "lifetime_tax_paid n", "lifetime_spend n", "customer_type s = new; returning",
      "customer_count m", "avg_lifetime_spend m", "customers_by_type v"],
  },
  locations: {
    fields: ["location_id s", "location_name s = Philadelphia; Brooklyn; Chicago; San Francisco; New Orleans; Los Angeles", "tax_rate n", "opened_date d", "location_count m"],
  },
  products: {
    fields: ["product_id s", "product_name s = nutellaphone who dis?; doctor stew; the krautback; tangaroo; flame impala; mel-bun; for richer or pourover; vanilla ice",
      "product_type s = jaffle; beverage", "product_description s", "product_price n", "is_food_item b", "is_drink_item b", "product_count m"],
  },
  supplies: {
    fields: ["supply_uuid s", "supply_id s", "product_id s", "supply_name s = compostable cutlery - knife; chai mix; bread; cheese; napkins; mugs", "supply_cost n", "is_perishable_supply b", "supply_count m", "total_supply_cost m"],
  },
  orders: {
    doc: "Order overview data mart, offering key details for each order",
    joins: { customers: "customers", locations: "locations" },
    fields: ["order_id s", "location_id s", "customer_id s", "subtotal n", "tax_paid n", "order_total n", "ordered_at t",
      "order_cost n | Cost of the supplies for the order", "order_items_subtotal n", "count_food_items n", "count_drink_items n", "count_order_items n",
      "is_food_order b", "is_drink_order b", "customer_order_number n | Sequence of the order for its customer",
      "order_count m", "total_revenue m", "avg_order_total m", "food_order_count m", "orders_by_month v", "orders_by_location v"],
  },
  order_items: {
    joins: { orders: "orders", products: "products" },
    fields: ["order_item_id s", "order_id s", "product_id s", "product_price n", "supply_cost n", "item_count m", "gross_margin m | Price minus supply cost"],
  },
  first_orders: {
    extends: "orders",
    doc: "Orders that were a customer's first",
    fields: ["days_to_second_order n", "first_order_count m"],
  },
});

export const NORTHWIND: EvalPackage = evalPackage("northwind", "northwind.malloy", "Northwind Traders sample database", {
  Categories: { fields: ["CategoryID n", "CategoryName s = Beverages; Condiments; Confections; Dairy Products; Grains/Cereals; Meat/Poultry; Produce; Seafood", "Description s"] },
  Suppliers: { fields: ["SupplierID n", "CompanyName s", "ContactName s", "ContactTitle s", "Address s", "City s", "Region s", "PostalCode s",
    "Country s = USA; UK; Japan; Germany; France; Sweden; Italy; Australia; Canada; Brazil; Norway; Denmark; Finland; Singapore; Spain; Netherlands", "Phone s", "Fax s", "HomePage s", "supplier_count m"] },
  Shippers: { fields: ["ShipperID n", "CompanyName s = Speedy Express; United Package; Federal Shipping", "Phone s"] },
  Customers: { fields: ["CustomerID s", "CompanyName s", "ContactName s", "ContactTitle s = Owner; Sales Representative; Marketing Manager; Order Administrator; Accounting Manager; Sales Manager", "Address s", "City s",
    "Region s", "PostalCode s", "Country s = Germany; Mexico; UK; Sweden; France; Spain; Canada; Argentina; Switzerland; Brazil; Austria; Italy; Portugal; USA; Venezuela; Ireland; Belgium; Norway; Denmark; Finland; Poland", "Phone s", "customer_count m"] },
  Employees: { fields: ["EmployeeID n", "LastName s", "FirstName s", "Title s = Sales Representative; Vice President, Sales; Sales Manager; Inside Sales Coordinator", "TitleOfCourtesy s = Mr.; Ms.; Mrs.; Dr.", "BirthDate d", "HireDate d",
    "Address s", "City s = Seattle; Tacoma; Kirkland; Redmond; London", "Region s", "Country s = USA; UK", "HomePhone s", "Extension s", "Notes s", "ReportsTo n | Manager's EmployeeID", "employee_count m"] },
  Products: {
    joins: { Categories: "Categories", Suppliers: "Suppliers" },
    fields: ["ProductID n", "ProductName s", "SupplierID n", "CategoryID n", "QuantityPerUnit s", "UnitPrice n", "UnitsInStock n", "UnitsOnOrder n", "ReorderLevel n", "Discontinued b",
      "product_count m", "avg_unit_price m", "stock_value m | Units in stock times unit price"],
  },
  Orders: {
    joins: { Customers: "Customers", Employees: "Employees", Shippers: "Shippers" },
    fields: ["OrderID n", "CustomerID s", "EmployeeID n", "OrderDate d", "RequiredDate d", "ShippedDate d", "ShipVia n", "Freight n", "ShipName s", "ShipAddress s",
      "ShipCity s", "ShipRegion s", "ShipPostalCode s", "ShipCountry s = Germany; USA; Brazil; France; UK; Venezuela; Austria; Sweden; Canada; Mexico", "order_count m", "total_freight m", "avg_freight m", "late_order_count m | Shipped after the required date", "orders_by_country v"],
  },
  OrderDetails: {
    doc: "Order lines: one product of an order",
    joins: { Orders: "Orders", Products: "Products" },
    fields: ["OrderID n", "ProductID n", "UnitPrice n", "Quantity n", "Discount n", "sales m | Unit price times quantity after discount", "units_sold m", "line_count m", "sales_by_category v", "top_products v"],
  },
});

export const CHINOOK: EvalPackage = evalPackage("chinook", "chinook.malloy", "Chinook digital media store", {
  artists: { fields: ["ArtistId n", "Name s", "artist_count m"] },
  genres: { fields: ["GenreId n", "Name s = Rock; Latin; Metal; Alternative & Punk; Jazz; Blues; Classical; Reggae; Pop; Soundtrack; Hip Hop/Rap; Electronica/Dance; TV Shows; Comedy"] },
  media_types: { fields: ["MediaTypeId n", "Name s = MPEG audio file; Protected AAC audio file; Protected MPEG-4 video file; Purchased AAC audio file; AAC audio file"] },
  albums: { joins: { artist: "artists" }, fields: ["AlbumId n", "Title s", "ArtistId n", "album_count m"] },
  tracks: {
    joins: { album: "albums", genre: "genres", media_type: "media_types" },
    fields: ["TrackId n", "Name s", "AlbumId n", "MediaTypeId n", "GenreId n", "Composer s", "Milliseconds n", "Bytes n", "UnitPrice n",
      "track_count m", "total_duration_minutes m", "avg_track_length m", "tracks_by_genre v"],
  },
  playlists: { fields: ["PlaylistId n", "Name s = Music; Movies; TV Shows; Audiobooks; 90’s Music; Grunge; Classical; Brazilian Music; Heavy Metal Classic; On-The-Go 1", "playlist_count m"] },
  employees: { fields: ["EmployeeId n", "LastName s", "FirstName s", "Title s = General Manager; Sales Manager; Sales Support Agent; IT Manager; IT Staff", "ReportsTo n", "BirthDate t", "HireDate t",
    "City s = Edmonton; Calgary; Lethbridge", "State s", "Country s", "Email s"] },
  customers: {
    joins: { support_rep: "employees" },
    fields: ["CustomerId n", "FirstName s", "LastName s", "Company s", "Address s", "City s", "State s",
      "Country s = USA; Canada; Brazil; France; Germany; United Kingdom; Portugal; Czech Republic; India; Chile; Argentina; Australia; Austria; Belgium; Denmark; Finland; Hungary; Ireland; Italy; Netherlands; Norway; Poland; Spain; Sweden", "PostalCode s", "Phone s", "Email s", "SupportRepId n", "customer_count m"],
  },
  invoices: {
    joins: { customer: "customers" },
    fields: ["InvoiceId n", "CustomerId n", "InvoiceDate t", "BillingAddress s", "BillingCity s", "BillingState s", "BillingCountry s = USA; Canada; France; Brazil; Germany; United Kingdom; Portugal; India; Czech Republic", "BillingPostalCode s", "Total n",
      "invoice_count m", "total_sales m", "avg_invoice_total m", "sales_by_country v", "sales_by_year v"],
  },
  invoice_items: {
    joins: { invoice: "invoices", track: "tracks" },
    fields: ["InvoiceLineId n", "InvoiceId n", "TrackId n", "UnitPrice n", "Quantity n", "line_total m", "tracks_sold m", "top_selling_tracks v"],
  },
});

export const MOVIELENS: EvalPackage = evalPackage("movielens", "movielens.malloy", "MovieLens movie ratings (GroupLens)", {
  users: { fields: ["user_id n", "age n", "gender s = M; F", "occupation s = student; educator; engineer; programmer; writer; administrator; librarian; technician; executive; healthcare; artist; lawyer; retired; marketing; scientist; homemaker; salesman; doctor; entertainment; none; other", "zip_code s", "user_count m", "avg_age m"] },
  movies: {
    fields: ["movie_id n", "title s", "release_date d", "release_year n", "imdb_url s", "genres s | Pipe-separated genre list",
      "primary_genre s = Drama; Comedy; Action; Thriller; Romance; Adventure; Children's; Crime; Sci-Fi; Horror; War; Mystery; Musical; Documentary; Animation; Western; Film-Noir; Fantasy",
      "movie_count m"],
  },
  ratings: {
    joins: { movie: "movies", user: "users" },
    fields: ["user_id n", "movie_id n", "rating n | 1 to 5 stars", "rated_at t", "rating_count m", "avg_rating m", "distinct_raters m", "top_rated_movies v", "ratings_by_genre v"],
  },
  tags: {
    joins: { movie: "movies" },
    fields: ["user_id n", "movie_id n", "tag s = funny; atmospheric; twist ending; dark comedy; superhero; visually appealing; thought-provoking; sci-fi; based on a book; classic", "tagged_at t", "tag_count m"],
  },
  links: { fields: ["movie_id n", "imdb_id s", "tmdb_id s"] },
  popular_movies: { extends: "movies", doc: "Movies with at least 100 ratings", fields: ["ratings_received n", "mean_rating n"] },
});

export const SAKILA: EvalPackage = evalPackage("sakila", "sakila.malloy", "Sakila DVD rental store", {
  language: { fields: ["language_id n", "name s = English; Italian; Japanese; Mandarin; French; German"] },
  category: { fields: ["category_id n", "name s = Action; Animation; Children; Classics; Comedy; Documentary; Drama; Family; Foreign; Games; Horror; Music; New; Sci-Fi; Sports; Travel"] },
  actor: { fields: ["actor_id n", "first_name s", "last_name s", "last_update t", "actor_count m"] },
  country: { fields: ["country_id n", "country s"] },
  city: { joins: { country: "country" }, fields: ["city_id n", "city s", "country_id n"] },
  address: { joins: { city: "city" }, fields: ["address_id n", "address s", "address2 s", "district s", "city_id n", "postal_code s", "phone s"] },
  film: {
    joins: { language: "language" },
    fields: ["film_id n", "title s", "description s", "release_year n", "language_id n", "rental_duration n", "rental_rate n", "length n",
      "replacement_cost n", "rating s = G; PG; PG-13; R; NC-17", "special_features s = Trailers; Commentaries; Deleted Scenes; Behind the Scenes", "film_count m", "avg_length m", "avg_rental_rate m"],
  },
  film_actor: { joins: { film: "film", actor: "actor" }, fields: ["actor_id n", "film_id n", "appearances m"] },
  film_category: { joins: { film: "film", category: "category" }, fields: ["film_id n", "category_id n", "films_in_category m"] },
  store: { joins: { address: "address" }, fields: ["store_id n", "manager_staff_id n", "address_id n", "store_count m"] },
  staff: { fields: ["staff_id n", "first_name s = Mike; Jon", "last_name s", "email s", "store_id n", "active b", "username s", "staff_count m"] },
  customer: {
    joins: { address: "address", store: "store" },
    fields: ["customer_id n", "store_id n", "first_name s", "last_name s", "email s", "address_id n", "active b", "create_date t", "customer_count m", "active_customers m"],
  },
  inventory: { joins: { film: "film", store: "store" }, fields: ["inventory_id n", "film_id n", "store_id n", "copies m"] },
  rental: {
    joins: { inventory: "inventory", customer: "customer", staff: "staff" },
    fields: ["rental_id n", "rental_date t", "inventory_id n", "customer_id n", "return_date t", "staff_id n", "rental_count m", "avg_rental_days m", "overdue_rentals m | Returned after the rental duration", "rentals_by_month v"],
  },
  payment: {
    joins: { customer: "customer", staff: "staff", rental: "rental" },
    fields: ["payment_id n", "customer_id n", "staff_id n", "rental_id n", "amount n", "payment_date t", "total_payments m", "payment_count m", "avg_payment m", "revenue_by_store v"],
  },
});

/** All packages of the development set. */
export const EVAL_PACKAGES: EvalPackage[] = [TPCH, JAFFLE, NORTHWIND, CHINOOK, MOVIELENS, SAKILA];
