/**
 * The third held-out set's questions (models in
 * test/eval/heldout3_packages.ts), written as users would ask them and
 * committed before any score was run on them. Same line format and
 * categories as test/eval/questions.ts; `noword` questions share no word
 * (after stemming) with the target's name, doc or label. Never tuned on.
 * @module
 */
import { parseQuestions, type EvalQuestion } from "./questions.ts";

const RAW = `
noword | lahman | balls hit over the fence by a hitter | batting.HR || batting.total_home_runs
noword | lahman | free passes to first base | batting.BB || pitching.BB
noword | lahman | times a hitter struck out | batting.SO
noword | lahman | stolen bases | batting.SB
noword | lahman | runs driven in | batting.RBI
noword | lahman | official trips to the plate | batting.AB
noword | lahman | a hitter's success rate | batting.batting_average
noword | lahman | power measure of a hitter | batting.slugging_pct
noword | lahman | which side of the plate does he swing from | people.bats
noword | lahman | how tall is the ballplayer | people.height
noword | lahman | how heavy is the ballplayer | people.weight
noword | lahman | first appearance in the majors | people.debut
noword | lahman | when did he retire | people.finalGame
noword | lahman | homeland of the athlete | people.birthCountry || people.birthCity || people.birthState
noword | lahman | how much a player earned in a season | salaries.salary || salaries.avg_salary
noword | lahman | team wage bill | salaries.total_payroll
noword | lahman | enshrined in Cooperstown | halloffame.inducted || halloffame.inductee_count
noword | lahman | writers or committee that elected him | halloffame.votedBy
noword | lahman | home stadium of the club | teams.park
noword | lahman | fans through the gates | teams.attendance || teams.total_attendance
noword | lahman | champions of the fall classic | teams.WSWin
noword | lahman | where the club ended up in the table | teams.Rank || teams.standings
noword | lahman | saves by closers | pitching.SV
noword | lahman | shutouts | pitching.SHO
noword | lahman | aces with the most punchouts | pitching.strikeout_leaders || pitching.total_strikeouts || pitching.SO
noword | lahman | how well opponents hit against a pitcher | pitching.BAOpp
noword | lahman | innings thrown | pitching.IPouts
noword | lahman | wild pitches | pitching.WP
syn | lahman | earned run average of a pitcher | pitching.ERA || pitching.avg_era
syn | lahman | player's year of birth | people.birthYear
syn | lahman | team's winning percentage | teams.win_pct
syn | lahman | annual salary of a player | salaries.salary
value | lahman | American League teams | teams.lgID=AL
value | lahman | players born in Venezuela | people.birthCountry=Venezuela
value | lahman | hall of fame managers | halloffame.category=Manager
value | lahman | elected by the BBWAA | halloffame.votedBy=BBWAA
trap | lahman | player name | people.nameFirst || people.nameLast || people.nameGiven
trap | lahman | number of wins | teams.W || pitching.W || pitching.total_wins
trap | lahman | team name | teams.name
join | lahman | birth country of batters | people.birthCountry
join | lahman | last name of pitchers | people.nameLast
kind | lahman | how many players | people.player_count
kind | lahman | home run leaders | batting.home_run_leaders
kind | lahman | average salary | salaries.avg_salary
kind | lahman | total attendance by team | teams.total_attendance
noword | citibike | how long was the ride | trips.tripduration || trips.avg_duration_min
noword | citibike | when the rider undocked the bike | trips.starttime
noword | citibike | when the bike was brought back | trips.stoptime
noword | citibike | casual riders versus annual members | trips.usertype
noword | citibike | rider's age | trips.birth_year
noword | citibike | sex of the cyclist | trips.gender
noword | citibike | which physical bicycle was used | trips.bikeid
noword | citibike | how many bicycles a kiosk can hold | stations.capacity || stations.total_capacity
noword | citibike | bicycles ready to rent right now | stations.num_bikes_available
noword | citibike | broken bicycles at a kiosk | stations.num_bikes_disabled
noword | citibike | free slots to drop off a bicycle | stations.num_docks_available
noword | citibike | kiosks with nothing to ride | stations.empty_station_count
noword | citibike | GPS position of a kiosk | stations.latitude || stations.longitude
noword | citibike | where did the rider drop the bike off | trips.end_station_name || trips.end_station_id || trips.end_station_latitude
noword | citibike | origin dock of the journey | trips.start_station_name || trips.start_station_id
noword | citibike | loops that come back to where they began | trips.round_trip_count
noword | citibike | overall saddle time across all journeys | trips.total_ride_hours
noword | citibike | most popular places to pick up a bike | trips.busiest_start_stations
noword | citibike | peak times of day for cycling | trips.rides_by_hour
syn | citibike | length of a ride in seconds | trips.tripduration
syn | citibike | start station of a ride | trips.start_station_name || trips.start_station_id
syn | citibike | docks available at a station | stations.num_docks_available
syn | citibike | bike identifier | trips.bikeid
value | citibike | rides by subscribers | trips.usertype=Subscriber
value | citibike | female riders | trips.gender=female
value | citibike | trips starting at Pershing Square North | trips.start_station_name=Pershing Square North || stations.name=Pershing Square North
trap | citibike | station name | stations.name || trips.start_station_name || trips.end_station_name
trap | citibike | number of rides | trips.ride_count
join | citibike | capacity of the start station | stations.capacity
kind | citibike | how many stations | stations.station_count
kind | citibike | rides by hour | trips.rides_by_hour
kind | citibike | average trip duration | trips.avg_duration_min
noword | airbnb | how many guests can stay | listings.accommodates
noword | airbnb | sleeping spaces | listings.beds || listings.bedrooms
noword | airbnb | what a stay costs | listings.price || calendar.price || listings.avg_price
noword | airbnb | shortest booking allowed | listings.minimum_nights || calendar.minimum_nights
noword | airbnb | can guests reserve without waiting for approval | listings.instant_bookable
noword | airbnb | top-tier landlords with a special badge | listings.host_is_superhost || listings.superhost_share
noword | airbnb | how quickly the landlord replies | listings.host_response_time || listings.host_response_rate
noword | airbnb | how long the landlord has been on the platform | listings.host_since
noword | airbnb | which borough is the apartment in | listings.neighbourhood_group_cleansed
noword | airbnb | area of the city the flat is in | listings.neighbourhood_cleansed || listings.neighbourhood_group_cleansed
noword | airbnb | whole apartment or just a bedroom | listings.room_type || listings.property_type
noword | airbnb | guest feedback text | reviews.comments
noword | airbnb | how tidy guests found the place | listings.review_scores_cleanliness
noword | airbnb | overall stars guests gave | listings.review_scores_rating || listings.avg_rating
noword | airbnb | free dates for a stay | calendar.available || listings.availability_365
noword | airbnb | how full the rentals are | calendar.occupancy_rate
noword | airbnb | city permit number | listings.license
noword | airbnb | features like wifi and a kitchen | listings.amenities
noword | airbnb | washrooms in the unit | listings.bathrooms_text
noword | airbnb | how often guests leave feedback | listings.reviews_per_month
noword | airbnb | most expensive parts of town | listings.priciest_neighbourhoods
noword | airbnb | person who wrote the critique | reviews.reviewer_name || reviews.reviewer_id
noword | airbnb | rate after discounts on a given day | calendar.adjusted_price
noword | airbnb | landlords | listings.host_count || listings.host_name || listings.host_id
syn | airbnb | nightly rate | listings.price
syn | airbnb | number of bedrooms | listings.bedrooms
syn | airbnb | date of the most recent review | listings.last_review
syn | airbnb | host's response rate | listings.host_response_rate
value | airbnb | private rooms | listings.room_type=Private room
value | airbnb | listings in Brooklyn | listings.neighbourhood_group_cleansed=Brooklyn
value | airbnb | homes in Harlem | listings.neighbourhood_cleansed=Harlem
value | airbnb | hosts who answer within an hour | listings.host_response_time=within an hour
trap | airbnb | host name | listings.host_name
trap | airbnb | price | listings.price || calendar.price
trap | airbnb | number of reviews | listings.number_of_reviews || reviews.review_count
join | airbnb | room type of booked nights | listings.room_type
join | airbnb | neighbourhood of reviewed listings | listings.neighbourhood_cleansed
kind | airbnb | how many listings | listings.listing_count
kind | airbnb | average price | listings.avg_price
kind | airbnb | listings by room type | listings.listings_by_room_type || listings.room_type
kind | airbnb | reviews by month | reviews.reviews_by_month
`;

/** Every question of the third held-out set, in file order. */
export const HELDOUT3_QUESTIONS: EvalQuestion[] = parseQuestions(RAW);
