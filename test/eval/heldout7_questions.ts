/**
 * The seventh held-out set's questions (models in
 * test/eval/heldout7_packages.ts), written as users would ask them and
 * committed before any score was run on them. Same line format and
 * categories as test/eval/questions.ts; `noword` questions share no word
 * (after stemming) with the target's name, doc or label. Never tuned on.
 * @module
 */
import { parseQuestions, type EvalQuestion } from "./questions.ts";

const RAW = `
noword | ga_sample | how many times had the shopper been here before | sessions.visitNumber
noword | ga_sample | how long did shoppers linger | sessions.timeOnSite || sessions.avg_time_on_site
noword | ga_sample | shoppers who left right after landing | sessions.bounces || sessions.bounce_rate
noword | ga_sample | how much money did the store make | sessions.revenue || sessions.transactionRevenue || products.product_revenue
noword | ga_sample | share of visits that ended in a purchase | sessions.conversion_rate || sessions.transactions
noword | ga_sample | first-time shoppers | sessions.newVisits
noword | ga_sample | what brought people to the store | sessions.channelGrouping || sessions.source || sessions.medium || sessions.channel_performance
noword | ga_sample | which website sent the visitor | sessions.source || sessions.referralPath || sessions.top_referrers
noword | ga_sample | search terms typed before arriving | sessions.keyword
noword | ga_sample | marketing push that drove the visit | sessions.campaign
noword | ga_sample | what gadget were they using | sessions.deviceCategory || sessions.isMobile || sessions.device_mix
noword | ga_sample | which program did they surf with | sessions.browser
noword | ga_sample | part of the world the shopper is in | sessions.continent || sessions.subContinent || sessions.country
noword | ga_sample | internet provider of the visitor | sessions.networkDomain
noword | ga_sample | unique shoppers | sessions.visitor_count || sessions.fullVisitorId
noword | ga_sample | how many screens did people look at | sessions.pageviews || sessions.total_pageviews
noword | ga_sample | where do our biggest buyers live | sessions.revenue_by_country || sessions.country
noword | ga_sample | visits that came straight in by typing the address | sessions.isTrueDirect || sessions.channelGrouping
noword | ga_sample | which address on the site did they open | hits.pagePath || hits.pagePathLevel1 || hits.top_pages
noword | ga_sample | heading shown in the browser tab | hits.pageTitle
noword | ga_sample | first screen of each visit | hits.isEntrance || hits.landing_pages
noword | ga_sample | last screen before leaving | hits.isExit || hits.exit_rate
noword | ga_sample | how far along the buying journey each shopper got | hits.action_type || hits.checkout_funnel
noword | ga_sample | busiest part of the day | hits.hour
noword | ga_sample | which button or link did they click | hits.eventAction || hits.eventCategory
noword | ga_sample | which merchandise was sold | products.v2ProductName || products.top_products
noword | ga_sample | kind of merchandise such as shirts, mugs or bags | products.v2ProductCategory || products.revenue_by_category
noword | ga_sample | catalog code of the item | products.productSKU
noword | ga_sample | size or color option | products.productVariant
noword | ga_sample | how many pieces were bought | products.productQuantity || products.units_sold
noword | ga_sample | sticker amount of each item | products.productPrice
noword | ga_sample | items displayed but not clicked | products.isImpression || products.impression_count
noword | ga_sample | which shelf or carousel showed the item | products.productListName
noword | ga_sample | best sellers | products.top_products || products.units_sold
noword | steam | how much does the game cost | steam.price || steam.avg_price
noword | steam | how many people bought it | steam.owners
noword | steam | studio that made it | steam.developer
noword | steam | company that released it | steam.publisher || steam.top_publishers
noword | steam | launch day | steam.release_date
noword | steam | which operating systems does it run on | steam.platforms
noword | steam | is it suitable for kids | steam.required_age
noword | steam | thumbs up | steam.positive_ratings || steam.total_positive
noword | steam | proportion of players who liked it | steam.rating_share || steam.positive_ratings || steam.negative_ratings
noword | steam | hours people sink into it | steam.average_playtime || steam.median_playtime || steam.avg_playtime
noword | steam | trophies to unlock | steam.achievements
noword | steam | community labels | steam.steamspy_tags
noword | steam | features like multiplayer or controller support | steam.categories
noword | steam | what style of game is it: shooter, puzzle or RPG | steam.genres || steam.primary_genre || steam.genre_breakdown
noword | steam | blurb shown on the store page | steam_description_data.short_description
noword | steam | hardware needed to run it | steam_requirements_data.minimum || steam_requirements_data.pc_requirements || steam_requirements_data.recommended
noword | steam | titles you can get at no cost | steam.free_game_count || steam.price
noword | steam | output of the industry over time | steam.games_by_year || steam.release_date
noword | steam | most acclaimed titles | steam.best_reviewed || steam.rating_share
noword | medicare | what field of medicine does the clinician practice | providers.Rndrng_Prvdr_Type || providers.specialties_by_payment
noword | medicare | professional degree of the clinician | providers.Rndrng_Prvdr_Crdntls
noword | medicare | is the clinician a man or a woman | providers.Rndrng_Prvdr_Gndr
noword | medicare | solo clinician versus a company | providers.Rndrng_Prvdr_Ent_Cd
noword | medicare | how countryside is the practice location | providers.Rndrng_Prvdr_RUCA || providers.Rndrng_Prvdr_RUCA_Desc
noword | medicare | mailing area of the practice | providers.Rndrng_Prvdr_Zip5
noword | medicare | does the clinician take assignment | providers.Rndrng_Prvdr_Mdcr_Prtcptg_Ind
noword | medicare | number of patients seen | providers.Tot_Benes || provider_services.Tot_Benes || providers.total_beneficiaries
noword | medicare | what the doctor billed | providers.Tot_Sbmtd_Chrg || providers.total_charged || provider_services.Avg_Sbmtd_Chrg || provider_services.avg_charge
noword | medicare | what the government actually sent the doctor | providers.Tot_Mdcr_Pymt_Amt || providers.total_paid || provider_services.Avg_Mdcr_Pymt_Amt || provider_services.medicare_paid
noword | medicare | what the program approves before coinsurance | providers.Tot_Mdcr_Alowd_Amt || provider_services.Avg_Mdcr_Alowd_Amt
noword | medicare | reimbursement neutralized for regional wage levels | providers.Tot_Mdcr_Stdzd_Amt || provider_services.Avg_Mdcr_Stdzd_Amt
noword | medicare | how old are the patients | providers.Bene_Avg_Age
noword | medicare | how sick are a doctor's patients | providers.Bene_Avg_Risk_Scre || providers.avg_risk_score
noword | medicare | patients with both federal and state coverage | providers.Bene_Dual_Cnt
noword | medicare | patients with high blood sugar | providers.Bene_CC_PH_Diabetes_V2_Pct
noword | medicare | high blood pressure among patients | providers.Bene_CC_PH_Hypertension_V2_Pct
noword | medicare | irregular heartbeat | providers.Bene_CC_PH_Afib_V2_Pct
noword | medicare | which treatment was performed | provider_services.HCPCS_Desc || provider_services.HCPCS_Cd || provider_services.top_procedures
noword | medicare | was the item an injectable medicine | provider_services.HCPCS_Drug_Ind
noword | medicare | hospital or clinic setting | provider_services.Place_Of_Srvc || provider_services.facility_vs_office
noword | medicare | how many times the procedure was done | provider_services.Tot_Srvcs || provider_services.services_rendered || providers.Tot_Srvcs
noword | medicare | markup over what is approved | provider_services.charge_to_allowed_ratio
noword | medicare | priciest treatments | provider_services.costliest_procedures
noword | medicare | where does the money go geographically | providers.payments_by_state || providers.Rndrng_Prvdr_State_Abrvtn
noword | medicare | biggest earners among doctors | providers.top_billers
noword | medicare | number of different treatments a doctor offers | providers.Tot_HCPCS_Cds
noword | medicare | headcount of clinicians | providers.provider_count
syn | ga_sample | bounce rate | sessions.bounce_rate
syn | ga_sample | page views per session | sessions.pageviews || sessions.total_pageviews
syn | ga_sample | traffic source | sessions.source || sessions.channelGrouping || sessions.medium
syn | ga_sample | transaction revenue | sessions.transactionRevenue || sessions.revenue
syn | ga_sample | session duration | sessions.timeOnSite || sessions.avg_time_on_site
syn | ga_sample | landing page | hits.isEntrance || hits.landing_pages
syn | steam | release date | steam.release_date
syn | steam | number of achievements | steam.achievements
syn | steam | game developer | steam.developer
syn | steam | positive reviews | steam.positive_ratings || steam.rating_share
syn | steam | median play time | steam.median_playtime
syn | medicare | provider specialty | providers.Rndrng_Prvdr_Type
syn | medicare | national provider identifier | providers.Rndrng_NPI || provider_services.Rndrng_NPI
syn | medicare | average submitted charge | provider_services.Avg_Sbmtd_Chrg || provider_services.avg_charge
syn | medicare | Medicare allowed amount | provider_services.Avg_Mdcr_Alowd_Amt || providers.Tot_Mdcr_Alowd_Amt
syn | medicare | average beneficiary age | providers.Bene_Avg_Age
syn | medicare | place of service | provider_services.Place_Of_Srvc
value | ga_sample | visitors from India | sessions.country=India
value | ga_sample | mobile traffic | sessions.deviceCategory=mobile || sessions.isMobile
value | ga_sample | organic search sessions | sessions.channelGrouping=Organic Search || sessions.medium=organic
value | ga_sample | traffic from YouTube | sessions.source=youtube.com
value | ga_sample | visitors in Europe | sessions.continent=Europe
value | ga_sample | drinkware sales | products.v2ProductCategory=Drinkware
value | ga_sample | add to cart events | hits.eventAction=Add to Cart || hits.action_type=3
value | steam | free to play games | steam.primary_genre=Free to Play
value | steam | indie games | steam.primary_genre=Indie
value | steam | games owned by 20,000 to 50,000 players | steam.owners=20000-50000
value | medicare | cardiologists | providers.Rndrng_Prvdr_Type=Cardiology
value | medicare | nurse practitioners | providers.Rndrng_Prvdr_Type=Nurse Practitioner || providers.Rndrng_Prvdr_Crdntls=NP
value | medicare | providers in Texas | providers.Rndrng_Prvdr_State_Abrvtn=TX
value | medicare | female physicians | providers.Rndrng_Prvdr_Gndr=F
value | medicare | chiropractors | providers.Rndrng_Prvdr_Type=Chiropractic
value | medicare | rural providers | providers.Rndrng_Prvdr_RUCA_Desc=Rural areas: primary flow to a tract outside a urbanized area or UC
trap | ga_sample | date | sessions.date
trap | ga_sample | count | sessions.session_count || hits.hit_count
trap | ga_sample | revenue | sessions.revenue || sessions.transactionRevenue || products.product_revenue || products.productRevenue
trap | ga_sample | type | hits.type
trap | steam | name | steam.name
trap | steam | price | steam.price || steam.avg_price
trap | steam | date | steam.release_date
trap | medicare | name | providers.Rndrng_Prvdr_Last_Org_Name || providers.Rndrng_Prvdr_First_Name
trap | medicare | payment | providers.Tot_Mdcr_Pymt_Amt || providers.total_paid || provider_services.Avg_Mdcr_Pymt_Amt || provider_services.medicare_paid
trap | medicare | count | providers.provider_count
join | ga_sample | channel of the session each hit belongs to | sessions.channelGrouping
join | ga_sample | country of the shoppers who bought each product | sessions.country
join | ga_sample | device category of the visit behind a pageview | sessions.deviceCategory
join | steam | short description of each game | steam_description_data.short_description
join | steam | minimum requirements of a game | steam_requirements_data.minimum
join | medicare | specialty of the provider for each procedure | providers.Rndrng_Prvdr_Type
join | medicare | state of the provider billing a service | providers.Rndrng_Prvdr_State_Abrvtn
join | medicare | risk score of the provider on each service line | providers.Bene_Avg_Risk_Scre
kind | ga_sample | how many sessions | sessions.session_count
kind | ga_sample | revenue by country | sessions.revenue_by_country || sessions.country
kind | ga_sample | average time on site | sessions.avg_time_on_site
kind | ga_sample | sessions by channel | sessions.channel_performance || sessions.channelGrouping
kind | ga_sample | how many hits | hits.hit_count
kind | steam | how many games | steam.game_count
kind | steam | games by year | steam.games_by_year || steam.release_date
kind | steam | average price | steam.avg_price
kind | medicare | how many providers | providers.provider_count
kind | medicare | payments by state | providers.payments_by_state || providers.Rndrng_Prvdr_State_Abrvtn
kind | medicare | top procedures | provider_services.top_procedures
kind | medicare | total Medicare payments | providers.total_paid
`;

/** Every question of the seventh held-out set, in file order. */
export const HELDOUT7_QUESTIONS: EvalQuestion[] = parseQuestions(RAW);
