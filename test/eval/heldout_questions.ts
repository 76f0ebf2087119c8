/**
 * The held-out set's questions (models in test/eval/heldout_packages.ts),
 * written as users would ask them and committed before any score was run on
 * them. Same line format and categories as test/eval/questions.ts; `noword`
 * questions share no word with the target's name, doc or label. Never tuned
 * on: `bun run eval` prints it apart from the development set's halves.
 * @module
 */
import { parseQuestions, type EvalQuestion } from "./questions.ts";

const RAW = `
noword | olist | how do shoppers settle the bill | payments.payment_type
noword | olist | how many monthly chunks the purchase was split into | payments.payment_installments
noword | olist | stars the buyer left | reviews.review_score
noword | olist | feedback text written by the buyer | reviews.review_comment_message
noword | olist | when did the parcel reach the buyer | orders.order_delivered_customer_date
noword | olist | when was the package given to the courier | orders.order_delivered_carrier_date
noword | olist | promised arrival day | orders.order_estimated_delivery_date
noword | olist | how heavy is the item | products.product_weight_g
noword | olist | number of pictures in the listing | products.product_photos_qty
noword | olist | cost of sending each item | order_items.freight_value
noword | olist | merchants | sellers
noword | olist | vendor's town | sellers.seller_city
noword | olist | parcels that showed up behind schedule | orders.late_delivery_count
noword | olist | typical wait until goods arrive | orders.avg_delivery_days
noword | olist | dissatisfied shoppers | reviews.low_score_reviews
noword | olist | province of the shopper | customers.customer_state
noword | olist | map coordinates of a postcode | geolocation.geolocation_lat || geolocation.geolocation_lng
syn | olist | payment method | payments.payment_type
syn | olist | review rating | reviews.review_score
syn | olist | product category in English | category_translation.product_category_name_english
syn | olist | purchase date of an order | orders.order_purchase_timestamp
value | olist | orders paid with boleto | payments.payment_type=boleto
value | olist | customers in Rio de Janeiro | customers.customer_city=rio de janeiro || customers.customer_state=RJ
value | olist | canceled orders | orders.order_status=canceled
value | olist | sales of health and beauty products | category_translation.product_category_name_english=health_beauty || products.product_category_name=beleza_saude
trap | olist | order date | orders.order_purchase_timestamp
trap | olist | number of items | order_items.item_count
join | olist | customer state of each order | customers.customer_state
join | olist | seller state of items sold | sellers.seller_state
kind | olist | how many orders were delivered | orders.delivered_order_count || orders.order_status
kind | olist | average review score | reviews.avg_review_score
kind | olist | orders by status | orders.orders_by_status || orders.order_status
noword | nyc_taxi | gratuity | trips.tip_amount || trips.avg_tip
noword | nyc_taxi | how many riders were in the cab | trips.passenger_count
noword | nyc_taxi | how far did the ride go | trips.trip_distance
noword | nyc_taxi | when the ride began | trips.tpep_pickup_datetime
noword | nyc_taxi | when the passenger got out | trips.tpep_dropoff_datetime
noword | nyc_taxi | bridge and tunnel charges | trips.tolls_amount
noword | nyc_taxi | how the rider paid | trips.payment_type_name || trips.payment_type
noword | nyc_taxi | neighborhood where the ride started | taxi_zones.Zone || trips.PULocationID
noword | nyc_taxi | destination area | taxi_zones.Zone || taxi_zones.Borough || trips.DOLocationID
noword | nyc_taxi | how generous riders are | trips.tip_percentage || trips.avg_tip
noword | nyc_taxi | how long rides last | trips.trip_minutes || trips.avg_trip_minutes
noword | nyc_taxi | company that supplied the meter data | trips.vendor_name || trips.VendorID
noword | nyc_taxi | rides to or from JFK and LaGuardia | trips.airport_trip_count || taxi_zones.Zone
noword | nyc_taxi | money the drivers took in | trips.total_revenue || trips.total_fare
noword | nyc_taxi | state levy on each ride | trips.mta_tax
noword | nyc_taxi | busiest times of day | trips.trips_by_hour
noword | nyc_taxi | Uber and Lyft rides | fhv_trips
syn | nyc_taxi | base fare of the ride | trips.fare_amount
syn | nyc_taxi | number of passengers | trips.passenger_count
syn | nyc_taxi | pickup time | trips.tpep_pickup_datetime
syn | nyc_taxi | trip length in miles | trips.trip_distance
value | nyc_taxi | rides paid in cash | trips.payment_type_name=Cash
value | nyc_taxi | trips starting in Brooklyn | taxi_zones.Borough=Brooklyn
value | nyc_taxi | negotiated fare trips | trips.rate_code=Negotiated fare
value | nyc_taxi | pickups at Times Square | taxi_zones.Zone=Times Sq/Theatre District
trap | nyc_taxi | total amount | trips.total_amount
trap | nyc_taxi | number of trips | trips.trip_count || fhv_trips.fhv_trip_count
join | nyc_taxi | pickup borough | taxi_zones.Borough
join | nyc_taxi | dropoff zone name | taxi_zones.Zone
kind | nyc_taxi | how many trips | trips.trip_count
kind | nyc_taxi | average trip distance | trips.avg_trip_distance
kind | nyc_taxi | trips by pickup borough | trips.trips_by_pickup_borough || taxi_zones.Borough
noword | stackoverflow | how trusted a member is | users.reputation
noword | stackoverflow | where members live | users.location
noword | stackoverflow | self description on the profile | users.about_me
noword | stackoverflow | personal homepage | users.website_url
noword | stackoverflow | when someone most recently signed in | users.last_access_date
noword | stackoverflow | replies | answers
noword | stackoverflow | the reply the asker picked as correct | questions.accepted_answer_id || answers.accepted_answer_count
noword | stackoverflow | bookmarks on a question | questions.favorite_count
noword | stackoverflow | how often a post was looked at | questions.view_count || questions.total_views
noword | stackoverflow | topics | tags || questions.tags || tags.tag_name
noword | stackoverflow | posts nobody replied to | questions.unanswered_count
noword | stackoverflow | achievements earned by members | badges
noword | stackoverflow | medal tier | badges.class
noword | stackoverflow | net votes of a reply | answers.score
noword | stackoverflow | remarks left under posts | comments
noword | stackoverflow | disapprovals cast by a member | users.down_votes
noword | stackoverflow | kind of ballot cast | votes.vote_type || votes.vote_type_id
noword | stackoverflow | when the account was made | users.creation_date
syn | stackoverflow | headline of a question | questions.title
syn | stackoverflow | number of answers a question got | questions.answer_count
syn | stackoverflow | times a profile was viewed | users.views
value | stackoverflow | python questions | questions.tags=python || tags.tag_name=python
value | stackoverflow | bounty votes | votes.vote_type=Bounty start
value | stackoverflow | users with the Necromancer badge | badges.name=Necromancer
trap | stackoverflow | comment score | comments.score
trap | stackoverflow | user display name | users.display_name
join | stackoverflow | reputation of the question's author | users.reputation
join | stackoverflow | title of the answered question | questions.title
kind | stackoverflow | how many questions | questions.question_count
kind | stackoverflow | average answer score | answers.avg_answer_score
kind | stackoverflow | questions by tag | questions.questions_by_tag || questions.tags
`;

/** Every held-out question, in file order. */
export const HELDOUT_QUESTIONS: EvalQuestion[] = parseQuestions(RAW);
