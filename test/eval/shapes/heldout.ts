/**
 * Expected shapes of the first next step for the first held-out set
 * (test/eval/heldout_questions.ts), format of test/eval/shape_format.ts.
 * Written from the questions and test/eval/heldout_packages.ts only, before
 * any next_steps output was seen.
 * @module
 */

/** Shapes of every question of the set. */
export const HELDOUT = `
olist | how do shoppers settle the bill | field: payments.payment_type || view: payments.payments_by_type
olist | how many monthly chunks the purchase was split into | field: payments.payment_installments || measure: payments.avg_installments
olist | stars the buyer left | field: reviews.review_score || measure: reviews.avg_review_score
olist | feedback text written by the buyer | field: reviews.review_comment_message
olist | when did the parcel reach the buyer | field: orders.order_delivered_customer_date
olist | when was the package given to the courier | field: orders.order_delivered_carrier_date
olist | promised arrival day | field: orders.order_estimated_delivery_date
olist | how heavy is the item | field: products.product_weight_g || measure: products.avg_weight_g
olist | number of pictures in the listing | field: products.product_photos_qty
olist | cost of sending each item | field: order_items.freight_value || measure: order_items.total_freight
olist | merchants | source: sellers
olist | vendor's town | field: sellers.seller_city
olist | parcels that showed up behind schedule | measure: orders.late_delivery_count
olist | typical wait until goods arrive | measure: orders.avg_delivery_days
olist | dissatisfied shoppers | measure: reviews.low_score_reviews || source: reviews; filter: reviews.review_score || measure: reviews.review_count|count(reviews); filter: reviews.review_score
olist | province of the shopper | field: customers.customer_state
olist | map coordinates of a postcode | field: geolocation.geolocation_lat, geolocation.geolocation_lng
olist | payment method | field: payments.payment_type || view: payments.payments_by_type
olist | review rating | field: reviews.review_score
olist | product category in English | field: category_translation.product_category_name_english
olist | purchase date of an order | field: orders.order_purchase_timestamp
olist | orders paid with boleto | source: payments; filter: payments.payment_type=boleto || measure: payments.payment_count|payments.total_payment_value|orders.order_count|count(payments)|count(orders); filter: payments.payment_type=boleto
olist | customers in Rio de Janeiro | source: customers; filter: customers.customer_city=rio de janeiro|customers.customer_state=RJ || measure: customers.customer_count|count(customers); filter: customers.customer_city=rio de janeiro|customers.customer_state=RJ
olist | canceled orders | source: orders; filter: orders.order_status=canceled || measure: orders.order_count|count(orders); filter: orders.order_status=canceled
olist | sales of health and beauty products | measure: order_items.total_price|order_items.item_count|sum(order_items.price)|count(order_items); filter: category_translation.product_category_name_english=health_beauty|products.product_category_name=beleza_saude
olist | order date | field: orders.order_purchase_timestamp
olist | number of items | measure: order_items.item_count|count(order_items)
olist | customer state of each order | source: orders; field: customers.customer_state
olist | seller state of items sold | source: order_items; field: sellers.seller_state
olist | how many orders were delivered | measure: orders.delivered_order_count || measure: orders.order_count|count(orders); filter: orders.order_status=delivered
olist | average review score | measure: reviews.avg_review_score|avg(reviews.review_score)
olist | orders by status | view: orders.orders_by_status || measure: orders.order_count|count(orders); group: orders.order_status
nyc_taxi | gratuity | field: trips.tip_amount || measure: trips.avg_tip|sum(trips.tip_amount)
nyc_taxi | how many riders were in the cab | field: trips.passenger_count || measure: avg(trips.passenger_count)
nyc_taxi | how far did the ride go | field: trips.trip_distance || measure: trips.avg_trip_distance
nyc_taxi | when the ride began | field: trips.tpep_pickup_datetime
nyc_taxi | when the passenger got out | field: trips.tpep_dropoff_datetime
nyc_taxi | bridge and tunnel charges | field: trips.tolls_amount || measure: sum(trips.tolls_amount)
nyc_taxi | how the rider paid | field: trips.payment_type_name|trips.payment_type
nyc_taxi | neighborhood where the ride started | field: trips.pickup_zone.Zone|trips.PULocationID|fhv_trips.pickup_zone.Zone|fhv_trips.PUlocationID
nyc_taxi | destination area | field: trips.dropoff_zone.Zone|trips.dropoff_zone.Borough|trips.DOLocationID
nyc_taxi | how generous riders are | measure: trips.tip_percentage|trips.avg_tip
nyc_taxi | how long rides last | field: trips.trip_minutes || measure: trips.avg_trip_minutes|avg(trips.trip_minutes)
nyc_taxi | company that supplied the meter data | field: trips.vendor_name|trips.VendorID
nyc_taxi | rides to or from JFK and LaGuardia | measure: trips.airport_trip_count || measure: trips.trip_count|count(trips); filter: trips.pickup_zone.Zone=JFK Airport|trips.pickup_zone.Zone=LaGuardia Airport|trips.dropoff_zone.Zone=JFK Airport|trips.dropoff_zone.Zone=LaGuardia Airport|trips.pickup_zone.service_zone=Airports|trips.dropoff_zone.service_zone=Airports || source: trips; filter: trips.pickup_zone.Zone=JFK Airport|trips.pickup_zone.Zone=LaGuardia Airport|trips.dropoff_zone.Zone=JFK Airport|trips.dropoff_zone.Zone=LaGuardia Airport|trips.pickup_zone.service_zone=Airports|trips.dropoff_zone.service_zone=Airports
nyc_taxi | money the drivers took in | measure: trips.total_revenue|trips.total_fare|sum(trips.total_amount)|sum(trips.fare_amount)
nyc_taxi | state levy on each ride | field: trips.mta_tax
nyc_taxi | busiest times of day | view: trips.trips_by_hour || measure: trips.trip_count|count(trips); group: trips.tpep_pickup_datetime@hour_of_day|trips.tpep_pickup_datetime@hour
nyc_taxi | Uber and Lyft rides | source: fhv_trips
nyc_taxi | base fare of the ride | field: trips.fare_amount
nyc_taxi | number of passengers | field: trips.passenger_count || measure: trips.total_passengers|sum(trips.passenger_count)
nyc_taxi | pickup time | field: trips.tpep_pickup_datetime
nyc_taxi | trip length in miles | field: trips.trip_distance
nyc_taxi | rides paid in cash | source: trips; filter: trips.payment_type_name=Cash || measure: trips.trip_count|count(trips); filter: trips.payment_type_name=Cash
nyc_taxi | trips starting in Brooklyn | source: trips|fhv_trips; filter: trips.pickup_zone.Borough=Brooklyn|fhv_trips.pickup_zone.Borough=Brooklyn || measure: trips.trip_count|fhv_trips.fhv_trip_count|count(trips)|count(fhv_trips); filter: trips.pickup_zone.Borough=Brooklyn|fhv_trips.pickup_zone.Borough=Brooklyn
nyc_taxi | negotiated fare trips | source: trips; filter: trips.rate_code=Negotiated fare || measure: trips.trip_count|count(trips); filter: trips.rate_code=Negotiated fare
nyc_taxi | pickups at Times Square | source: trips; filter: trips.pickup_zone.Zone=Times Sq/Theatre District || measure: trips.trip_count|count(trips); filter: trips.pickup_zone.Zone=Times Sq/Theatre District
nyc_taxi | total amount | field: trips.total_amount || measure: trips.total_revenue|sum(trips.total_amount)
nyc_taxi | number of trips | measure: trips.trip_count|fhv_trips.fhv_trip_count|count(trips)|count(fhv_trips)
nyc_taxi | pickup borough | field: trips.pickup_zone.Borough|fhv_trips.pickup_zone.Borough
nyc_taxi | dropoff zone name | field: trips.dropoff_zone.Zone
nyc_taxi | how many trips | measure: trips.trip_count|count(trips)
nyc_taxi | average trip distance | measure: trips.avg_trip_distance|avg(trips.trip_distance)
nyc_taxi | trips by pickup borough | view: trips.trips_by_pickup_borough || measure: trips.trip_count|count(trips); group: trips.pickup_zone.Borough
stackoverflow | how trusted a member is | field: users.reputation || measure: users.avg_reputation
stackoverflow | where members live | field: users.location
stackoverflow | self description on the profile | field: users.about_me
stackoverflow | personal homepage | field: users.website_url
stackoverflow | when someone most recently signed in | field: users.last_access_date
stackoverflow | replies | source: answers
stackoverflow | the reply the asker picked as correct | field: questions.accepted_answer_id || measure: answers.accepted_answer_count
stackoverflow | bookmarks on a question | field: questions.favorite_count
stackoverflow | how often a post was looked at | field: questions.view_count || measure: questions.total_views
stackoverflow | topics | source: tags || field: questions.tags|tags.tag_name
stackoverflow | posts nobody replied to | measure: questions.unanswered_count || source: questions; filter: questions.answer_count || measure: questions.question_count|count(questions); filter: questions.answer_count
stackoverflow | achievements earned by members | source: badges
stackoverflow | medal tier | field: badges.class
stackoverflow | net votes of a reply | field: answers.score || measure: answers.avg_answer_score
stackoverflow | remarks left under posts | source: comments
stackoverflow | disapprovals cast by a member | field: users.down_votes
stackoverflow | kind of ballot cast | field: votes.vote_type|votes.vote_type_id
stackoverflow | when the account was made | field: users.creation_date
stackoverflow | headline of a question | field: questions.title
stackoverflow | number of answers a question got | field: questions.answer_count
stackoverflow | times a profile was viewed | field: users.views
stackoverflow | python questions | source: questions; filter: questions.tags=python || measure: questions.question_count|count(questions); filter: questions.tags=python
stackoverflow | bounty votes | source: votes; filter: votes.vote_type=Bounty start || measure: votes.vote_count|count(votes); filter: votes.vote_type=Bounty start
stackoverflow | users with the Necromancer badge | source: badges; filter: badges.name=Necromancer || measure: badges.badge_count|users.user_count|count(badges)|count(users); filter: badges.name=Necromancer
stackoverflow | comment score | field: comments.score
stackoverflow | user display name | field: users.display_name
stackoverflow | reputation of the question's author | source: questions; field: users.reputation
stackoverflow | title of the answered question | source: answers; field: questions.title
stackoverflow | how many questions | measure: questions.question_count|count(questions)
stackoverflow | average answer score | measure: answers.avg_answer_score|avg(answers.score)
stackoverflow | questions by tag | view: questions.questions_by_tag || measure: questions.question_count|count(questions); group: questions.tags
`;
