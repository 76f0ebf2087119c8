/**
 * Expected shapes of the first next step for the development set
 * (test/eval/questions.ts), one a line as `package | question | shape`, in
 * the format test/eval/judge_shape.ts reads. Written from the questions and
 * the package definitions (test/eval/packages.ts) only, before any
 * next_steps output was seen. `TUNING` holds the questions `half()` puts in
 * the tuning half, `TEST` the test half.
 * @module
 */

/** Shapes of the tuning half. */
export const TUNING = `
tpch | total sales after discounts | measure: lineitem.revenue
tpch | date an item was shipped | field: lineitem.l_shipdate
tpch | when the goods arrived | field: lineitem.l_receiptdate
tpch | cost the supplier charges for a part | field: partsupp.ps_supplycost
tpch | quantity available at suppliers | field: partsupp.ps_availqty
tpch | order priority | field: orders.o_orderpriority || view: orders.orders_by_priority
tpch | how fast do we get paid back on returns | field: lineitem.l_returnflag
tpch | employee who handled the sale | field: orders.o_clerk
tpch | levy charged on each line | field: lineitem.l_tax
tpch | orders from the automobile segment | source: orders; filter: customer.c_mktsegment=AUTOMOBILE || measure: orders.order_count; filter: customer.c_mktsegment=AUTOMOBILE
tpch | lines shipped by truck | source: lineitem; filter: lineitem.l_shipmode=TRUCK || measure: lineitem.lineitem_count; filter: lineitem.l_shipmode=TRUCK
tpch | urgent orders | source: orders; filter: orders.o_orderpriority=1-URGENT || measure: orders.order_count; filter: orders.o_orderpriority=1-URGENT
tpch | revenue from Europe | measure: lineitem.revenue; filter: region.r_name=EUROPE
tpch | items delivered in person | source: lineitem; filter: lineitem.l_shipinstruct=DELIVER IN PERSON || measure: lineitem.lineitem_count; filter: lineitem.l_shipinstruct=DELIVER IN PERSON
tpch | parts of Brand#23 | source: part; filter: part.p_brand=Brand#23 || measure: part.part_count; filter: part.p_brand=Brand#23
tpch | sales to customers in the middle east | measure: lineitem.revenue|orders.total_order_value; filter: region.r_name=MIDDLE EAST
tpch | order date | field: orders.o_orderdate
tpch | part size | field: part.p_size
tpch | nation name | field: nation.n_name
tpch | customer segment on line items | source: lineitem; field: customer.c_mktsegment
tpch | part brand of sold lines | source: lineitem; field: part.p_brand
tpch | how many orders | measure: orders.order_count
tpch | revenue by ship mode | measure: lineitem.revenue; group: lineitem.l_shipmode
tpch | average discount | measure: lineitem.avg_discount
tpch | total quantity shipped | measure: lineitem.total_quantity
tpch | average order value | measure: orders.avg_order_value
tpch | how many customers | measure: customer.customer_count
jaffle_shop | sales tax rate of a store | field: locations.tax_rate
jaffle_shop | cost of ingredients | field: supplies.supply_cost || measure: supplies.total_supply_cost
jaffle_shop | amount before tax of an order | field: orders.subtotal
jaffle_shop | repeat or first time buyer | field: customers.customer_type || view: customers.customers_by_type
jaffle_shop | beverages in the basket | field: orders.count_drink_items
jaffle_shop | which visit of the shopper this was | field: orders.customer_order_number
jaffle_shop | money brought in | measure: orders.total_revenue
jaffle_shop | gap before a shopper came back | field: first_orders.days_to_second_order
jaffle_shop | what goes into making the food | source: supplies
jaffle_shop | orders in Brooklyn | source: orders; filter: locations.location_name=Brooklyn || measure: orders.order_count; filter: locations.location_name=Brooklyn
jaffle_shop | how many beverages were sold | measure: order_items.item_count; filter: products.product_type=beverage|products.is_drink_item=true
jaffle_shop | sales of the doctor stew | measure: order_items.item_count|sum(order_items.product_price); filter: products.product_name=doctor stew
jaffle_shop | orders in Philadelphia last year | source: orders; filter: locations.location_name=Philadelphia, orders.ordered_at || measure: orders.order_count; filter: locations.location_name=Philadelphia, orders.ordered_at
jaffle_shop | store name | field: locations.location_name
jaffle_shop | order total | field: orders.order_total
jaffle_shop | number of products | measure: products.product_count
jaffle_shop | number of items in an order | field: orders.count_order_items
jaffle_shop | supply name | field: supplies.supply_name
jaffle_shop | customer type of orders | source: orders; field: customers.customer_type
jaffle_shop | order total of first orders | source: first_orders; field: orders.order_total
jaffle_shop | how many orders | measure: orders.order_count
jaffle_shop | how many customers | measure: customers.customer_count
jaffle_shop | how many food orders | measure: orders.food_order_count || measure: orders.order_count; filter: orders.is_food_order=true
jaffle_shop | average spend per customer | measure: customers.avg_lifetime_spend
jaffle_shop | customers by type | view: customers.customers_by_type || measure: customers.customer_count; group: customers.customer_type
northwind | employee date of birth | field: Employees.BirthDate
northwind | stock on hand | field: Products.UnitsInStock
northwind | minimum stock before reordering | field: Products.ReorderLevel
northwind | products no longer sold | source: Products; filter: Products.Discontinued=true || measure: Products.product_count; filter: Products.Discontinued=true
northwind | destination country of shipments | field: Orders.ShipCountry
northwind | who is the boss of each worker | field: Employees.ReportsTo
northwind | delivery firm | field: Shippers.CompanyName|Orders.ShipVia
northwind | Mr or Mrs | field: Employees.TitleOfCourtesy
northwind | deliveries that missed their deadline | measure: Orders.late_order_count
northwind | orders shipped with Speedy Express | source: Orders; filter: Shippers.CompanyName=Speedy Express || measure: Orders.order_count; filter: Shippers.CompanyName=Speedy Express
northwind | orders shipped to Venezuela | source: Orders; filter: Orders.ShipCountry=Venezuela || measure: Orders.order_count; filter: Orders.ShipCountry=Venezuela
northwind | sales representatives | source: Employees; filter: Employees.Title=Sales Representative || measure: Employees.employee_count; filter: Employees.Title=Sales Representative
northwind | product name | field: Products.ProductName
northwind | company name of customers | field: Customers.CompanyName
northwind | unit price of products | field: Products.UnitPrice
northwind | order date | field: Orders.OrderDate
northwind | quantity ordered | field: OrderDetails.Quantity || measure: OrderDetails.units_sold
northwind | category description | field: Categories.Description
northwind | category name of sold products | source: OrderDetails; field: Categories.CategoryName
northwind | customer country on orders | source: Orders; field: Customers.Country
northwind | employee who took the order | source: Orders; field: Employees.LastName|Employees.FirstName|Orders.EmployeeID
northwind | how many orders | measure: Orders.order_count
northwind | orders by country | view: Orders.orders_by_country || measure: Orders.order_count; group: Orders.ShipCountry|Customers.Country
northwind | average freight | measure: Orders.avg_freight
northwind | best selling products | view: OrderDetails.top_products || measure: OrderDetails.sales|OrderDetails.units_sold; group: Products.ProductName|OrderDetails.ProductID; top
chinook | file size of a track | field: tracks.Bytes
chinook | songwriter | field: tracks.Composer
chinook | date of purchase | field: invoices.InvoiceDate
chinook | band name | field: artists.Name
chinook | employee start date | field: employees.HireDate
chinook | price of a song | field: tracks.UnitPrice
chinook | how long the tunes run in total | measure: tracks.total_duration_minutes
chinook | musicians | source: artists
chinook | records | source: albums
chinook | protected AAC audio files | source: tracks; filter: media_types.Name=Protected AAC audio file || measure: tracks.track_count; filter: media_types.Name=Protected AAC audio file
chinook | customers in Brazil | source: customers; filter: customers.Country=Brazil || measure: customers.customer_count; filter: customers.Country=Brazil
chinook | grunge playlist | source: playlists; filter: playlists.Name=Grunge
chinook | classical music | source: tracks|playlists; filter: genres.Name=Classical|playlists.Name=Classical || measure: tracks.track_count; filter: genres.Name=Classical
chinook | heavy metal classic playlist | source: playlists; filter: playlists.Name=Heavy Metal Classic
chinook | video files | source: tracks; filter: media_types.Name=Protected MPEG-4 video file || measure: tracks.track_count; filter: media_types.Name=Protected MPEG-4 video file
chinook | track name | field: tracks.Name
chinook | customer email | field: customers.Email
chinook | employee title | field: employees.Title
chinook | unit price of invoice lines | field: invoice_items.UnitPrice
chinook | number of artists | measure: artists.artist_count
chinook | genre of sold tracks | source: invoice_items; field: genres.Name
chinook | artist of an album | source: albums; field: artists.Name
chinook | album of a track | source: tracks; field: albums.Title
chinook | tracks by genre | view: tracks.tracks_by_genre || measure: tracks.track_count; group: genres.Name
chinook | average invoice total | measure: invoices.avg_invoice_total
chinook | average track length | measure: tracks.avg_track_length
chinook | sales per year | view: invoices.sales_by_year || measure: invoices.total_sales; group: invoices.InvoiceDate@year
chinook | how many customers | measure: customers.customer_count
movielens | when the film came out | field: movies.release_date|movies.release_year
movielens | year of release | field: movies.release_year|movies.release_date@year
movielens | job of the viewer | field: users.occupation
movielens | viewer age | field: users.age
movielens | film name | field: movies.title
movielens | mean score | measure: ratings.avg_rating
movielens | number of people who rated | measure: ratings.distinct_raters
movielens | sex of the reviewer | field: users.gender
movielens | external film database identifier | field: links.imdb_id|links.tmdb_id
movielens | viewers | source: users
movielens | how many votes a blockbuster got | field: popular_movies.ratings_received
movielens | comedies | source: movies|popular_movies; filter: movies.primary_genre=Comedy || measure: movies.movie_count; filter: movies.primary_genre=Comedy
movielens | horror movies | source: movies|popular_movies; filter: movies.primary_genre=Horror || measure: movies.movie_count; filter: movies.primary_genre=Horror
movielens | ratings by female users | source: ratings; filter: users.gender=F || measure: ratings.rating_count|ratings.avg_rating; filter: users.gender=F
movielens | documentaries | source: movies|popular_movies; filter: movies.primary_genre=Documentary || measure: movies.movie_count; filter: movies.primary_genre=Documentary
movielens | number of movies | measure: movies.movie_count
movielens | number of tags | measure: tags.tag_count
movielens | occupation of raters | source: ratings; field: users.occupation
movielens | genre of rated films | source: ratings; field: movies.primary_genre|movies.genres
movielens | release year of popular movies | source: popular_movies; field: movies.release_year|movies.release_date@year
movielens | age of the rater | source: ratings; field: users.age
movielens | how many users | measure: users.user_count
movielens | how many ratings | measure: ratings.rating_count
movielens | average age of users | measure: users.avg_age
movielens | list the occupations | field: users.occupation
movielens | which tags are used | field: tags.tag
sakila | length of a movie | field: film.length
sakila | days a film may be kept | field: film.rental_duration
sakila | age rating of a film | field: film.rating
sakila | when a rental was brought back | field: rental.return_date
sakila | when a customer signed up | field: customer.create_date
sakila | payment amount | field: payment.amount
sakila | film synopsis | field: film.description
sakila | zip code | field: address.postal_code
sakila | copies held by each shop | measure: inventory.copies; group: store.store_id|inventory.store_id
sakila | audio tongue of the picture | field: language.name
sakila | rentals handled by Mike | source: rental; filter: staff.first_name=Mike || measure: rental.rental_count; filter: staff.first_name=Mike
sakila | sci-fi movies | source: film_category; filter: category.name=Sci-Fi || measure: film_category.films_in_category; filter: category.name=Sci-Fi
sakila | films with behind the scenes footage | source: film; filter: film.special_features=Behind the Scenes || measure: film.film_count; filter: film.special_features=Behind the Scenes
sakila | children's films | source: film_category; filter: category.name=Children || measure: film_category.films_in_category; filter: category.name=Children
sakila | film title | field: film.title
sakila | actor last name | field: actor.last_name
sakila | customer email | field: customer.email
sakila | rental date | field: rental.rental_date
sakila | payment date | field: payment.payment_date
sakila | city name | field: city.city
sakila | country of customers | source: customer; field: country.country
sakila | film of a rental | source: rental; field: film.title
sakila | category of films | source: film_category; field: category.name
sakila | city of a store | source: store; field: city.city
sakila | how many rentals | measure: rental.rental_count
sakila | how many films | measure: film.film_count
sakila | how many customers | measure: customer.customer_count
sakila | rentals by month | view: rental.rentals_by_month || measure: rental.rental_count; group: rental.rental_date@month
sakila | revenue by store | view: payment.revenue_by_store || measure: payment.total_payments; group: store.store_id|customer.store_id|staff.store_id
sakila | active customers count | measure: customer.active_customers || measure: customer.customer_count; filter: customer.active=true
jaffle_shop | drinks on the menu | source: products; filter: products.is_drink_item=true|products.product_type=beverage || measure: products.product_count; filter: products.is_drink_item=true|products.product_type=beverage
northwind | item name | field: Products.ProductName
movielens | motion picture genre | field: movies.primary_genre|movies.genres
tpch | buyers | source: customer
northwind | staff | source: Employees
chinook | bills | source: invoices
tpch | airmail shipments | source: lineitem; filter: lineitem.l_shipmode=AIR|lineitem.l_shipmode=REG AIR || measure: lineitem.lineitem_count; filter: lineitem.l_shipmode=AIR|lineitem.l_shipmode=REG AIR
sakila | payments by customer | measure: payment.total_payments|payment.payment_count; group: payment.customer_id|customer.customer_id|customer.first_name|customer.last_name|customer.email
`;
