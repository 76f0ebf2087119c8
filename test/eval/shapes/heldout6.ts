/**
 * Expected shapes of the first next step for the sixth held-out set
 * (test/eval/heldout6_questions.ts), format of test/eval/shape_format.ts.
 * Written from the questions and test/eval/heldout6_packages.ts only, before
 * any next_steps output was seen.
 * @module
 */

/** Shapes of every question of the set. */
export const HELDOUT6 = `
ontime | how late did planes take off | field: flights.DepDelay|flights.DepDelayMinutes || measure: flights.avg_dep_delay|avg(flights.DepDelay)|avg(flights.DepDelayMinutes)
ontime | how late did we land | field: flights.ArrDelay|flights.ArrDelayMinutes || measure: flights.avg_arr_delay|avg(flights.ArrDelay)|avg(flights.ArrDelayMinutes)
ontime | scrubbed trips | measure: flights.cancellation_rate|sum(flights.Cancelled) || field: flights.Cancelled || measure: flights.flight_count|count(flights); filter: flights.Cancelled=1 || source: flights; filter: flights.Cancelled=1
ontime | why was it called off | field: flights.CancellationCode || view: flights.cancellations_by_reason
ontime | rerouted to another airport | field: flights.Diverted || measure: sum(flights.Diverted) || measure: flights.flight_count|count(flights); filter: flights.Diverted=1 || source: flights; filter: flights.Diverted=1
ontime | time spent rolling to the runway before takeoff | field: flights.TaxiOut || measure: avg(flights.TaxiOut)
ontime | time from touchdown to the gate | field: flights.TaxiIn || measure: avg(flights.TaxiIn)
ontime | how long were planes airborne | field: flights.AirTime || measure: avg(flights.AirTime)|sum(flights.AirTime)
ontime | aircraft registration | field: flights.Tail_Number
ontime | how far apart are the two airports | field: flights.Distance|flights.DistanceGroup
ontime | how many miles did the fleet cover | measure: flights.total_distance|sum(flights.Distance)
ontime | hold-ups caused by storms | field: flights.WeatherDelay || measure: sum(flights.WeatherDelay)|avg(flights.WeatherDelay)
ontime | lateness blamed on air traffic control | field: flights.NASDelay || measure: sum(flights.NASDelay)|avg(flights.NASDelay)
ontime | ripple effect from the incoming plane being behind schedule | field: flights.LateAircraftDelay || measure: sum(flights.LateAircraftDelay)|avg(flights.LateAircraftDelay)
ontime | hold-ups from the airline itself, like crew or maintenance | field: flights.CarrierDelay || measure: sum(flights.CarrierDelay)|avg(flights.CarrierDelay)
ontime | screening problems at the checkpoint | field: flights.SecurityDelay || measure: sum(flights.SecurityDelay)|avg(flights.SecurityDelay)
ontime | which company operated the flight | field: flights.Reporting_Airline|carriers.Description|carriers.Code
ontime | when was it supposed to land | field: flights.CRSArrTime
ontime | are Saturdays quieter | measure: flights.flight_count|count(flights); group: flights.DayOfWeek|flights.FlightDate@day_of_week
ontime | hour band of the planned takeoff | field: flights.DepTimeBlk
ontime | share of flights that were punctual | measure: flights.on_time_rate|avg(flights.ArrDel15)|avg(flights.DepDel15)
ontime | most traveled city pairs | view: flights.busiest_routes || measure: flights.flight_count|count(flights); group: flights.Origin|flights.OriginCityName, flights.Dest|flights.DestCityName; top
ontime | seasonality of traffic | view: flights.flights_by_month || measure: flights.flight_count|count(flights); group: flights.Month|flights.FlightDate@month|flights.FlightDate@month_of_year|flights.Quarter|flights.FlightDate@quarter|flights.FlightDate@quarter_of_year
ontime | which hubs are the least punctual | view: flights.worst_airports || measure: flights.on_time_rate; group: flights.Origin|flights.Dest|flights.OriginCityName|flights.DestCityName; least || measure: flights.avg_dep_delay|flights.avg_arr_delay; group: flights.Origin|flights.Dest|flights.OriginCityName|flights.DestCityName; top
ontime | where did the trip start | field: flights.Origin|flights.OriginCityName|flights.origin_airport.Description
ontime | final stop of the route | field: flights.Dest|flights.DestCityName|flights.dest_airport.Description
ontime | airline's full name | field: carriers.Description
ontime | length of the trip on the schedule | field: flights.CRSElapsedTime
ontime | gate-to-gate duration as flown | field: flights.ActualElapsedTime
ontime | liftoff clock time | field: flights.WheelsOff
yelp | is the place still in business | field: business.is_open || measure: business.open_share
yelp | how many people found a write-up helpful | field: review.useful || measure: review.useful_votes|sum(review.useful)
yelp | reviews people found hilarious | field: review.funny
yelp | how many followers does a member have | field: user.fans || measure: user.avg_fans
yelp | when did they join | field: user.yelping_since
yelp | top-tier badge holders | field: user.elite
yelp | their social connections | field: user.friends
yelp | typical rating a person hands out | field: user.average_stars
yelp | mailing area | field: business.postal_code
yelp | street where the shop is | field: business.address
yelp | map coordinates | field: business.latitude, business.longitude
yelp | type of cuisine or service offered | field: business.categories || view: business.top_categories
yelp | how many opinions has a place received | field: business.review_count || measure: review.total_reviews; group: business.name|business.business_id|review.business_id
yelp | the words the customer wrote | field: review.text
yelp | when was the opinion posted | field: review.date
yelp | places people love most | view: business.best_rated || measure: business.avg_stars|review.avg_rating; group: business.name|business.business_id; top
yelp | kudos for their prose | field: user.compliment_writer
yelp | praise for their pictures | field: user.compliment_photos
yelp | prolific contributors | view: user.top_reviewers || field: user.review_count || measure: review.total_reviews; group: user.name|user.user_id|review.user_id; top
yelp | proportion of places that have shut down | measure: business.open_share|avg(business.is_open)
yelp | spread of scores customers give | view: review.rating_distribution || measure: review.total_reviews; group: review.stars
yelp | activity trend over time | view: review.reviews_by_year || measure: review.total_reviews; group: review.date@year|review.date@quarter|review.date@month
gsod | how hot was it | field: gsod.temp|gsod.max || measure: gsod.avg_temp|gsod.record_high|avg(gsod.temp)|max(gsod.max)
gsod | daily high | field: gsod.max
gsod | overnight low | field: gsod.min
gsod | rainfall amount | field: gsod.prcp || measure: gsod.total_prcp|sum(gsod.prcp)
gsod | how deep the snow on the ground was | field: gsod.sndp
gsod | how far could you see | field: gsod.visib || measure: avg(gsod.visib)
gsod | how humid was the air | field: gsod.dewp || measure: avg(gsod.dewp)
gsod | barometer reading | field: gsod.slp|gsod.stp
gsod | how breezy was it | field: gsod.wdsp|gsod.mxpsd|gsod.gust || measure: avg(gsod.wdsp)|max(gsod.mxpsd)|max(gsod.gust)
gsod | strongest burst of air | field: gsod.gust || measure: max(gsod.gust)
gsod | was there lightning | field: gsod.thunder || measure: gsod.storm_days || measure: gsod.day_count|count(gsod); filter: gsod.thunder=1 || source: gsod; filter: gsod.thunder=1
gsod | twisters | field: gsod.tornado_funnel_cloud || measure: gsod.day_count|count(gsod); filter: gsod.tornado_funnel_cloud=1 || source: gsod; filter: gsod.tornado_funnel_cloud=1
gsod | misty mornings | field: gsod.fog || measure: gsod.day_count|count(gsod); filter: gsod.fog=1 || source: gsod; filter: gsod.fog=1
gsod | was it pouring | field: gsod.rain_drop|gsod.prcp || measure: gsod.day_count|count(gsod); filter: gsod.rain_drop=1 || source: gsod; filter: gsod.rain_drop=1
gsod | ice balls falling from the sky | field: gsod.hail || measure: gsod.day_count|count(gsod); filter: gsod.hail=1 || source: gsod; filter: gsod.hail=1
gsod | sleet | field: gsod.snow_ice_pellets || measure: gsod.day_count|count(gsod); filter: gsod.snow_ice_pellets=1 || source: gsod; filter: gsod.snow_ice_pellets=1
gsod | height above the sea of the weather station | field: stations.elev
gsod | airport code of the site | field: stations.call
gsod | where on the globe is the station | field: stations.lat, stations.lon
gsod | which nation the station is in | field: stations.country
gsod | when the station started reporting | field: stations.begin
gsod | warmest afternoons ever measured | view: gsod.hottest_days || measure: gsod.record_high|max(gsod.max); group: gsod.date|stations.name|gsod.stn; top
gsod | places with the most downpours | view: gsod.wettest_stations || measure: gsod.total_prcp|sum(gsod.prcp); group: stations.name|gsod.stn|stations.usaf; top
gsod | seasonal cycle of warmth | view: gsod.temp_by_month || measure: gsod.avg_temp|avg(gsod.temp); group: gsod.mo|gsod.date@month|gsod.date@month_of_year
gsod | number of hourly readings behind the daily warmth figure | field: gsod.count_temp
ontime | planned departure time | field: flights.CRSDepTime
ontime | arrival delay in minutes | field: flights.ArrDelay|flights.ArrDelayMinutes || measure: flights.avg_arr_delay|avg(flights.ArrDelay)|avg(flights.ArrDelayMinutes)
ontime | taxi out time | field: flights.TaxiOut || measure: avg(flights.TaxiOut)
ontime | cancellation reason | field: flights.CancellationCode || view: flights.cancellations_by_reason
ontime | flight number | field: flights.Flight_Number_Reporting_Airline
ontime | origin airport | field: flights.Origin|flights.origin_airport.Description|flights.origin_airport.Code
yelp | business star rating | field: business.stars || measure: business.avg_stars
yelp | number of fans | field: user.fans
yelp | date the user joined yelp | field: user.yelping_since
yelp | review text | field: review.text
yelp | elite status years | field: user.elite
yelp | useful votes on a review | field: review.useful || measure: review.useful_votes|sum(review.useful)
gsod | mean temperature | field: gsod.temp || measure: gsod.avg_temp|avg(gsod.temp)
gsod | dew point | field: gsod.dewp
gsod | sea level pressure | field: gsod.slp
gsod | snow depth | field: gsod.sndp
gsod | wind gust | field: gsod.gust
gsod | station elevation | field: stations.elev
gsod | precipitation | field: gsod.prcp || measure: gsod.total_prcp|sum(gsod.prcp)
ontime | Delta flights | source: flights; filter: flights.Reporting_Airline=DL|carriers.Description=Delta Air Lines Inc. || measure: flights.flight_count|count(flights); filter: flights.Reporting_Airline=DL|carriers.Description=Delta Air Lines Inc.
ontime | departures from Atlanta | source: flights; filter: flights.Origin=ATL || measure: flights.flight_count|count(flights); filter: flights.Origin=ATL
ontime | flights landing in Denver | source: flights; filter: flights.Dest=DEN || measure: flights.flight_count|count(flights); filter: flights.Dest=DEN
ontime | weather cancellations | source: flights; filter: flights.CancellationCode=B || measure: flights.flight_count|sum(flights.Cancelled)|count(flights); filter: flights.CancellationCode=B || measure: flights.flight_count|count(flights); filter: flights.CancellationCode=B, flights.Cancelled=1
ontime | Southwest | source: flights; filter: flights.Reporting_Airline=WN|carriers.Description=Southwest Airlines Co. || measure: flights.flight_count|count(flights); filter: flights.Reporting_Airline=WN|carriers.Description=Southwest Airlines Co.
ontime | flights out of Texas | source: flights; filter: flights.OriginState=TX || measure: flights.flight_count|count(flights); filter: flights.OriginState=TX
ontime | flights leaving before 6am | source: flights; filter: flights.DepTimeBlk=0001-0559|flights.CRSDepTime|flights.DepTime || measure: flights.flight_count|count(flights); filter: flights.DepTimeBlk=0001-0559|flights.CRSDepTime|flights.DepTime
yelp | restaurants in Philadelphia | source: business; filter: business.city=Philadelphia || source: business; filter: business.city=Philadelphia, business.categories=Restaurants || measure: business.business_count|count(business); filter: business.city=Philadelphia || measure: business.business_count|count(business); filter: business.city=Philadelphia, business.categories=Restaurants
yelp | businesses in Florida | source: business; filter: business.state=FL || measure: business.business_count|count(business); filter: business.state=FL
yelp | places in Nashville | source: business; filter: business.city=Nashville || measure: business.business_count|count(business); filter: business.city=Nashville
yelp | Edmonton listings | source: business; filter: business.city=Edmonton|business.state=AB || measure: business.business_count|count(business); filter: business.city=Edmonton|business.state=AB
yelp | Arizona | source: business; filter: business.state=AZ || measure: business.business_count|review.total_reviews|count(business); filter: business.state=AZ
gsod | stations in the UK | source: stations; filter: stations.country=UK || measure: stations.station_count|count(stations); filter: stations.country=UK
gsod | weather in Alaska | source: gsod; filter: stations.state=AK || measure: gsod.avg_temp|gsod.day_count|gsod.total_prcp|avg(gsod.temp)|count(gsod); filter: stations.state=AK
gsod | Australian stations | source: stations; filter: stations.country=AS || measure: stations.station_count|count(stations); filter: stations.country=AS
gsod | Japanese weather stations | source: stations; filter: stations.country=JA || measure: stations.station_count|count(stations); filter: stations.country=JA
gsod | Canadian stations | source: stations; filter: stations.country=CA || measure: stations.station_count|count(stations); filter: stations.country=CA
gsod | readings from Germany | source: gsod; filter: stations.country=GM || measure: gsod.day_count|gsod.avg_temp|avg(gsod.temp)|count(gsod); filter: stations.country=GM
gsod | California stations | source: stations; filter: stations.state=CA || measure: stations.station_count|count(stations); filter: stations.state=CA
ontime | date | field: flights.FlightDate
ontime | delay | field: flights.DepDelay|flights.ArrDelay|flights.DepDelayMinutes|flights.ArrDelayMinutes || measure: flights.avg_dep_delay|flights.avg_arr_delay
ontime | count | measure: flights.flight_count|count(flights)
yelp | name | field: business.name|user.name
yelp | stars | field: business.stars|review.stars|user.average_stars || measure: business.avg_stars|review.avg_rating
yelp | id | field: business.business_id|user.user_id|review.review_id
yelp | count | measure: business.business_count|user.user_count|review.total_reviews|count(business)|count(user)
gsod | date | field: gsod.date
gsod | name | field: stations.name
gsod | count | measure: gsod.day_count|stations.station_count|count(gsod)|count(stations)
gsod | max | field: gsod.max || measure: gsod.record_high|max(gsod.max)
ontime | full name of the carrier of each flight | source: flights; field: carriers.Description
ontime | name of the destination airport | source: flights; field: flights.dest_airport.Description
yelp | city of the business a review is about | source: review; field: business.city
yelp | fan count of the reviewer | source: review; field: user.fans
yelp | star rating of the business for each review | source: review; field: business.stars
yelp | how long the reviewer has been on yelp | source: review; field: user.yelping_since
gsod | country of the station for each day's reading | source: gsod; field: stations.country
gsod | station name of a daily record | source: gsod; field: stations.name
gsod | elevation of the station where the reading was taken | source: gsod; field: stations.elev
ontime | how many flights | measure: flights.flight_count|count(flights)
ontime | average departure delay | measure: flights.avg_dep_delay|avg(flights.DepDelay)
ontime | delays by carrier | view: flights.delays_by_carrier || measure: flights.avg_dep_delay|flights.avg_arr_delay; group: flights.Reporting_Airline|carriers.Description|carriers.Code
ontime | flights by month | view: flights.flights_by_month || measure: flights.flight_count|count(flights); group: flights.FlightDate@month|flights.Month
ontime | cancellation rate | measure: flights.cancellation_rate
yelp | how many businesses | measure: business.business_count|count(business)
yelp | average rating of reviews | measure: review.avg_rating|avg(review.stars)
yelp | reviews by year | view: review.reviews_by_year || measure: review.total_reviews; group: review.date@year
yelp | how many users | measure: user.user_count|count(user)
gsod | how many stations | measure: stations.station_count|count(stations)
gsod | average temperature | measure: gsod.avg_temp|avg(gsod.temp)
gsod | temperature by month | view: gsod.temp_by_month || measure: gsod.avg_temp|avg(gsod.temp); group: gsod.date@month|gsod.date@month_of_year|gsod.mo
gsod | total precipitation | measure: gsod.total_prcp|sum(gsod.prcp)
`;
