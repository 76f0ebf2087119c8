/**
 * Expected shapes of the first next step for the third held-out set
 * (test/eval/heldout3_questions.ts), format of test/eval/shape_format.ts.
 * Written from the questions and test/eval/heldout3_packages.ts only, before
 * any next_steps output was seen.
 * @module
 */

/** Shapes of every question of the set. */
export const HELDOUT3 = `
lahman | balls hit over the fence by a hitter | field: batting.HR || measure: batting.total_home_runs|sum(batting.HR)
lahman | free passes to first base | field: batting.BB|pitching.BB || measure: sum(batting.BB)|sum(pitching.BB)
lahman | times a hitter struck out | field: batting.SO || measure: sum(batting.SO)
lahman | stolen bases | field: batting.SB || measure: sum(batting.SB)
lahman | runs driven in | field: batting.RBI || measure: sum(batting.RBI)
lahman | official trips to the plate | field: batting.AB || measure: sum(batting.AB)
lahman | a hitter's success rate | measure: batting.batting_average
lahman | power measure of a hitter | measure: batting.slugging_pct
lahman | which side of the plate does he swing from | field: people.bats
lahman | how tall is the ballplayer | field: people.height
lahman | how heavy is the ballplayer | field: people.weight
lahman | first appearance in the majors | field: people.debut
lahman | when did he retire | field: people.finalGame
lahman | homeland of the athlete | field: people.birthCountry|people.birthCity|people.birthState
lahman | how much a player earned in a season | field: salaries.salary || measure: salaries.avg_salary|sum(salaries.salary)
lahman | team wage bill | measure: salaries.total_payroll|sum(salaries.salary) || measure: salaries.total_payroll|sum(salaries.salary); group: salaries.teamID, salaries.yearID
lahman | enshrined in Cooperstown | field: halloffame.inducted || measure: halloffame.inductee_count || source: halloffame; filter: halloffame.inducted=Y
lahman | writers or committee that elected him | field: halloffame.votedBy
lahman | home stadium of the club | field: teams.park
lahman | fans through the gates | field: teams.attendance || measure: teams.total_attendance|sum(teams.attendance)
lahman | champions of the fall classic | field: teams.WSWin || source: teams; filter: teams.WSWin=true
lahman | where the club ended up in the table | field: teams.Rank || view: teams.standings
lahman | saves by closers | field: pitching.SV || measure: sum(pitching.SV)
lahman | shutouts | field: pitching.SHO || measure: sum(pitching.SHO)
lahman | aces with the most punchouts | view: pitching.strikeout_leaders || measure: pitching.total_strikeouts|sum(pitching.SO); group: people.nameLast|people.nameFirst|pitching.playerID|people.playerID; top
lahman | how well opponents hit against a pitcher | field: pitching.BAOpp
lahman | innings thrown | field: pitching.IPouts || measure: sum(pitching.IPouts)
lahman | wild pitches | field: pitching.WP || measure: sum(pitching.WP)
lahman | earned run average of a pitcher | field: pitching.ERA || measure: pitching.avg_era
lahman | player's year of birth | field: people.birthYear
lahman | team's winning percentage | measure: teams.win_pct
lahman | annual salary of a player | field: salaries.salary
lahman | American League teams | source: teams; filter: teams.lgID=AL || measure: teams.team_season_count|count(teams); filter: teams.lgID=AL
lahman | players born in Venezuela | source: people; filter: people.birthCountry=Venezuela || measure: people.player_count|count(people); filter: people.birthCountry=Venezuela
lahman | hall of fame managers | source: halloffame; filter: halloffame.category=Manager || source: halloffame; filter: halloffame.category=Manager, halloffame.inducted=Y || measure: halloffame.inductee_count; filter: halloffame.category=Manager
lahman | elected by the BBWAA | source: halloffame; filter: halloffame.votedBy=BBWAA || source: halloffame; filter: halloffame.votedBy=BBWAA, halloffame.inducted=Y || measure: halloffame.inductee_count; filter: halloffame.votedBy=BBWAA
lahman | player name | field: people.nameFirst|people.nameLast|people.nameGiven
lahman | number of wins | field: teams.W|pitching.W || measure: pitching.total_wins|sum(teams.W)
lahman | team name | field: teams.name
lahman | birth country of batters | source: batting; field: people.birthCountry
lahman | last name of pitchers | source: pitching; field: people.nameLast
lahman | how many players | measure: people.player_count|count(people)
lahman | home run leaders | view: batting.home_run_leaders || measure: batting.total_home_runs|sum(batting.HR); group: people.nameLast|people.nameFirst|batting.playerID|people.playerID; top
lahman | average salary | measure: salaries.avg_salary|avg(salaries.salary)
lahman | total attendance by team | measure: teams.total_attendance|sum(teams.attendance); group: teams.name|teams.teamID|teams.franchID
citibike | how long was the ride | field: trips.tripduration || measure: trips.avg_duration_min|avg(trips.tripduration)
citibike | when the rider undocked the bike | field: trips.starttime
citibike | when the bike was brought back | field: trips.stoptime
citibike | casual riders versus annual members | field: trips.usertype || measure: trips.subscriber_share
citibike | rider's age | field: trips.birth_year
citibike | sex of the cyclist | field: trips.gender
citibike | which physical bicycle was used | field: trips.bikeid
citibike | how many bicycles a kiosk can hold | field: stations.capacity || measure: stations.total_capacity; group: stations.name|stations.station_id
citibike | bicycles ready to rent right now | field: stations.num_bikes_available || measure: sum(stations.num_bikes_available)
citibike | broken bicycles at a kiosk | field: stations.num_bikes_disabled || measure: sum(stations.num_bikes_disabled)
citibike | free slots to drop off a bicycle | field: stations.num_docks_available || measure: sum(stations.num_docks_available)
citibike | kiosks with nothing to ride | measure: stations.empty_station_count || source: stations; filter: stations.num_bikes_available=0
citibike | GPS position of a kiosk | field: stations.latitude, stations.longitude
citibike | where did the rider drop the bike off | field: trips.end_station_name|trips.end_station_id
citibike | origin dock of the journey | field: trips.start_station_name|trips.start_station_id
citibike | loops that come back to where they began | measure: trips.round_trip_count
citibike | overall saddle time across all journeys | measure: trips.total_ride_hours|sum(trips.tripduration)
citibike | most popular places to pick up a bike | view: trips.busiest_start_stations || measure: trips.ride_count|count(trips); group: trips.start_station_name|trips.start_station_id|trips.start_station.name; top
citibike | peak times of day for cycling | view: trips.rides_by_hour || measure: trips.ride_count|count(trips); group: trips.starttime@hour_of_day|trips.starttime@hour
citibike | length of a ride in seconds | field: trips.tripduration
citibike | start station of a ride | field: trips.start_station_name|trips.start_station_id
citibike | docks available at a station | field: stations.num_docks_available
citibike | bike identifier | field: trips.bikeid
citibike | rides by subscribers | source: trips; filter: trips.usertype=Subscriber || measure: trips.ride_count|count(trips); filter: trips.usertype=Subscriber
citibike | female riders | source: trips; filter: trips.gender=female || measure: trips.ride_count|count(trips); filter: trips.gender=female
citibike | trips starting at Pershing Square North | source: trips; filter: trips.start_station_name=Pershing Square North|trips.start_station.name=Pershing Square North || measure: trips.ride_count|count(trips); filter: trips.start_station_name=Pershing Square North|trips.start_station.name=Pershing Square North
citibike | station name | field: stations.name|trips.start_station_name|trips.end_station_name
citibike | number of rides | measure: trips.ride_count|count(trips)
citibike | capacity of the start station | source: trips; field: trips.start_station.capacity
citibike | how many stations | measure: stations.station_count|count(stations)
citibike | rides by hour | view: trips.rides_by_hour || measure: trips.ride_count|count(trips); group: trips.starttime@hour_of_day|trips.starttime@hour
citibike | average trip duration | measure: trips.avg_duration_min|avg(trips.tripduration)
airbnb | how many guests can stay | field: listings.accommodates
airbnb | sleeping spaces | field: listings.beds|listings.bedrooms
airbnb | what a stay costs | field: listings.price|calendar.price || measure: listings.avg_price|avg(listings.price)
airbnb | shortest booking allowed | field: listings.minimum_nights|calendar.minimum_nights
airbnb | can guests reserve without waiting for approval | field: listings.instant_bookable
airbnb | top-tier landlords with a special badge | field: listings.host_is_superhost || measure: listings.superhost_share || source: listings; filter: listings.host_is_superhost=true || measure: listings.host_count|listings.listing_count|count(listings); filter: listings.host_is_superhost=true
airbnb | how quickly the landlord replies | field: listings.host_response_time|listings.host_response_rate
airbnb | how long the landlord has been on the platform | field: listings.host_since
airbnb | which borough is the apartment in | field: listings.neighbourhood_group_cleansed
airbnb | area of the city the flat is in | field: listings.neighbourhood_cleansed|listings.neighbourhood_group_cleansed
airbnb | whole apartment or just a bedroom | field: listings.room_type|listings.property_type || view: listings.listings_by_room_type
airbnb | guest feedback text | field: reviews.comments
airbnb | how tidy guests found the place | field: listings.review_scores_cleanliness || measure: avg(listings.review_scores_cleanliness)
airbnb | overall stars guests gave | field: listings.review_scores_rating || measure: listings.avg_rating|avg(listings.review_scores_rating)
airbnb | free dates for a stay | field: calendar.available|listings.availability_365 || source: calendar; filter: calendar.available=true
airbnb | how full the rentals are | measure: calendar.occupancy_rate
airbnb | city permit number | field: listings.license
airbnb | features like wifi and a kitchen | field: listings.amenities
airbnb | washrooms in the unit | field: listings.bathrooms_text
airbnb | how often guests leave feedback | field: listings.reviews_per_month || measure: avg(listings.reviews_per_month)
airbnb | most expensive parts of town | view: listings.priciest_neighbourhoods || measure: listings.avg_price|avg(listings.price); group: listings.neighbourhood_cleansed|listings.neighbourhood_group_cleansed; top
airbnb | person who wrote the critique | field: reviews.reviewer_name|reviews.reviewer_id
airbnb | rate after discounts on a given day | field: calendar.adjusted_price
airbnb | landlords | measure: listings.host_count || field: listings.host_name|listings.host_id
airbnb | nightly rate | field: listings.price || measure: listings.avg_price
airbnb | number of bedrooms | field: listings.bedrooms
airbnb | date of the most recent review | field: listings.last_review || measure: max(reviews.date)
airbnb | host's response rate | field: listings.host_response_rate
airbnb | private rooms | source: listings; filter: listings.room_type=Private room || measure: listings.listing_count|listings.avg_price|count(listings); filter: listings.room_type=Private room
airbnb | listings in Brooklyn | source: listings; filter: listings.neighbourhood_group_cleansed=Brooklyn || measure: listings.listing_count|count(listings); filter: listings.neighbourhood_group_cleansed=Brooklyn
airbnb | homes in Harlem | source: listings; filter: listings.neighbourhood_cleansed=Harlem || measure: listings.listing_count|count(listings); filter: listings.neighbourhood_cleansed=Harlem
airbnb | hosts who answer within an hour | source: listings; filter: listings.host_response_time=within an hour || measure: listings.host_count|listings.listing_count|count(listings); filter: listings.host_response_time=within an hour
airbnb | host name | field: listings.host_name
airbnb | price | field: listings.price|calendar.price || measure: listings.avg_price|avg(listings.price)
airbnb | number of reviews | field: listings.number_of_reviews || measure: reviews.review_count|sum(listings.number_of_reviews)|count(reviews)
airbnb | room type of booked nights | source: calendar; field: listings.room_type
airbnb | neighbourhood of reviewed listings | source: reviews; field: listings.neighbourhood_cleansed
airbnb | how many listings | measure: listings.listing_count|count(listings)
airbnb | average price | measure: listings.avg_price|avg(listings.price)
airbnb | listings by room type | view: listings.listings_by_room_type || measure: listings.listing_count|count(listings); group: listings.room_type
airbnb | reviews by month | view: reviews.reviews_by_month || measure: reviews.review_count|count(reviews); group: reviews.date@month
`;
