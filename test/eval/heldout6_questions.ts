/**
 * The sixth held-out set's questions (models in
 * test/eval/heldout6_packages.ts), written as users would ask them and
 * committed before any score was run on them. Same line format and
 * categories as test/eval/questions.ts; `noword` questions share no word
 * (after stemming) with the target's name, doc or label. Never tuned on.
 * @module
 */
import { parseQuestions, type EvalQuestion } from "./questions.ts";

const RAW = `
noword | ontime | how late did planes take off | flights.DepDelay || flights.DepDelayMinutes || flights.avg_dep_delay
noword | ontime | how late did we land | flights.ArrDelay || flights.ArrDelayMinutes || flights.avg_arr_delay
noword | ontime | scrubbed trips | flights.Cancelled || flights.cancellation_rate
noword | ontime | why was it called off | flights.CancellationCode || flights.cancellations_by_reason
noword | ontime | rerouted to another airport | flights.Diverted
noword | ontime | time spent rolling to the runway before takeoff | flights.TaxiOut
noword | ontime | time from touchdown to the gate | flights.TaxiIn
noword | ontime | how long were planes airborne | flights.AirTime
noword | ontime | aircraft registration | flights.Tail_Number
noword | ontime | how far apart are the two airports | flights.Distance || flights.DistanceGroup
noword | ontime | how many miles did the fleet cover | flights.total_distance || flights.Distance
noword | ontime | hold-ups caused by storms | flights.WeatherDelay
noword | ontime | lateness blamed on air traffic control | flights.NASDelay
noword | ontime | ripple effect from the incoming plane being behind schedule | flights.LateAircraftDelay
noword | ontime | hold-ups from the airline itself, like crew or maintenance | flights.CarrierDelay
noword | ontime | screening problems at the checkpoint | flights.SecurityDelay
noword | ontime | which company operated the flight | flights.Reporting_Airline || carriers.Description || carriers.Code
noword | ontime | when was it supposed to land | flights.CRSArrTime
noword | ontime | are Saturdays quieter | flights.DayOfWeek
noword | ontime | hour band of the planned takeoff | flights.DepTimeBlk
noword | ontime | share of flights that were punctual | flights.on_time_rate || flights.ArrDel15 || flights.DepDel15
noword | ontime | most traveled city pairs | flights.busiest_routes
noword | ontime | seasonality of traffic | flights.flights_by_month || flights.Month
noword | ontime | which hubs are the least punctual | flights.worst_airports
noword | ontime | where did the trip start | flights.Origin || flights.OriginCityName || airports.Description
noword | ontime | final stop of the route | flights.Dest || flights.DestCityName || airports.Description
noword | ontime | airline's full name | carriers.Description
noword | ontime | length of the trip on the schedule | flights.CRSElapsedTime
noword | ontime | gate-to-gate duration as flown | flights.ActualElapsedTime
noword | ontime | liftoff clock time | flights.WheelsOff
noword | yelp | is the place still in business | business.is_open || business.open_share
noword | yelp | how many people found a write-up helpful | review.useful || review.useful_votes
noword | yelp | reviews people found hilarious | review.funny
noword | yelp | how many followers does a member have | user.fans || user.avg_fans
noword | yelp | when did they join | user.yelping_since
noword | yelp | top-tier badge holders | user.elite
noword | yelp | their social connections | user.friends
noword | yelp | typical rating a person hands out | user.average_stars
noword | yelp | mailing area | business.postal_code
noword | yelp | street where the shop is | business.address
noword | yelp | map coordinates | business.latitude || business.longitude
noword | yelp | type of cuisine or service offered | business.categories || business.top_categories
noword | yelp | how many opinions has a place received | business.review_count || review.total_reviews
noword | yelp | the words the customer wrote | review.text
noword | yelp | when was the opinion posted | review.date
noword | yelp | places people love most | business.best_rated || business.stars || business.avg_stars
noword | yelp | kudos for their prose | user.compliment_writer
noword | yelp | praise for their pictures | user.compliment_photos
noword | yelp | prolific contributors | user.top_reviewers || user.review_count
noword | yelp | proportion of places that have shut down | business.open_share || business.is_open
noword | yelp | spread of scores customers give | review.rating_distribution || review.stars
noword | yelp | activity trend over time | review.reviews_by_year
noword | gsod | how hot was it | gsod.temp || gsod.max || gsod.avg_temp
noword | gsod | daily high | gsod.max
noword | gsod | overnight low | gsod.min
noword | gsod | rainfall amount | gsod.prcp || gsod.total_prcp
noword | gsod | how deep the snow on the ground was | gsod.sndp
noword | gsod | how far could you see | gsod.visib
noword | gsod | how humid was the air | gsod.dewp
noword | gsod | barometer reading | gsod.slp || gsod.stp
noword | gsod | how breezy was it | gsod.wdsp || gsod.mxpsd || gsod.gust
noword | gsod | strongest burst of air | gsod.gust
noword | gsod | was there lightning | gsod.thunder || gsod.storm_days
noword | gsod | twisters | gsod.tornado_funnel_cloud
noword | gsod | misty mornings | gsod.fog
noword | gsod | was it pouring | gsod.rain_drop || gsod.prcp
noword | gsod | ice balls falling from the sky | gsod.hail
noword | gsod | sleet | gsod.snow_ice_pellets
noword | gsod | height above the sea of the weather station | stations.elev
noword | gsod | airport code of the site | stations.call
noword | gsod | where on the globe is the station | stations.lat || stations.lon
noword | gsod | which nation the station is in | stations.country
noword | gsod | when the station started reporting | stations.begin
noword | gsod | warmest afternoons ever measured | gsod.hottest_days || gsod.record_high || gsod.max
noword | gsod | places with the most downpours | gsod.wettest_stations
noword | gsod | seasonal cycle of warmth | gsod.temp_by_month
noword | gsod | number of hourly readings behind the daily warmth figure | gsod.count_temp
syn | ontime | planned departure time | flights.CRSDepTime
syn | ontime | arrival delay in minutes | flights.ArrDelay || flights.ArrDelayMinutes
syn | ontime | taxi out time | flights.TaxiOut
syn | ontime | cancellation reason | flights.CancellationCode || flights.cancellations_by_reason
syn | ontime | flight number | flights.Flight_Number_Reporting_Airline
syn | ontime | origin airport | flights.Origin || airports.Description || airports.Code
syn | yelp | business star rating | business.stars || business.avg_stars
syn | yelp | number of fans | user.fans
syn | yelp | date the user joined yelp | user.yelping_since
syn | yelp | review text | review.text
syn | yelp | elite status years | user.elite
syn | yelp | useful votes on a review | review.useful || review.useful_votes
syn | gsod | mean temperature | gsod.temp || gsod.avg_temp
syn | gsod | dew point | gsod.dewp
syn | gsod | sea level pressure | gsod.slp
syn | gsod | snow depth | gsod.sndp
syn | gsod | wind gust | gsod.gust
syn | gsod | station elevation | stations.elev
syn | gsod | precipitation | gsod.prcp || gsod.total_prcp
value | ontime | Delta flights | flights.Reporting_Airline=DL || carriers.Description=Delta Air Lines Inc.
value | ontime | departures from Atlanta | flights.Origin=ATL
value | ontime | flights landing in Denver | flights.Dest=DEN
value | ontime | weather cancellations | flights.CancellationCode=B
value | ontime | Southwest | flights.Reporting_Airline=WN || carriers.Description=Southwest Airlines Co.
value | ontime | flights out of Texas | flights.OriginState=TX
value | ontime | flights leaving before 6am | flights.DepTimeBlk=0001-0559
value | yelp | restaurants in Philadelphia | business.city=Philadelphia
value | yelp | businesses in Florida | business.state=FL
value | yelp | places in Nashville | business.city=Nashville
value | yelp | Edmonton listings | business.city=Edmonton || business.state=AB
value | yelp | Arizona | business.state=AZ
value | gsod | stations in the UK | stations.country=UK
value | gsod | weather in Alaska | stations.state=AK
value | gsod | Australian stations | stations.country=AS
value | gsod | Japanese weather stations | stations.country=JA
value | gsod | Canadian stations | stations.country=CA
value | gsod | readings from Germany | stations.country=GM
value | gsod | California stations | stations.state=CA
trap | ontime | date | flights.FlightDate
trap | ontime | delay | flights.DepDelay || flights.ArrDelay || flights.avg_dep_delay || flights.avg_arr_delay
trap | ontime | count | flights.flight_count
trap | yelp | name | business.name || user.name
trap | yelp | stars | business.stars || review.stars || user.average_stars
trap | yelp | id | business.business_id || user.user_id || review.review_id
trap | yelp | count | business.business_count || user.user_count || review.total_reviews
trap | gsod | date | gsod.date
trap | gsod | name | stations.name
trap | gsod | count | gsod.day_count || stations.station_count
trap | gsod | max | gsod.max || gsod.record_high
join | ontime | full name of the carrier of each flight | carriers.Description
join | ontime | name of the destination airport | airports.Description
join | yelp | city of the business a review is about | business.city
join | yelp | fan count of the reviewer | user.fans
join | yelp | star rating of the business for each review | business.stars
join | yelp | how long the reviewer has been on yelp | user.yelping_since
join | gsod | country of the station for each day's reading | stations.country
join | gsod | station name of a daily record | stations.name
join | gsod | elevation of the station where the reading was taken | stations.elev
kind | ontime | how many flights | flights.flight_count
kind | ontime | average departure delay | flights.avg_dep_delay
kind | ontime | delays by carrier | flights.delays_by_carrier
kind | ontime | flights by month | flights.flights_by_month
kind | ontime | cancellation rate | flights.cancellation_rate
kind | yelp | how many businesses | business.business_count
kind | yelp | average rating of reviews | review.avg_rating
kind | yelp | reviews by year | review.reviews_by_year
kind | yelp | how many users | user.user_count
kind | gsod | how many stations | stations.station_count
kind | gsod | average temperature | gsod.avg_temp
kind | gsod | temperature by month | gsod.temp_by_month
kind | gsod | total precipitation | gsod.total_prcp
`;

/** Every question of the sixth held-out set, in file order. */
export const HELDOUT6_QUESTIONS: EvalQuestion[] = parseQuestions(RAW);
