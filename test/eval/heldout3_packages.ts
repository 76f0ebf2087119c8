/**
 * The third held-out set's models: three more public schemas used by no
 * other set (Sean Lahman's baseball database, Citi Bike's New York trips
 * and stations as BigQuery publishes them, Inside Airbnb's listings,
 * calendar and reviews), with the schemas' own column names (Lahman's
 * abbreviations such as HR, RBI, IPouts kept), a few `#(doc)` lines and
 * `# label` tags as a modeler would add. Written with their questions
 * (test/eval/heldout3_questions.ts) after the test half had been read about
 * 22 times, the first held-out set twice and the second once, and
 * committed before any score was run on them: changes made after that
 * point are judged on the older sets and reported on this one.
 * @module
 */
import { evalPackage, type EvalPackage } from "./schema.ts";

const COUNTRIES = "USA; D.R.; Venezuela; CAN; Cuba; Mexico; P.R.; Japan; Panama; Australia";

const LAHMAN: EvalPackage = evalPackage("lahman", "lahman.malloy", "Lahman baseball database: players, teams and seasons", {
  people: {
    fields: ["playerID s", "nameFirst s", "nameLast s", "nameGiven s", "birthYear n", `birthCountry s = ${COUNTRIES}`, "birthState s",
      "birthCity s", "deathYear n", "weight n | Pounds", "height n | Inches", "bats s = R; L; B # label=\"Batting hand\"",
      "throws s = R; L # label=\"Throwing hand\"", "debut d", "finalGame d", "player_count m"],
  },
  teams: {
    fields: ["yearID n", "lgID s = AL; NL", "teamID s", "franchID s", "divID s = E; C; W", "Rank n | Position in final standings", "G n", "W n",
      "L n", "DivWin b", "WSWin b # label=\"Won World Series\"", "R n", "RA n | Runs allowed", "HR n", "ERA n", "name s", "park s",
      "attendance n", "team_season_count m", "win_pct m | Wins divided by games played", "total_attendance m", "standings v"],
  },
  batting: {
    joins: { player: "people", team: "teams" },
    fields: ["playerID s", "yearID n", "stint n", "teamID s", "lgID s", "G n", "AB n | At bats", "R n", "H n", "doubles n", "triples n", "HR n",
      "RBI n", "SB n", "CS n", "BB n", "SO n", "HBP n", "SH n", "SF n", "GIDP n", "total_hits m", "total_home_runs m",
      "batting_average m | Hits per at bat", "on_base_pct m", "slugging_pct m", "home_run_leaders v"],
  },
  pitching: {
    joins: { player: "people" },
    fields: ["playerID s", "yearID n", "teamID s", "W n", "L n", "G n", "GS n", "CG n", "SHO n", "SV n", "IPouts n | Outs pitched", "H n", "ER n",
      "HR n", "BB n", "SO n", "ERA n", "BAOpp n", "WP n", "BK n", "total_wins m", "total_strikeouts m", "avg_era m", "strikeout_leaders v"],
  },
  salaries: {
    joins: { player: "people" },
    fields: ["yearID n", "teamID s", "lgID s", "playerID s", "salary n", "total_payroll m", "avg_salary m"],
  },
  halloffame: {
    joins: { player: "people" },
    fields: ["playerID s", "yearid n", "votedBy s = BBWAA; Veterans; Run Off; Special Election; Old Timers; Negro League", "ballots n",
      "needed n", "votes n", "inducted s = Y; N", "category s = Player; Manager; Pioneer/Executive; Umpire", "inductee_count m"],
  },
});

const STATIONS = "W 21 St & 6 Ave; 8 Ave & W 31 St; Broadway & E 22 St; West St & Chambers St; Pershing Square North; E 17 St & Broadway; Central Park S & 6 Ave";

const CITIBIKE: EvalPackage = evalPackage("citibike", "citibike.malloy", "Citi Bike: New York bike share", {
  stations: {
    fields: ["station_id s", `name s = ${STATIONS}`, "short_name s", "latitude n", "longitude n", "region_id n", "rental_methods s",
      "capacity n | Number of docks", "num_bikes_available n", "num_bikes_disabled n", "num_docks_available n", "num_docks_disabled n",
      "is_installed b", "is_renting b", "is_returning b", "last_reported t", "station_count m", "total_capacity m",
      "empty_station_count m | Stations with no bike available"],
  },
  trips: {
    doc: "Citi Bike trips",
    joins: { start_station: "stations", end_station: "stations" },
    fields: ["tripduration n | Trip duration in seconds", "starttime t", "stoptime t", "start_station_id n", `start_station_name s = ${STATIONS}`,
      "start_station_latitude n", "start_station_longitude n", "end_station_id n", `end_station_name s = ${STATIONS}`, "end_station_latitude n",
      "end_station_longitude n", "bikeid n", "usertype s = Subscriber; Customer", "birth_year n", "gender s = male; female; unknown",
      "customer_plan s", "ride_count m", "avg_duration_min m | Average trip duration in minutes", "total_ride_hours m",
      "subscriber_share m | Share of rides by annual members", "round_trip_count m | Rides ending at the station they started from",
      "rides_by_hour v", "busiest_start_stations v"],
  },
});

const NEIGHBOURHOODS = "Williamsburg; Bedford-Stuyvesant; Harlem; Bushwick; Upper West Side; Hell's Kitchen; Midtown; Crown Heights; East Village; Astoria";

const AIRBNB: EvalPackage = evalPackage("airbnb", "airbnb.malloy", "Inside Airbnb: New York City listings", {
  listings: {
    fields: ["id n", "listing_url s", "name s", "description s", "neighborhood_overview s", "host_id n", "host_name s", "host_since d",
      "host_response_time s = within an hour; within a few hours; within a day; a few days or more", "host_response_rate n",
      "host_is_superhost b", "host_listings_count n", `neighbourhood_cleansed s = ${NEIGHBOURHOODS}`,
      "neighbourhood_group_cleansed s = Manhattan; Brooklyn; Queens; Bronx; Staten Island", "latitude n", "longitude n",
      "property_type s = Entire rental unit; Private room in rental unit; Entire home; Entire condo; Private room in home; Room in hotel; Entire loft",
      "room_type s = Entire home/apt; Private room; Shared room; Hotel room", "accommodates n", "bathrooms_text s", "bedrooms n", "beds n",
      "amenities s", "price n # label=\"Nightly price\"", "minimum_nights n", "maximum_nights n",
      "availability_365 n | Days available in the next year", "number_of_reviews n", "first_review d", "last_review d",
      "review_scores_rating n", "review_scores_cleanliness n", "review_scores_location n", "review_scores_value n", "instant_bookable b",
      "license s", "reviews_per_month n", "listing_count m", "host_count m", "avg_price m", "avg_rating m", "superhost_share m",
      "listings_by_room_type v", "priciest_neighbourhoods v"],
  },
  calendar: {
    joins: { listing: "listings" },
    fields: ["listing_id n", "date d", "available b", "price n", "adjusted_price n", "minimum_nights n", "maximum_nights n",
      "booked_nights m | Nights not available", "occupancy_rate m | Share of nights booked"],
  },
  reviews: {
    joins: { listing: "listings" },
    fields: ["listing_id n", "id n", "date d", "reviewer_id n", "reviewer_name s", "comments s", "review_count m", "reviews_by_month v"],
  },
});

/** All packages of the third held-out set. */
export const HELDOUT3_PACKAGES: EvalPackage[] = [LAHMAN, CITIBIKE, AIRBNB];
