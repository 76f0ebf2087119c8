/**
 * The development set's questions, written before any score was looked at.
 * Each line: `category | package | question | target`; the target is
 * `source.field` (a field as its own source defines it; the same field seen
 * through a join or an extend counts as the same answer), `source` for a
 * source, and `a || b` when either answers. Categories:
 * - `syn`: synonym or paraphrase of the field's words;
 * - `noword`: shares no word with the field's name or doc;
 * - `value`: answered by a value of the field (`source.field=Value`);
 * - `trap`: a generic word (count, name, date, total...) that many fields share;
 * - `join`: a field that appears in several sources through join/extend;
 * - `kind`: a kind cue ("how many", "by", "list", "which").
 * @module
 */

/** One question of the development set. */
export interface EvalQuestion {
  category: "syn" | "noword" | "value" | "trap" | "join" | "kind";
  pkg: string;
  question: string;
  /** Accepted answers: `source.field`, `source`, with `=value` for value questions. */
  targets: string[];
}

const RAW = `
syn | tpch | total sales after discounts | lineitem.revenue
syn | tpch | how much money customers have in their accounts | customer.c_acctbal
syn | tpch | market segment of each customer | customer.c_mktsegment
syn | tpch | date an item was shipped | lineitem.l_shipdate
syn | tpch | promised delivery date of a line | lineitem.l_commitdate
syn | tpch | when the goods arrived | lineitem.l_receiptdate
syn | tpch | retail price of parts | part.p_retailprice
syn | tpch | cost the supplier charges for a part | partsupp.ps_supplycost
syn | tpch | quantity available at suppliers | partsupp.ps_availqty
syn | tpch | order priority | orders.o_orderpriority
syn | tpch | number of units ordered per line | lineitem.l_quantity
noword | tpch | how fast do we get paid back on returns | lineitem.l_returnflag
noword | tpch | transport method used for shipments | lineitem.l_shipmode
noword | tpch | worth of the stock held by vendors | partsupp.inventory_value
noword | tpch | employee who handled the sale | orders.o_clerk
noword | tpch | packaging kind | part.p_container
noword | tpch | maker of the product | part.p_mfgr
noword | tpch | shipments that showed up after the promised day | lineitem.late_line_count
noword | tpch | rebate percentage | lineitem.l_discount
noword | tpch | levy charged on each line | lineitem.l_tax
value | tpch | orders from the automobile segment | customer.c_mktsegment=AUTOMOBILE
value | tpch | lines shipped by truck | lineitem.l_shipmode=TRUCK
value | tpch | urgent orders | orders.o_orderpriority=1-URGENT
value | tpch | customers in Germany | nation.n_name=GERMANY
value | tpch | revenue from Europe | region.r_name=EUROPE
value | tpch | items delivered in person | lineitem.l_shipinstruct=DELIVER IN PERSON
value | tpch | parts packed in a jumbo pkg | part.p_container=JUMBO PKG
value | tpch | parts of Brand#23 | part.p_brand=Brand#23
value | tpch | sales to customers in the middle east | region.r_name=MIDDLE EAST
value | tpch | polished tin parts | part.p_type=STANDARD POLISHED TIN
trap | tpch | customer name | customer.c_name
trap | tpch | supplier name | supplier.s_name
trap | tpch | order date | orders.o_orderdate
trap | tpch | total price of an order | orders.o_totalprice
trap | tpch | number of suppliers | supplier.supplier_count
trap | tpch | part size | part.p_size
trap | tpch | supplier phone number | supplier.s_phone
join | tpch | nation name | nation.n_name
join | tpch | customer segment on line items | customer.c_mktsegment
join | tpch | region of the nation | region.r_name
join | tpch | part brand of sold lines | part.p_brand
join | tpch | supplier account balance | supplier.s_acctbal
kind | tpch | how many orders | orders.order_count
kind | tpch | how many line items | lineitem.lineitem_count
kind | tpch | revenue by ship mode | lineitem.l_shipmode || lineitem.revenue
kind | tpch | average discount | lineitem.avg_discount
kind | tpch | list the market segments | customer.c_mktsegment
kind | tpch | which regions exist | region.r_name
kind | tpch | total quantity shipped | lineitem.total_quantity
kind | tpch | average order value | orders.avg_order_value
kind | tpch | how many customers | customer.customer_count
kind | tpch | orders per year | orders.orders_by_year || orders.o_orderdate
syn | jaffle_shop | how much each customer has spent overall | customers.lifetime_spend
syn | jaffle_shop | when was the customer's most recent purchase | customers.last_ordered_at
syn | jaffle_shop | date of a customer's first purchase | customers.first_ordered_at
syn | jaffle_shop | sales tax rate of a store | locations.tax_rate
syn | jaffle_shop | when did a store open | locations.opened_date
syn | jaffle_shop | price of a menu item | products.product_price
syn | jaffle_shop | cost of ingredients | supplies.supply_cost
syn | jaffle_shop | amount before tax of an order | orders.subtotal
syn | jaffle_shop | tax paid on an order | orders.tax_paid
syn | jaffle_shop | purchase timestamp | orders.ordered_at
syn | jaffle_shop | profit on each item sold | order_items.gross_margin
noword | jaffle_shop | repeat or first time buyer | customers.customer_type
noword | jaffle_shop | perishable ingredients | supplies.is_perishable_supply
noword | jaffle_shop | how many sandwiches were in the basket | orders.count_food_items
noword | jaffle_shop | beverages in the basket | orders.count_drink_items
noword | jaffle_shop | which visit of the shopper this was | orders.customer_order_number
noword | jaffle_shop | money brought in | orders.total_revenue
noword | jaffle_shop | gap before a shopper came back | first_orders.days_to_second_order
noword | jaffle_shop | what goes into making the food | supplies
noword | jaffle_shop | menu | products
value | jaffle_shop | orders in Brooklyn | locations.location_name=Brooklyn
value | jaffle_shop | sales at the Chicago store | locations.location_name=Chicago
value | jaffle_shop | how many beverages were sold | products.product_type=beverage
value | jaffle_shop | returning customers | customers.customer_type=returning
value | jaffle_shop | sales of the doctor stew | products.product_name=doctor stew
value | jaffle_shop | cost of chai mix | supplies.supply_name=chai mix
value | jaffle_shop | orders in Philadelphia last year | locations.location_name=Philadelphia
value | jaffle_shop | new customers | customers.customer_type=new
value | jaffle_shop | how many vanilla ice were ordered | products.product_name=vanilla ice
value | jaffle_shop | napkins cost | supplies.supply_name=napkins
trap | jaffle_shop | customer name | customers.customer_name
trap | jaffle_shop | store name | locations.location_name
trap | jaffle_shop | product description | products.product_description
trap | jaffle_shop | order total | orders.order_total
trap | jaffle_shop | number of products | products.product_count
trap | jaffle_shop | number of items in an order | orders.count_order_items
trap | jaffle_shop | supply name | supplies.supply_name
join | jaffle_shop | customer type of orders | customers.customer_type
join | jaffle_shop | location of each order | locations.location_name
join | jaffle_shop | product type of ordered items | products.product_type
join | jaffle_shop | lifetime spend of the ordering customer | customers.lifetime_spend
join | jaffle_shop | order total of first orders | orders.order_total
kind | jaffle_shop | how many orders | orders.order_count
kind | jaffle_shop | how many customers | customers.customer_count
kind | jaffle_shop | orders by location | orders.orders_by_location || locations.location_name
kind | jaffle_shop | revenue by month | orders.orders_by_month || orders.ordered_at
kind | jaffle_shop | average order total | orders.avg_order_total
kind | jaffle_shop | list the product types | products.product_type
kind | jaffle_shop | which stores are there | locations.location_name || locations
kind | jaffle_shop | total cost of supplies | supplies.total_supply_cost
kind | jaffle_shop | how many food orders | orders.food_order_count
kind | jaffle_shop | average spend per customer | customers.avg_lifetime_spend
kind | jaffle_shop | customers by type | customers.customers_by_type || customers.customer_type
syn | northwind | hiring date of employees | Employees.HireDate
syn | northwind | employee date of birth | Employees.BirthDate
syn | northwind | shipping cost of orders | Orders.Freight
syn | northwind | stock on hand | Products.UnitsInStock
syn | northwind | units already ordered from suppliers | Products.UnitsOnOrder
syn | northwind | minimum stock before reordering | Products.ReorderLevel
syn | northwind | products no longer sold | Products.Discontinued
syn | northwind | deadline for delivering an order | Orders.RequiredDate
syn | northwind | destination country of shipments | Orders.ShipCountry
syn | northwind | pack size of a product | Products.QuantityPerUnit
syn | northwind | line discount | OrderDetails.Discount
noword | northwind | who is the boss of each worker | Employees.ReportsTo
noword | northwind | when goods left the warehouse | Orders.ShippedDate
noword | northwind | delivery firm | Shippers.CompanyName || Orders.ShipVia
noword | northwind | job of the person we deal with at a client | Customers.ContactTitle
noword | northwind | Mr or Mrs | Employees.TitleOfCourtesy
noword | northwind | worth of the goods in the warehouse | Products.stock_value
noword | northwind | deliveries that missed their deadline | Orders.late_order_count
noword | northwind | turnover | OrderDetails.sales
noword | northwind | vendors | Suppliers
noword | northwind | zip code of clients | Customers.PostalCode
value | northwind | sales of beverages | Categories.CategoryName=Beverages
value | northwind | seafood products | Categories.CategoryName=Seafood
value | northwind | orders shipped with Speedy Express | Shippers.CompanyName=Speedy Express
value | northwind | customers in Mexico | Customers.Country=Mexico
value | northwind | employees based in London | Employees.City=London
value | northwind | orders shipped to Venezuela | Orders.ShipCountry=Venezuela
value | northwind | sales representatives | Employees.Title=Sales Representative
value | northwind | dairy products sales | Categories.CategoryName=Dairy Products
value | northwind | suppliers from Japan | Suppliers.Country=Japan
value | northwind | contacts who are the owner | Customers.ContactTitle=Owner
value | northwind | orders sent by Federal Shipping | Shippers.CompanyName=Federal Shipping
trap | northwind | product name | Products.ProductName
trap | northwind | company name of customers | Customers.CompanyName
trap | northwind | unit price of products | Products.UnitPrice
trap | northwind | order date | Orders.OrderDate
trap | northwind | quantity ordered | OrderDetails.Quantity
trap | northwind | category description | Categories.Description
trap | northwind | employee last name | Employees.LastName
join | northwind | category name of sold products | Categories.CategoryName
join | northwind | supplier country of products | Suppliers.Country
join | northwind | customer country on orders | Customers.Country
join | northwind | shipper of an order | Shippers.CompanyName || Orders.ShipVia
join | northwind | employee who took the order | Employees.LastName || Employees.FirstName || Orders.EmployeeID
kind | northwind | how many orders | Orders.order_count
kind | northwind | how many products | Products.product_count
kind | northwind | sales by category | OrderDetails.sales_by_category || Categories.CategoryName
kind | northwind | orders by country | Orders.orders_by_country || Orders.ShipCountry
kind | northwind | average freight | Orders.avg_freight
kind | northwind | total freight | Orders.total_freight
kind | northwind | list the categories | Categories.CategoryName || Categories
kind | northwind | which shippers do we use | Shippers.CompanyName || Shippers
kind | northwind | units sold | OrderDetails.units_sold
kind | northwind | best selling products | OrderDetails.top_products
kind | northwind | average product price | Products.avg_unit_price
syn | chinook | song length | tracks.Milliseconds
syn | chinook | file size of a track | tracks.Bytes
syn | chinook | songwriter | tracks.Composer
syn | chinook | invoice amount | invoices.Total
syn | chinook | billing country | invoices.BillingCountry
syn | chinook | date of purchase | invoices.InvoiceDate
syn | chinook | album title | albums.Title
syn | chinook | band name | artists.Name
syn | chinook | employee start date | employees.HireDate
syn | chinook | customer's company | customers.Company
syn | chinook | price of a song | tracks.UnitPrice
noword | chinook | musical style | genres.Name
noword | chinook | file format | media_types.Name
noword | chinook | who wrote the music | tracks.Composer
noword | chinook | how long the tunes run in total | tracks.total_duration_minutes
noword | chinook | support representative of a client | customers.SupportRepId || employees.LastName || employees.FirstName
noword | chinook | musicians | artists
noword | chinook | records | albums
noword | chinook | songs bought | invoice_items.tracks_sold
noword | chinook | money earned | invoices.total_sales
noword | chinook | who manages whom among staff | employees.ReportsTo
value | chinook | rock tracks | genres.Name=Rock
value | chinook | jazz sales | genres.Name=Jazz
value | chinook | protected AAC audio files | media_types.Name=Protected AAC audio file
value | chinook | customers in Brazil | customers.Country=Brazil
value | chinook | invoices billed to Canada | invoices.BillingCountry=Canada
value | chinook | grunge playlist | playlists.Name=Grunge
value | chinook | sales support agents | employees.Title=Sales Support Agent
value | chinook | classical music | genres.Name=Classical || playlists.Name=Classical
value | chinook | employees in Calgary | employees.City=Calgary
value | chinook | heavy metal classic playlist | playlists.Name=Heavy Metal Classic
value | chinook | video files | media_types.Name=Protected MPEG-4 video file
trap | chinook | track name | tracks.Name
trap | chinook | playlist name | playlists.Name
trap | chinook | customer email | customers.Email
trap | chinook | employee title | employees.Title
trap | chinook | unit price of invoice lines | invoice_items.UnitPrice
trap | chinook | customer city | customers.City
trap | chinook | number of artists | artists.artist_count
join | chinook | genre of sold tracks | genres.Name
join | chinook | artist of an album | artists.Name
join | chinook | country of the invoiced customer | customers.Country
join | chinook | album of a track | albums.Title
join | chinook | support rep last name | employees.LastName
kind | chinook | how many tracks | tracks.track_count
kind | chinook | how many invoices | invoices.invoice_count
kind | chinook | sales by country | invoices.sales_by_country || invoices.BillingCountry
kind | chinook | tracks by genre | tracks.tracks_by_genre || genres.Name
kind | chinook | average invoice total | invoices.avg_invoice_total
kind | chinook | average track length | tracks.avg_track_length
kind | chinook | list the genres | genres.Name || genres
kind | chinook | which media types exist | media_types.Name || media_types
kind | chinook | top selling tracks | invoice_items.top_selling_tracks
kind | chinook | sales per year | invoices.sales_by_year || invoices.InvoiceDate
kind | chinook | how many customers | customers.customer_count
syn | movielens | score a user gave a film | ratings.rating
syn | movielens | when the film came out | movies.release_date
syn | movielens | year of release | movies.release_year
syn | movielens | job of the viewer | users.occupation
syn | movielens | viewer age | users.age
syn | movielens | when the rating was given | ratings.rated_at
syn | movielens | film name | movies.title
syn | movielens | mean score | ratings.avg_rating
syn | movielens | number of people who rated | ratings.distinct_raters
syn | movielens | keywords users attached to films | tags.tag
noword | movielens | postal area of the viewer | users.zip_code
noword | movielens | how well liked a picture is | ratings.avg_rating
noword | movielens | sex of the reviewer | users.gender
noword | movielens | which kind of picture | movies.primary_genre || movies.genres
noword | movielens | external film database identifier | links.imdb_id || links.tmdb_id
noword | movielens | best liked pictures | ratings.top_rated_movies
noword | movielens | viewers | users
noword | movielens | hit films | popular_movies
noword | movielens | how many votes a blockbuster got | popular_movies.ratings_received
value | movielens | ratings from students | users.occupation=student
value | movielens | comedies | movies.primary_genre=Comedy
value | movielens | horror movies | movies.primary_genre=Horror
value | movielens | films tagged atmospheric | tags.tag=atmospheric
value | movielens | ratings by female users | users.gender=F
value | movielens | movies with a twist ending | tags.tag=twist ending
value | movielens | programmers' average rating | users.occupation=programmer
value | movielens | documentaries | movies.primary_genre=Documentary
value | movielens | retired viewers | users.occupation=retired
value | movielens | superhero films | tags.tag=superhero
value | movielens | film noir | movies.primary_genre=Film-Noir
trap | movielens | movie title | movies.title
trap | movielens | number of movies | movies.movie_count
trap | movielens | number of ratings | ratings.rating_count
trap | movielens | user id | users.user_id
trap | movielens | tag date | tags.tagged_at
trap | movielens | movie genres | movies.genres || movies.primary_genre
trap | movielens | number of tags | tags.tag_count
join | movielens | title of rated movies | movies.title
join | movielens | occupation of raters | users.occupation
join | movielens | genre of rated films | movies.primary_genre || movies.genres
join | movielens | release year of popular movies | movies.release_year
join | movielens | age of the rater | users.age
kind | movielens | how many users | users.user_count
kind | movielens | how many ratings | ratings.rating_count
kind | movielens | ratings by genre | ratings.ratings_by_genre || movies.primary_genre
kind | movielens | average rating | ratings.avg_rating
kind | movielens | average age of users | users.avg_age
kind | movielens | list the occupations | users.occupation
kind | movielens | which tags are used | tags.tag
kind | movielens | top rated movies | ratings.top_rated_movies
kind | movielens | movies by release year | movies.release_year
kind | movielens | how many movies | movies.movie_count
syn | sakila | length of a movie | film.length
syn | sakila | price to rent | film.rental_rate
syn | sakila | days a film may be kept | film.rental_duration
syn | sakila | cost of replacing a lost disc | film.replacement_cost
syn | sakila | age rating of a film | film.rating
syn | sakila | when a rental was brought back | rental.return_date
syn | sakila | when a customer signed up | customer.create_date
syn | sakila | payment amount | payment.amount
syn | sakila | extras on the dvd | film.special_features
syn | sakila | film synopsis | film.description
syn | sakila | zip code | address.postal_code
noword | sakila | late returns | rental.overdue_rentals
noword | sakila | copies held by each shop | inventory.copies
noword | sakila | performers | actor
noword | sakila | money collected | payment.total_payments
noword | sakila | audio tongue of the picture | language.name
noword | sakila | county or province | address.district
noword | sakila | genre of a picture | category.name
noword | sakila | employees | staff
noword | sakila | how long people keep what they borrow | rental.avg_rental_days
noword | sakila | shops | store
value | sakila | horror films | category.name=Horror
value | sakila | films rated PG-13 | film.rating=PG-13
value | sakila | movies in Japanese | language.name=Japanese
value | sakila | films with deleted scenes | film.special_features=Deleted Scenes
value | sakila | documentaries rented | category.name=Documentary
value | sakila | rentals handled by Mike | staff.first_name=Mike
value | sakila | sci-fi movies | category.name=Sci-Fi
value | sakila | films with behind the scenes footage | film.special_features=Behind the Scenes
value | sakila | children's films | category.name=Children
value | sakila | NC-17 films | film.rating=NC-17
value | sakila | family movies | category.name=Family
trap | sakila | film title | film.title
trap | sakila | actor last name | actor.last_name
trap | sakila | customer email | customer.email
trap | sakila | rental date | rental.rental_date
trap | sakila | payment date | payment.payment_date
trap | sakila | city name | city.city
trap | sakila | country name | country.country
trap | sakila | phone number | address.phone
join | sakila | country of customers | country.country
join | sakila | film of a rental | film.title
join | sakila | category of films | category.name
join | sakila | city of a store | city.city
join | sakila | actor of a film | actor.last_name || actor.first_name
kind | sakila | how many rentals | rental.rental_count
kind | sakila | how many films | film.film_count
kind | sakila | how many customers | customer.customer_count
kind | sakila | average payment | payment.avg_payment
kind | sakila | rentals by month | rental.rentals_by_month || rental.rental_date
kind | sakila | revenue by store | payment.revenue_by_store
kind | sakila | list the film categories | category.name || category
kind | sakila | which languages are available | language.name || language
kind | sakila | average film length | film.avg_length
kind | sakila | active customers count | customer.active_customers
kind | sakila | number of payments | payment.payment_count
syn | tpch | phone of a client | customer.c_phone
syn | jaffle_shop | drinks on the menu | products.is_drink_item
syn | northwind | item name | Products.ProductName
syn | chinook | duration of a track | tracks.Milliseconds
syn | movielens | motion picture genre | movies.primary_genre || movies.genres
syn | sakila | movie name | film.title
noword | tpch | buyers | customer
noword | northwind | staff | Employees
noword | chinook | bills | invoices
value | movielens | engineers | users.occupation=engineer
value | chinook | metal songs | genres.Name=Metal
value | tpch | airmail shipments | lineitem.l_shipmode=AIR || lineitem.l_shipmode=REG AIR
kind | sakila | payments by customer | payment.customer_id || customer.first_name || customer.last_name
`;

/** Questions written one a line as `category | package | question | target || target`. */
export function parseQuestions(raw: string): EvalQuestion[] {
  return raw.trim().split("\n").map((line) => {
    const [category, pkg, question, target] = line.split(" | ").map((s) => s.trim());
    return { category: category as EvalQuestion["category"], pkg: pkg!, question: question!, targets: target!.split(" || ").map((t) => t.trim()) };
  });
}

/** Every question, in file order. */
export const EVAL_QUESTIONS: EvalQuestion[] = parseQuestions(RAW);

/** FNV-1a of a string, for a split that does not depend on file order. */
function fnv(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** `tuning` or `test`, decided by a hash of the package and the question. */
export function half(q: EvalQuestion): "tuning" | "test" {
  return fnv(`${q.pkg}|${q.question}`) % 2 === 0 ? "tuning" : "test";
}
