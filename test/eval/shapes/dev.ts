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
tpch | quantity available at suppliers | field: partsupp.ps_availqty || measure: sum(partsupp.ps_availqty)
tpch | order priority | field: orders.o_orderpriority || view: orders.orders_by_priority
tpch | how fast do we get paid back on returns | field: lineitem.l_returnflag
tpch | employee who handled the sale | field: orders.o_clerk
tpch | levy charged on each line | field: lineitem.l_tax
tpch | orders from the automobile segment | source: orders; filter: customer.c_mktsegment=AUTOMOBILE || measure: orders.order_count|count(orders); filter: customer.c_mktsegment=AUTOMOBILE
tpch | lines shipped by truck | source: lineitem; filter: lineitem.l_shipmode=TRUCK || measure: lineitem.lineitem_count|count(lineitem); filter: lineitem.l_shipmode=TRUCK
tpch | urgent orders | source: orders; filter: orders.o_orderpriority=1-URGENT || measure: orders.order_count|count(orders); filter: orders.o_orderpriority=1-URGENT
tpch | revenue from Europe | measure: lineitem.revenue|orders.total_order_value|sum(orders.o_totalprice); filter: region.r_name=EUROPE
tpch | items delivered in person | source: lineitem; filter: lineitem.l_shipinstruct=DELIVER IN PERSON || measure: lineitem.lineitem_count|count(lineitem); filter: lineitem.l_shipinstruct=DELIVER IN PERSON
tpch | parts of Brand#23 | source: part; filter: part.p_brand=Brand#23 || measure: part.part_count|count(part); filter: part.p_brand=Brand#23
tpch | sales to customers in the middle east | measure: lineitem.revenue|orders.total_order_value|sum(orders.o_totalprice); filter: region.r_name=MIDDLE EAST
tpch | order date | field: orders.o_orderdate
tpch | part size | field: part.p_size
tpch | nation name | field: nation.n_name
tpch | customer segment on line items | source: lineitem; field: customer.c_mktsegment
tpch | part brand of sold lines | source: lineitem; field: part.p_brand
tpch | how many orders | measure: orders.order_count|count(orders)
tpch | revenue by ship mode | measure: lineitem.revenue; group: lineitem.l_shipmode
tpch | average discount | measure: lineitem.avg_discount|avg(lineitem.l_discount)
tpch | total quantity shipped | measure: lineitem.total_quantity|sum(lineitem.l_quantity)
tpch | average order value | measure: orders.avg_order_value|avg(orders.o_totalprice)
tpch | how many customers | measure: customer.customer_count|count(customer)
jaffle_shop | sales tax rate of a store | field: locations.tax_rate
jaffle_shop | cost of ingredients | field: supplies.supply_cost || measure: supplies.total_supply_cost
jaffle_shop | amount before tax of an order | field: orders.subtotal
jaffle_shop | repeat or first time buyer | field: customers.customer_type || view: customers.customers_by_type
jaffle_shop | beverages in the basket | field: orders.count_drink_items
jaffle_shop | which visit of the shopper this was | field: orders.customer_order_number
jaffle_shop | money brought in | measure: orders.total_revenue|sum(orders.order_total)
jaffle_shop | gap before a shopper came back | field: first_orders.days_to_second_order
jaffle_shop | what goes into making the food | source: supplies
jaffle_shop | orders in Brooklyn | source: orders; filter: locations.location_name=Brooklyn || measure: orders.order_count|count(orders); filter: locations.location_name=Brooklyn
jaffle_shop | how many beverages were sold | measure: order_items.item_count|count(order_items); filter: products.product_type=beverage|products.is_drink_item=true
jaffle_shop | sales of the doctor stew | measure: order_items.item_count|sum(order_items.product_price)|count(order_items); filter: products.product_name=doctor stew
jaffle_shop | orders in Philadelphia last year | source: orders; filter: locations.location_name=Philadelphia, orders.ordered_at || measure: orders.order_count|count(orders); filter: locations.location_name=Philadelphia, orders.ordered_at
jaffle_shop | store name | field: locations.location_name
jaffle_shop | order total | field: orders.order_total
jaffle_shop | number of products | measure: products.product_count|count(products)
jaffle_shop | number of items in an order | field: orders.count_order_items
jaffle_shop | supply name | field: supplies.supply_name
jaffle_shop | customer type of orders | source: orders; field: customers.customer_type
jaffle_shop | order total of first orders | source: first_orders; field: orders.order_total
jaffle_shop | how many orders | measure: orders.order_count|count(orders)
jaffle_shop | how many customers | measure: customers.customer_count|count(customers)
jaffle_shop | how many food orders | measure: orders.food_order_count || measure: orders.order_count|count(orders); filter: orders.is_food_order=true
jaffle_shop | average spend per customer | measure: customers.avg_lifetime_spend|avg(customers.lifetime_spend)
jaffle_shop | customers by type | view: customers.customers_by_type || measure: customers.customer_count|count(customers); group: customers.customer_type
northwind | employee date of birth | field: Employees.BirthDate
northwind | stock on hand | field: Products.UnitsInStock
northwind | minimum stock before reordering | field: Products.ReorderLevel
northwind | products no longer sold | source: Products; filter: Products.Discontinued=true || measure: Products.product_count|count(Products); filter: Products.Discontinued=true
northwind | destination country of shipments | field: Orders.ShipCountry
northwind | who is the boss of each worker | field: Employees.ReportsTo
northwind | delivery firm | field: Shippers.CompanyName|Orders.ShipVia
northwind | Mr or Mrs | field: Employees.TitleOfCourtesy
northwind | deliveries that missed their deadline | measure: Orders.late_order_count
northwind | orders shipped with Speedy Express | source: Orders; filter: Shippers.CompanyName=Speedy Express || measure: Orders.order_count|count(Orders); filter: Shippers.CompanyName=Speedy Express
northwind | orders shipped to Venezuela | source: Orders; filter: Orders.ShipCountry=Venezuela || measure: Orders.order_count|count(Orders); filter: Orders.ShipCountry=Venezuela
northwind | sales representatives | source: Employees; filter: Employees.Title=Sales Representative || measure: Employees.employee_count|count(Employees); filter: Employees.Title=Sales Representative
northwind | product name | field: Products.ProductName
northwind | company name of customers | field: Customers.CompanyName
northwind | unit price of products | field: Products.UnitPrice
northwind | order date | field: Orders.OrderDate
northwind | quantity ordered | field: OrderDetails.Quantity || measure: OrderDetails.units_sold
northwind | category description | field: Categories.Description
northwind | category name of sold products | source: OrderDetails; field: Categories.CategoryName
northwind | customer country on orders | source: Orders; field: Customers.Country
northwind | employee who took the order | source: Orders; field: Employees.LastName|Employees.FirstName|Orders.EmployeeID
northwind | how many orders | measure: Orders.order_count|count(Orders)
northwind | orders by country | view: Orders.orders_by_country || measure: Orders.order_count|count(Orders); group: Orders.ShipCountry|Customers.Country
northwind | average freight | measure: Orders.avg_freight|avg(Orders.Freight)
northwind | best selling products | view: OrderDetails.top_products || measure: OrderDetails.sales|OrderDetails.units_sold; group: Products.ProductName|OrderDetails.ProductID; top
chinook | file size of a track | field: tracks.Bytes
chinook | songwriter | field: tracks.Composer
chinook | date of purchase | field: invoices.InvoiceDate
chinook | band name | field: artists.Name
chinook | employee start date | field: employees.HireDate
chinook | price of a song | field: tracks.UnitPrice
chinook | how long the tunes run in total | measure: tracks.total_duration_minutes|sum(tracks.Milliseconds)
chinook | musicians | source: artists
chinook | records | source: albums
chinook | protected AAC audio files | source: tracks; filter: media_types.Name=Protected AAC audio file || measure: tracks.track_count|count(tracks); filter: media_types.Name=Protected AAC audio file
chinook | customers in Brazil | source: customers; filter: customers.Country=Brazil || measure: customers.customer_count|count(customers); filter: customers.Country=Brazil
chinook | grunge playlist | source: playlists; filter: playlists.Name=Grunge
chinook | classical music | source: tracks|playlists; filter: genres.Name=Classical|playlists.Name=Classical || measure: tracks.track_count|count(tracks); filter: genres.Name=Classical
chinook | heavy metal classic playlist | source: playlists; filter: playlists.Name=Heavy Metal Classic
chinook | video files | source: tracks; filter: media_types.Name=Protected MPEG-4 video file || measure: tracks.track_count|count(tracks); filter: media_types.Name=Protected MPEG-4 video file
chinook | track name | field: tracks.Name
chinook | customer email | field: customers.Email
chinook | employee title | field: employees.Title
chinook | unit price of invoice lines | field: invoice_items.UnitPrice
chinook | number of artists | measure: artists.artist_count|count(artists)
chinook | genre of sold tracks | source: invoice_items; field: genres.Name
chinook | artist of an album | source: albums; field: artists.Name
chinook | album of a track | source: tracks; field: albums.Title
chinook | tracks by genre | view: tracks.tracks_by_genre || measure: tracks.track_count|count(tracks); group: genres.Name
chinook | average invoice total | measure: invoices.avg_invoice_total|avg(invoices.Total)
chinook | average track length | measure: tracks.avg_track_length|avg(tracks.Milliseconds)
chinook | sales per year | view: invoices.sales_by_year || measure: invoices.total_sales; group: invoices.InvoiceDate@year
chinook | how many customers | measure: customers.customer_count|count(customers)
movielens | when the film came out | field: movies.release_date|movies.release_year
movielens | year of release | field: movies.release_year|movies.release_date@year
movielens | job of the viewer | field: users.occupation
movielens | viewer age | field: users.age
movielens | film name | field: movies.title
movielens | mean score | measure: ratings.avg_rating|avg(ratings.rating)
movielens | number of people who rated | measure: ratings.distinct_raters|distinct(ratings.user_id)
movielens | sex of the reviewer | field: users.gender
movielens | external film database identifier | field: links.imdb_id|links.tmdb_id
movielens | viewers | source: users
movielens | how many votes a blockbuster got | field: popular_movies.ratings_received
movielens | comedies | source: movies|popular_movies; filter: movies.primary_genre=Comedy || measure: movies.movie_count|count(movies); filter: movies.primary_genre=Comedy
movielens | horror movies | source: movies|popular_movies; filter: movies.primary_genre=Horror || measure: movies.movie_count|count(movies); filter: movies.primary_genre=Horror
movielens | ratings by female users | source: ratings; filter: users.gender=F || measure: ratings.rating_count|ratings.avg_rating|count(ratings); filter: users.gender=F
movielens | documentaries | source: movies|popular_movies; filter: movies.primary_genre=Documentary || measure: movies.movie_count|count(movies); filter: movies.primary_genre=Documentary
movielens | number of movies | measure: movies.movie_count|count(movies)
movielens | number of tags | measure: tags.tag_count|count(tags)
movielens | occupation of raters | source: ratings; field: users.occupation
movielens | genre of rated films | source: ratings; field: movies.primary_genre|movies.genres
movielens | release year of popular movies | source: popular_movies; field: movies.release_year|movies.release_date@year
movielens | age of the rater | source: ratings; field: users.age
movielens | how many users | measure: users.user_count|count(users)
movielens | how many ratings | measure: ratings.rating_count|count(ratings)
movielens | average age of users | measure: users.avg_age|avg(users.age)
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
sakila | rentals handled by Mike | source: rental; filter: staff.first_name=Mike || measure: rental.rental_count|count(rental); filter: staff.first_name=Mike
sakila | sci-fi movies | source: film_category; filter: category.name=Sci-Fi || measure: film_category.films_in_category; filter: category.name=Sci-Fi
sakila | films with behind the scenes footage | source: film; filter: film.special_features=Behind the Scenes || measure: film.film_count|count(film); filter: film.special_features=Behind the Scenes
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
sakila | how many rentals | measure: rental.rental_count|count(rental)
sakila | how many films | measure: film.film_count|count(film)
sakila | how many customers | measure: customer.customer_count|count(customer)
sakila | rentals by month | view: rental.rentals_by_month || measure: rental.rental_count|count(rental); group: rental.rental_date@month
sakila | revenue by store | view: payment.revenue_by_store || measure: payment.total_payments; group: store.store_id|customer.store_id|staff.store_id
sakila | active customers count | measure: customer.active_customers || measure: customer.customer_count|count(customer); filter: customer.active=true
jaffle_shop | drinks on the menu | source: products; filter: products.is_drink_item=true|products.product_type=beverage || measure: products.product_count|count(products); filter: products.is_drink_item=true|products.product_type=beverage
northwind | item name | field: Products.ProductName
movielens | motion picture genre | field: movies.primary_genre|movies.genres
tpch | buyers | source: customer
northwind | staff | source: Employees
chinook | bills | source: invoices
tpch | airmail shipments | source: lineitem; filter: lineitem.l_shipmode=AIR|lineitem.l_shipmode=REG AIR || measure: lineitem.lineitem_count|count(lineitem); filter: lineitem.l_shipmode=AIR|lineitem.l_shipmode=REG AIR
sakila | payments by customer | measure: payment.total_payments|payment.payment_count|count(payment); group: payment.customer_id|customer.customer_id|customer.first_name|customer.last_name|customer.email
`;

/** Shapes of the test half. */
export const TEST = `
tpch | how much money customers have in their accounts | field: customer.c_acctbal || measure: customer.total_acctbal
tpch | market segment of each customer | field: customer.c_mktsegment
tpch | promised delivery date of a line | field: lineitem.l_commitdate
tpch | retail price of parts | field: part.p_retailprice || measure: part.avg_retail_price
tpch | number of units ordered per line | field: lineitem.l_quantity
tpch | transport method used for shipments | field: lineitem.l_shipmode || view: lineitem.shipping_modes
tpch | worth of the stock held by vendors | measure: partsupp.inventory_value
tpch | packaging kind | field: part.p_container
tpch | maker of the product | field: part.p_mfgr
tpch | shipments that showed up after the promised day | measure: lineitem.late_line_count
tpch | rebate percentage | field: lineitem.l_discount || measure: lineitem.avg_discount
tpch | customers in Germany | source: customer; filter: nation.n_name=GERMANY || measure: customer.customer_count|count(customer); filter: nation.n_name=GERMANY
tpch | parts packed in a jumbo pkg | source: part; filter: part.p_container=JUMBO PKG || measure: part.part_count|count(part); filter: part.p_container=JUMBO PKG
tpch | polished tin parts | source: part; filter: part.p_type=STANDARD POLISHED TIN || measure: part.part_count|count(part); filter: part.p_type=STANDARD POLISHED TIN
tpch | customer name | field: customer.c_name
tpch | supplier name | field: supplier.s_name
tpch | total price of an order | field: orders.o_totalprice
tpch | number of suppliers | measure: supplier.supplier_count|count(supplier)
tpch | supplier phone number | field: supplier.s_phone
tpch | region of the nation | source: nation; field: region.r_name
tpch | supplier account balance | field: supplier.s_acctbal
tpch | how many line items | measure: lineitem.lineitem_count|count(lineitem)
tpch | list the market segments | field: customer.c_mktsegment
tpch | which regions exist | field: region.r_name
tpch | orders per year | view: orders.orders_by_year || measure: orders.order_count|count(orders); group: orders.o_orderdate@year
jaffle_shop | how much each customer has spent overall | field: customers.lifetime_spend || measure: orders.total_revenue|sum(orders.order_total); group: customers.customer_name|customers.customer_id|orders.customer_id
jaffle_shop | when was the customer's most recent purchase | field: customers.last_ordered_at || measure: max(orders.ordered_at); group: customers.customer_name|customers.customer_id|orders.customer_id
jaffle_shop | date of a customer's first purchase | field: customers.first_ordered_at || measure: min(orders.ordered_at); group: customers.customer_name|customers.customer_id|orders.customer_id
jaffle_shop | when did a store open | field: locations.opened_date
jaffle_shop | price of a menu item | field: products.product_price
jaffle_shop | tax paid on an order | field: orders.tax_paid
jaffle_shop | purchase timestamp | field: orders.ordered_at
jaffle_shop | profit on each item sold | measure: order_items.gross_margin || measure: order_items.gross_margin; group: products.product_name|order_items.product_id|order_items.order_item_id
jaffle_shop | perishable ingredients | source: supplies; filter: supplies.is_perishable_supply=true || measure: supplies.supply_count|supplies.total_supply_cost|count(supplies); filter: supplies.is_perishable_supply=true
jaffle_shop | how many sandwiches were in the basket | field: orders.count_food_items || measure: sum(orders.count_food_items)|avg(orders.count_food_items)
jaffle_shop | menu | source: products
jaffle_shop | sales at the Chicago store | measure: orders.total_revenue|sum(orders.order_total); filter: locations.location_name=Chicago
jaffle_shop | returning customers | source: customers; filter: customers.customer_type=returning || measure: customers.customer_count|count(customers); filter: customers.customer_type=returning
jaffle_shop | cost of chai mix | field: supplies.supply_cost; filter: supplies.supply_name=chai mix || measure: supplies.total_supply_cost; filter: supplies.supply_name=chai mix
jaffle_shop | new customers | source: customers; filter: customers.customer_type=new || measure: customers.customer_count|count(customers); filter: customers.customer_type=new
jaffle_shop | how many vanilla ice were ordered | measure: order_items.item_count|count(order_items); filter: products.product_name=vanilla ice
jaffle_shop | napkins cost | field: supplies.supply_cost; filter: supplies.supply_name=napkins || measure: supplies.total_supply_cost; filter: supplies.supply_name=napkins
jaffle_shop | customer name | field: customers.customer_name
jaffle_shop | product description | field: products.product_description
jaffle_shop | location of each order | source: orders; field: locations.location_name
jaffle_shop | product type of ordered items | source: order_items; field: products.product_type
jaffle_shop | lifetime spend of the ordering customer | source: orders|first_orders; field: customers.lifetime_spend
jaffle_shop | orders by location | view: orders.orders_by_location || measure: orders.order_count|count(orders); group: locations.location_name|orders.location_id
jaffle_shop | revenue by month | view: orders.orders_by_month || measure: orders.total_revenue|sum(orders.order_total); group: orders.ordered_at@month
jaffle_shop | average order total | measure: orders.avg_order_total|avg(orders.order_total)
jaffle_shop | list the product types | field: products.product_type
jaffle_shop | which stores are there | field: locations.location_name
jaffle_shop | total cost of supplies | measure: supplies.total_supply_cost|sum(supplies.supply_cost)
northwind | hiring date of employees | field: Employees.HireDate
northwind | shipping cost of orders | field: Orders.Freight || measure: Orders.total_freight
northwind | units already ordered from suppliers | field: Products.UnitsOnOrder || measure: sum(Products.UnitsOnOrder)
northwind | deadline for delivering an order | field: Orders.RequiredDate
northwind | pack size of a product | field: Products.QuantityPerUnit
northwind | line discount | field: OrderDetails.Discount
northwind | when goods left the warehouse | field: Orders.ShippedDate
northwind | job of the person we deal with at a client | field: Customers.ContactTitle
northwind | worth of the goods in the warehouse | measure: Products.stock_value
northwind | turnover | measure: OrderDetails.sales
northwind | vendors | source: Suppliers
northwind | zip code of clients | field: Customers.PostalCode
northwind | sales of beverages | measure: OrderDetails.sales; filter: Categories.CategoryName=Beverages
northwind | seafood products | source: Products; filter: Categories.CategoryName=Seafood || measure: Products.product_count|count(Products); filter: Categories.CategoryName=Seafood
northwind | customers in Mexico | source: Customers; filter: Customers.Country=Mexico || measure: Customers.customer_count|count(Customers); filter: Customers.Country=Mexico
northwind | employees based in London | source: Employees; filter: Employees.City=London || measure: Employees.employee_count|count(Employees); filter: Employees.City=London
northwind | dairy products sales | measure: OrderDetails.sales; filter: Categories.CategoryName=Dairy Products
northwind | suppliers from Japan | source: Suppliers; filter: Suppliers.Country=Japan || measure: Suppliers.supplier_count|count(Suppliers); filter: Suppliers.Country=Japan
northwind | contacts who are the owner | source: Customers; filter: Customers.ContactTitle=Owner || measure: Customers.customer_count|count(Customers); filter: Customers.ContactTitle=Owner
northwind | orders sent by Federal Shipping | source: Orders; filter: Shippers.CompanyName=Federal Shipping || measure: Orders.order_count|count(Orders); filter: Shippers.CompanyName=Federal Shipping
northwind | employee last name | field: Employees.LastName
northwind | supplier country of products | source: Products; field: Suppliers.Country
northwind | shipper of an order | source: Orders; field: Shippers.CompanyName|Orders.ShipVia
northwind | how many products | measure: Products.product_count|count(Products)
northwind | sales by category | view: OrderDetails.sales_by_category || measure: OrderDetails.sales; group: Categories.CategoryName
northwind | total freight | measure: Orders.total_freight|sum(Orders.Freight)
northwind | list the categories | field: Categories.CategoryName
northwind | which shippers do we use | field: Shippers.CompanyName
northwind | units sold | measure: OrderDetails.units_sold|sum(OrderDetails.Quantity)
northwind | average product price | measure: Products.avg_unit_price|avg(Products.UnitPrice)
chinook | song length | field: tracks.Milliseconds
chinook | invoice amount | field: invoices.Total
chinook | billing country | field: invoices.BillingCountry
chinook | album title | field: albums.Title
chinook | customer's company | field: customers.Company
chinook | musical style | field: genres.Name
chinook | file format | field: media_types.Name
chinook | who wrote the music | field: tracks.Composer
chinook | support representative of a client | source: customers; field: customers.SupportRepId|employees.LastName|employees.FirstName
chinook | songs bought | measure: invoice_items.tracks_sold|sum(invoice_items.Quantity)
chinook | money earned | measure: invoices.total_sales|sum(invoices.Total)
chinook | who manages whom among staff | field: employees.ReportsTo
chinook | rock tracks | source: tracks; filter: genres.Name=Rock || measure: tracks.track_count|count(tracks); filter: genres.Name=Rock
chinook | jazz sales | measure: invoice_items.line_total|invoice_items.tracks_sold; filter: genres.Name=Jazz
chinook | invoices billed to Canada | source: invoices; filter: invoices.BillingCountry=Canada || measure: invoices.invoice_count|invoices.total_sales|count(invoices); filter: invoices.BillingCountry=Canada
chinook | sales support agents | source: employees; filter: employees.Title=Sales Support Agent
chinook | employees in Calgary | source: employees; filter: employees.City=Calgary
chinook | playlist name | field: playlists.Name
chinook | customer city | field: customers.City
chinook | country of the invoiced customer | source: invoices; field: customers.Country
chinook | support rep last name | source: customers; field: employees.LastName
chinook | how many tracks | measure: tracks.track_count|count(tracks)
chinook | how many invoices | measure: invoices.invoice_count|count(invoices)
chinook | sales by country | view: invoices.sales_by_country || measure: invoices.total_sales; group: invoices.BillingCountry|customers.Country
chinook | list the genres | field: genres.Name
chinook | which media types exist | field: media_types.Name
chinook | top selling tracks | view: invoice_items.top_selling_tracks || measure: invoice_items.tracks_sold|invoice_items.line_total; group: tracks.Name|invoice_items.TrackId; top
movielens | score a user gave a film | field: ratings.rating
movielens | when the rating was given | field: ratings.rated_at
movielens | keywords users attached to films | field: tags.tag
movielens | postal area of the viewer | field: users.zip_code
movielens | how well liked a picture is | measure: ratings.avg_rating || measure: ratings.avg_rating; group: movies.title|ratings.movie_id
movielens | which kind of picture | field: movies.primary_genre|movies.genres
movielens | best liked pictures | view: ratings.top_rated_movies || measure: ratings.avg_rating; group: movies.title|ratings.movie_id; top
movielens | hit films | source: popular_movies
movielens | ratings from students | source: ratings; filter: users.occupation=student || measure: ratings.rating_count|ratings.avg_rating|count(ratings); filter: users.occupation=student
movielens | films tagged atmospheric | source: tags; filter: tags.tag=atmospheric || measure: tags.tag_count|movies.movie_count|count(tags)|count(movies); filter: tags.tag=atmospheric
movielens | movies with a twist ending | source: tags; filter: tags.tag=twist ending || measure: tags.tag_count|movies.movie_count|count(tags)|count(movies); filter: tags.tag=twist ending
movielens | programmers' average rating | measure: ratings.avg_rating; filter: users.occupation=programmer
movielens | retired viewers | source: users; filter: users.occupation=retired || measure: users.user_count|count(users); filter: users.occupation=retired
movielens | superhero films | source: tags; filter: tags.tag=superhero || measure: tags.tag_count|movies.movie_count|count(tags)|count(movies); filter: tags.tag=superhero
movielens | film noir | source: movies|popular_movies; filter: movies.primary_genre=Film-Noir || measure: movies.movie_count|count(movies); filter: movies.primary_genre=Film-Noir
movielens | movie title | field: movies.title
movielens | number of ratings | measure: ratings.rating_count|count(ratings)
movielens | user id | field: users.user_id
movielens | tag date | field: tags.tagged_at
movielens | movie genres | field: movies.genres|movies.primary_genre
movielens | title of rated movies | source: ratings; field: movies.title
movielens | ratings by genre | view: ratings.ratings_by_genre || measure: ratings.rating_count|ratings.avg_rating|count(ratings); group: movies.primary_genre|movies.genres
movielens | average rating | measure: ratings.avg_rating|avg(ratings.rating)
movielens | top rated movies | view: ratings.top_rated_movies || measure: ratings.avg_rating; group: movies.title|ratings.movie_id; top
movielens | movies by release year | measure: movies.movie_count|count(movies); group: movies.release_year|movies.release_date@year
movielens | how many movies | measure: movies.movie_count|count(movies)
sakila | price to rent | field: film.rental_rate || measure: film.avg_rental_rate
sakila | cost of replacing a lost disc | field: film.replacement_cost
sakila | extras on the dvd | field: film.special_features
sakila | late returns | measure: rental.overdue_rentals
sakila | performers | source: actor
sakila | money collected | measure: payment.total_payments|sum(payment.amount)
sakila | county or province | field: address.district
sakila | genre of a picture | field: category.name
sakila | employees | source: staff
sakila | how long people keep what they borrow | measure: rental.avg_rental_days
sakila | shops | source: store
sakila | horror films | source: film_category; filter: category.name=Horror || measure: film_category.films_in_category; filter: category.name=Horror
sakila | films rated PG-13 | source: film; filter: film.rating=PG-13 || measure: film.film_count|count(film); filter: film.rating=PG-13
sakila | movies in Japanese | source: film; filter: language.name=Japanese || measure: film.film_count|count(film); filter: language.name=Japanese
sakila | films with deleted scenes | source: film; filter: film.special_features=Deleted Scenes || measure: film.film_count|count(film); filter: film.special_features=Deleted Scenes
sakila | documentaries rented | source: film_category; filter: category.name=Documentary || measure: film_category.films_in_category; filter: category.name=Documentary
sakila | NC-17 films | source: film; filter: film.rating=NC-17 || measure: film.film_count|count(film); filter: film.rating=NC-17
sakila | family movies | source: film_category; filter: category.name=Family || measure: film_category.films_in_category; filter: category.name=Family
sakila | country name | field: country.country
sakila | phone number | field: address.phone
sakila | actor of a film | source: film_actor; field: actor.last_name|actor.first_name
sakila | average payment | measure: payment.avg_payment|avg(payment.amount)
sakila | list the film categories | field: category.name
sakila | which languages are available | field: language.name
sakila | average film length | measure: film.avg_length|avg(film.length)
sakila | number of payments | measure: payment.payment_count|count(payment)
tpch | phone of a client | field: customer.c_phone
chinook | duration of a track | field: tracks.Milliseconds
sakila | movie name | field: film.title
movielens | engineers | source: users; filter: users.occupation=engineer || measure: users.user_count|count(users); filter: users.occupation=engineer
chinook | metal songs | source: tracks; filter: genres.Name=Metal || measure: tracks.track_count|count(tracks); filter: genres.Name=Metal
`;
