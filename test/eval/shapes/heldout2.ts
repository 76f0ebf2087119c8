/**
 * Expected shapes of the first next step for the second held-out set
 * (test/eval/heldout2_questions.ts), format of test/eval/shape_format.ts.
 * Written from the questions and test/eval/heldout2_packages.ts only, before
 * any next_steps output was seen.
 * @module
 */

/** Shapes of every question of the set. */
export const HELDOUT2 = `
instacart | at what time do people shop | view: orders.orders_by_hour || measure: orders.order_count|count(orders); group: orders.order_hour_of_day || field: orders.order_hour_of_day
instacart | weekday of the purchase | field: orders.order_dow || view: orders.orders_by_weekday
instacart | gap between a shopper's visits | field: orders.days_since_prior_order || measure: orders.avg_days_between_orders|avg(orders.days_since_prior_order)
instacart | products purchased once more | field: order_products.reordered || measure: order_products.reorder_rate || source: order_products; filter: order_products.reordered=true || measure: order_products.item_count|count(order_products); filter: order_products.reordered=true
instacart | how early in the basket it was picked | field: order_products.add_to_cart_order || measure: order_products.avg_cart_position
instacart | shelf section of a product | field: aisles.aisle|products.aisle_id
instacart | which store division a product belongs to | field: departments.department|products.department_id
instacart | loyal buyers coming back for the same goods | measure: order_products.reorder_rate
instacart | how many things a shopper typically grabs in one trip | measure: order_products.avg_basket_size
instacart | groceries | source: products
instacart | number of distinct shoppers | measure: orders.user_count
instacart | is this the shopper's first, second or tenth visit | field: orders.order_number
instacart | booze sales | measure: order_products.item_count|count(order_products); filter: departments.department=alcohol|aisles.aisle=beers coolers|aisles.aisle=red wines
instacart | best sellers | view: order_products.top_products || measure: order_products.item_count|count(order_products); group: products.product_name|order_products.product_id; top
instacart | sections of the store | field: aisles.aisle|departments.department
instacart | grocery item title | field: products.product_name
instacart | rush periods at the store | view: orders.orders_by_hour|orders.orders_by_weekday || measure: orders.order_count|count(orders); group: orders.order_hour_of_day|orders.order_dow
instacart | day of the week an order was placed | field: orders.order_dow || view: orders.orders_by_weekday
instacart | days between orders | field: orders.days_since_prior_order || measure: orders.avg_days_between_orders|avg(orders.days_since_prior_order)
instacart | reorder flag | field: order_products.reordered
instacart | frozen food sales | measure: order_products.item_count|count(order_products); filter: departments.department=frozen|aisles.aisle=frozen produce
instacart | yogurt purchases | measure: order_products.item_count|count(order_products); filter: aisles.aisle=yogurt || source: order_products; filter: aisles.aisle=yogurt
instacart | pet products | source: products; filter: departments.department=pets || measure: products.product_count|count(products); filter: departments.department=pets
instacart | product name | field: products.product_name
instacart | order number | field: orders.order_number
instacart | department of ordered products | source: order_products; field: departments.department
instacart | aisle of products in orders | source: order_products; field: aisles.aisle
instacart | how many orders | measure: orders.order_count|count(orders)
instacart | orders by hour | view: orders.orders_by_hour || measure: orders.order_count|count(orders); group: orders.order_hour_of_day
instacart | average basket size | measure: order_products.avg_basket_size
instacart | which departments are there | field: departments.department
imdb | how long the film runs | field: titles.runtimeMinutes || measure: titles.avg_runtime
imdb | when it premiered | field: titles.startYear
imdb | when a show stopped airing | field: titles.endYear
imdb | explicit material | field: titles.isAdult || source: titles; filter: titles.isAdult=true || measure: titles.title_count|count(titles); filter: titles.isAdult=true
imdb | untranslated name | field: titles.originalTitle || source: akas; filter: akas.isOriginalTitle=true
imdb | star score from viewers | field: ratings.averageRating || measure: ratings.avg_rating
imdb | how many people weighed in | field: ratings.numVotes || measure: sum(ratings.numVotes)
imdb | when did the person pass away | field: people.deathYear
imdb | when was the person born | field: people.birthYear
imdb | what the person does for a living | field: people.primaryProfession
imdb | famous works of a person | field: people.knownForTitles
imdb | part played on screen | field: principals.characters
imdb | position in the credits | field: principals.ordering
imdb | show an episode belongs to | field: episodes.parentTconst|titles.primaryTitle; source: episodes
imdb | which installment within the season | field: episodes.episodeNumber
imdb | country where a title was released under another name | field: akas.region
imdb | cast and crew | source: principals
imdb | crowd favourite films | view: ratings.top_rated || measure: ratings.avg_rating; group: titles.primaryTitle|titles.tconst|ratings.tconst; top
imdb | movie length in minutes | field: titles.runtimeMinutes
imdb | release year | field: titles.startYear
imdb | number of votes | field: ratings.numVotes
imdb | actor's name | field: people.primaryName
imdb | horror titles | source: titles; filter: titles.genres=Horror || measure: titles.title_count|count(titles); filter: titles.genres=Horror
imdb | tv series | source: titles; filter: titles.titleType=tvSeries || measure: titles.title_count|count(titles); filter: titles.titleType=tvSeries
imdb | directors | source: principals; filter: principals.category=director|people.primaryProfession=director || source: people; filter: people.primaryProfession=director || measure: people.person_count|principals.credit_count|count(people)|count(principals); filter: principals.category=director|people.primaryProfession=director
imdb | documentaries | source: titles; filter: titles.genres=Documentary || measure: titles.title_count|count(titles); filter: titles.genres=Documentary
imdb | title | field: titles.primaryTitle|akas.title
imdb | number of titles | measure: titles.title_count|count(titles)
imdb | rating of each title | source: titles; field: ratings.averageRating
imdb | name of a cast member | source: principals; field: people.primaryName
imdb | how many titles | measure: titles.title_count|count(titles)
imdb | titles by genre | view: titles.titles_by_genre || measure: titles.title_count|count(titles); group: titles.genres
imdb | average runtime | measure: titles.avg_runtime|avg(titles.runtimeMinutes)
`;
