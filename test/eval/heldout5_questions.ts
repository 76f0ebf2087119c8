/**
 * The fifth held-out set's questions (models in
 * test/eval/heldout5_packages.ts), written as users would ask them and
 * committed before any score was run on them. Same line format and
 * categories as test/eval/questions.ts; `noword` questions share no word
 * (after stemming) with the target's name, doc or label. Never tuned on.
 * @module
 */
import { parseQuestions, type EvalQuestion } from "./questions.ts";

const RAW = `
noword | hackernews | who wrote the post | items.by
noword | hackernews | upvotes | items.score || items.avg_score || items.total_score
noword | hackernews | how big did the discussion get | items.descendants
noword | hackernews | thread a reply belongs to | items.parent
noword | hackernews | killed by moderators | items.dead
noword | hackernews | removed by the poster | items.deleted
noword | hackernews | headline of a submission | items.title
noword | hackernews | link being shared | items.url || items.domain
noword | hackernews | which sites get linked most | items.top_domains || items.domain
noword | hackernews | body of a reply | items.text
noword | hackernews | reputation points of members | users.karma || users.avg_karma
noword | hackernews | member bio | users.about
noword | hackernews | when someone signed up | users.created
noword | hackernews | most active submitters | items.top_posters
noword | hackernews | front page hits | items.top_stories
noword | hackernews | activity over the years | items.posts_by_month
noword | hackernews | order on the front page | items.ranking
noword | chicago_crime | was anyone taken into custody | crime.arrest || crime.arrest_rate
noword | chicago_crime | family violence incidents | crime.domestic || crime.domestic_share
noword | chicago_crime | offense category | crime.primary_type || crime.crimes_by_type
noword | chicago_crime | where it happened, like a street or an apartment | crime.location_description
noword | chicago_crime | police patrol zone | crime.beat || crime.district
noword | chicago_crime | city council district | crime.ward
noword | chicago_crime | neighborhood | crime.community_area || community_areas.community || community_areas.area_numbe
noword | chicago_crime | state offense classification | crime.iucr
noword | chicago_crime | national reporting category | crime.fbi_code
noword | chicago_crime | which stretch of road it occurred on | crime.block
noword | chicago_crime | police report reference | crime.case_number
noword | chicago_crime | GPS position | crime.latitude || crime.longitude || crime.location
noword | chicago_crime | when the record was last changed | crime.updated_on
noword | chicago_crime | more detail on the offense | crime.description
noword | chicago_crime | worst streets | crime.hotspot_blocks
noword | chicago_crime | what time of night do things happen | crime.crimes_by_hour
noword | chicago_crime | proportion of cases solved with someone booked | crime.arrest_rate
noword | chicago_crime | trend since 2001 | crime.crimes_by_year
noword | chicago_crime | north or south part of town | community_areas.side
noword | olympics | how tall are the competitors | athlete_events.Height
noword | olympics | body mass | athlete_events.Weight
noword | olympics | gender | athlete_events.Sex || athlete_events.women_share
noword | olympics | how old were they | athlete_events.Age || athlete_events.avg_age
noword | olympics | which flag they compete under | athlete_events.NOC || noc_regions.NOC || athlete_events.Team || noc_regions.region
noword | olympics | town that hosted the games | athlete_events.City
noword | olympics | summer or winter | athlete_events.Season
noword | olympics | discipline | athlete_events.Sport || athlete_events.Event
noword | olympics | specific race or competition entered | athlete_events.Event
noword | olympics | first, second or third place | athlete_events.Medal || athlete_events.medal_count
noword | olympics | ranking of nations by podiums | athlete_events.medal_table
noword | olympics | first place finishes | athlete_events.gold_count
noword | olympics | how many ladies take part | athlete_events.women_share
noword | olympics | nation name | noc_regions.region
noword | olympics | participation growth over time | athlete_events.athletes_by_year
noword | olympics | delegation | athlete_events.Team
syn | hackernews | points of a story | items.score
syn | hackernews | number of comments on a story | items.descendants
syn | hackernews | author of an item | items.by
syn | hackernews | user karma | users.karma
syn | hackernews | when it was posted | items.timestamp || items.time
syn | hackernews | website domain | items.domain
syn | chicago_crime | crime type | crime.primary_type
syn | chicago_crime | was there an arrest | crime.arrest
syn | chicago_crime | FBI code | crime.fbi_code
syn | chicago_crime | police district | crime.district
syn | chicago_crime | community area name | community_areas.community
syn | olympics | athlete age | athlete_events.Age
syn | olympics | medal won | athlete_events.Medal
syn | olympics | olympic games edition | athlete_events.Games
syn | olympics | region of the committee | noc_regions.region
value | hackernews | job postings | items.type=job
value | hackernews | polls | items.type=poll
value | hackernews | comments only | items.type=comment
value | hackernews | links to github | items.domain=github.com
value | chicago_crime | homicides | crime.primary_type=HOMICIDE
value | chicago_crime | drug crimes | crime.primary_type=NARCOTICS
value | chicago_crime | car thefts | crime.primary_type=MOTOR VEHICLE THEFT
value | chicago_crime | crimes on the street | crime.location_description=STREET
value | chicago_crime | incidents in the Loop | community_areas.community=LOOP
value | chicago_crime | shoplifting | crime.description=RETAIL THEFT
value | olympics | gold medalists | athlete_events.Medal=Gold
value | olympics | winter games only | athlete_events.Season=Winter
value | olympics | swimmers | athlete_events.Sport=Swimming
value | olympics | female athletes | athlete_events.Sex=F
value | olympics | athletes from the United States | athlete_events.NOC=USA || noc_regions.region=USA
value | olympics | London games | athlete_events.City=London
trap | hackernews | count | items.item_count || items.story_count || items.comment_count || users.user_count
trap | hackernews | time | items.time || items.timestamp
trap | hackernews | id | items.id || users.id
trap | chicago_crime | date | crime.date
trap | chicago_crime | type | crime.primary_type
trap | chicago_crime | code | crime.iucr || crime.fbi_code
trap | olympics | name | athlete_events.Name
trap | olympics | year | athlete_events.Year
trap | olympics | count | athlete_events.athlete_count || athlete_events.entry_count || athlete_events.medal_count
join | hackernews | karma of the author of a story | users.karma
join | chicago_crime | side of the city of a crime | community_areas.side
join | olympics | region of an athlete's country | noc_regions.region
join | olympics | notes on a national committee | noc_regions.notes
join | chicago_crime | neighborhood name of each incident | community_areas.community
join | hackernews | account age of whoever posted | users.created
kind | hackernews | how many stories | items.story_count
kind | hackernews | average score | items.avg_score
kind | hackernews | top domains | items.top_domains
kind | chicago_crime | how many crimes | crime.crime_count
kind | chicago_crime | crimes by type | crime.crimes_by_type
kind | chicago_crime | crimes by year | crime.crimes_by_year
kind | olympics | how many athletes | athlete_events.athlete_count
kind | olympics | medal table | athlete_events.medal_table
kind | olympics | average age of athletes | athlete_events.avg_age
`;

/** Every question of the fifth held-out set, in file order. */
export const HELDOUT5_QUESTIONS: EvalQuestion[] = parseQuestions(RAW);
