/**
 * The second held-out set's questions (models in
 * test/eval/heldout2_packages.ts), written as users would ask them and
 * committed before any score was run on them. Same line format and
 * categories as test/eval/questions.ts; `noword` questions share no word
 * with the target's name, doc or label. Never tuned on.
 * @module
 */
import { parseQuestions, type EvalQuestion } from "./questions.ts";

const RAW = `
noword | instacart | at what time do people shop | orders.order_hour_of_day || orders.orders_by_hour
noword | instacart | weekday of the purchase | orders.order_dow
noword | instacart | gap between a shopper's visits | orders.days_since_prior_order || orders.avg_days_between_orders
noword | instacart | products purchased once more | order_products.reordered || order_products.reorder_rate
noword | instacart | how early in the basket it was picked | order_products.add_to_cart_order || order_products.avg_cart_position
noword | instacart | shelf section of a product | aisles.aisle || products.aisle_id
noword | instacart | which store division a product belongs to | departments.department || products.department_id
noword | instacart | loyal buyers coming back for the same goods | order_products.reorder_rate
noword | instacart | how many things a shopper typically grabs in one trip | order_products.avg_basket_size
noword | instacart | groceries | products
noword | instacart | number of distinct shoppers | orders.user_count
noword | instacart | is this the shopper's first, second or tenth visit | orders.order_number
noword | instacart | booze sales | departments.department
noword | instacart | best sellers | order_products.top_products
noword | instacart | sections of the store | aisles || departments || aisles.aisle || departments.department
noword | instacart | grocery item title | products.product_name
noword | instacart | rush periods at the store | orders.orders_by_hour || orders.order_hour_of_day || orders.orders_by_weekday
syn | instacart | day of the week an order was placed | orders.order_dow
syn | instacart | days between orders | orders.days_since_prior_order || orders.avg_days_between_orders
syn | instacart | reorder flag | order_products.reordered
value | instacart | frozen food sales | departments.department=frozen || aisles.aisle=frozen produce
value | instacart | yogurt purchases | aisles.aisle=yogurt
value | instacart | pet products | departments.department=pets
trap | instacart | product name | products.product_name
trap | instacart | order number | orders.order_number
join | instacart | department of ordered products | departments.department
join | instacart | aisle of products in orders | aisles.aisle
kind | instacart | how many orders | orders.order_count
kind | instacart | orders by hour | orders.orders_by_hour || orders.order_hour_of_day
kind | instacart | average basket size | order_products.avg_basket_size
kind | instacart | which departments are there | departments.department || departments
noword | imdb | how long the film runs | titles.runtimeMinutes || titles.avg_runtime
noword | imdb | when it premiered | titles.startYear
noword | imdb | when a show stopped airing | titles.endYear
noword | imdb | explicit material | titles.isAdult
noword | imdb | untranslated name | titles.originalTitle || akas.isOriginalTitle
noword | imdb | star score from viewers | ratings.averageRating || ratings.avg_rating
noword | imdb | how many people weighed in | ratings.numVotes
noword | imdb | when did the person pass away | people.deathYear
noword | imdb | when was the person born | people.birthYear
noword | imdb | what the person does for a living | people.primaryProfession
noword | imdb | famous works of a person | people.knownForTitles
noword | imdb | part played on screen | principals.characters
noword | imdb | position in the credits | principals.ordering
noword | imdb | show an episode belongs to | episodes.parentTconst
noword | imdb | which installment within the season | episodes.episodeNumber
noword | imdb | country where a title was released under another name | akas.region
noword | imdb | cast and crew | principals
noword | imdb | crowd favourite films | ratings.top_rated || ratings.averageRating
syn | imdb | movie length in minutes | titles.runtimeMinutes
syn | imdb | release year | titles.startYear
syn | imdb | number of votes | ratings.numVotes
syn | imdb | actor's name | people.primaryName
value | imdb | horror titles | titles.genres=Horror
value | imdb | tv series | titles.titleType=tvSeries
value | imdb | directors | principals.category=director || people.primaryProfession=director
value | imdb | documentaries | titles.genres=Documentary
trap | imdb | title | titles.primaryTitle || akas.title
trap | imdb | number of titles | titles.title_count
join | imdb | rating of each title | ratings.averageRating
join | imdb | name of a cast member | people.primaryName
kind | imdb | how many titles | titles.title_count
kind | imdb | titles by genre | titles.titles_by_genre || titles.genres
kind | imdb | average runtime | titles.avg_runtime
`;

/** Every question of the second held-out set, in file order. */
export const HELDOUT2_QUESTIONS: EvalQuestion[] = parseQuestions(RAW);
