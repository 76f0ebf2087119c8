/**
 * The tenth held-out set's questions (models in
 * test/eval/heldout10_packages.ts: lloydtabb/cellar, malloydata/malloyyo's
 * github-history example, malloydata/publisher's subscriptions example and
 * rodbrathwaite79/cpm-malloy-model), written as users would ask them, from
 * the models alone, blind: without reading the retrieval code or any of its
 * output, and committed before any score was run on them. Same line format
 * and categories as test/eval/questions.ts; `noword` questions share no
 * word (after stemming) with the target's name or doc (github_history and
 * subscriptions have docs; cellar and ai_cpm have none). Never tuned on.
 * @module
 */
import { parseQuestions, type EvalQuestion } from "./questions.ts";

const RAW = `
noword | cellar | how much is my collection worth | bottles.cellar_value
noword | cellar | how many are still sitting on the rack | bottles.on_hand || bottles_table.in_cellar
noword | cellar | who made this wine | bottles_table.producer || wines_table.producer || notes_table.producer || purchases_table.producer
noword | cellar | which grape is it made from | bottles_table.varietal || wines_table.varietal || notes_table.varietal || purchases_table.varietal || notes_table.master_varietal || purchases_table.master_varietal
noword | cellar | year the grapes were picked | bottles_table.vintage || wines_table.vintage || notes_table.vintage || purchases_table.vintage || bottles.vintage_label || tasting_notes.vintage_label || purchases.vintage_label || bottles.by_vintage
noword | cellar | where do I find it in the house | bottles_table.location || bottles_table.bin || bottles.shelf || bottles.by_location
noword | cellar | big 1.5 litre formats I still own | bottles.magnums || bottles_table.bottle_size
noword | cellar | how much did I get through annually | bottles.drinking_by_year || bottles.drunk
noword | cellar | money made from reselling | bottles.sale_revenue
noword | cellar | the priciest one I own | bottles.dearest_bottle || purchases.dearest_bottle
noword | cellar | how long things sit before I open them | bottles.years_held || bottles.holding_time
noword | cellar | which merchants do I shop at | purchases_table.store_name || bottles_table.store_name || purchases.by_store
noword | cellar | orders that haven't shown up yet | purchases.in_transit || purchases.undelivered_bottles || purchases.undelivered_value || purchases_table.delivered
noword | cellar | how much money went out on wine | purchases.total_spend || purchases_table.lot_cost
noword | cellar | gatherings where several were opened together | tasting_notes.tastings || tasting_notes.is_event || notes_table.event_title
noword | cellar | what I wrote about it | notes_table.tasting_note
noword | cellar | red, white or fizz | tasting_notes.style || bottles.style || purchases.style || bottles_table.wine_type || wines_table.wine_type || notes_table.wine_type || purchases_table.wine_type || purchases_table.color
noword | cellar | favourites I'm down to just one of | bottles.last_bottles
noword | cellar | stuff I bought and haven't opened or reviewed | bottles.never_tasted
noword | cellar | do I open more on weekends | bottles.by_weekday
noword | cellar | which months of the year do I shop most | purchases.seasonality
noword | cellar | how my taste in areas drifted over time | purchases.region_mix_by_year
noword | cellar | which collector owns it | cellars_table.cellar_name || cellars_table.cellar || bottles_table.cellar
noword | cellar | is it outstanding, excellent or just good | tasting_notes.score_band
syn | cellar | price paid per bottle | bottles_table.bottle_price || purchases_table.bottle_price || purchases.avg_bottle_price || bottles.avg_bottle_price
syn | cellar | average score in my tasting notes | tasting_notes.avg_rating || bottles.rating
syn | cellar | highest score I ever gave | tasting_notes.best_rating || tasting_notes.highest_rated
syn | cellar | number of bottles purchased | purchases.bottles_bought || purchases_table.quantity
syn | cellar | date of purchase | purchases_table.purchase_date || bottles_table.purchase_date
syn | cellar | date a bottle was opened | bottles_table.exit_date
syn | cellar | delivery time in days | purchases.days_to_delivery || purchases.avg_days_to_delivery
syn | cellar | bottle format | bottles_table.bottle_size || purchases_table.bottle_size || bottles.by_size
syn | cellar | price bracket | bottles.price_band || purchases.price_band || bottles.by_price_band
syn | cellar | number of different producers in stock | bottles.producer_count
syn | cellar | worth of the wine I drank | bottles.value_drunk
syn | cellar | cost of each purchase lot | purchases_table.lot_cost || purchases.total_spend
syn | cellar | date of the tasting | notes_table.tasting_date
value | cellar | Burgundy bottles I still have | bottles_table.region=Burgundy || wines_table.region=Burgundy
value | cellar | how much have I spent on Champagne | purchases_table.region=Champagne || purchases_table.category=Sparkling
value | cellar | bottles I have sold | bottles_table.status=Sold
value | cellar | magnums in the cellar | bottles_table.bottle_size=1.5L
value | cellar | Italian wines I own | bottles_table.country=Italy || wines_table.country=Italy
value | cellar | pinot noir on hand | bottles_table.varietal=Pinot Noir || wines_table.varietal=Pinot Noir
value | cellar | what I bought from Zachys | purchases_table.store_name=Zachys
value | cellar | wines from Napa Valley | bottles_table.sub_region=Napa Valley || wines_table.sub_region=Napa Valley || purchases_table.sub_region=Napa Valley
value | cellar | value of the newcomer's cellar | bottles_table.cellar=newcomer || cellars_table.cellar_name=The Champagne Newcomer
value | cellar | what's in the wine fridge | bottles_table.location=Wine fridge
value | cellar | bottles given away | bottles_table.status=Given away
value | cellar | wines I rated outstanding | tasting_notes.score_band=Outstanding (95+)
value | cellar | Rhône reds on hand | bottles_table.region=Rhône || bottles.style=Red
value | cellar | sweet dessert wines | bottles_table.wine_type=White - Sweet/Dessert || purchases_table.category=Sweet/Dessert
value | cellar | bottles under $25 | bottles.price_band=Under $25 || purchases.price_band=Under $25
trap | cellar | count | bottles.bottle_count || bottles.on_hand || tasting_notes.note_count || purchases.lot_count || bottles.wine_count
trap | cellar | date | purchases_table.purchase_date || bottles_table.purchase_date || notes_table.tasting_date || bottles_table.exit_date || purchases_table.delivery_date || notes_table.event_date
trap | cellar | price | bottles_table.bottle_price || purchases_table.bottle_price
trap | cellar | name | wines_table.wine || bottles_table.wine || cellars_table.cellar_name || purchases_table.store_name || notes_table.event_title
trap | cellar | region | bottles_table.region || wines_table.region || notes_table.region || purchases_table.region
join | cellar | name of the collector who owns each bottle | cellars_table.cellar_name
join | cellar | my rating of each bottle on the rack | notes_table.rating || bottles.rating
join | cellar | collector description for each tasting note | cellars_table.cellar_blurb
join | cellar | which collector made each purchase | cellars_table.cellar_name
join | cellar | tasting note text for each bottle I own | notes_table.tasting_note
kind | cellar | how many bottles do I have | bottles.on_hand || bottles.bottle_count
kind | cellar | bottles by region | bottles.by_region
kind | cellar | cellar value by country | bottles.by_country
kind | cellar | spending per year | purchases.spend_by_year
kind | cellar | spend by store | purchases.by_store
kind | cellar | bottles drunk per month | bottles.drinking_by_month
kind | cellar | top producers by rating | tasting_notes.by_producer
kind | cellar | ratings over the years | tasting_notes.ratings_over_time
kind | cellar | distribution of scores | tasting_notes.score_distribution
kind | cellar | most recent tasting notes | tasting_notes.recent_notes
kind | cellar | oldest vintages on hand | bottles.oldest_on_hand
kind | cellar | biggest purchases | purchases.biggest_lots
kind | cellar | recent orders | purchases.recent_orders
kind | cellar | bottles by size | bottles.by_size
kind | cellar | which wines do I hold the most of | bottles.deep_holdings
noword | github_history | which people are the most prolific | commits.top_contributors || identities.person
noword | github_history | bug reports nobody has responded to | issues.unanswered || issues.is_unanswered
noword | github_history | how long does it take to get code accepted | pull_requests.avg_hours_to_merge || pull_requests.hours_to_merge
noword | github_history | patches from strangers working on their own copies | pull_requests.outside_contributions || pull_requests.fork_prs || pull_requests.from_fork
noword | github_history | share of proposed changes that got accepted | pull_requests.merge_rate
noword | github_history | the code that is edited again and again | commit_files.hottest_files
noword | github_history | what kinds of source code see the most edits | commit_files.by_extension || commit_files.extension
noword | github_history | how often do we ship a new version | releases.cadence || releases.release_count
noword | github_history | commits that are not backward compatible | commits.is_breaking
noword | github_history | how much of the work had an AI pair programmer | commits.claude_assisted || commits.is_claude_assisted
noword | github_history | who is behind each email address | identities.person || identities.login || identities.name
noword | github_history | how certain is the account mapping | identities.confidence || identities.match_source
noword | github_history | is it a tiny tweak or a huge rewrite | commits.change_size
noword | github_history | headline of each commit message | commits.subject
noword | github_history | is it a feature, a bug fix or housekeeping | commits.kind || commits.commit_type || commits.by_kind
noword | github_history | how many different users opened tickets | issues.reporters
noword | github_history | typical amount of discussion on a ticket | issues.avg_comments || issues.comment_count
noword | github_history | which parts of the codebase get reworked most | commits.hot_areas || commit_files.area
noword | github_history | did the codebase grow or shrink | commits.net_line_change || commits.net_lines
noword | github_history | how big was each accepted patch | commits.merged_pr_sizes
noword | github_history | beta versions | releases.is_prerelease
noword | github_history | users raising the greatest number of tickets | issues.top_reporters
noword | github_history | robot accounts like dependabot | identities.is_bot || issues.author_is_bot || pull_requests.author_is_bot || releases.author_is_bot
noword | github_history | work in progress not ready for review | pull_requests.is_draft
syn | github_history | number of commits | commits.commit_count
syn | github_history | lines of code added | commits.lines_added || commit_files.lines_added || commits.insertions
syn | github_history | lines deleted | commits.lines_removed || commit_files.lines_removed || commits.deletions
syn | github_history | who opened the pull request | pull_requests.author_login
syn | github_history | date a pull request was merged | pull_requests.merged_at
syn | github_history | count of open issues | issues.open_issues
syn | github_history | date an issue was closed | issues.closed_at
syn | github_history | release tag name | releases.tag_name || tags.tag
syn | github_history | number of files modified in a commit | commits.files_changed || commits.total_files_changed
syn | github_history | merge commits | commits.merge_commits || commits.is_merge
syn | github_history | commit author email | commits.author_email
syn | github_history | distinct files touched | commit_files.files_touched
value | github_history | commits to the VS Code extension | commits.repo=malloydata/malloy-vscode-extension
value | github_history | bug fix commits | commits.commit_type=fix || commits.kind=fix
value | github_history | new feature commits per month | commits.kind=feat || commits.commit_type=feat
value | github_history | open issues in malloyyo | issues.repo=malloydata/malloyyo || issues.state=open
value | github_history | issues closed as not planned | issues.state_reason=not_planned
value | github_history | large commits | commits.change_size=large
value | github_history | pull requests that are still open | pull_requests.state=open || pull_requests.outcome=open
value | github_history | PRs closed without merging | pull_requests.outcome=closed unmerged
value | github_history | changes to markdown files | commit_files.extension=.md
value | github_history | documentation commits | commits.kind=docs || commits.commit_type=docs || commit_files.area=docs
value | github_history | edits under tests | commit_files.area=tests
value | github_history | identities matched by noreply address | identities.match_source=noreply-address
value | github_history | Python files changed | commit_files.extension=.py
trap | github_history | count | commits.commit_count || pull_requests.pr_count || issues.issue_count || releases.release_count || tags.tag_count || commit_files.file_changes || identities.address_count
trap | github_history | date | commits.authored_at || commits.committed_at || issues.created_at || pull_requests.created_at || releases.published_at || tags.tagged_at
trap | github_history | author | commits.author_name || commits.author_email || issues.author_login || pull_requests.author_login || releases.author_login
trap | github_history | title | issues.title || pull_requests.title
join | github_history | GitHub login of each commit's author | identities.login || identities.person
join | github_history | title of the pull request each commit came through | pull_requests.title
join | github_history | hours to merge for the PR behind each commit | pull_requests.hours_to_merge
join | github_history | file extensions touched by each commit | commit_files.extension
join | github_history | is each commit's author a bot | identities.is_bot
kind | github_history | commits per month | commits.by_month
kind | github_history | how many pull requests | pull_requests.pr_count
kind | github_history | issues by label | issues.by_label
kind | github_history | issues opened per month | issues.opened_by_month
kind | github_history | pull requests by author | pull_requests.by_author
kind | github_history | merged PRs per month | pull_requests.merged_by_month
kind | github_history | commits by type | commits.by_kind
kind | github_history | tags per month | tags.by_month
kind | github_history | how many releases | releases.release_count
kind | github_history | files with the most changes | commit_files.hottest_files
kind | github_history | top contributors | commits.top_contributors
kind | github_history | how many open issues | issues.open_issues
kind | github_history | lines added per repo | commits.lines_added || commit_files.lines_added
noword | subscriptions | what do paying clients pay us per billing cycle | subscriptions.active_mrr
noword | subscriptions | customers who cancelled | subscriptions.churned_count || subscriptions.churn_rate || subscriptions.status
noword | subscriptions | fraction of clients who walked away | subscriptions.churn_rate
noword | subscriptions | how many user licences each client pays for | subscriptions.seats || subscriptions.total_seats
noword | subscriptions | which pricing tier is each client on | subscriptions.plan || subscriptions.plan_mix
noword | subscriptions | what line of business is the client in | subscriptions.industry || subscriptions.mrr_by_industry
noword | subscriptions | the headline numbers at a glance | subscriptions.kpis || subscriptions.overview
noword | subscriptions | when did the client sign up | subscriptions.started_at
noword | subscriptions | typical monthly bill of a paying client | subscriptions.avg_mrr || subscriptions.mrr
noword | subscriptions | is the client paying, evaluating or gone | subscriptions.status
noword | subscriptions | what is the client company called | subscriptions.account_name
noword | subscriptions | which nations are the clients based in | subscriptions.country || subscriptions.mrr_by_country
syn | subscriptions | monthly recurring revenue | subscriptions.active_mrr || subscriptions.mrr
syn | subscriptions | churn percentage | subscriptions.churn_rate
syn | subscriptions | number of seats | subscriptions.seats || subscriptions.total_seats
syn | subscriptions | subscription start date | subscriptions.started_at
syn | subscriptions | average MRR per customer | subscriptions.avg_mrr
syn | subscriptions | new MRR booked | subscriptions.new_mrr
syn | subscriptions | count of active subscriptions | subscriptions.active_count
value | subscriptions | enterprise customers | subscriptions.plan=Enterprise
value | subscriptions | MRR from healthcare clients | subscriptions.industry=Healthcare
value | subscriptions | accounts in Germany | subscriptions.country=Germany
value | subscriptions | customers on a trial | subscriptions.status=Trial
value | subscriptions | churned starter plans | subscriptions.status=Churned || subscriptions.plan=Starter
value | subscriptions | revenue from the UK | subscriptions.country=United Kingdom
value | subscriptions | how many retail accounts | subscriptions.industry=Retail
trap | subscriptions | count | subscriptions.account_count || subscriptions.active_count || subscriptions.churned_count
trap | subscriptions | revenue | subscriptions.active_mrr || subscriptions.new_mrr || subscriptions.mrr
trap | subscriptions | date | subscriptions.started_at
kind | subscriptions | MRR by plan | subscriptions.mrr_by_plan
kind | subscriptions | accounts per plan | subscriptions.plan_mix
kind | subscriptions | MRR by industry | subscriptions.mrr_by_industry
kind | subscriptions | MRR by country | subscriptions.mrr_by_country
kind | subscriptions | new MRR per month | subscriptions.mrr_by_month
kind | subscriptions | how many accounts | subscriptions.account_count
kind | subscriptions | subscription overview dashboard | subscriptions.overview
noword | ai_cpm | what is the assistants' work worth in dollars | interactions.total_value_usd || interactions.value_usd
noword | ai_cpm | what do we pay for the assistants | interactions.total_cost_usd || interactions.cost_usd
noword | ai_cpm | did it nail it without rework | interactions.first_pass || interactions.first_pass_pct
noword | ai_cpm | payback on what we spend on assistants | interactions.roi_multiple || interactions.roi_by_provider
noword | ai_cpm | how many times did I have to fix its output | interactions.corrections || interactions.total_corrections
noword | ai_cpm | which vendor's model | interactions.provider
noword | ai_cpm | price per thousand ad views | cpm_benchmarks.cpm || cpm_benchmarks.avg_cpm
noword | ai_cpm | which ad platform | cpm_benchmarks.channel || cpm_benchmarks.channel_label
noword | ai_cpm | which time of the year are ads priciest | cpm_benchmarks.seasonal_pattern
noword | ai_cpm | platforms ordered from dearest to cheapest | cpm_benchmarks.channel_ranking
noword | ai_cpm | how long would the job have taken by hand | interactions.hours_estimate || interactions.total_hours
noword | ai_cpm | what sort of job was it | interactions.task_type || interactions.quality_by_task_type
noword | ai_cpm | is it on a flat plan or pay as you go | interactions.cost_model
noword | ai_cpm | which client engagement was it for | interactions.project
syn | ai_cpm | AI tool used | interactions.tool
syn | ai_cpm | number of AI tasks | interactions.total_tasks
syn | ai_cpm | average CPM | cpm_benchmarks.avg_cpm
syn | ai_cpm | highest CPM | cpm_benchmarks.max_cpm
syn | ai_cpm | lowest CPM | cpm_benchmarks.min_cpm
syn | ai_cpm | value delivered each month | interactions.value_trend
syn | ai_cpm | hours saved | interactions.total_hours || interactions.hours_estimate
value | ai_cpm | tasks done with Claude Code | interactions.tool=Claude Code
value | ai_cpm | what OpenAI costs us | interactions.provider=OpenAI
value | ai_cpm | debugging tasks | interactions.task_type=debugging
value | ai_cpm | LinkedIn CPM | cpm_benchmarks.channel=linkedin || cpm_benchmarks.channel_label=LinkedIn
value | ai_cpm | TikTok ad prices by month | cpm_benchmarks.channel=tiktok || cpm_benchmarks.channel_label=TikTok
value | ai_cpm | CPM in December | cpm_benchmarks.month_name=December
value | ai_cpm | tasks on the subscription plan | interactions.cost_model=subscription
trap | ai_cpm | count | interactions.total_tasks || cpm_benchmarks.record_count
trap | ai_cpm | date | interactions.created_at
trap | ai_cpm | cost | interactions.cost_usd || interactions.total_cost_usd
kind | ai_cpm | ROI by provider | interactions.roi_by_provider
kind | ai_cpm | tasks by type | interactions.quality_by_task_type
kind | ai_cpm | monthly value trend | interactions.value_trend
kind | ai_cpm | average CPM by channel and year | cpm_benchmarks.annual_by_channel
kind | ai_cpm | CPM by month across all channels | cpm_benchmarks.blended_monthly
kind | ai_cpm | CPM year over year | cpm_benchmarks.yoy_comparison
kind | ai_cpm | CPM for each channel every month | cpm_benchmarks.by_channel_month
`;

/** Every question of the tenth held-out set, in file order. */
export const HELDOUT10_QUESTIONS: EvalQuestion[] = parseQuestions(RAW);
