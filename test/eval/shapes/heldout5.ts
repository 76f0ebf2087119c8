/**
 * Expected shapes of the first next step for the fifth held-out set
 * (test/eval/heldout5_questions.ts), format of test/eval/shape_format.ts.
 * Written from the questions and test/eval/heldout5_packages.ts only, before
 * any next_steps output was seen.
 * @module
 */

/** Shapes of every question of the set. */
export const HELDOUT5 = `
hackernews | who wrote the post | field: items.by
hackernews | upvotes | field: items.score || measure: items.avg_score|items.total_score|sum(items.score)
hackernews | how big did the discussion get | field: items.descendants || measure: sum(items.descendants)|avg(items.descendants)
hackernews | thread a reply belongs to | field: items.parent
hackernews | killed by moderators | field: items.dead || source: items; filter: items.dead=true || measure: items.item_count|items.story_count|items.comment_count|count(items); filter: items.dead=true
hackernews | removed by the poster | field: items.deleted || source: items; filter: items.deleted=true || measure: items.item_count|items.story_count|items.comment_count|count(items); filter: items.deleted=true
hackernews | headline of a submission | field: items.title
hackernews | link being shared | field: items.url|items.domain
hackernews | which sites get linked most | view: items.top_domains || measure: items.item_count|items.story_count|count(items); group: items.domain; top
hackernews | body of a reply | field: items.text
hackernews | reputation points of members | field: users.karma || measure: users.avg_karma|avg(users.karma)
hackernews | member bio | field: users.about
hackernews | when someone signed up | field: users.created
hackernews | most active submitters | view: items.top_posters || measure: items.item_count|items.story_count|count(items); group: items.by|users.id; top
hackernews | front page hits | view: items.top_stories || measure: items.total_score|items.avg_score; group: items.title|items.id; top
hackernews | activity over the years | view: items.posts_by_month || measure: items.item_count|items.story_count|items.comment_count|count(items); group: items.timestamp@year|items.timestamp@quarter|items.timestamp@month
hackernews | order on the front page | field: items.ranking
chicago_crime | was anyone taken into custody | field: crime.arrest || measure: crime.arrest_rate || measure: crime.crime_count|count(crime); filter: crime.arrest=true || source: crime; filter: crime.arrest=true
chicago_crime | family violence incidents | field: crime.domestic || measure: crime.domestic_share || measure: crime.crime_count|count(crime); filter: crime.domestic=true || source: crime; filter: crime.domestic=true
chicago_crime | offense category | field: crime.primary_type || view: crime.crimes_by_type
chicago_crime | where it happened, like a street or an apartment | field: crime.location_description
chicago_crime | police patrol zone | field: crime.beat|crime.district
chicago_crime | city council district | field: crime.ward
chicago_crime | neighborhood | field: crime.community_area|community_areas.community|community_areas.area_numbe
chicago_crime | state offense classification | field: crime.iucr
chicago_crime | national reporting category | field: crime.fbi_code
chicago_crime | which stretch of road it occurred on | field: crime.block
chicago_crime | police report reference | field: crime.case_number
chicago_crime | GPS position | field: crime.latitude, crime.longitude || field: crime.location
chicago_crime | when the record was last changed | field: crime.updated_on
chicago_crime | more detail on the offense | field: crime.description
chicago_crime | worst streets | view: crime.hotspot_blocks || measure: crime.crime_count|count(crime); group: crime.block; top
chicago_crime | what time of night do things happen | view: crime.crimes_by_hour || measure: crime.crime_count|count(crime); group: crime.date@hour_of_day|crime.date@hour
chicago_crime | proportion of cases solved with someone booked | measure: crime.arrest_rate
chicago_crime | trend since 2001 | view: crime.crimes_by_year || measure: crime.crime_count|count(crime); group: crime.year|crime.date@year
chicago_crime | north or south part of town | field: community_areas.side
olympics | how tall are the competitors | field: athlete_events.Height || measure: avg(athlete_events.Height)
olympics | body mass | field: athlete_events.Weight || measure: avg(athlete_events.Weight)
olympics | gender | field: athlete_events.Sex || measure: athlete_events.women_share
olympics | how old were they | field: athlete_events.Age || measure: athlete_events.avg_age|avg(athlete_events.Age)
olympics | which flag they compete under | field: athlete_events.NOC|noc_regions.NOC|athlete_events.Team|noc_regions.region
olympics | town that hosted the games | field: athlete_events.City
olympics | summer or winter | field: athlete_events.Season
olympics | discipline | field: athlete_events.Sport|athlete_events.Event
olympics | specific race or competition entered | field: athlete_events.Event
olympics | first, second or third place | field: athlete_events.Medal || measure: athlete_events.medal_count
olympics | ranking of nations by podiums | view: athlete_events.medal_table || measure: athlete_events.medal_count; group: athlete_events.NOC|athlete_events.Team|noc_regions.region|noc_regions.NOC; top
olympics | first place finishes | measure: athlete_events.gold_count || measure: athlete_events.entry_count|athlete_events.medal_count|count(athlete_events); filter: athlete_events.Medal=Gold || source: athlete_events; filter: athlete_events.Medal=Gold
olympics | how many ladies take part | measure: athlete_events.women_share || measure: athlete_events.athlete_count|athlete_events.entry_count|count(athlete_events); filter: athlete_events.Sex=F
olympics | nation name | field: noc_regions.region
olympics | participation growth over time | view: athlete_events.athletes_by_year || measure: athlete_events.athlete_count|athlete_events.entry_count|count(athlete_events); group: athlete_events.Year|athlete_events.Games
olympics | delegation | field: athlete_events.Team
hackernews | points of a story | field: items.score
hackernews | number of comments on a story | field: items.descendants
hackernews | author of an item | field: items.by
hackernews | user karma | field: users.karma
hackernews | when it was posted | field: items.timestamp|items.time
hackernews | website domain | field: items.domain
chicago_crime | crime type | field: crime.primary_type
chicago_crime | was there an arrest | field: crime.arrest
chicago_crime | FBI code | field: crime.fbi_code
chicago_crime | police district | field: crime.district
chicago_crime | community area name | field: community_areas.community
olympics | athlete age | field: athlete_events.Age
olympics | medal won | field: athlete_events.Medal
olympics | olympic games edition | field: athlete_events.Games
olympics | region of the committee | field: noc_regions.region
hackernews | job postings | source: items; filter: items.type=job || measure: items.item_count|count(items); filter: items.type=job
hackernews | polls | source: items; filter: items.type=poll || measure: items.item_count|count(items); filter: items.type=poll
hackernews | comments only | source: items; filter: items.type=comment || measure: items.item_count|items.comment_count|count(items); filter: items.type=comment
hackernews | links to github | source: items; filter: items.domain=github.com || measure: items.item_count|items.story_count|count(items); filter: items.domain=github.com
chicago_crime | homicides | source: crime; filter: crime.primary_type=HOMICIDE || measure: crime.crime_count|count(crime); filter: crime.primary_type=HOMICIDE
chicago_crime | drug crimes | source: crime; filter: crime.primary_type=NARCOTICS || measure: crime.crime_count|count(crime); filter: crime.primary_type=NARCOTICS
chicago_crime | car thefts | source: crime; filter: crime.primary_type=MOTOR VEHICLE THEFT || measure: crime.crime_count|count(crime); filter: crime.primary_type=MOTOR VEHICLE THEFT
chicago_crime | crimes on the street | source: crime; filter: crime.location_description=STREET || measure: crime.crime_count|count(crime); filter: crime.location_description=STREET
chicago_crime | incidents in the Loop | source: crime; filter: community_areas.community=LOOP || measure: crime.crime_count|count(crime); filter: community_areas.community=LOOP
chicago_crime | shoplifting | source: crime; filter: crime.description=RETAIL THEFT || measure: crime.crime_count|count(crime); filter: crime.description=RETAIL THEFT
olympics | gold medalists | source: athlete_events; filter: athlete_events.Medal=Gold || measure: athlete_events.athlete_count|athlete_events.medal_count|athlete_events.entry_count|count(athlete_events); filter: athlete_events.Medal=Gold
olympics | winter games only | source: athlete_events; filter: athlete_events.Season=Winter || measure: athlete_events.athlete_count|athlete_events.entry_count|athlete_events.medal_count|count(athlete_events); filter: athlete_events.Season=Winter
olympics | swimmers | source: athlete_events; filter: athlete_events.Sport=Swimming || measure: athlete_events.athlete_count|athlete_events.entry_count|count(athlete_events); filter: athlete_events.Sport=Swimming
olympics | female athletes | source: athlete_events; filter: athlete_events.Sex=F || measure: athlete_events.athlete_count|athlete_events.entry_count|count(athlete_events); filter: athlete_events.Sex=F
olympics | athletes from the United States | source: athlete_events; filter: athlete_events.NOC=USA|noc_regions.region=USA|noc_regions.NOC=USA || measure: athlete_events.athlete_count|athlete_events.entry_count|count(athlete_events); filter: athlete_events.NOC=USA|noc_regions.region=USA|noc_regions.NOC=USA
olympics | London games | source: athlete_events; filter: athlete_events.City=London || measure: athlete_events.athlete_count|athlete_events.entry_count|athlete_events.medal_count|count(athlete_events); filter: athlete_events.City=London
hackernews | count | measure: items.item_count|items.story_count|items.comment_count|users.user_count|count(items)|count(users)
hackernews | time | field: items.time|items.timestamp
hackernews | id | field: items.id|users.id
chicago_crime | date | field: crime.date
chicago_crime | type | field: crime.primary_type
chicago_crime | code | field: crime.iucr|crime.fbi_code
olympics | name | field: athlete_events.Name
olympics | year | field: athlete_events.Year
olympics | count | measure: athlete_events.athlete_count|athlete_events.entry_count|athlete_events.medal_count|count(athlete_events)
hackernews | karma of the author of a story | source: items; field: users.karma
chicago_crime | side of the city of a crime | source: crime; field: community_areas.side
olympics | region of an athlete's country | source: athlete_events; field: noc_regions.region
olympics | notes on a national committee | field: noc_regions.notes
chicago_crime | neighborhood name of each incident | source: crime; field: community_areas.community
hackernews | account age of whoever posted | source: items; field: users.created
hackernews | how many stories | measure: items.story_count || measure: items.item_count|count(items); filter: items.type=story
hackernews | average score | measure: items.avg_score|avg(items.score)
hackernews | top domains | view: items.top_domains || measure: items.item_count|items.story_count|count(items); group: items.domain; top
chicago_crime | how many crimes | measure: crime.crime_count|count(crime)
chicago_crime | crimes by type | view: crime.crimes_by_type || measure: crime.crime_count|count(crime); group: crime.primary_type
chicago_crime | crimes by year | view: crime.crimes_by_year || measure: crime.crime_count|count(crime); group: crime.year|crime.date@year
olympics | how many athletes | measure: athlete_events.athlete_count
olympics | medal table | view: athlete_events.medal_table || measure: athlete_events.medal_count|athlete_events.gold_count; group: athlete_events.NOC|athlete_events.Team|noc_regions.region|noc_regions.NOC
olympics | average age of athletes | measure: athlete_events.avg_age|avg(athlete_events.Age)
`;
