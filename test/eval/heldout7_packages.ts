/**
 * The seventh held-out set's models: three more public schemas used by no
 * other set (BigQuery's google_analytics_sample, the Google Merchandise
 * Store's ga_sessions_* export with its hits and hits.product records as
 * sources of their own; the Kaggle "Steam Store Games" files steam.csv,
 * steam_description_data.csv and steam_requirements_data.csv; CMS' Medicare
 * Physician & Other Practitioners files by Provider and by Provider and
 * Service), with the schemas' own column names (GA's camelCase leaf names
 * of the nested records such as fullVisitorId, visitNumber, timeOnSite,
 * transactionRevenue in micros, channelGrouping, pagePathLevel1,
 * action_type, v2ProductName, productSKU; Steam's appid, steamspy_tags,
 * owners ranges, required_age; CMS' Rndrng_Prvdr_* and Tot_/Avg_
 * abbreviations such as Rndrng_Prvdr_Crdntls, Rndrng_Prvdr_Ent_Cd,
 * Rndrng_Prvdr_RUCA, Tot_Sbmtd_Chrg, Avg_Mdcr_Alowd_Amt, Place_Of_Srvc,
 * Bene_Avg_Risk_Scre, Bene_CC_PH_Diabetes_V2_Pct kept), a few `#(doc)` lines
 * and `# label` tags as a modeler would add. Written with their questions
 * (test/eval/heldout7_questions.ts) and committed before any score was run
 * on them: changes made after that point are judged on the older sets and
 * reported on this one.
 * @module
 */
import { evalPackage, type EvalPackage } from "./schema.ts";

const CHANNELS = "Organic Search; Social; Direct; Referral; Paid Search; Affiliates; Display; (Other)";
const GA_COUNTRIES = "United States; India; United Kingdom; Canada; Vietnam; Turkey; Thailand; Germany; Brazil; Japan; France; Mexico";
const SUBCONTINENTS = "Northern America; Southeast Asia; Southern Asia; Western Europe; Northern Europe; Eastern Asia; Eastern Europe; " +
  "South America; Western Asia; Southern Europe; Central America; Australasia";
const SOURCES = "google; (direct); youtube.com; analytics.google.com; Partners; dfa; m.facebook.com; google.com; baidu; sites.google.com; " +
  "reddit.com; mall.googleplex.com";
const BROWSERS = "Chrome; Safari; Firefox; Internet Explorer; Edge; Android Webview; Safari (in-app); Opera Mini; Opera; UC Browser; Samsung Internet";
const PAGES = "/home; /google+redesign/; /basket.html; /signin.html; /store.html; /asearch.html; /yourinfo.html; /payment.html; " +
  "/revieworder.html; /ordercompleted.html";
const PRODUCT_CATEGORIES = "Apparel; Office; Drinkware; Bags; Electronics; Lifestyle; Headgear; Nest-USA; Accessories; (not set); " +
  "Home/Apparel/Men's/Men's-T-Shirts/; Home/Shop by Brand/YouTube/";

const GA: EvalPackage = evalPackage("ga_sample", "ga_sample.malloy", "Google Analytics 360 sample: Google Merchandise Store sessions, August 2016 to August 2017", {
  sessions: {
    doc: "ga_sessions_*: one row per visit; the totals, trafficSource, device and geoNetwork records flattened to their leaf names",
    fields: ["fullVisitorId s", "visitId n", "visitNumber n | 1 for a visitor's first session", "visitStartTime n | POSIX seconds", "date s | YYYYMMDD",
      `channelGrouping s = ${CHANNELS}`, "visits n", "hits n", "pageviews n", "timeOnSite n | Seconds", "bounces n", "newVisits n", "transactions n",
      "transactionRevenue n | Revenue x 10^6", `source s = ${SOURCES}`, "medium s = organic; (none); referral; cpc; affiliate; cpm; (not set)",
      "campaign s = (not set); Data Share Promo; AW - Dynamic Search Ads Whole Site; AW - Accessories", "keyword s", "referralPath s", "isTrueDirect b",
      `browser s = ${BROWSERS}`, "operatingSystem s = Windows; Macintosh; Android; iOS; Linux; Chrome OS; Windows Phone; (not set)", "isMobile b",
      "deviceCategory s = desktop; mobile; tablet", "continent s = Americas; Asia; Europe; Oceania; Africa; (not set)", `subContinent s = ${SUBCONTINENTS}`,
      `country s = ${GA_COUNTRIES}`, "region s", "metro s", "city s", "networkDomain s", "session_count m", "visitor_count m | Distinct fullVisitorId",
      "total_pageviews m", "bounce_rate m", "conversion_rate m # label=\"Ecommerce conversion rate\"", "revenue m | Sum of transactionRevenue / 10^6, US dollars",
      "avg_time_on_site m", "channel_performance v", "revenue_by_country v", "daily_sessions v", "top_referrers v", "device_mix v"],
  },
  hits: {
    doc: "One row per hit of a session (UNNEST(hits))",
    joins: { session: "sessions" },
    fields: ["hitNumber n", "time n | Milliseconds after the session's first hit", "hour n", "minute n", "isInteraction b", "isEntrance b", "isExit b",
      "type s = PAGE; EVENT; TRANSACTION; ITEM; SOCIAL; EXCEPTION", "pagePath s", "pageTitle s",
      "hostname s = shop.googlemerchandisestore.com; www.googlemerchandisestore.com; googlemerchandisestore.com", `pagePathLevel1 s = ${PAGES}`,
      "action_type s | eCommerceAction: 1 list click, 2 detail view, 3 add to cart, 4 remove from cart, 5 checkout, 6 purchase, 7 refund = 0; 1; 2; 3; 4; 5; 6; 7; 8",
      "eventCategory s = Enhanced Ecommerce; Contents; Related Products; Sales Reporting; Promotion",
      "eventAction s = Quickview Click; Product Click; Add to Cart; Remove from Cart; Promotion Click; Onsite Click", "eventLabel s", "transactionId s",
      "hit_count m", "exit_rate m", "top_pages v", "landing_pages v", "checkout_funnel v"],
  },
  products: {
    doc: "One row per product of a hit (UNNEST(hits.product))",
    joins: { session: "sessions" },
    fields: ["productSKU s", "v2ProductName s", `v2ProductCategory s = ${PRODUCT_CATEGORIES}`, "productVariant s", "productBrand s",
      "productPrice n | Micros", "productQuantity n", "productRevenue n | Micros", "isImpression b", "isClick b",
      "productListName s = Category; Related Products; Quickview; Search Results; Shopping Cart; Home Page; Recommended for You", "productListPosition n",
      "units_sold m", "product_revenue m", "impression_count m", "top_products v", "revenue_by_category v"],
  },
});

const GENRES = "Action; Indie; Casual; Adventure; Strategy; Simulation; RPG; Early Access; Free to Play; Sports; Racing; Massively Multiplayer";
const OWNERS = "0-20000; 20000-50000; 50000-100000; 100000-200000; 200000-500000; 500000-1000000; 1000000-2000000; 2000000-5000000; " +
  "5000000-10000000; 10000000-20000000; 20000000-50000000; 50000000-100000000";

const STEAM: EvalPackage = evalPackage("steam", "steam.malloy", "Steam Store Games (Kaggle, Nik Davis): 27,000 games of the Steam store with SteamSpy data, May 2019", {
  steam_description_data: {
    fields: ["steam_appid n", "detailed_description s", "about_the_game s", "short_description s"],
  },
  steam_requirements_data: {
    fields: ["steam_appid n", "pc_requirements s", "mac_requirements s", "linux_requirements s", "minimum s", "recommended s"],
  },
  steam: {
    doc: "steam.csv: one row per game",
    joins: { description: "steam_description_data", requirements: "steam_requirements_data" },
    fields: ["appid n", "name s", "release_date d", "english n | 1 when the game supports English", "developer s", "publisher s",
      "platforms s | Semicolon-separated: windows, mac, linux", "required_age n | PEGI age rating", "categories s", "genres s",
      "steamspy_tags s | Top user tags from SteamSpy", `primary_genre s | First of genres = ${GENRES}`, "achievements n", "positive_ratings n",
      "negative_ratings n", "average_playtime n | Minutes", "median_playtime n", `owners s | SteamSpy estimate, a range = ${OWNERS}`,
      "price n | Full price in GBP", "game_count m", "avg_price m", "total_positive m", "rating_share m # label=\"% positive reviews\"",
      "free_game_count m", "avg_playtime m", "games_by_year v", "best_reviewed v", "top_publishers v", "genre_breakdown v"],
  },
});

const SPECIALTIES = "Internal Medicine; Family Practice; Nurse Practitioner; Physician Assistant; Diagnostic Radiology; Physical Therapist; Cardiology; " +
  "Emergency Medicine; Anesthesiology; Ophthalmology; Orthopedic Surgery; Chiropractic; Dermatology; Clinical Laboratory";
const US_STATES = "CA; TX; FL; NY; PA; OH; IL; MI; NC; NJ; GA; MA";
const RUCA = "Metropolitan area core: primary flow within an urbanized area of 50,000 and greater; " +
  "Metropolitan area high commuting: primary flow 30% or more to a urbanized area; " +
  "Micropolitan area core: primary flow within an Urban Cluster of 10,000 to 49,999 (large UC); " +
  "Small town core: primary flow within an Urban Cluster of 2,500 to 9,999 (small UC); " +
  "Rural areas: primary flow to a tract outside a urbanized area or UC";

const MEDICARE: EvalPackage = evalPackage("medicare", "medicare.malloy", "CMS Medicare Physician & Other Practitioners (Part B fee-for-service), calendar year 2022", {
  providers: {
    doc: "By Provider: one row per rendering NPI",
    fields: ["Rndrng_NPI s | National Provider Identifier", "Rndrng_Prvdr_Last_Org_Name s | Last name, or the organization's name",
      "Rndrng_Prvdr_First_Name s", "Rndrng_Prvdr_MI s", "Rndrng_Prvdr_Crdntls s = MD; M.D.; DO; NP; PA-C; PT; DPM; OD; D.O.; CRNA; DC",
      "Rndrng_Prvdr_Gndr s = M; F", "Rndrng_Prvdr_Ent_Cd s | I individual, O organization = I; O", "Rndrng_Prvdr_St1 s", "Rndrng_Prvdr_City s",
      `Rndrng_Prvdr_State_Abrvtn s = ${US_STATES}`, "Rndrng_Prvdr_State_FIPS s", "Rndrng_Prvdr_Zip5 s", "Rndrng_Prvdr_RUCA n",
      `Rndrng_Prvdr_RUCA_Desc s = ${RUCA}`, "Rndrng_Prvdr_Cntry s = US", `Rndrng_Prvdr_Type s = ${SPECIALTIES}`,
      "Rndrng_Prvdr_Mdcr_Prtcptg_Ind s = Y; N", "Tot_HCPCS_Cds n", "Tot_Benes n", "Tot_Srvcs n", "Tot_Sbmtd_Chrg n", "Tot_Mdcr_Alowd_Amt n",
      "Tot_Mdcr_Pymt_Amt n", "Tot_Mdcr_Stdzd_Amt n | Payment standardized to remove geographic differences", "Drug_Tot_Srvcs n", "Drug_Mdcr_Pymt_Amt n",
      "Med_Tot_Srvcs n", "Med_Mdcr_Pymt_Amt n", "Bene_Avg_Age n", "Bene_Age_GT_84_Cnt n", "Bene_Feml_Cnt n", "Bene_Male_Cnt n", "Bene_Race_Black_Cnt n",
      "Bene_Race_Hspnc_Cnt n", "Bene_Dual_Cnt n | Beneficiaries also eligible for Medicaid", "Bene_Ndual_Cnt n", "Bene_CC_PH_Diabetes_V2_Pct n",
      "Bene_CC_PH_Hypertension_V2_Pct n", "Bene_CC_BH_Depress_V1_Pct n", "Bene_CC_PH_Afib_V2_Pct n", "Bene_CC_BH_Alz_NonAlzdem_V2_Pct n",
      "Bene_Avg_Risk_Scre n # label=\"Average HCC risk score\"", "provider_count m", "total_paid m # label=\"Medicare payments\"", "total_charged m",
      "total_beneficiaries m", "avg_risk_score m", "paid_per_beneficiary m", "specialties_by_payment v", "payments_by_state v", "top_billers v"],
  },
  provider_services: {
    doc: "By Provider and Service: one row per rendering NPI, HCPCS code and place of service",
    joins: { provider: "providers" },
    fields: ["Rndrng_NPI s", "HCPCS_Cd s", "HCPCS_Desc s", "HCPCS_Drug_Ind s | Y when the code is a drug on the ASP list = Y; N",
      "Place_Of_Srvc s | F facility, O office = F; O", "Tot_Benes n", "Tot_Srvcs n", "Tot_Bene_Day_Srvcs n | Distinct beneficiary-days",
      "Avg_Sbmtd_Chrg n", "Avg_Mdcr_Alowd_Amt n", "Avg_Mdcr_Pymt_Amt n", "Avg_Mdcr_Stdzd_Amt n", "services_rendered m", "medicare_paid m",
      "avg_charge m", "charge_to_allowed_ratio m", "top_procedures v", "facility_vs_office v", "costliest_procedures v"],
  },
});

/** All packages of the seventh held-out set. */
export const HELDOUT7_PACKAGES: EvalPackage[] = [GA, STEAM, MEDICARE];
