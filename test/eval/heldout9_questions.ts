/**
 * The ninth held-out set's questions (models in
 * test/eval/heldout9_packages.ts, transcribed from malloydata/malloy-samples),
 * written as users would ask them, from the models alone, without reading
 * the retrieval code or any of its output, and committed before any score
 * was run on them. Same line format and categories as
 * test/eval/questions.ts; `noword` questions share no word (after stemming)
 * with the target's name (the samples have no docs or labels). Never tuned on.
 * @module
 */
import { parseQuestions, type EvalQuestion } from "./questions.ts";

const RAW = `
noword | ecommerce | how much money did we make | order_items.total_sales
noword | ecommerce | profit after what the goods cost us | order_items.total_gross_margin || order_items.gross_margin || order_items.average_gross_margin
noword | ecommerce | where did shoppers hear about us | users_table.traffic_source
noword | ecommerce | our most valuable buyers | order_items.top_customers || user_order_facts.top_customer || user_order_facts.spend_category
noword | ecommerce | people who send lots of stuff back | order_items.frequent_returners
noword | ecommerce | is the item for him or for her | product_table.department || inventory_items_table.product_department
noword | ecommerce | which warehouse ships it | product_table.distribution_center_id || inventory_items_table.product_distribution_center_id
noword | ecommerce | when did the parcel leave | order_items_table.shipped_at
noword | ecommerce | how this year compares with last | order_items.sales_summary_yoy || order_items.total_sales_2022 || order_items.total_sales_2021
noword | ecommerce | how many times has each shopper bought from us | user_order_facts.lifetime_orders || user_order_facts.lifetime_order_tier
noword | ecommerce | a buyer's latest purchase date | user_order_facts.most_recent_order
noword | ecommerce | stock keeping unit code | product_table.sku || inventory_items_table.product_sku
noword | ecommerce | which fashion label made it | product_table.brand || inventory_items_table.product_brand
noword | ecommerce | type of garment | product_table.category || inventory_items_table.product_category
noword | ecommerce | biggest sellers | order_items.top_products || order_items.top_brands || order_items.top_categories
noword | ecommerce | shoppers | users
noword | ecommerce | a snapshot of how the shop is doing | order_items.business_overview_dashboard
noword | ecommerce | latest transactions | order_items.recent_purchases
syn | ecommerce | lifetime spend of a customer | user_order_facts.lifetime_spend
syn | ecommerce | date of a customer's first order | user_order_facts.first_order
syn | ecommerce | margin on each item sold | order_items.gross_margin || order_items.average_gross_margin
syn | ecommerce | share of total revenue | order_items.percent_of_sales
syn | ecommerce | price an item sold for | order_items_table.sale_price
syn | ecommerce | number of units in stock | inventory_items.inventory_item_count
syn | ecommerce | customer's full name | users.full_name
syn | ecommerce | date an item came back | order_items_table.returned_at
syn | ecommerce | customer spending tier | user_order_facts.spend_category || user_order_facts.lifetime_order_tier
value | ecommerce | sales of jeans | product_table.category=Jeans || inventory_items_table.product_category=Jeans
value | ecommerce | returned items | order_items_table.status=Returned
value | ecommerce | how many orders were cancelled | order_items_table.status=Cancelled
value | ecommerce | revenue from Calvin Klein | product_table.brand=Calvin Klein || inventory_items_table.product_brand=Calvin Klein
value | ecommerce | customers who came from Facebook | users_table.traffic_source=Facebook
value | ecommerce | shoppers in Brazil | users_table.country=Brasil
value | ecommerce | sales of women's clothing | product_table.department=Women || inventory_items_table.product_department=Women
value | ecommerce | VIP customers | user_order_facts.spend_category=VIP
value | ecommerce | orders from California | users_table.state=California
trap | ecommerce | count | order_items.order_count || order_items.order_item_count || users.user_count || order_items.user_count || product.product_count || order_items.product_count || inventory_items.inventory_item_count
trap | ecommerce | name | users.full_name || users_table.first_name || users_table.last_name || product_table.name || inventory_items_table.product_name
trap | ecommerce | date | order_items_table.created_at || users_table.created_at || inventory_items_table.created_at
trap | ecommerce | cost | inventory_items_table.cost || product_table.cost || inventory_items.total_cost
join | ecommerce | brand of each item sold | inventory_items_table.product_brand || product_table.brand
join | ecommerce | state of the buyer for each order | users_table.state
join | ecommerce | spend category of the customers behind each order | user_order_facts.spend_category
join | ecommerce | age of the customer on each purchase | users_table.age
kind | ecommerce | how many orders | order_items.order_count
kind | ecommerce | how many customers | users.user_count || order_items.user_count
kind | ecommerce | sales by month | order_items.by_month || order_items.total_sales
kind | ecommerce | sales per year | order_items.by_year || order_items.total_sales
kind | ecommerce | top 5 categories | order_items.top_categories
kind | ecommerce | best selling brands | order_items.top_brands
kind | ecommerce | sales by state | order_items.sales_by_state
kind | ecommerce | orders by status | order_items.orders_by_status
kind | ecommerce | monthly sales in 2022 | order_items.sales_by_month_2022
kind | ecommerce | performance of each brand | order_items.brand_dashboard || order_items.top_brands
noword | names | how many babies were born | names.population || names.number
noword | names | boy or girl | names.gender || names.by_gender
noword | names | ten-year span of birth | names.decade || names.by_decade
noword | names | most common things parents call their kids | names.by_name
noword | names | monikers given to boys and girls alike | names2.gender_neutral_names
noword | names | which part of the country do the babies come from | names.state || names.by_state
noword | names | monikers that fell out of fashion and came back | names2.resurgent_names
noword | names | newborns out of every hundred thousand | names.births_per_100k
noword | names | total newborns in a group of the same sex, place and year | cohort.cohort_size || cohort.population
noword | names | which monikers define each region | names2.iconic_names_by_state
noword | names | how the split between boys and girls shifted over time | names2.gender_year || names.by_gender
noword | names | how female each region is | names2.gender_by_state
noword | names | trend lines for the top monikers | names2.names_chart
noword | names | look up a moniker or place | names2.search_index
syn | names | year of birth | names.year_born
syn | names | number of births | names.population || names.number
syn | names | rate per 100,000 births | names.births_per_100k
syn | names | size of each birth cohort | cohort.cohort_size || cohort.population
syn | names | most popular names by decade | names.by_decade || names.decade
syn | names | dashboard of Kelly over time and place | names2.kelly_time_space_dashboard
syn | names | unisex names | names2.gender_neutral_names
syn | names | names that made a comeback | names2.resurgent_names
syn | names | name popularity chart | names2.names_chart || names2.name_dashboard
syn | names | baby's sex | names.gender
value | names | babies born in Texas | names.state=TX
value | names | girls' names | names.gender=F
value | names | most popular boy names | names.gender=M
value | names | top names in California | names.state=CA
value | names | births in New York | names.state=NY
value | names | how many babies were named Kelly | names.name=Kelly || names2.kelly_time_space_dashboard
value | names | popularity of the name Jessie over time | names.name=Jessie
value | names | girls born in Ohio | names.state=OH || names.gender=F
value | names | most common names in Hawaii | names.state=HI
value | names | boys born in Utah by decade | names.state=UT || names.gender=M
trap | names | name | names.name
trap | names | state | names.state || cohort.state
trap | names | year | names.year_born || cohort.year_born
trap | names | count | names.population || names.number || cohort.population
join | names | size of the cohort each name belongs to | cohort.cohort_size || cohort.population
join | names | all births in the same state and year as each name | cohort.population || cohort.cohort_size
kind | names | how many babies were born each year | names.population || names.year_born
kind | names | births by state | names.by_state || names.population
kind | names | top 10 names | names.by_name
kind | names | births by decade | names.by_decade
kind | names | births by gender | names.by_gender
kind | names | total number of babies | names.population
kind | names | which decade had the most births | names.by_decade || names.decade
kind | names | list of names | names.name
kind | names | percent female by state | names2.gender_by_state
kind | names | births by year and gender | names2.gender_year
kind | names | name dashboard | names2.name_dashboard || names2.kelly_time_space_dashboard
noword | auto_recalls | how many vehicles might have the flaw | recalls.total_defects || recalls.Potentially Affected
noword | auto_recalls | which automaker | recalls.Manufacturer || recalls.by_manufacturer
noword | auto_recalls | what part of the car is faulty | recalls.Component
noword | auto_recalls | what could happen if it isn't fixed | recalls.Consequence Summary
noword | auto_recalls | remedy offered to owners | recalls.Corrective Action
noword | auto_recalls | should owners leave it outdoors because of fire risk | recalls.Park Outside Advisory
noword | auto_recalls | is it unsafe to get behind the wheel | recalls.Do Not Drive Advisory
noword | auto_recalls | short headline of the problem | recalls.Subject
noword | auto_recalls | full explanation of the problem | recalls.Recall Description
noword | auto_recalls | government case number | recalls.NHTSA ID
noword | auto_recalls | web page for the notice | recalls.recall_url || recalls.Recall Link
noword | auto_recalls | the carmaker's internal reference | recalls.Mfr Campaign Number
noword | auto_recalls | when was the notice filed | recalls.Report Received Date
noword | auto_recalls | is it a car, a tire or a child seat | recalls.Recall Type || recalls.by_type
noword | auto_recalls | largest campaigns ever by vehicles involved | recalls.biggest_recalls
noword | auto_recalls | latest notices | recalls.recent_recalls
noword | auto_recalls | which carmakers have the most problems | recalls.by_manufacturer || recalls.Manufacturer
noword | auto_recalls | fraction of all notices | recalls.percent_of_recalls
noword | auto_recalls | safety campaigns | recalls
syn | auto_recalls | units potentially affected | recalls.Potentially Affected || recalls.total_defects
syn | auto_recalls | date the recall was reported | recalls.Report Received Date
syn | auto_recalls | maker of the vehicle | recalls.Manufacturer
syn | auto_recalls | recall campaign number | recalls.NHTSA ID || recalls.Mfr Campaign Number
syn | auto_recalls | consequence of the defect | recalls.Consequence Summary
syn | auto_recalls | link to the recall on nhtsa.gov | recalls.recall_url || recalls.Recall Link
syn | auto_recalls | share of recalls | recalls.percent_of_recalls
syn | auto_recalls | kind of recall | recalls.Recall Type || recalls.by_type
syn | auto_recalls | description of the defect | recalls.Recall Description || recalls.Subject
value | auto_recalls | Tesla recalls | recalls.Manufacturer=Tesla, Inc.
value | auto_recalls | how many Ford recalls | recalls.Manufacturer=Ford Motor Company
value | auto_recalls | air bag recalls | recalls.Component=AIR BAGS
value | auto_recalls | brake problems | recalls.Component=SERVICE BRAKES, HYDRAULIC || recalls.Component=PARKING BRAKE
value | auto_recalls | tire recalls | recalls.Recall Type=Tire || recalls.Component=TIRES
value | auto_recalls | child seat recalls | recalls.Recall Type=Child Seat || recalls.Component=CHILD SEAT
value | auto_recalls | recalls where owners are told not to drive | recalls.Do Not Drive Advisory=Yes
value | auto_recalls | vehicles that should be parked outside | recalls.Park Outside Advisory=Yes
value | auto_recalls | Harley-Davidson recalls | recalls.Manufacturer=Harley-Davidson Motor Company
value | auto_recalls | seat belt defects | recalls.Component=SEAT BELTS
value | auto_recalls | equipment recalls by year | recalls.Recall Type=Equipment
value | auto_recalls | steering recalls at General Motors | recalls.Component=STEERING || recalls.Manufacturer=General Motors, LLC
trap | auto_recalls | date | recalls.Report Received Date
trap | auto_recalls | count | recalls.recall_count
trap | auto_recalls | type | recalls.Recall Type
trap | auto_recalls | number | recalls.NHTSA ID || recalls.Mfr Campaign Number || recalls.Potentially Affected || recalls.recall_count
kind | auto_recalls | how many recalls | recalls.recall_count
kind | auto_recalls | recalls by manufacturer | recalls.by_manufacturer
kind | auto_recalls | recalls per year | recalls.by_year
kind | auto_recalls | recalls by type | recalls.by_type
kind | auto_recalls | most recent recalls | recalls.recent_recalls
kind | auto_recalls | biggest recalls | recalls.biggest_recalls
kind | auto_recalls | yearly recalls of the top manufacturers | recalls.by_year_manufacturer_line_chart || recalls.by_year
kind | auto_recalls | recall overview | recalls.recall_dashboard
kind | auto_recalls | vehicles affected per year | recalls.total_defects || recalls.Potentially Affected
kind | auto_recalls | which components are recalled most | recalls.Component
kind | auto_recalls | total defects by manufacturer | recalls.by_manufacturer || recalls.total_defects
noword | the_met | which curatorial area holds the piece | met_objects.department || met_objects.by_department
noword | the_met | who made it | met_objects.artist_display_name || met_objects.by_artist
noword | the_met | what material is it made from | met_objects.medium
noword | the_met | how big is it | met_objects.dimensions
noword | the_met | how did the museum acquire it | met_objects.credit_line
noword | the_met | famous masterpieces | met_objects.is_highlight
noword | the_met | works free to reuse without copyright | met_objects.is_public_domain || met_objects.rights_and_reproduction
noword | the_met | which dig site was it found at | met_objects.excavation || met_objects.locus || met_objects.locale
noword | the_met | which civilization produced it | met_objects.culture
noword | the_met | when was the maker born | met_objects.artist_begin_date
noword | the_met | where was the painter from | met_objects.artist_nationality
noword | the_met | the centuries the works come from | met_objects.object_era || met_objects.by_object_era
noword | the_met | pictures of the pieces | images || met_objects.image_list || images.original_image_url
noword | the_met | small preview picture | met_objects.image_thumb
noword | the_met | when was the piece created | met_objects.object_date || met_objects.object_begin_date
noword | the_met | ruling house in power at the time | met_objects.dynasty || met_objects.reign
noword | the_met | which nation does it come from | met_objects.country || met_objects.by_country
noword | the_met | how many pieces does the museum own | met_objects.object_count
noword | the_met | accession tag of a piece | met_objects.object_number
noword | the_met | a few sample pictures to browse | met_objects.random_image_list || met_objects.image_list
noword | the_met | camera work from the twentieth century on | met_objects.department_dashboard
syn | the_met | artist name | met_objects.artist_display_name || met_objects.artist_alpha_sort
syn | the_met | nationality of the artist | met_objects.artist_nationality
syn | the_met | year the object was begun | met_objects.object_begin_date
syn | the_met | image url | images.original_image_url || met_objects.image_thumb
syn | the_met | image caption | images.caption || images.public_caption
syn | the_met | artist biography | met_objects.artist_display_bio
syn | the_met | historical period | met_objects.period
syn | the_met | kind of object | met_objects.object_name || met_objects.classification
value | the_met | Egyptian art | met_objects.department=Egyptian Art || met_objects.culture=Egyptian
value | the_met | how many photographs are in the collection | met_objects.department=Photographs || met_objects.classification=Photographs
value | the_met | objects from Iran | met_objects.country=Iran || met_objects.culture=Iran
value | the_met | Japanese prints | met_objects.culture=Japanese || met_objects.classification=Prints
value | the_met | works from the Edo period | met_objects.period=Edo period (1615–1868)
value | the_met | oil paintings | met_objects.medium=Oil on canvas || met_objects.classification=Paintings
value | the_met | French artists | met_objects.artist_nationality=French
value | the_met | arms and armor | met_objects.department=Arms and Armor
value | the_met | musical instruments by country | met_objects.department=Musical Instruments || met_objects.classification=Musical Instruments
trap | the_met | title | met_objects.title || images.title
trap | the_met | date | met_objects.object_date || met_objects.object_begin_date || met_objects.metadata_date
trap | the_met | count | met_objects.object_count || met_objects.image_count
trap | the_met | name | met_objects.artist_display_name || met_objects.object_name
join | the_met | caption of each object's image | images.caption || images.public_caption
join | the_met | original image address for each object | images.original_image_url
join | the_met | open access flag of the images of each object | images.is_oasc
kind | the_met | how many objects | met_objects.object_count
kind | the_met | objects by department | met_objects.by_department
kind | the_met | objects per classification | met_objects.by_classification
kind | the_met | artists with the most works | met_objects.by_artist
kind | the_met | how many images | met_objects.image_count
kind | the_met | objects by era | met_objects.by_object_era
kind | the_met | objects by country | met_objects.by_country
kind | the_met | collection overview by department | met_objects.over_view_dashboard || met_objects.by_department
`;

/** Every question of the ninth held-out set, in file order. */
export const HELDOUT9_QUESTIONS: EvalQuestion[] = parseQuestions(RAW);
