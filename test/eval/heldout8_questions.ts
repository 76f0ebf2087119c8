/**
 * The eighth held-out set's questions (models in
 * test/eval/heldout8_packages.ts), written as users would ask them, without
 * reading the retrieval code or any of its output, and committed before any
 * score was run on them. Same line format and categories as
 * test/eval/questions.ts; `noword` questions share no word (after stemming)
 * with the target's name, doc or label. Never tuned on.
 * @module
 */
import { parseQuestions, type EvalQuestion } from "./questions.ts";

const RAW = `
noword | fars | how many lives were lost on the roads | accident.FATALS || accident.total_fatalities || person.fatality_count
noword | fars | what was the initial thing struck | accident.HARM_EVNAME
noword | fars | was it a head-on or rear-end impact | accident.MAN_COLLNAME
noword | fars | was it dark outside when it happened | accident.LGT_CONDNAME
noword | fars | what were the skies like | accident.WEATHERNAME || accident.weather_conditions
noword | fars | countryside versus city streets | accident.RUR_URBNAME
noword | fars | freeway or side street | accident.FUNC_SYSNAME || accident.ROUTENAME
noword | fars | was construction going on there | accident.WRK_ZONENAME
noword | fars | how long did the ambulance take to get there | accident.ARR_HOUR
noword | fars | people on foot who were struck | accident.PEDS || person.PER_TYPNAME
noword | fars | how fast was the car going | vehicle.TRAV_SP
noword | fars | legal maximum on that stretch | vehicle.VSPD_LIM
noword | fars | brand of the car | vehicle.MAKENAME || vehicle.makes_involved
noword | fars | how old was the car | vehicle.MOD_YEAR || vehicle.avg_model_year
noword | fars | did it flip onto its roof | vehicle.ROLLOVERNAME
noword | fars | driver fled the scene | vehicle.HIT_RUNNAME
noword | fars | was the motorist intoxicated | vehicle.DR_DRINKNAME || person.DRINKINGNAME || person.ALC_RES
noword | fars | how badly was the car wrecked | vehicle.DEFORMEDNAME
noword | fars | was the victim buckled up | person.REST_USENAME || person.belt_use_rate || person.restraint_use
noword | fars | thrown out of the car | person.EJECTIONNAME
noword | fars | how badly hurt was each one involved | person.INJ_SEVNAME
noword | fars | man or woman | person.SEXNAME
noword | fars | how old were the victims | person.AGE || person.avg_age
noword | fars | how long did victims survive afterwards | person.LAG_HRS
noword | fars | what time on the clock is most lethal | accident.by_hour_of_day || accident.HOUR
noword | wdi | is the nation poor or wealthy by the official classification | country_summary.income_group
noword | wdi | which part of the world is it in | country_summary.region
noword | wdi | money used there | country_summary.currency_unit
noword | wdi | kind of loans the nation qualifies for | country_summary.lending_category
noword | wdi | when were the inhabitants last counted | country_summary.latest_population_census
noword | wdi | short letter abbreviation of a nation | country_summary.two_alpha_code || country_summary.country_code || indicators_data.country_code
noword | wdi | formal title such as Federal Republic of Germany | country_summary.long_name
noword | wdi | explanation of what a statistic means | series_summary.short_definition || series_summary.long_definition
noword | wdi | is it in dollars, percent or people | series_summary.unit_of_measure
noword | wdi | which agency compiled the numbers | series_summary.source
noword | wdi | caveats about the statistic | series_summary.limitations_and_exceptions
noword | wdi | how are regional totals computed | series_summary.aggregation_method
noword | wdi | subject area of a statistic | series_summary.topic
noword | wdi | the actual figure reported | indicators_data.value
noword | wdi | newest available figure for each nation | indicators_data.latest_value || indicators_data.latest_by_country
noword | wdi | how things changed over the decades | indicators_data.indicator_trend || indicators_data.year
noword | wdi | which statistics have gaps | indicators_data.coverage
noword | spotify | how happy does a song sound | tracks.valence || tracks.avg_valence
noword | spotify | can you groove to it | tracks.danceability || tracks.avg_danceability
noword | spotify | how intense does it feel | tracks.energy || tracks.avg_energy
noword | spotify | how noisy is the master | tracks.loudness
noword | spotify | recorded in front of an audience | tracks.liveness
noword | spotify | lots of talking instead of singing | tracks.speechiness
noword | spotify | tracks without vocals | tracks.instrumentalness
noword | spotify | unplugged sound with guitars and pianos | tracks.acousticness
noword | spotify | how long is the song | tracks.duration_ms || tracks.avg_duration_min
noword | spotify | happy or sad scale | tracks.mode || tracks.mode_name
noword | spotify | which note is it written in | tracks.key || tracks.key_name
noword | spotify | contains swearing | tracks.explicit || tracks.explicit_share
noword | spotify | beats in each bar | tracks.time_signature
noword | spotify | fan base size of a performer | artists.followers || artists.total_followers
noword | spotify | music styles a singer plays | artists.genres
noword | spotify | biggest stars | artists.most_followed || tracks.top_artists || artists.popularity
noword | spotify | hits of all time | tracks.most_popular || tracks.popularity
noword | spotify | when did it come out | tracks.release_date || tracks.release_year
noword | spotify | who sings it | tracks.artists || artists.name
noword | spotify | how much new music appeared over time | tracks.tracks_by_year || tracks.release_year || tracks.release_date
noword | spotify | how the sound changed across eras | tracks.audio_profile_by_decade || tracks.decade
noword | spotify | the song title | tracks.name
noword | so_survey | how much do coders earn | responses.ConvertedCompYearly || responses.median_comp || responses.avg_comp || responses.CompTotal
noword | so_survey | do people commute or stay home | responses.RemoteWork || responses.remote_share || responses.remote_by_org_size
noword | so_survey | highest schooling completed | responses.EdLevel
noword | so_survey | how big is the employer | responses.OrgSize
noword | so_survey | what is their job role | responses.DevType || responses.comp_by_devtype
noword | so_survey | how long have they been paid to program | responses.YearsCodePro || responses.WorkExp
noword | so_survey | how they picked up programming | responses.LearnCode
noword | so_survey | do they manage others | responses.ICorPM
noword | so_survey | what they think of chatbots for coding | responses.AISent
noword | so_survey | do they rely on Copilot or ChatGPT | responses.AISelect || responses.ai_adoption_rate
noword | so_survey | how often they come to the site | responses.SOVisitFreq
noword | so_survey | do they have a login on the site | responses.SOAccount
noword | so_survey | sector of their employer | responses.Industry
noword | so_survey | minutes lost looking things up each day | responses.TimeSearching
noword | so_survey | was the questionnaire too long | responses.SurveyLength
noword | so_survey | cloud providers they deploy to | responses.PlatformHaveWorkedWith
noword | so_survey | frontend libraries like React | responses.WebframeHaveWorkedWith
noword | so_survey | which programming tongues do coders stick with | language_usage.admiration_rate || language_usage.most_admired
noword | so_survey | how old are the people who answered | responses.Age || responses.respondents_by_age
noword | so_survey | nation of residence | responses.Country
syn | fars | posted speed limit | vehicle.VSPD_LIM
syn | fars | blood alcohol level | person.ALC_RES
syn | fars | seat belt use | person.REST_USENAME || person.belt_use_rate || person.restraint_use
syn | fars | vehicle make | vehicle.MAKENAME
syn | fars | injury severity | person.INJ_SEVNAME
syn | fars | lighting conditions | accident.LGT_CONDNAME
syn | fars | state that licensed the driver | vehicle.L_STATENAME
syn | wdi | income group | country_summary.income_group
syn | wdi | indicator code | indicators_data.indicator_code || series_summary.series_code
syn | wdi | indicator definition | series_summary.short_definition || series_summary.long_definition
syn | wdi | how the aggregate is calculated | series_summary.aggregation_method
syn | spotify | song popularity | tracks.popularity || tracks.avg_popularity
syn | spotify | track length | tracks.duration_ms || tracks.avg_duration_min
syn | spotify | artist followers | artists.followers || artists.total_followers
syn | spotify | beats per minute | tracks.tempo
syn | spotify | musical key | tracks.key || tracks.key_name
syn | spotify | year of release | tracks.release_year || tracks.release_date
syn | so_survey | annual salary in dollars | responses.ConvertedCompYearly || responses.median_comp || responses.avg_comp
syn | so_survey | education level | responses.EdLevel
syn | so_survey | company size | responses.OrgSize
syn | so_survey | developer type | responses.DevType
syn | so_survey | years of professional experience | responses.WorkExp || responses.YearsCodePro
syn | so_survey | databases used | responses.DatabaseHaveWorkedWith
syn | so_survey | languages people want to learn | responses.LanguageWantToWorkWith || language_usage.wants_to_use
syn | so_survey | programming languages used | language_usage.language || responses.LanguageHaveWorkedWith || language_usage.most_used_languages
value | fars | crashes in Texas | accident.STATENAME=Texas
value | fars | motorcycle crashes | vehicle.BODY_TYPNAME=Two Wheel Motorcycle (excluding motor scooters)
value | fars | fatal crashes in the rain | accident.WEATHERNAME=Rain
value | fars | pedestrians killed | person.PER_TYPNAME=Pedestrian
value | fars | deaths on interstates | accident.FUNC_SYSNAME=Interstate || accident.ROUTENAME=Interstate
value | fars | Harley-Davidson riders | vehicle.MAKENAME=Harley-Davidson
value | fars | hit and run crashes | vehicle.HIT_RUNNAME=Yes
value | fars | crashes at roundabouts | accident.TYP_INTNAME=Roundabout
value | fars | people thrown completely from the vehicle | person.EJECTIONNAME=Totally Ejected
value | fars | victims airlifted to hospital | person.HOSPITALNAME=EMS Air
value | fars | Saturday crashes | accident.DAY_WEEKNAME=Saturday
value | wdi | GDP of India | indicators_data.indicator_name=GDP (current US$) || indicators_data.indicator_code=NY.GDP.MKTP.CD
value | wdi | population of Nigeria | indicators_data.indicator_name=Population, total || indicators_data.indicator_code=SP.POP.TOTL
value | wdi | life expectancy in Japan | indicators_data.indicator_name=Life expectancy at birth, total (years) || indicators_data.indicator_code=SP.DYN.LE00.IN
value | wdi | how long people live in Kenya | indicators_data.indicator_name=Life expectancy at birth, total (years) || indicators_data.indicator_code=SP.DYN.LE00.IN
value | wdi | carbon emissions per person | indicators_data.indicator_name=CO2 emissions (metric tons per capita) || indicators_data.indicator_code=EN.ATM.CO2E.PC
value | wdi | jobless rate in South Africa | indicators_data.indicator_name=Unemployment, total (% of total labor force) (modeled ILO estimate) || indicators_data.indicator_code=SL.UEM.TOTL.ZS
value | wdi | how fast prices rose in Brazil | indicators_data.indicator_name=Inflation, consumer prices (annual %) || indicators_data.indicator_code=FP.CPI.TOTL.ZG
value | wdi | share of people online | indicators_data.indicator_name=Individuals using the Internet (% of population) || indicators_data.indicator_code=IT.NET.USER.ZS
value | wdi | children dying before age five | indicators_data.indicator_name=Mortality rate, under-5 (per 1,000 live births) || indicators_data.indicator_code=SH.DYN.MORT
value | wdi | babies per woman | indicators_data.indicator_name=Fertility rate, total (births per woman) || indicators_data.indicator_code=SP.DYN.TFRT.IN
value | wdi | homes with power | indicators_data.indicator_name=Access to electricity (% of population) || indicators_data.indicator_code=EG.ELC.ACCS.ZS
value | wdi | low income countries | country_summary.income_group=Low income
value | wdi | countries in Sub-Saharan Africa | country_summary.region=Sub-Saharan Africa
value | wdi | euro area members | country_summary.other_groups=Euro area
value | wdi | IDA borrowers | country_summary.lending_category=IDA
value | wdi | top 10 most populous countries | indicators_data.indicator_name=Population, total || indicators_data.indicator_code=SP.POP.TOTL
value | wdi | economic growth of China by year | indicators_data.indicator_name=GDP growth (annual %) || indicators_data.indicator_code=NY.GDP.MKTP.KD.ZG
value | spotify | songs in a minor key | tracks.mode_name=Minor || tracks.mode
value | spotify | tracks in C sharp | tracks.key_name=C#
value | spotify | songs in D major | tracks.key_name=D
value | so_survey | respondents from Germany | responses.Country=Germany
value | so_survey | fully remote developers | responses.RemoteWork=Remote
value | so_survey | people managers | responses.ICorPM=People manager
value | so_survey | data scientists | responses.DevType=Data scientist or machine learning specialist
value | so_survey | Rust users | language_usage.language=Rust
value | so_survey | people still learning to code | responses.MainBranch=I am learning to code || responses.DevType=Student
value | so_survey | developers at companies with 10,000 or more staff | responses.OrgSize=10,000 or more employees
value | so_survey | people working in healthcare | responses.Industry=Healthcare
value | so_survey | master's degree holders | responses.EdLevel=Master’s degree (M.A., M.S., M.Eng., MBA, etc.)
value | so_survey | median pay in India | responses.Country=India || responses.median_comp
trap | fars | date | accident.crash_datetime
trap | fars | count | accident.crash_count || vehicle.vehicle_count || person.person_count
trap | fars | state | accident.STATENAME || vehicle.L_STATENAME
trap | fars | model | vehicle.MODELNAME || vehicle.MOD_YEAR
trap | wdi | name | country_summary.short_name || country_summary.table_name || country_summary.long_name || indicators_data.country_name || indicators_data.indicator_name || series_summary.indicator_name
trap | wdi | code | indicators_data.country_code || indicators_data.indicator_code || country_summary.country_code || series_summary.series_code
trap | wdi | year | indicators_data.year
trap | wdi | count | indicators_data.observation_count || country_summary.country_count || series_summary.series_count
trap | spotify | name | tracks.name || artists.name
trap | spotify | popularity | tracks.popularity || artists.popularity || tracks.avg_popularity
trap | spotify | date | tracks.release_date
trap | so_survey | country | responses.Country
trap | so_survey | count | responses.respondent_count || language_usage.user_count
trap | so_survey | age | responses.Age
trap | so_survey | language | language_usage.language || responses.LanguageHaveWorkedWith
join | fars | weather during the crash for each vehicle | accident.WEATHERNAME
join | fars | state where each victim died | accident.STATENAME
join | fars | light at the scene for each person involved | accident.LGT_CONDNAME
join | wdi | region of the country behind each data point | country_summary.region
join | wdi | income group of each observation's country | country_summary.income_group
join | wdi | unit of measure of each data row | series_summary.unit_of_measure
join | wdi | topic of the indicator for each value | series_summary.topic
join | spotify | followers of the artist of each track | artists.followers
join | spotify | genres of each track's artist | artists.genres
join | spotify | popularity of the performer behind each song | artists.popularity
join | so_survey | country of each language user | responses.Country
join | so_survey | job role of people using each language | responses.DevType
join | so_survey | salary of the people using each language | responses.ConvertedCompYearly || responses.median_comp || responses.avg_comp
kind | fars | how many crashes | accident.crash_count
kind | fars | which states have the most road deaths | accident.crashes_by_state || accident.total_fatalities || accident.STATENAME
kind | fars | deaths by state | accident.crashes_by_state || accident.total_fatalities || accident.STATENAME
kind | fars | crashes by month | accident.crashes_by_month || accident.crash_datetime || accident.MONTH || accident.MONTHNAME
kind | fars | monthly road deaths | accident.crashes_by_month || accident.total_fatalities
kind | fars | deadliest crashes | accident.deadliest_crashes || accident.FATALS
kind | fars | average age of people killed | person.avg_age || person.AGE
kind | fars | top vehicle makes in fatal crashes | vehicle.makes_involved || vehicle.MAKENAME
kind | fars | share of vehicles speeding | vehicle.speeding_share || vehicle.SPEEDRELNAME
kind | fars | deaths per crash | accident.fatalities_per_crash
kind | fars | speeding by speed limit | vehicle.speeding_by_limit || vehicle.VSPD_LIM
kind | wdi | how many countries | country_summary.country_count || indicators_data.countries_reporting
kind | wdi | average value by region | indicators_data.regional_averages || indicators_data.avg_value
kind | wdi | countries by income level | country_summary.countries_by_income || country_summary.income_group
kind | wdi | how many indicators | series_summary.series_count
kind | wdi | latest value for each country | indicators_data.latest_by_country || indicators_data.latest_value
kind | wdi | indicators by topic | series_summary.topic || series_summary.series_count
kind | spotify | how many tracks | tracks.track_count
kind | spotify | tracks by year | tracks.tracks_by_year || tracks.release_year
kind | spotify | average danceability by decade | tracks.audio_profile_by_decade || tracks.avg_danceability
kind | spotify | most popular songs | tracks.most_popular || tracks.popularity
kind | spotify | artists with the most tracks | tracks.top_artists
kind | spotify | how many artists | artists.artist_count
kind | spotify | share of explicit songs per year | tracks.explicit_share
kind | spotify | average song length by decade | tracks.avg_duration_min || tracks.audio_profile_by_decade
kind | spotify | most followed artists | artists.most_followed || artists.followers
kind | so_survey | how many respondents | responses.respondent_count
kind | so_survey | median salary by country | responses.comp_by_country || responses.median_comp
kind | so_survey | pay by developer type | responses.comp_by_devtype || responses.median_comp
kind | so_survey | respondents by age | responses.respondents_by_age || responses.Age
kind | so_survey | most used languages | language_usage.most_used_languages || language_usage.language
kind | so_survey | most admired languages | language_usage.most_admired || language_usage.admiration_rate
kind | so_survey | remote work by company size | responses.remote_by_org_size || responses.remote_share
kind | so_survey | average years of experience | responses.avg_work_exp || responses.WorkExp
kind | so_survey | highest paying countries | responses.comp_by_country || responses.median_comp
`;

/** Every question of the eighth held-out set, in file order. */
export const HELDOUT8_QUESTIONS: EvalQuestion[] = parseQuestions(RAW);
