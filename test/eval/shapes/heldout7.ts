/**
 * Expected shapes of the first next step for the seventh held-out set
 * (test/eval/heldout7_questions.ts), format of test/eval/shape_format.ts.
 * Written from the questions and test/eval/heldout7_packages.ts only, before
 * any next_steps output was seen.
 * @module
 */

/** Shapes of every question of the set. */
export const HELDOUT7 = `
ga_sample | how many times had the shopper been here before | field: sessions.visitNumber
ga_sample | how long did shoppers linger | measure: sessions.avg_time_on_site|avg(sessions.timeOnSite)|sum(sessions.timeOnSite) || field: sessions.timeOnSite
ga_sample | shoppers who left right after landing | measure: sessions.bounce_rate|sum(sessions.bounces) || field: sessions.bounces || measure: sessions.session_count|sessions.visitor_count|count(sessions); filter: sessions.bounces=1
ga_sample | how much money did the store make | measure: sessions.revenue|products.product_revenue|sum(sessions.transactionRevenue)
ga_sample | share of visits that ended in a purchase | measure: sessions.conversion_rate
ga_sample | first-time shoppers | measure: sum(sessions.newVisits) || measure: sessions.session_count|sessions.visitor_count|count(sessions); filter: sessions.newVisits=1|sessions.visitNumber=1 || source: sessions; filter: sessions.newVisits=1|sessions.visitNumber=1 || field: sessions.newVisits
ga_sample | what brought people to the store | view: sessions.channel_performance || field: sessions.channelGrouping|sessions.source|sessions.medium
ga_sample | which website sent the visitor | view: sessions.top_referrers || field: sessions.source|sessions.referralPath
ga_sample | search terms typed before arriving | field: sessions.keyword
ga_sample | marketing push that drove the visit | field: sessions.campaign
ga_sample | what gadget were they using | view: sessions.device_mix || field: sessions.deviceCategory|sessions.isMobile
ga_sample | which program did they surf with | field: sessions.browser
ga_sample | part of the world the shopper is in | field: sessions.continent|sessions.subContinent|sessions.country
ga_sample | internet provider of the visitor | field: sessions.networkDomain
ga_sample | unique shoppers | measure: sessions.visitor_count || field: sessions.fullVisitorId
ga_sample | how many screens did people look at | measure: sessions.total_pageviews|sum(sessions.pageviews) || field: sessions.pageviews
ga_sample | where do our biggest buyers live | view: sessions.revenue_by_country || measure: sessions.revenue|sum(sessions.transactionRevenue); group: sessions.country|sessions.city|sessions.region|sessions.metro|sessions.continent|sessions.subContinent; top
ga_sample | visits that came straight in by typing the address | source: sessions; filter: sessions.isTrueDirect=true|sessions.channelGrouping=Direct || measure: sessions.session_count|count(sessions); filter: sessions.isTrueDirect=true|sessions.channelGrouping=Direct || field: sessions.isTrueDirect
ga_sample | which address on the site did they open | view: hits.top_pages || field: hits.pagePath|hits.pagePathLevel1
ga_sample | heading shown in the browser tab | field: hits.pageTitle
ga_sample | first screen of each visit | view: hits.landing_pages || field: hits.pagePath|hits.pagePathLevel1|hits.pageTitle; filter: hits.isEntrance=true
ga_sample | last screen before leaving | measure: hits.exit_rate; group: hits.pagePath|hits.pagePathLevel1|hits.pageTitle || field: hits.pagePath|hits.pagePathLevel1|hits.pageTitle; filter: hits.isExit=true
ga_sample | how far along the buying journey each shopper got | view: hits.checkout_funnel || field: hits.action_type
ga_sample | busiest part of the day | measure: hits.hit_count|sessions.session_count|count(hits)|count(sessions); group: hits.hour
ga_sample | which button or link did they click | field: hits.eventAction|hits.eventCategory|hits.eventLabel
ga_sample | which merchandise was sold | view: products.top_products || measure: products.units_sold|products.product_revenue|sum(products.productQuantity); group: products.v2ProductName|products.productSKU
ga_sample | kind of merchandise such as shirts, mugs or bags | view: products.revenue_by_category || field: products.v2ProductCategory
ga_sample | catalog code of the item | field: products.productSKU
ga_sample | size or color option | field: products.productVariant
ga_sample | how many pieces were bought | measure: products.units_sold|sum(products.productQuantity) || field: products.productQuantity
ga_sample | sticker amount of each item | field: products.productPrice
ga_sample | items displayed but not clicked | measure: products.impression_count || measure: products.impression_count; filter: products.isClick=false || source: products; filter: products.isImpression=true, products.isClick=false
ga_sample | which shelf or carousel showed the item | field: products.productListName
ga_sample | best sellers | view: products.top_products || measure: products.units_sold|products.product_revenue|sum(products.productQuantity); group: products.v2ProductName|products.productSKU; top
steam | how much does the game cost | field: steam.price || measure: steam.avg_price|avg(steam.price)
steam | how many people bought it | field: steam.owners
steam | studio that made it | field: steam.developer
steam | company that released it | field: steam.publisher || view: steam.top_publishers
steam | launch day | field: steam.release_date
steam | which operating systems does it run on | field: steam.platforms
steam | is it suitable for kids | field: steam.required_age
steam | thumbs up | field: steam.positive_ratings || measure: steam.total_positive|sum(steam.positive_ratings)
steam | proportion of players who liked it | measure: steam.rating_share || field: steam.positive_ratings, steam.negative_ratings
steam | hours people sink into it | field: steam.average_playtime|steam.median_playtime || measure: steam.avg_playtime|avg(steam.average_playtime)|avg(steam.median_playtime)
steam | trophies to unlock | field: steam.achievements
steam | community labels | field: steam.steamspy_tags
steam | features like multiplayer or controller support | field: steam.categories
steam | what style of game is it: shooter, puzzle or RPG | field: steam.genres|steam.primary_genre || view: steam.genre_breakdown
steam | blurb shown on the store page | field: steam_description_data.short_description
steam | hardware needed to run it | field: steam_requirements_data.minimum|steam_requirements_data.pc_requirements|steam_requirements_data.recommended
steam | titles you can get at no cost | measure: steam.free_game_count || source: steam; filter: steam.price=0|steam.primary_genre=Free to Play || measure: steam.game_count|count(steam); filter: steam.price=0|steam.primary_genre=Free to Play
steam | output of the industry over time | view: steam.games_by_year || measure: steam.game_count|count(steam); group: steam.release_date@year|steam.release_date@quarter|steam.release_date@month
steam | most acclaimed titles | view: steam.best_reviewed || measure: steam.rating_share|steam.total_positive|sum(steam.positive_ratings); group: steam.name|steam.appid; top
medicare | what field of medicine does the clinician practice | field: providers.Rndrng_Prvdr_Type || view: providers.specialties_by_payment
medicare | professional degree of the clinician | field: providers.Rndrng_Prvdr_Crdntls
medicare | is the clinician a man or a woman | field: providers.Rndrng_Prvdr_Gndr
medicare | solo clinician versus a company | field: providers.Rndrng_Prvdr_Ent_Cd
medicare | how countryside is the practice location | field: providers.Rndrng_Prvdr_RUCA|providers.Rndrng_Prvdr_RUCA_Desc
medicare | mailing area of the practice | field: providers.Rndrng_Prvdr_Zip5
medicare | does the clinician take assignment | field: providers.Rndrng_Prvdr_Mdcr_Prtcptg_Ind
medicare | number of patients seen | field: providers.Tot_Benes|provider_services.Tot_Benes || measure: providers.total_beneficiaries|sum(providers.Tot_Benes)
medicare | what the doctor billed | field: providers.Tot_Sbmtd_Chrg|provider_services.Avg_Sbmtd_Chrg || measure: providers.total_charged|provider_services.avg_charge|sum(providers.Tot_Sbmtd_Chrg)
medicare | what the government actually sent the doctor | field: providers.Tot_Mdcr_Pymt_Amt|provider_services.Avg_Mdcr_Pymt_Amt || measure: providers.total_paid|provider_services.medicare_paid|sum(providers.Tot_Mdcr_Pymt_Amt)
medicare | what the program approves before coinsurance | field: providers.Tot_Mdcr_Alowd_Amt|provider_services.Avg_Mdcr_Alowd_Amt || measure: sum(providers.Tot_Mdcr_Alowd_Amt)
medicare | reimbursement neutralized for regional wage levels | field: providers.Tot_Mdcr_Stdzd_Amt|provider_services.Avg_Mdcr_Stdzd_Amt || measure: sum(providers.Tot_Mdcr_Stdzd_Amt)
medicare | how old are the patients | field: providers.Bene_Avg_Age || measure: avg(providers.Bene_Avg_Age)
medicare | how sick are a doctor's patients | field: providers.Bene_Avg_Risk_Scre || measure: providers.avg_risk_score|avg(providers.Bene_Avg_Risk_Scre)
medicare | patients with both federal and state coverage | field: providers.Bene_Dual_Cnt || measure: sum(providers.Bene_Dual_Cnt)
medicare | patients with high blood sugar | field: providers.Bene_CC_PH_Diabetes_V2_Pct || measure: avg(providers.Bene_CC_PH_Diabetes_V2_Pct)
medicare | high blood pressure among patients | field: providers.Bene_CC_PH_Hypertension_V2_Pct || measure: avg(providers.Bene_CC_PH_Hypertension_V2_Pct)
medicare | irregular heartbeat | field: providers.Bene_CC_PH_Afib_V2_Pct || measure: avg(providers.Bene_CC_PH_Afib_V2_Pct)
medicare | which treatment was performed | view: provider_services.top_procedures || field: provider_services.HCPCS_Desc|provider_services.HCPCS_Cd
medicare | was the item an injectable medicine | field: provider_services.HCPCS_Drug_Ind
medicare | hospital or clinic setting | field: provider_services.Place_Of_Srvc || view: provider_services.facility_vs_office
medicare | how many times the procedure was done | field: provider_services.Tot_Srvcs|providers.Tot_Srvcs || measure: provider_services.services_rendered|sum(provider_services.Tot_Srvcs)
medicare | markup over what is approved | measure: provider_services.charge_to_allowed_ratio
medicare | priciest treatments | view: provider_services.costliest_procedures || measure: provider_services.avg_charge|provider_services.medicare_paid|avg(provider_services.Avg_Sbmtd_Chrg)|max(provider_services.Avg_Sbmtd_Chrg)|avg(provider_services.Avg_Mdcr_Pymt_Amt); group: provider_services.HCPCS_Desc|provider_services.HCPCS_Cd; top
medicare | where does the money go geographically | view: providers.payments_by_state || measure: providers.total_paid|sum(providers.Tot_Mdcr_Pymt_Amt); group: providers.Rndrng_Prvdr_State_Abrvtn|providers.Rndrng_Prvdr_State_FIPS|providers.Rndrng_Prvdr_City|providers.Rndrng_Prvdr_Zip5
medicare | biggest earners among doctors | view: providers.top_billers || measure: providers.total_paid|sum(providers.Tot_Mdcr_Pymt_Amt); group: providers.Rndrng_Prvdr_Last_Org_Name|providers.Rndrng_Prvdr_First_Name|providers.Rndrng_NPI; top
medicare | number of different treatments a doctor offers | field: providers.Tot_HCPCS_Cds
medicare | headcount of clinicians | measure: providers.provider_count|count(providers)
ga_sample | bounce rate | measure: sessions.bounce_rate
ga_sample | page views per session | field: sessions.pageviews || measure: avg(sessions.pageviews)
ga_sample | traffic source | field: sessions.source|sessions.channelGrouping|sessions.medium || view: sessions.channel_performance
ga_sample | transaction revenue | field: sessions.transactionRevenue || measure: sessions.revenue|sum(sessions.transactionRevenue)
ga_sample | session duration | field: sessions.timeOnSite || measure: sessions.avg_time_on_site|avg(sessions.timeOnSite)
ga_sample | landing page | view: hits.landing_pages || field: hits.pagePath|hits.pagePathLevel1|hits.pageTitle; filter: hits.isEntrance=true
steam | release date | field: steam.release_date
steam | number of achievements | field: steam.achievements
steam | game developer | field: steam.developer
steam | positive reviews | field: steam.positive_ratings || measure: steam.total_positive|steam.rating_share|sum(steam.positive_ratings)
steam | median play time | field: steam.median_playtime
medicare | provider specialty | field: providers.Rndrng_Prvdr_Type
medicare | national provider identifier | field: providers.Rndrng_NPI|provider_services.Rndrng_NPI
medicare | average submitted charge | measure: provider_services.avg_charge|avg(provider_services.Avg_Sbmtd_Chrg) || field: provider_services.Avg_Sbmtd_Chrg
medicare | Medicare allowed amount | field: provider_services.Avg_Mdcr_Alowd_Amt|providers.Tot_Mdcr_Alowd_Amt || measure: sum(providers.Tot_Mdcr_Alowd_Amt)
medicare | average beneficiary age | field: providers.Bene_Avg_Age || measure: avg(providers.Bene_Avg_Age)
medicare | place of service | field: provider_services.Place_Of_Srvc || view: provider_services.facility_vs_office
ga_sample | visitors from India | measure: sessions.visitor_count|sessions.session_count|count(sessions); filter: sessions.country=India || source: sessions; filter: sessions.country=India
ga_sample | mobile traffic | measure: sessions.session_count|sessions.visitor_count|sessions.total_pageviews|count(sessions); filter: sessions.deviceCategory=mobile|sessions.isMobile=true || source: sessions; filter: sessions.deviceCategory=mobile|sessions.isMobile=true
ga_sample | organic search sessions | measure: sessions.session_count|count(sessions); filter: sessions.channelGrouping=Organic Search|sessions.medium=organic || source: sessions; filter: sessions.channelGrouping=Organic Search|sessions.medium=organic
ga_sample | traffic from YouTube | measure: sessions.session_count|sessions.visitor_count|sessions.total_pageviews|count(sessions); filter: sessions.source=youtube.com || source: sessions; filter: sessions.source=youtube.com
ga_sample | visitors in Europe | measure: sessions.visitor_count|sessions.session_count|count(sessions); filter: sessions.continent=Europe || source: sessions; filter: sessions.continent=Europe
ga_sample | drinkware sales | measure: products.product_revenue|products.units_sold|sum(products.productRevenue); filter: products.v2ProductCategory=Drinkware
ga_sample | add to cart events | measure: hits.hit_count|count(hits); filter: hits.eventAction=Add to Cart|hits.action_type=3 || source: hits; filter: hits.eventAction=Add to Cart|hits.action_type=3
steam | free to play games | source: steam; filter: steam.primary_genre=Free to Play|steam.genres=Free to Play || measure: steam.game_count|count(steam); filter: steam.primary_genre=Free to Play|steam.genres=Free to Play
steam | indie games | source: steam; filter: steam.primary_genre=Indie|steam.genres=Indie || measure: steam.game_count|count(steam); filter: steam.primary_genre=Indie|steam.genres=Indie
steam | games owned by 20,000 to 50,000 players | source: steam; filter: steam.owners=20000-50000 || measure: steam.game_count|count(steam); filter: steam.owners=20000-50000
medicare | cardiologists | source: providers; filter: providers.Rndrng_Prvdr_Type=Cardiology || measure: providers.provider_count|count(providers); filter: providers.Rndrng_Prvdr_Type=Cardiology
medicare | nurse practitioners | source: providers; filter: providers.Rndrng_Prvdr_Type=Nurse Practitioner|providers.Rndrng_Prvdr_Crdntls=NP || measure: providers.provider_count|count(providers); filter: providers.Rndrng_Prvdr_Type=Nurse Practitioner|providers.Rndrng_Prvdr_Crdntls=NP
medicare | providers in Texas | source: providers; filter: providers.Rndrng_Prvdr_State_Abrvtn=TX || measure: providers.provider_count|count(providers); filter: providers.Rndrng_Prvdr_State_Abrvtn=TX
medicare | female physicians | source: providers; filter: providers.Rndrng_Prvdr_Gndr=F || measure: providers.provider_count|count(providers); filter: providers.Rndrng_Prvdr_Gndr=F
medicare | chiropractors | source: providers; filter: providers.Rndrng_Prvdr_Type=Chiropractic || measure: providers.provider_count|count(providers); filter: providers.Rndrng_Prvdr_Type=Chiropractic
medicare | rural providers | source: providers; filter: providers.Rndrng_Prvdr_RUCA_Desc="Rural areas: primary flow to a tract outside a urbanized area or UC" || measure: providers.provider_count|count(providers); filter: providers.Rndrng_Prvdr_RUCA_Desc="Rural areas: primary flow to a tract outside a urbanized area or UC"
ga_sample | date | field: sessions.date
ga_sample | count | measure: sessions.session_count|hits.hit_count|count(sessions)|count(hits)
ga_sample | revenue | measure: sessions.revenue|products.product_revenue|sum(sessions.transactionRevenue) || field: sessions.transactionRevenue|products.productRevenue
ga_sample | type | field: hits.type
steam | name | field: steam.name
steam | price | field: steam.price || measure: steam.avg_price|avg(steam.price)
steam | date | field: steam.release_date
medicare | name | field: providers.Rndrng_Prvdr_Last_Org_Name|providers.Rndrng_Prvdr_First_Name
medicare | payment | field: providers.Tot_Mdcr_Pymt_Amt|provider_services.Avg_Mdcr_Pymt_Amt || measure: providers.total_paid|provider_services.medicare_paid|sum(providers.Tot_Mdcr_Pymt_Amt)
medicare | count | measure: providers.provider_count|count(providers)
ga_sample | channel of the session each hit belongs to | source: hits; field: sessions.channelGrouping
ga_sample | country of the shoppers who bought each product | source: products; field: sessions.country
ga_sample | device category of the visit behind a pageview | source: hits; field: sessions.deviceCategory
steam | short description of each game | field: steam_description_data.short_description
steam | minimum requirements of a game | field: steam_requirements_data.minimum
medicare | specialty of the provider for each procedure | source: provider_services; field: providers.Rndrng_Prvdr_Type
medicare | state of the provider billing a service | source: provider_services; field: providers.Rndrng_Prvdr_State_Abrvtn
medicare | risk score of the provider on each service line | source: provider_services; field: providers.Bene_Avg_Risk_Scre
ga_sample | how many sessions | measure: sessions.session_count|count(sessions)
ga_sample | revenue by country | view: sessions.revenue_by_country || measure: sessions.revenue|sum(sessions.transactionRevenue); group: sessions.country
ga_sample | average time on site | measure: sessions.avg_time_on_site|avg(sessions.timeOnSite)
ga_sample | sessions by channel | view: sessions.channel_performance || measure: sessions.session_count|count(sessions); group: sessions.channelGrouping
ga_sample | how many hits | measure: hits.hit_count|count(hits)
steam | how many games | measure: steam.game_count|count(steam)
steam | games by year | view: steam.games_by_year || measure: steam.game_count|count(steam); group: steam.release_date@year
steam | average price | measure: steam.avg_price|avg(steam.price)
medicare | how many providers | measure: providers.provider_count|count(providers)
medicare | payments by state | view: providers.payments_by_state || measure: providers.total_paid|sum(providers.Tot_Mdcr_Pymt_Amt); group: providers.Rndrng_Prvdr_State_Abrvtn
medicare | top procedures | view: provider_services.top_procedures || measure: provider_services.services_rendered|provider_services.medicare_paid|sum(provider_services.Tot_Srvcs); group: provider_services.HCPCS_Desc|provider_services.HCPCS_Cd; top
medicare | total Medicare payments | measure: providers.total_paid|sum(providers.Tot_Mdcr_Pymt_Amt)
`;
