/**
 * Expected shapes of the first next step for the ninth held-out set
 * (test/eval/heldout9_questions.ts), format of test/eval/shape_format.ts.
 * Written from the questions and test/eval/heldout9_packages.ts only,
 * without reading the retrieval code, before any next_steps output was seen.
 * Field names are canonical: ecommerce's columns belong to the `*_table`
 * source their source extends (`order_items_table.status`), names2's to
 * names; auto_recalls' names hold spaces as the CSV's header does.
 * @module
 */

/** Shapes of every question of the set. */
export const HELDOUT9 = `
ecommerce | how much money did we make | measure: order_items.total_sales|sum(order_items_table.sale_price)
ecommerce | profit after what the goods cost us | measure: order_items.total_gross_margin|order_items.average_gross_margin|sum(order_items.gross_margin)
ecommerce | where did shoppers hear about us | field: users_table.traffic_source
ecommerce | our most valuable buyers | view: order_items.top_customers || measure: order_items.total_sales|sum(order_items_table.sale_price); group: users.full_name|order_items_table.user_id|users_table.id; top || field: user_order_facts.spend_category|user_order_facts.top_customer
ecommerce | people who send lots of stuff back | view: order_items.frequent_returners || measure: order_items.order_item_count|order_items.order_count|count(order_items)|count(order_items_table); group: users.full_name|order_items_table.user_id|users_table.id; filter: order_items_table.status=Returned
ecommerce | is the item for him or for her | field: product_table.department|inventory_items_table.product_department
ecommerce | which warehouse ships it | field: product_table.distribution_center_id|inventory_items_table.product_distribution_center_id
ecommerce | when did the parcel leave | field: order_items_table.shipped_at
ecommerce | how this year compares with last | view: order_items.sales_summary_yoy || measure: order_items.total_sales_2022, order_items.total_sales_2021 || view: order_items.by_year || measure: order_items.total_sales|sum(order_items_table.sale_price); group: order_items_table.created_at@year
ecommerce | how many times has each shopper bought from us | field: user_order_facts.lifetime_orders|user_order_facts.lifetime_order_tier || measure: order_items.order_count|count(order_items)|count(order_items_table); group: users.full_name|order_items_table.user_id|users_table.id
ecommerce | a buyer's latest purchase date | field: user_order_facts.most_recent_order || measure: max(order_items_table.created_at); group: users.full_name|order_items_table.user_id|users_table.id
ecommerce | stock keeping unit code | field: product_table.sku|inventory_items_table.product_sku
ecommerce | which fashion label made it | field: product_table.brand|inventory_items_table.product_brand
ecommerce | type of garment | field: product_table.category|inventory_items_table.product_category
ecommerce | biggest sellers | view: order_items.top_products|order_items.top_brands|order_items.top_categories || measure: order_items.total_sales|order_items.order_item_count|sum(order_items_table.sale_price)|count(order_items)|count(order_items_table); group: inventory_items_table.product_name|product_table.name|inventory_items_table.product_brand|product_table.brand|inventory_items_table.product_category|product_table.category; top
ecommerce | shoppers | source: users|users_table || field: users.full_name|users_table.id|users_table.email|users_table.first_name|users_table.last_name
ecommerce | a snapshot of how the shop is doing | view: order_items.business_overview_dashboard
ecommerce | latest transactions | view: order_items.recent_purchases || source: order_items|order_items_table; field: order_items_table.created_at
ecommerce | lifetime spend of a customer | field: user_order_facts.lifetime_spend
ecommerce | date of a customer's first order | field: user_order_facts.first_order || measure: min(order_items_table.created_at); group: users.full_name|order_items_table.user_id|users_table.id
ecommerce | margin on each item sold | field: order_items.gross_margin || measure: order_items.average_gross_margin
ecommerce | share of total revenue | measure: order_items.percent_of_sales
ecommerce | price an item sold for | field: order_items_table.sale_price || measure: avg(order_items_table.sale_price)
ecommerce | number of units in stock | measure: inventory_items.inventory_item_count|count(inventory_items)|count(inventory_items_table)
ecommerce | customer's full name | field: users.full_name
ecommerce | date an item came back | field: order_items_table.returned_at
ecommerce | customer spending tier | field: user_order_facts.spend_category|user_order_facts.lifetime_order_tier
ecommerce | sales of jeans | measure: order_items.total_sales|sum(order_items_table.sale_price); filter: product_table.category=Jeans|inventory_items_table.product_category=Jeans
ecommerce | returned items | measure: order_items.order_item_count|order_items.order_count|count(order_items)|count(order_items_table); filter: order_items_table.status=Returned || source: order_items|order_items_table; filter: order_items_table.status=Returned
ecommerce | how many orders were cancelled | measure: order_items.order_count|order_items.order_item_count|count(order_items)|count(order_items_table); filter: order_items_table.status=Cancelled
ecommerce | revenue from Calvin Klein | measure: order_items.total_sales|sum(order_items_table.sale_price); filter: product_table.brand=Calvin Klein|inventory_items_table.product_brand=Calvin Klein
ecommerce | customers who came from Facebook | measure: users.user_count|order_items.user_count|count(users)|count(users_table); filter: users_table.traffic_source=Facebook || source: users|users_table; filter: users_table.traffic_source=Facebook
ecommerce | shoppers in Brazil | measure: users.user_count|order_items.user_count|count(users)|count(users_table); filter: users_table.country=Brasil || source: users|users_table; filter: users_table.country=Brasil
ecommerce | sales of women's clothing | measure: order_items.total_sales|sum(order_items_table.sale_price); filter: product_table.department=Women|inventory_items_table.product_department=Women
ecommerce | VIP customers | source: user_order_facts|users|users_table|order_items; filter: user_order_facts.spend_category=VIP || measure: users.user_count|order_items.user_count|count(user_order_facts)|count(users)|count(users_table); filter: user_order_facts.spend_category=VIP
ecommerce | orders from California | measure: order_items.order_count|count(order_items)|count(order_items_table); filter: users_table.state=California || source: order_items|order_items_table; filter: users_table.state=California
ecommerce | count | measure: order_items.order_count|order_items.order_item_count|users.user_count|order_items.user_count|product.product_count|order_items.product_count|inventory_items.inventory_item_count|count(order_items)|count(order_items_table)|count(users)|count(users_table)|count(product)|count(product_table)|count(inventory_items)|count(inventory_items_table)
ecommerce | name | field: users.full_name|users_table.first_name|users_table.last_name|product_table.name|inventory_items_table.product_name
ecommerce | date | field: order_items_table.created_at|users_table.created_at|inventory_items_table.created_at
ecommerce | cost | field: inventory_items_table.cost|product_table.cost || measure: inventory_items.total_cost|sum(inventory_items_table.cost)
ecommerce | brand of each item sold | source: order_items|order_items_table; field: inventory_items_table.product_brand|product_table.brand
ecommerce | state of the buyer for each order | source: order_items|order_items_table; field: users_table.state
ecommerce | spend category of the customers behind each order | source: order_items|order_items_table; field: user_order_facts.spend_category
ecommerce | age of the customer on each purchase | source: order_items|order_items_table; field: users_table.age
ecommerce | how many orders | measure: order_items.order_count|distinct(order_items_table.order_id)
ecommerce | how many customers | measure: users.user_count|order_items.user_count|count(users)|count(users_table)|distinct(order_items_table.user_id)
ecommerce | sales by month | view: order_items.by_month || measure: order_items.total_sales|sum(order_items_table.sale_price); group: order_items_table.created_at@month
ecommerce | sales per year | view: order_items.by_year || measure: order_items.total_sales|sum(order_items_table.sale_price); group: order_items_table.created_at@year
ecommerce | top 5 categories | view: order_items.top_categories || measure: order_items.total_sales|sum(order_items_table.sale_price); group: inventory_items_table.product_category|product_table.category; top
ecommerce | best selling brands | view: order_items.top_brands || measure: order_items.total_sales|order_items.order_item_count|sum(order_items_table.sale_price)|count(order_items)|count(order_items_table); group: inventory_items_table.product_brand|product_table.brand; top
ecommerce | sales by state | view: order_items.sales_by_state || measure: order_items.total_sales|sum(order_items_table.sale_price); group: users_table.state
ecommerce | orders by status | view: order_items.orders_by_status || measure: order_items.order_count|count(order_items)|count(order_items_table); group: order_items_table.status
ecommerce | monthly sales in 2022 | view: order_items.sales_by_month_2022 || measure: order_items.total_sales|sum(order_items_table.sale_price); group: order_items_table.created_at@month; filter: order_items_table.created_at
ecommerce | performance of each brand | view: order_items.brand_dashboard|order_items.top_brands || measure: order_items.total_sales|sum(order_items_table.sale_price); group: inventory_items_table.product_brand|product_table.brand
names | how many babies were born | measure: names.population|sum(names.number)|cohort.population|sum(cohort.cohort_size)
names | boy or girl | field: names.gender || view: names.by_gender
names | ten-year span of birth | field: names.decade || view: names.by_decade
names | most common things parents call their kids | view: names.by_name || measure: names.population|sum(names.number); group: names.name; top
names | monikers given to boys and girls alike | view: names2.gender_neutral_names
names | which part of the country do the babies come from | field: names.state || view: names.by_state
names | monikers that fell out of fashion and came back | view: names2.resurgent_names
names | newborns out of every hundred thousand | measure: names.births_per_100k
names | total newborns in a group of the same sex, place and year | field: cohort.cohort_size || measure: cohort.population|sum(cohort.cohort_size)
names | which monikers define each region | view: names2.iconic_names_by_state
names | how the split between boys and girls shifted over time | view: names2.gender_year || measure: names.population|sum(names.number); group: names.gender, names.year_born|names.decade
names | how female each region is | view: names2.gender_by_state || measure: names.population|sum(names.number); group: names.state; filter: names.gender=F || measure: names.population|sum(names.number); group: names.state, names.gender
names | trend lines for the top monikers | view: names2.names_chart|names.by_name
names | look up a moniker or place | view: names2.search_index
names | year of birth | field: names.year_born
names | number of births | measure: names.population|sum(names.number) || field: names.number
names | rate per 100,000 births | measure: names.births_per_100k
names | size of each birth cohort | field: cohort.cohort_size || measure: cohort.population|sum(cohort.cohort_size)
names | most popular names by decade | view: names.by_decade || measure: names.population|names.births_per_100k|sum(names.number); group: names.decade, names.name
names | dashboard of Kelly over time and place | view: names2.kelly_time_space_dashboard
names | unisex names | view: names2.gender_neutral_names
names | names that made a comeback | view: names2.resurgent_names
names | name popularity chart | view: names2.names_chart|names2.name_dashboard
names | baby's sex | field: names.gender
names | babies born in Texas | measure: names.population|sum(names.number); filter: names.state=TX
names | girls' names | filter: names.gender=F; field: names.name || view: names.by_name; filter: names.gender=F
names | most popular boy names | view: names.by_name; filter: names.gender=M || measure: names.population|sum(names.number); group: names.name; filter: names.gender=M; top
names | top names in California | view: names.by_name; filter: names.state=CA || measure: names.population|sum(names.number); group: names.name; filter: names.state=CA; top
names | births in New York | measure: names.population|sum(names.number); filter: names.state=NY
names | how many babies were named Kelly | measure: names.population|sum(names.number); filter: names.name=Kelly || view: names2.kelly_time_space_dashboard
names | popularity of the name Jessie over time | measure: names.population|names.births_per_100k|sum(names.number); group: names.year_born|names.decade; filter: names.name=Jessie
names | girls born in Ohio | measure: names.population|sum(names.number); filter: names.state=OH, names.gender=F
names | most common names in Hawaii | view: names.by_name; filter: names.state=HI || measure: names.population|sum(names.number); group: names.name; filter: names.state=HI; top
names | boys born in Utah by decade | view: names.by_decade; filter: names.state=UT, names.gender=M || measure: names.population|names.births_per_100k|sum(names.number); group: names.decade; filter: names.state=UT, names.gender=M
names | name | field: names.name
names | state | field: names.state|cohort.state
names | year | field: names.year_born|cohort.year_born
names | count | measure: names.population|cohort.population|sum(names.number)|sum(cohort.cohort_size)|count(names)|count(cohort) || field: names.number
names | size of the cohort each name belongs to | source: names2; field: cohort.cohort_size || source: names2; measure: cohort.population|sum(cohort.cohort_size)
names | all births in the same state and year as each name | source: names2; field: cohort.cohort_size || source: names2; measure: cohort.population|sum(cohort.cohort_size)
names | how many babies were born each year | measure: names.population|sum(names.number); group: names.year_born
names | births by state | view: names.by_state || measure: names.population|names.births_per_100k|sum(names.number); group: names.state
names | top 10 names | view: names.by_name || measure: names.population|sum(names.number); group: names.name; top
names | births by decade | view: names.by_decade || measure: names.population|names.births_per_100k|sum(names.number); group: names.decade
names | births by gender | view: names.by_gender || measure: names.population|sum(names.number); group: names.gender
names | total number of babies | measure: names.population|sum(names.number)
names | which decade had the most births | view: names.by_decade || measure: names.population|sum(names.number); group: names.decade; top
names | list of names | field: names.name
names | percent female by state | view: names2.gender_by_state || measure: names.population|sum(names.number); group: names.state; filter: names.gender=F || measure: names.population|sum(names.number); group: names.state, names.gender
names | births by year and gender | view: names2.gender_year || measure: names.population|sum(names.number); group: names.year_born, names.gender
names | name dashboard | view: names2.name_dashboard|names2.kelly_time_space_dashboard
auto_recalls | how many vehicles might have the flaw | measure: recalls.total_defects|sum(recalls.Potentially Affected) || field: recalls.Potentially Affected
auto_recalls | which automaker | field: recalls.Manufacturer || view: recalls.by_manufacturer
auto_recalls | what part of the car is faulty | field: recalls.Component
auto_recalls | what could happen if it isn't fixed | field: recalls.Consequence Summary
auto_recalls | remedy offered to owners | field: recalls.Corrective Action
auto_recalls | should owners leave it outdoors because of fire risk | field: recalls.Park Outside Advisory || source: recalls; filter: recalls.Park Outside Advisory=Yes || measure: recalls.recall_count|count(recalls); filter: recalls.Park Outside Advisory=Yes
auto_recalls | is it unsafe to get behind the wheel | field: recalls.Do Not Drive Advisory || source: recalls; filter: recalls.Do Not Drive Advisory=Yes || measure: recalls.recall_count|count(recalls); filter: recalls.Do Not Drive Advisory=Yes
auto_recalls | short headline of the problem | field: recalls.Subject
auto_recalls | full explanation of the problem | field: recalls.Recall Description
auto_recalls | government case number | field: recalls.NHTSA ID
auto_recalls | web page for the notice | field: recalls.recall_url|recalls.Recall Link
auto_recalls | the carmaker's internal reference | field: recalls.Mfr Campaign Number
auto_recalls | when was the notice filed | field: recalls.Report Received Date
auto_recalls | is it a car, a tire or a child seat | field: recalls.Recall Type || view: recalls.by_type
auto_recalls | largest campaigns ever by vehicles involved | view: recalls.biggest_recalls || source: recalls; field: recalls.Potentially Affected || measure: recalls.total_defects|sum(recalls.Potentially Affected); group: recalls.NHTSA ID|recalls.Subject; top
auto_recalls | latest notices | view: recalls.recent_recalls || source: recalls; field: recalls.Report Received Date
auto_recalls | which carmakers have the most problems | view: recalls.by_manufacturer || measure: recalls.recall_count|count(recalls); group: recalls.Manufacturer; top
auto_recalls | fraction of all notices | measure: recalls.percent_of_recalls
auto_recalls | safety campaigns | source: recalls
auto_recalls | units potentially affected | field: recalls.Potentially Affected || measure: recalls.total_defects|sum(recalls.Potentially Affected)
auto_recalls | date the recall was reported | field: recalls.Report Received Date
auto_recalls | maker of the vehicle | field: recalls.Manufacturer
auto_recalls | recall campaign number | field: recalls.NHTSA ID|recalls.Mfr Campaign Number
auto_recalls | consequence of the defect | field: recalls.Consequence Summary
auto_recalls | link to the recall on nhtsa.gov | field: recalls.recall_url|recalls.Recall Link
auto_recalls | share of recalls | measure: recalls.percent_of_recalls
auto_recalls | kind of recall | field: recalls.Recall Type || view: recalls.by_type
auto_recalls | description of the defect | field: recalls.Recall Description|recalls.Subject
auto_recalls | Tesla recalls | source: recalls; filter: recalls.Manufacturer="Tesla, Inc." || measure: recalls.recall_count|count(recalls); filter: recalls.Manufacturer="Tesla, Inc."
auto_recalls | how many Ford recalls | measure: recalls.recall_count|count(recalls); filter: recalls.Manufacturer=Ford Motor Company
auto_recalls | air bag recalls | source: recalls; filter: recalls.Component=AIR BAGS || measure: recalls.recall_count|count(recalls); filter: recalls.Component=AIR BAGS
auto_recalls | brake problems | source: recalls; filter: recalls.Component="SERVICE BRAKES, HYDRAULIC"|recalls.Component=PARKING BRAKE || measure: recalls.recall_count|count(recalls); filter: recalls.Component="SERVICE BRAKES, HYDRAULIC"|recalls.Component=PARKING BRAKE || source: recalls; filter: recalls.Recall Description || measure: recalls.recall_count|count(recalls); filter: recalls.Recall Description
auto_recalls | tire recalls | source: recalls; filter: recalls.Recall Type=Tire|recalls.Component=TIRES || measure: recalls.recall_count|count(recalls); filter: recalls.Recall Type=Tire|recalls.Component=TIRES
auto_recalls | child seat recalls | source: recalls; filter: recalls.Recall Type=Child Seat|recalls.Component=CHILD SEAT || measure: recalls.recall_count|count(recalls); filter: recalls.Recall Type=Child Seat|recalls.Component=CHILD SEAT
auto_recalls | recalls where owners are told not to drive | source: recalls; filter: recalls.Do Not Drive Advisory=Yes || measure: recalls.recall_count|count(recalls); filter: recalls.Do Not Drive Advisory=Yes
auto_recalls | vehicles that should be parked outside | source: recalls; filter: recalls.Park Outside Advisory=Yes || measure: recalls.recall_count|recalls.total_defects|count(recalls)|sum(recalls.Potentially Affected); filter: recalls.Park Outside Advisory=Yes
auto_recalls | Harley-Davidson recalls | source: recalls; filter: recalls.Manufacturer=Harley-Davidson Motor Company || measure: recalls.recall_count|count(recalls); filter: recalls.Manufacturer=Harley-Davidson Motor Company
auto_recalls | seat belt defects | source: recalls; filter: recalls.Component=SEAT BELTS || measure: recalls.recall_count|count(recalls); filter: recalls.Component=SEAT BELTS
auto_recalls | equipment recalls by year | view: recalls.by_year; filter: recalls.Recall Type=Equipment || measure: recalls.recall_count|count(recalls); group: recalls.Report Received Date@year; filter: recalls.Recall Type=Equipment
auto_recalls | steering recalls at General Motors | source: recalls; filter: recalls.Component=STEERING, recalls.Manufacturer="General Motors, LLC" || measure: recalls.recall_count|count(recalls); filter: recalls.Component=STEERING, recalls.Manufacturer="General Motors, LLC"
auto_recalls | date | field: recalls.Report Received Date
auto_recalls | count | measure: recalls.recall_count|count(recalls)
auto_recalls | type | field: recalls.Recall Type || view: recalls.by_type
auto_recalls | number | field: recalls.NHTSA ID|recalls.Mfr Campaign Number|recalls.Potentially Affected || measure: recalls.recall_count|count(recalls)
auto_recalls | how many recalls | measure: recalls.recall_count|count(recalls)
auto_recalls | recalls by manufacturer | view: recalls.by_manufacturer || measure: recalls.recall_count|count(recalls); group: recalls.Manufacturer
auto_recalls | recalls per year | view: recalls.by_year || measure: recalls.recall_count|count(recalls); group: recalls.Report Received Date@year
auto_recalls | recalls by type | view: recalls.by_type || measure: recalls.recall_count|count(recalls); group: recalls.Recall Type
auto_recalls | most recent recalls | view: recalls.recent_recalls || source: recalls; field: recalls.Report Received Date
auto_recalls | biggest recalls | view: recalls.biggest_recalls || source: recalls; field: recalls.Potentially Affected
auto_recalls | yearly recalls of the top manufacturers | view: recalls.by_year_manufacturer_line_chart || measure: recalls.recall_count|count(recalls); group: recalls.Report Received Date@year, recalls.Manufacturer
auto_recalls | recall overview | view: recalls.recall_dashboard
auto_recalls | vehicles affected per year | measure: recalls.total_defects|sum(recalls.Potentially Affected); group: recalls.Report Received Date@year
auto_recalls | which components are recalled most | measure: recalls.recall_count|recalls.total_defects|count(recalls)|sum(recalls.Potentially Affected); group: recalls.Component; top
auto_recalls | total defects by manufacturer | view: recalls.by_manufacturer || measure: recalls.total_defects|sum(recalls.Potentially Affected); group: recalls.Manufacturer
the_met | which curatorial area holds the piece | field: met_objects.department || view: met_objects.by_department
the_met | who made it | field: met_objects.artist_display_name|met_objects.artist_alpha_sort || view: met_objects.by_artist
the_met | what material is it made from | field: met_objects.medium
the_met | how big is it | field: met_objects.dimensions
the_met | how did the museum acquire it | field: met_objects.credit_line
the_met | famous masterpieces | source: met_objects; filter: met_objects.is_highlight=true || measure: met_objects.object_count|count(met_objects); filter: met_objects.is_highlight=true || field: met_objects.is_highlight
the_met | works free to reuse without copyright | source: met_objects; filter: met_objects.is_public_domain=true || measure: met_objects.object_count|count(met_objects); filter: met_objects.is_public_domain=true || field: met_objects.is_public_domain|met_objects.rights_and_reproduction
the_met | which dig site was it found at | field: met_objects.excavation|met_objects.locus|met_objects.locale
the_met | which civilization produced it | field: met_objects.culture
the_met | when was the maker born | field: met_objects.artist_begin_date
the_met | where was the painter from | field: met_objects.artist_nationality
the_met | the centuries the works come from | field: met_objects.object_era || view: met_objects.by_object_era
the_met | pictures of the pieces | view: met_objects.image_list|met_objects.random_image_list || field: images.original_image_url|met_objects.image_thumb || source: images
the_met | small preview picture | field: met_objects.image_thumb
the_met | when was the piece created | field: met_objects.object_date|met_objects.object_begin_date
the_met | ruling house in power at the time | field: met_objects.dynasty|met_objects.reign
the_met | which nation does it come from | field: met_objects.country || view: met_objects.by_country
the_met | how many pieces does the museum own | measure: met_objects.object_count|count(met_objects)
the_met | accession tag of a piece | field: met_objects.object_number
the_met | a few sample pictures to browse | view: met_objects.random_image_list|met_objects.image_list
the_met | camera work from the twentieth century on | view: met_objects.department_dashboard || source: met_objects; filter: met_objects.department=Photographs|met_objects.classification=Photographs, met_objects.object_begin_date || measure: met_objects.object_count|count(met_objects); filter: met_objects.department=Photographs|met_objects.classification=Photographs, met_objects.object_begin_date
the_met | artist name | field: met_objects.artist_display_name|met_objects.artist_alpha_sort
the_met | nationality of the artist | field: met_objects.artist_nationality
the_met | year the object was begun | field: met_objects.object_begin_date
the_met | image url | field: images.original_image_url|met_objects.image_thumb|images.gcs_url
the_met | image caption | field: images.caption|images.public_caption
the_met | artist biography | field: met_objects.artist_display_bio
the_met | historical period | field: met_objects.period
the_met | kind of object | field: met_objects.object_name|met_objects.classification
the_met | Egyptian art | source: met_objects; filter: met_objects.department=Egyptian Art|met_objects.culture=Egyptian || measure: met_objects.object_count|count(met_objects); filter: met_objects.department=Egyptian Art|met_objects.culture=Egyptian
the_met | how many photographs are in the collection | measure: met_objects.object_count|count(met_objects); filter: met_objects.department=Photographs|met_objects.classification=Photographs
the_met | objects from Iran | source: met_objects; filter: met_objects.country=Iran|met_objects.culture=Iran || measure: met_objects.object_count|count(met_objects); filter: met_objects.country=Iran|met_objects.culture=Iran
the_met | Japanese prints | source: met_objects; filter: met_objects.culture=Japanese, met_objects.classification=Prints || measure: met_objects.object_count|count(met_objects); filter: met_objects.culture=Japanese, met_objects.classification=Prints
the_met | works from the Edo period | source: met_objects; filter: met_objects.period="Edo period (1615–1868)" || measure: met_objects.object_count|count(met_objects); filter: met_objects.period="Edo period (1615–1868)"
the_met | oil paintings | source: met_objects; filter: met_objects.medium=Oil on canvas|met_objects.classification=Paintings || measure: met_objects.object_count|count(met_objects); filter: met_objects.medium=Oil on canvas|met_objects.classification=Paintings
the_met | French artists | field: met_objects.artist_display_name; filter: met_objects.artist_nationality=French || view: met_objects.by_artist; filter: met_objects.artist_nationality=French
the_met | arms and armor | source: met_objects; filter: met_objects.department=Arms and Armor || measure: met_objects.object_count|count(met_objects); filter: met_objects.department=Arms and Armor
the_met | musical instruments by country | view: met_objects.by_country; filter: met_objects.department=Musical Instruments|met_objects.classification=Musical Instruments || measure: met_objects.object_count|count(met_objects); group: met_objects.country; filter: met_objects.department=Musical Instruments|met_objects.classification=Musical Instruments
the_met | title | field: met_objects.title|images.title
the_met | date | field: met_objects.object_date|met_objects.object_begin_date|met_objects.metadata_date
the_met | count | measure: met_objects.object_count|met_objects.image_count|count(met_objects)|count(images)
the_met | name | field: met_objects.artist_display_name|met_objects.object_name
the_met | caption of each object's image | source: met_objects; field: images.caption|images.public_caption
the_met | original image address for each object | source: met_objects; field: images.original_image_url
the_met | open access flag of the images of each object | source: met_objects; field: images.is_oasc || source: met_objects; filter: images.is_oasc=true
the_met | how many objects | measure: met_objects.object_count|count(met_objects)
the_met | objects by department | view: met_objects.by_department || measure: met_objects.object_count|count(met_objects); group: met_objects.department
the_met | objects per classification | view: met_objects.by_classification || measure: met_objects.object_count|count(met_objects); group: met_objects.classification
the_met | artists with the most works | view: met_objects.by_artist || measure: met_objects.object_count|count(met_objects); group: met_objects.artist_display_name; top
the_met | how many images | measure: met_objects.image_count|count(images)
the_met | objects by era | view: met_objects.by_object_era || measure: met_objects.object_count|count(met_objects); group: met_objects.object_era
the_met | objects by country | view: met_objects.by_country || measure: met_objects.object_count|count(met_objects); group: met_objects.country
the_met | collection overview by department | view: met_objects.over_view_dashboard|met_objects.by_department || measure: met_objects.object_count|count(met_objects); group: met_objects.department
`;
