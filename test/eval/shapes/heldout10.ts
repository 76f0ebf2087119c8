/**
 * Expected shapes of the first next step for the tenth held-out set
 * (test/eval/heldout10_questions.ts), format of test/eval/shape_format.ts.
 * Written from the questions and test/eval/heldout10_packages.ts only,
 * blind: without reading the retrieval code, before any next_steps output
 * was seen. Field names are canonical: cellar's columns belong to the
 * `*_table` source their source extends (`bottles_table.status`), fields
 * seen through a join to the joined source (`bottles.owner.cellar_name` is
 * `cellars_table.cellar_name`, `commits.person.login` is
 * `identities.login`). A count "on hand" or "still own" is `on_hand` or a
 * bottle count kept to bottles in the cellar (`in_cellar`, or status
 * `In cellar`).
 * @module
 */

/** Shapes of every question of the set. */
export const HELDOUT10 = `
cellar | how much is my collection worth | measure: bottles.cellar_value || measure: sum(bottles_table.bottle_price); filter: bottles_table.in_cellar=true|bottles_table.status=In cellar
cellar | how many are still sitting on the rack | measure: bottles.on_hand || measure: bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles_table.in_cellar=true|bottles_table.status=In cellar
cellar | who made this wine | field: bottles_table.producer|wines_table.producer|notes_table.producer|purchases_table.producer
cellar | which grape is it made from | field: bottles_table.varietal|wines_table.varietal|notes_table.varietal|purchases_table.varietal|notes_table.master_varietal|purchases_table.master_varietal
cellar | year the grapes were picked | field: bottles_table.vintage|wines_table.vintage|notes_table.vintage|purchases_table.vintage|bottles.vintage_label|tasting_notes.vintage_label|purchases.vintage_label || view: bottles.by_vintage
cellar | where do I find it in the house | field: bottles_table.location|bottles_table.bin|bottles.shelf || view: bottles.by_location
cellar | big 1.5 litre formats I still own | measure: bottles.magnums || measure: bottles.on_hand; filter: bottles_table.bottle_size=1.5L || measure: bottles.on_hand|bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles_table.bottle_size=1.5L, bottles_table.in_cellar=true|bottles_table.status=In cellar || source: bottles|bottles_table; filter: bottles_table.bottle_size=1.5L, bottles_table.in_cellar=true|bottles_table.status=In cellar || view: bottles.by_size
cellar | how much did I get through annually | view: bottles.drinking_by_year || measure: bottles.drunk|bottles.value_drunk; group: bottles_table.exit_date@year || measure: bottles.bottle_count|count(bottles)|count(bottles_table); group: bottles_table.exit_date@year; filter: bottles_table.status=Drunk
cellar | money made from reselling | measure: bottles.sale_revenue|sum(bottles_table.revenue)
cellar | the priciest one I own | measure: bottles.dearest_bottle|purchases.dearest_bottle|max(bottles_table.bottle_price)|max(purchases_table.bottle_price) || source: bottles|bottles_table; field: bottles_table.bottle_price, bottles_table.wine
cellar | how long things sit before I open them | field: bottles.years_held || view: bottles.holding_time || measure: avg(bottles.years_held)
cellar | which merchants do I shop at | field: purchases_table.store_name|bottles_table.store_name || view: purchases.by_store
cellar | orders that haven't shown up yet | view: purchases.in_transit || measure: purchases.undelivered_bottles|purchases.undelivered_value || source: purchases|purchases_table; filter: purchases_table.delivered=false || measure: purchases.lot_count|purchases.order_count|purchases.bottles_bought|count(purchases)|count(purchases_table)|sum(purchases_table.quantity); filter: purchases_table.delivered=false
cellar | how much money went out on wine | measure: purchases.total_spend|sum(purchases_table.lot_cost)
cellar | gatherings where several were opened together | view: tasting_notes.tastings || field: notes_table.event_title || measure: tasting_notes.event_count|distinct(notes_table.event_id)
cellar | what I wrote about it | field: notes_table.tasting_note || view: tasting_notes.recent_notes
cellar | red, white or fizz | field: tasting_notes.style|bottles.style|purchases.style|bottles_table.wine_type|wines_table.wine_type|notes_table.wine_type|purchases_table.wine_type|purchases_table.color || view: bottles.by_style|purchases.by_style
cellar | favourites I'm down to just one of | view: bottles.last_bottles
cellar | stuff I bought and haven't opened or reviewed | view: bottles.never_tasted
cellar | do I open more on weekends | view: bottles.by_weekday || measure: bottles.drunk; group: bottles_table.exit_date@day_of_week || measure: bottles.bottle_count|count(bottles)|count(bottles_table); group: bottles_table.exit_date@day_of_week; filter: bottles_table.status=Drunk
cellar | which months of the year do I shop most | view: purchases.seasonality || measure: purchases.bottles_bought|purchases.total_spend|purchases.lot_count|purchases.order_count|count(purchases)|count(purchases_table)|sum(purchases_table.quantity)|sum(purchases_table.lot_cost); group: purchases_table.purchase_date@month_of_year
cellar | how my taste in areas drifted over time | view: purchases.region_mix_by_year || measure: purchases.bottles_bought|purchases.total_spend|sum(purchases_table.quantity)|sum(purchases_table.lot_cost); group: purchases_table.purchase_date@year, purchases_table.region
cellar | which collector owns it | field: cellars_table.cellar_name|cellars_table.cellar|bottles_table.cellar|notes_table.cellar|purchases_table.cellar
cellar | is it outstanding, excellent or just good | field: tasting_notes.score_band
cellar | price paid per bottle | field: bottles_table.bottle_price|purchases_table.bottle_price || measure: bottles.avg_bottle_price|purchases.avg_bottle_price|avg(bottles_table.bottle_price)|avg(purchases_table.bottle_price)
cellar | average score in my tasting notes | measure: tasting_notes.avg_rating|bottles.rating|avg(notes_table.rating)
cellar | highest score I ever gave | measure: tasting_notes.best_rating|max(notes_table.rating) || view: tasting_notes.highest_rated
cellar | number of bottles purchased | measure: purchases.bottles_bought|sum(purchases_table.quantity) || field: purchases_table.quantity
cellar | date of purchase | field: purchases_table.purchase_date|bottles_table.purchase_date
cellar | date a bottle was opened | field: bottles_table.exit_date
cellar | delivery time in days | field: purchases.days_to_delivery || measure: purchases.avg_days_to_delivery|avg(purchases.days_to_delivery)
cellar | bottle format | field: bottles_table.bottle_size|purchases_table.bottle_size || view: bottles.by_size
cellar | price bracket | field: bottles.price_band|purchases.price_band || view: bottles.by_price_band
cellar | number of different producers in stock | measure: bottles.producer_count || measure: distinct(bottles_table.producer); filter: bottles_table.in_cellar=true|bottles_table.status=In cellar
cellar | worth of the wine I drank | measure: bottles.value_drunk || measure: sum(bottles_table.bottle_price); filter: bottles_table.status=Drunk
cellar | cost of each purchase lot | field: purchases_table.lot_cost || view: purchases.biggest_lots
cellar | date of the tasting | field: notes_table.tasting_date
cellar | Burgundy bottles I still have | measure: bottles.on_hand; filter: bottles_table.region=Burgundy || measure: bottles.on_hand|bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles_table.region=Burgundy, bottles_table.in_cellar=true|bottles_table.status=In cellar || source: bottles|bottles_table; filter: bottles_table.region=Burgundy, bottles_table.in_cellar=true|bottles_table.status=In cellar
cellar | how much have I spent on Champagne | measure: purchases.total_spend|sum(purchases_table.lot_cost); filter: purchases_table.region=Champagne|purchases_table.category=Sparkling|purchases.style=Sparkling
cellar | bottles I have sold | measure: bottles.sold || measure: bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles_table.status=Sold || source: bottles|bottles_table; filter: bottles_table.status=Sold
cellar | magnums in the cellar | measure: bottles.magnums || measure: bottles.on_hand; filter: bottles_table.bottle_size=1.5L || measure: bottles.on_hand|bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles_table.bottle_size=1.5L, bottles_table.in_cellar=true|bottles_table.status=In cellar || source: bottles|bottles_table; filter: bottles_table.bottle_size=1.5L, bottles_table.in_cellar=true|bottles_table.status=In cellar
cellar | Italian wines I own | measure: bottles.on_hand|bottles.wines_on_hand|bottles.cellar_value; filter: bottles_table.country=Italy || measure: bottles.on_hand|bottles.wines_on_hand|bottles.cellar_value|bottles.wine_count|bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles_table.country=Italy, bottles_table.in_cellar=true|bottles_table.status=In cellar || source: bottles|bottles_table; filter: bottles_table.country=Italy, bottles_table.in_cellar=true|bottles_table.status=In cellar
cellar | pinot noir on hand | measure: bottles.on_hand|bottles.wines_on_hand; filter: bottles_table.varietal=Pinot Noir || measure: bottles.on_hand|bottles.wines_on_hand|bottles.wine_count|bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles_table.varietal=Pinot Noir, bottles_table.in_cellar=true|bottles_table.status=In cellar || source: bottles|bottles_table; filter: bottles_table.varietal=Pinot Noir, bottles_table.in_cellar=true|bottles_table.status=In cellar
cellar | what I bought from Zachys | source: purchases|purchases_table; filter: purchases_table.store_name=Zachys || measure: purchases.total_spend|purchases.bottles_bought|purchases.lot_count|purchases.order_count|sum(purchases_table.lot_cost)|sum(purchases_table.quantity)|count(purchases)|count(purchases_table); filter: purchases_table.store_name=Zachys
cellar | wines from Napa Valley | source: bottles|bottles_table|wines|wines_table|purchases|purchases_table; filter: bottles_table.sub_region=Napa Valley|wines_table.sub_region=Napa Valley|purchases_table.sub_region=Napa Valley || measure: bottles.on_hand|bottles.wine_count|bottles.wines_on_hand|bottles.bottle_count|count(bottles)|count(bottles_table)|count(wines)|count(wines_table)|purchases.wine_count|purchases.bottles_bought; filter: bottles_table.sub_region=Napa Valley|wines_table.sub_region=Napa Valley|purchases_table.sub_region=Napa Valley
cellar | value of the newcomer's cellar | measure: bottles.cellar_value; filter: bottles_table.cellar=newcomer|cellars_table.cellar_name=The Champagne Newcomer
cellar | what's in the wine fridge | source: bottles|bottles_table; filter: bottles_table.location=Wine fridge || source: bottles|bottles_table; filter: bottles_table.location=Wine fridge, bottles_table.in_cellar=true|bottles_table.status=In cellar || measure: bottles.on_hand|bottles.cellar_value|bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles_table.location=Wine fridge
cellar | bottles given away | measure: bottles.given_away || measure: bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles_table.status=Given away || source: bottles|bottles_table; filter: bottles_table.status=Given away
cellar | wines I rated outstanding | source: tasting_notes|notes_table; filter: tasting_notes.score_band=Outstanding (95+)|notes_table.rating || measure: tasting_notes.note_count|tasting_notes.rated_wine_count|count(tasting_notes)|count(notes_table); filter: tasting_notes.score_band=Outstanding (95+)|notes_table.rating || view: tasting_notes.highest_rated
cellar | Rhône reds on hand | measure: bottles.on_hand|bottles.wines_on_hand; filter: bottles_table.region=Rhône, bottles.style=Red|bottles_table.wine_type=Red || measure: bottles.on_hand|bottles.wines_on_hand|bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles_table.region=Rhône, bottles.style=Red|bottles_table.wine_type=Red, bottles_table.in_cellar=true|bottles_table.status=In cellar || source: bottles|bottles_table; filter: bottles_table.region=Rhône, bottles.style=Red|bottles_table.wine_type=Red, bottles_table.in_cellar=true|bottles_table.status=In cellar
cellar | sweet dessert wines | source: bottles|bottles_table|wines|wines_table|purchases|purchases_table; filter: bottles_table.wine_type=White - Sweet/Dessert|wines_table.wine_type=White - Sweet/Dessert|purchases_table.wine_type=White - Sweet/Dessert|purchases_table.category=Sweet/Dessert || measure: bottles.on_hand|bottles.bottle_count|count(bottles)|count(bottles_table)|count(wines)|count(wines_table)|purchases.bottles_bought|purchases.total_spend; filter: bottles_table.wine_type=White - Sweet/Dessert|wines_table.wine_type=White - Sweet/Dessert|purchases_table.wine_type=White - Sweet/Dessert|purchases_table.category=Sweet/Dessert
cellar | bottles under $25 | measure: bottles.on_hand|bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles.price_band=Under $25|bottles_table.bottle_price || measure: bottles.on_hand|bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles.price_band=Under $25|bottles_table.bottle_price, bottles_table.in_cellar=true|bottles_table.status=In cellar || source: bottles|bottles_table; filter: bottles.price_band=Under $25|bottles_table.bottle_price || source: bottles|bottles_table; filter: bottles.price_band=Under $25|bottles_table.bottle_price, bottles_table.in_cellar=true|bottles_table.status=In cellar || measure: purchases.bottles_bought|sum(purchases_table.quantity); filter: purchases.price_band=Under $25|purchases_table.bottle_price
cellar | count | measure: bottles.bottle_count|bottles.on_hand|tasting_notes.note_count|purchases.lot_count|bottles.wine_count|count(bottles)|count(bottles_table)|count(tasting_notes)|count(notes_table)|count(purchases)|count(purchases_table)|count(wines)|count(wines_table)|count(cellars)|count(cellars_table)
cellar | date | field: purchases_table.purchase_date|bottles_table.purchase_date|notes_table.tasting_date|bottles_table.exit_date|purchases_table.delivery_date|notes_table.event_date
cellar | price | field: bottles_table.bottle_price|purchases_table.bottle_price || measure: bottles.avg_bottle_price|purchases.avg_bottle_price|avg(bottles_table.bottle_price)|avg(purchases_table.bottle_price)
cellar | name | field: wines_table.wine|bottles_table.wine|notes_table.wine|purchases_table.wine|cellars_table.cellar_name|purchases_table.store_name|bottles_table.store_name|notes_table.event_title
cellar | region | field: bottles_table.region|wines_table.region|notes_table.region|purchases_table.region || view: bottles.by_region|tasting_notes.by_region|purchases.by_region
cellar | name of the collector who owns each bottle | source: bottles; field: cellars_table.cellar_name
cellar | my rating of each bottle on the rack | source: bottles; field: notes_table.rating || source: bottles; measure: bottles.rating|avg(notes_table.rating)
cellar | collector description for each tasting note | source: tasting_notes; field: cellars_table.cellar_blurb
cellar | which collector made each purchase | source: purchases; field: cellars_table.cellar_name
cellar | tasting note text for each bottle I own | source: bottles; field: notes_table.tasting_note
cellar | how many bottles do I have | measure: bottles.on_hand || measure: bottles.bottle_count|count(bottles)|count(bottles_table); filter: bottles_table.in_cellar=true|bottles_table.status=In cellar || measure: bottles.bottle_count|count(bottles)|count(bottles_table)
cellar | bottles by region | view: bottles.by_region || measure: bottles.on_hand|bottles.bottle_count|count(bottles)|count(bottles_table); group: bottles_table.region || measure: bottles.on_hand|bottles.bottle_count|count(bottles)|count(bottles_table); group: bottles_table.region; filter: bottles_table.in_cellar=true|bottles_table.status=In cellar
cellar | cellar value by country | view: bottles.by_country || measure: bottles.cellar_value; group: bottles_table.country
cellar | spending per year | view: purchases.spend_by_year || measure: purchases.total_spend|sum(purchases_table.lot_cost); group: purchases_table.purchase_date@year
cellar | spend by store | view: purchases.by_store || measure: purchases.total_spend|sum(purchases_table.lot_cost); group: purchases_table.store_name
cellar | bottles drunk per month | view: bottles.drinking_by_month || measure: bottles.drunk; group: bottles_table.exit_date@month || measure: bottles.bottle_count|count(bottles)|count(bottles_table); group: bottles_table.exit_date@month; filter: bottles_table.status=Drunk
cellar | top producers by rating | view: tasting_notes.by_producer || measure: tasting_notes.avg_rating|tasting_notes.best_rating|bottles.rating|avg(notes_table.rating); group: notes_table.producer|bottles_table.producer; top
cellar | ratings over the years | view: tasting_notes.ratings_over_time || measure: tasting_notes.avg_rating|avg(notes_table.rating); group: notes_table.tasting_date@year
cellar | distribution of scores | view: tasting_notes.score_distribution || measure: tasting_notes.note_count|count(tasting_notes)|count(notes_table); group: notes_table.rating|tasting_notes.score_band
cellar | most recent tasting notes | view: tasting_notes.recent_notes || source: tasting_notes|notes_table; field: notes_table.tasting_date
cellar | oldest vintages on hand | view: bottles.oldest_on_hand|bottles.by_vintage || measure: bottles.on_hand; group: bottles_table.vintage || measure: bottles.on_hand|bottles.bottle_count|count(bottles)|count(bottles_table); group: bottles_table.vintage; filter: bottles_table.in_cellar=true|bottles_table.status=In cellar
cellar | biggest purchases | view: purchases.biggest_lots || measure: purchases.total_spend|sum(purchases_table.lot_cost); group: purchases_table.wine|purchases_table.order_number|purchases_table.purchase_id; top || source: purchases|purchases_table; field: purchases_table.lot_cost
cellar | recent orders | view: purchases.recent_orders || source: purchases|purchases_table; field: purchases_table.purchase_date
cellar | bottles by size | view: bottles.by_size || measure: bottles.on_hand|bottles.bottle_count|count(bottles)|count(bottles_table); group: bottles_table.bottle_size || measure: bottles.on_hand|bottles.bottle_count|count(bottles)|count(bottles_table); group: bottles_table.bottle_size; filter: bottles_table.in_cellar=true|bottles_table.status=In cellar
cellar | which wines do I hold the most of | view: bottles.deep_holdings || measure: bottles.on_hand; group: bottles_table.wine; top || measure: bottles.bottle_count|count(bottles)|count(bottles_table); group: bottles_table.wine; filter: bottles_table.in_cellar=true|bottles_table.status=In cellar; top
github_history | which people are the most prolific | view: commits.top_contributors || measure: commits.commit_count|commits.lines_added|count(commits)|sum(commits.insertions); group: identities.person|identities.login|commits.author_name|commits.author_email; top || view: pull_requests.by_author || measure: pull_requests.pr_count|pull_requests.merged_prs|count(pull_requests); group: pull_requests.author_login; top
github_history | bug reports nobody has responded to | measure: issues.unanswered || measure: issues.issue_count|count(issues); filter: issues.is_unanswered=true|issues.comment_count || source: issues; filter: issues.is_unanswered=true|issues.comment_count
github_history | how long does it take to get code accepted | measure: pull_requests.avg_hours_to_merge|avg(pull_requests.hours_to_merge) || field: pull_requests.hours_to_merge
github_history | patches from strangers working on their own copies | view: pull_requests.outside_contributions || measure: pull_requests.fork_prs || measure: pull_requests.pr_count|count(pull_requests); filter: pull_requests.from_fork=true || source: pull_requests; filter: pull_requests.from_fork=true
github_history | share of proposed changes that got accepted | measure: pull_requests.merge_rate
github_history | the code that is edited again and again | view: commit_files.hottest_files || measure: commit_files.file_changes|commit_files.churn_total|count(commit_files); group: commit_files.path; top || measure: commit_files.file_changes|commit_files.churn_total|count(commit_files); group: commit_files.repo, commit_files.path; top
github_history | what kinds of source code see the most edits | view: commit_files.by_extension || measure: commit_files.file_changes|commit_files.churn_total|commit_files.lines_added|count(commit_files); group: commit_files.extension
github_history | how often do we ship a new version | view: releases.cadence|tags.by_month || measure: releases.release_count|count(releases); group: releases.published_at@month|releases.published_at@year|releases.published_at@quarter|releases.published_at@week
github_history | commits that are not backward compatible | source: commits; filter: commits.is_breaking=true || measure: commits.commit_count|count(commits); filter: commits.is_breaking=true || field: commits.is_breaking
github_history | how much of the work had an AI pair programmer | measure: commits.claude_assisted || measure: commits.commit_count|count(commits); filter: commits.is_claude_assisted=true || field: commits.is_claude_assisted
github_history | who is behind each email address | field: identities.person|identities.login|identities.name
github_history | how certain is the account mapping | field: identities.confidence|identities.match_source || measure: avg(identities.confidence)
github_history | is it a tiny tweak or a huge rewrite | field: commits.change_size
github_history | headline of each commit message | field: commits.subject
github_history | is it a feature, a bug fix or housekeeping | field: commits.kind|commits.commit_type || view: commits.by_kind
github_history | how many different users opened tickets | measure: issues.reporters|distinct(issues.author_login)
github_history | typical amount of discussion on a ticket | measure: issues.avg_comments|avg(issues.comment_count)
github_history | which parts of the codebase get reworked most | view: commits.hot_areas || measure: commit_files.churn_total|commit_files.file_changes|commit_files.lines_added|count(commit_files); group: commit_files.area|commit_files.top_dir|commit_files.directory; top
github_history | did the codebase grow or shrink | measure: commits.net_line_change|sum(commits.net_lines) || measure: commits.lines_added|sum(commits.insertions), commits.lines_removed|sum(commits.deletions)
github_history | how big was each accepted patch | view: commits.merged_pr_sizes || measure: commits.lines_added|commits.net_line_change|commits.total_files_changed|sum(commits.insertions); group: commits.pr_number|pull_requests.title || measure: commits.lines_added|commits.net_line_change|commits.total_files_changed|sum(commits.insertions); group: commits.repo, commits.pr_number || measure: commits.lines_added|commits.net_line_change|commits.total_files_changed|sum(commits.insertions); group: commits.pr_number|pull_requests.title; filter: pull_requests.is_merged=true || measure: commits.lines_added|commits.net_line_change|commits.total_files_changed|sum(commits.insertions); group: commits.repo, commits.pr_number; filter: pull_requests.is_merged=true
github_history | beta versions | source: releases; filter: releases.is_prerelease=true || field: releases.is_prerelease || measure: releases.release_count|count(releases); filter: releases.is_prerelease=true
github_history | users raising the greatest number of tickets | view: issues.top_reporters || measure: issues.issue_count|count(issues); group: issues.author_login; top
github_history | robot accounts like dependabot | source: identities; filter: identities.is_bot=true || field: identities.is_bot|issues.author_is_bot|pull_requests.author_is_bot|releases.author_is_bot || measure: identities.address_count|count(identities); filter: identities.is_bot=true
github_history | work in progress not ready for review | source: pull_requests; filter: pull_requests.is_draft=true || field: pull_requests.is_draft || measure: pull_requests.pr_count|count(pull_requests); filter: pull_requests.is_draft=true
github_history | number of commits | measure: commits.commit_count|count(commits)
github_history | lines of code added | measure: commits.lines_added|commit_files.lines_added|sum(commits.insertions)|sum(commit_files.insertions) || field: commits.insertions|commit_files.insertions
github_history | lines deleted | measure: commits.lines_removed|commit_files.lines_removed|sum(commits.deletions)|sum(commit_files.deletions) || field: commits.deletions|commit_files.deletions
github_history | who opened the pull request | field: pull_requests.author_login || view: pull_requests.by_author
github_history | date a pull request was merged | field: pull_requests.merged_at
github_history | count of open issues | measure: issues.open_issues || measure: issues.issue_count|count(issues); filter: issues.is_open=true|issues.state=open
github_history | date an issue was closed | field: issues.closed_at
github_history | release tag name | field: releases.tag_name|tags.tag|releases.name|tags.version
github_history | number of files modified in a commit | field: commits.files_changed || measure: commits.total_files_changed|avg(commits.files_changed)
github_history | merge commits | measure: commits.merge_commits || measure: commits.commit_count|count(commits); filter: commits.is_merge=true || source: commits; filter: commits.is_merge=true || field: commits.is_merge
github_history | commit author email | field: commits.author_email
github_history | distinct files touched | measure: commit_files.files_touched|distinct(commit_files.path)
github_history | commits to the VS Code extension | measure: commits.commit_count|count(commits); filter: commits.repo=malloydata/malloy-vscode-extension || source: commits; filter: commits.repo=malloydata/malloy-vscode-extension
github_history | bug fix commits | measure: commits.commit_count|count(commits); filter: commits.commit_type=fix|commits.kind=fix || source: commits; filter: commits.commit_type=fix|commits.kind=fix
github_history | new feature commits per month | measure: commits.commit_count|count(commits); group: commits.authored_at@month|commits.committed_at@month; filter: commits.kind=feat|commits.commit_type=feat || view: commits.by_month; filter: commits.kind=feat|commits.commit_type=feat
github_history | open issues in malloyyo | measure: issues.open_issues; filter: issues.repo=malloydata/malloyyo || measure: issues.issue_count|issues.open_issues|count(issues); filter: issues.repo=malloydata/malloyyo, issues.state=open|issues.is_open=true || source: issues; filter: issues.repo=malloydata/malloyyo, issues.state=open|issues.is_open=true
github_history | issues closed as not planned | measure: issues.issue_count|count(issues); filter: issues.state_reason=not_planned || source: issues; filter: issues.state_reason=not_planned
github_history | large commits | source: commits; filter: commits.change_size=large || measure: commits.commit_count|count(commits); filter: commits.change_size=large
github_history | pull requests that are still open | source: pull_requests; filter: pull_requests.state=open|pull_requests.outcome=open|pull_requests.is_open=true || measure: pull_requests.pr_count|count(pull_requests); filter: pull_requests.state=open|pull_requests.outcome=open|pull_requests.is_open=true
github_history | PRs closed without merging | source: pull_requests; filter: pull_requests.outcome=closed unmerged || measure: pull_requests.pr_count|count(pull_requests); filter: pull_requests.outcome=closed unmerged || source: pull_requests; filter: pull_requests.state=closed, pull_requests.is_merged=false || measure: pull_requests.pr_count|count(pull_requests); filter: pull_requests.state=closed, pull_requests.is_merged=false
github_history | changes to markdown files | measure: commit_files.file_changes|commit_files.churn_total|commit_files.lines_added|count(commit_files)|commits.commit_count|count(commits); filter: commit_files.extension=.md || source: commit_files; filter: commit_files.extension=.md
github_history | documentation commits | measure: commits.commit_count|count(commits); filter: commits.kind=docs|commits.commit_type=docs|commit_files.area=docs|commit_files.is_docs=true || source: commits; filter: commits.kind=docs|commits.commit_type=docs|commit_files.area=docs|commit_files.is_docs=true
github_history | edits under tests | measure: commit_files.file_changes|commit_files.churn_total|commit_files.lines_added|count(commit_files); filter: commit_files.area=tests|commit_files.is_test=true || source: commit_files; filter: commit_files.area=tests|commit_files.is_test=true
github_history | identities matched by noreply address | source: identities; filter: identities.match_source=noreply-address || measure: identities.address_count|count(identities); filter: identities.match_source=noreply-address
github_history | Python files changed | measure: commit_files.file_changes|commit_files.files_touched|count(commit_files); filter: commit_files.extension=.py || source: commit_files; filter: commit_files.extension=.py
github_history | count | measure: commits.commit_count|pull_requests.pr_count|issues.issue_count|releases.release_count|tags.tag_count|commit_files.file_changes|identities.address_count|count(commits)|count(pull_requests)|count(issues)|count(releases)|count(tags)|count(commit_files)|count(identities)
github_history | date | field: commits.authored_at|commits.committed_at|issues.created_at|pull_requests.created_at|releases.published_at|tags.tagged_at|commit_files.authored_at|pull_requests.merged_at|issues.closed_at
github_history | author | field: commits.author_name|commits.author_email|issues.author_login|pull_requests.author_login|releases.author_login|identities.person
github_history | title | field: issues.title|pull_requests.title|releases.name
github_history | GitHub login of each commit's author | source: commits; field: identities.login|identities.person
github_history | title of the pull request each commit came through | source: commits; field: pull_requests.title
github_history | hours to merge for the PR behind each commit | source: commits; field: pull_requests.hours_to_merge || source: commits; measure: pull_requests.avg_hours_to_merge|avg(pull_requests.hours_to_merge)
github_history | file extensions touched by each commit | source: commits; field: commit_files.extension
github_history | is each commit's author a bot | source: commits; field: identities.is_bot
github_history | commits per month | view: commits.by_month || measure: commits.commit_count|count(commits); group: commits.authored_at@month|commits.committed_at@month
github_history | how many pull requests | measure: pull_requests.pr_count|count(pull_requests)
github_history | issues by label | view: issues.by_label
github_history | issues opened per month | view: issues.opened_by_month || measure: issues.issue_count|count(issues); group: issues.created_at@month
github_history | pull requests by author | view: pull_requests.by_author || measure: pull_requests.pr_count|count(pull_requests); group: pull_requests.author_login
github_history | merged PRs per month | view: pull_requests.merged_by_month || measure: pull_requests.merged_prs; group: pull_requests.merged_at@month|pull_requests.created_at@month || measure: pull_requests.pr_count|pull_requests.merged_prs|count(pull_requests); group: pull_requests.merged_at@month; filter: pull_requests.is_merged=true|pull_requests.outcome=merged
github_history | commits by type | view: commits.by_kind || measure: commits.commit_count|count(commits); group: commits.kind|commits.commit_type
github_history | tags per month | view: tags.by_month || measure: tags.tag_count|count(tags); group: tags.tagged_at@month
github_history | how many releases | measure: releases.release_count|count(releases)
github_history | files with the most changes | view: commit_files.hottest_files || measure: commit_files.file_changes|commit_files.churn_total|count(commit_files); group: commit_files.path; top || measure: commit_files.file_changes|commit_files.churn_total|count(commit_files); group: commit_files.repo, commit_files.path; top
github_history | top contributors | view: commits.top_contributors || measure: commits.commit_count|commits.lines_added|count(commits); group: identities.person|identities.login|commits.author_name|commits.author_email; top
github_history | how many open issues | measure: issues.open_issues || measure: issues.issue_count|count(issues); filter: issues.is_open=true|issues.state=open
github_history | lines added per repo | measure: commits.lines_added|sum(commits.insertions)|commit_files.lines_added|sum(commit_files.insertions); group: commits.repo|commit_files.repo
subscriptions | what do paying clients pay us per billing cycle | measure: subscriptions.active_mrr || measure: sum(subscriptions.mrr); filter: subscriptions.status=Active
subscriptions | customers who cancelled | measure: subscriptions.churned_count|subscriptions.churn_rate || measure: subscriptions.account_count|count(subscriptions); filter: subscriptions.status=Churned || source: subscriptions; filter: subscriptions.status=Churned
subscriptions | fraction of clients who walked away | measure: subscriptions.churn_rate
subscriptions | how many user licences each client pays for | field: subscriptions.seats || measure: subscriptions.total_seats|sum(subscriptions.seats); group: subscriptions.account_name
subscriptions | which pricing tier is each client on | field: subscriptions.plan || view: subscriptions.plan_mix
subscriptions | what line of business is the client in | field: subscriptions.industry || view: subscriptions.mrr_by_industry
subscriptions | the headline numbers at a glance | view: subscriptions.kpis|subscriptions.overview || measure: subscriptions.active_mrr, subscriptions.active_count|subscriptions.account_count
subscriptions | when did the client sign up | field: subscriptions.started_at
subscriptions | typical monthly bill of a paying client | measure: subscriptions.avg_mrr|avg(subscriptions.mrr)
subscriptions | is the client paying, evaluating or gone | field: subscriptions.status
subscriptions | what is the client company called | field: subscriptions.account_name || view: subscriptions.accounts
subscriptions | which nations are the clients based in | field: subscriptions.country || view: subscriptions.mrr_by_country
subscriptions | monthly recurring revenue | measure: subscriptions.active_mrr|subscriptions.new_mrr|sum(subscriptions.mrr) || field: subscriptions.mrr
subscriptions | churn percentage | measure: subscriptions.churn_rate
subscriptions | number of seats | field: subscriptions.seats || measure: subscriptions.total_seats|sum(subscriptions.seats)
subscriptions | subscription start date | field: subscriptions.started_at
subscriptions | average MRR per customer | measure: subscriptions.avg_mrr|avg(subscriptions.mrr)
subscriptions | new MRR booked | measure: subscriptions.new_mrr|sum(subscriptions.mrr) || view: subscriptions.mrr_by_month
subscriptions | count of active subscriptions | measure: subscriptions.active_count || measure: subscriptions.account_count|count(subscriptions); filter: subscriptions.status=Active
subscriptions | enterprise customers | source: subscriptions; filter: subscriptions.plan=Enterprise || measure: subscriptions.account_count|count(subscriptions)|subscriptions.active_count; filter: subscriptions.plan=Enterprise
subscriptions | MRR from healthcare clients | measure: subscriptions.active_mrr|subscriptions.new_mrr|sum(subscriptions.mrr); filter: subscriptions.industry=Healthcare
subscriptions | accounts in Germany | source: subscriptions; filter: subscriptions.country=Germany || measure: subscriptions.account_count|count(subscriptions)|subscriptions.active_count; filter: subscriptions.country=Germany
subscriptions | customers on a trial | measure: subscriptions.account_count|count(subscriptions); filter: subscriptions.status=Trial || source: subscriptions; filter: subscriptions.status=Trial
subscriptions | churned starter plans | measure: subscriptions.account_count|count(subscriptions)|subscriptions.churned_count; filter: subscriptions.status=Churned, subscriptions.plan=Starter || measure: subscriptions.churned_count|subscriptions.churn_rate; filter: subscriptions.plan=Starter || source: subscriptions; filter: subscriptions.status=Churned, subscriptions.plan=Starter
subscriptions | revenue from the UK | measure: subscriptions.active_mrr|subscriptions.new_mrr|sum(subscriptions.mrr); filter: subscriptions.country=United Kingdom
subscriptions | how many retail accounts | measure: subscriptions.account_count|count(subscriptions)|subscriptions.active_count; filter: subscriptions.industry=Retail
subscriptions | count | measure: subscriptions.account_count|count(subscriptions)|subscriptions.active_count|subscriptions.churned_count
subscriptions | revenue | measure: subscriptions.active_mrr|subscriptions.new_mrr|sum(subscriptions.mrr)|subscriptions.avg_mrr || field: subscriptions.mrr
subscriptions | date | field: subscriptions.started_at
subscriptions | MRR by plan | view: subscriptions.mrr_by_plan || measure: subscriptions.active_mrr|subscriptions.new_mrr|sum(subscriptions.mrr); group: subscriptions.plan
subscriptions | accounts per plan | view: subscriptions.plan_mix || measure: subscriptions.account_count|count(subscriptions)|subscriptions.active_count; group: subscriptions.plan
subscriptions | MRR by industry | view: subscriptions.mrr_by_industry || measure: subscriptions.active_mrr|subscriptions.new_mrr|sum(subscriptions.mrr); group: subscriptions.industry
subscriptions | MRR by country | view: subscriptions.mrr_by_country || measure: subscriptions.active_mrr|subscriptions.new_mrr|sum(subscriptions.mrr); group: subscriptions.country
subscriptions | new MRR per month | view: subscriptions.mrr_by_month || measure: subscriptions.new_mrr|sum(subscriptions.mrr); group: subscriptions.started_at@month
subscriptions | how many accounts | measure: subscriptions.account_count|count(subscriptions)
subscriptions | subscription overview dashboard | view: subscriptions.overview|subscriptions.kpis
ai_cpm | what is the assistants' work worth in dollars | measure: interactions.total_value_usd|sum(interactions.value_usd) || field: interactions.value_usd
ai_cpm | what do we pay for the assistants | measure: interactions.total_cost_usd|sum(interactions.cost_usd) || field: interactions.cost_usd
ai_cpm | did it nail it without rework | field: interactions.first_pass || measure: interactions.first_pass_pct
ai_cpm | payback on what we spend on assistants | measure: interactions.roi_multiple || view: interactions.roi_by_provider
ai_cpm | how many times did I have to fix its output | field: interactions.corrections || measure: interactions.total_corrections|sum(interactions.corrections)|avg(interactions.corrections)
ai_cpm | which vendor's model | field: interactions.provider
ai_cpm | price per thousand ad views | field: cpm_benchmarks.cpm || measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm)
ai_cpm | which ad platform | field: cpm_benchmarks.channel|cpm_benchmarks.channel_label
ai_cpm | which time of the year are ads priciest | view: cpm_benchmarks.seasonal_pattern || measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm)|cpm_benchmarks.max_cpm; group: cpm_benchmarks.month|cpm_benchmarks.month_name || measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm)|cpm_benchmarks.max_cpm; group: cpm_benchmarks.month, cpm_benchmarks.month_name
ai_cpm | platforms ordered from dearest to cheapest | view: cpm_benchmarks.channel_ranking || measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm); group: cpm_benchmarks.channel_label|cpm_benchmarks.channel; top
ai_cpm | how long would the job have taken by hand | field: interactions.hours_estimate || measure: interactions.total_hours|sum(interactions.hours_estimate)|avg(interactions.hours_estimate)
ai_cpm | what sort of job was it | field: interactions.task_type || view: interactions.quality_by_task_type
ai_cpm | is it on a flat plan or pay as you go | field: interactions.cost_model
ai_cpm | which client engagement was it for | field: interactions.project
ai_cpm | AI tool used | field: interactions.tool
ai_cpm | number of AI tasks | measure: interactions.total_tasks|count(interactions)
ai_cpm | average CPM | measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm)
ai_cpm | highest CPM | measure: cpm_benchmarks.max_cpm|max(cpm_benchmarks.cpm)
ai_cpm | lowest CPM | measure: cpm_benchmarks.min_cpm|min(cpm_benchmarks.cpm)
ai_cpm | value delivered each month | view: interactions.value_trend || measure: interactions.total_value_usd|sum(interactions.value_usd); group: interactions.month_year|interactions.created_at@month
ai_cpm | hours saved | measure: interactions.total_hours|sum(interactions.hours_estimate) || field: interactions.hours_estimate
ai_cpm | tasks done with Claude Code | measure: interactions.total_tasks|count(interactions); filter: interactions.tool=Claude Code || source: interactions; filter: interactions.tool=Claude Code
ai_cpm | what OpenAI costs us | measure: interactions.total_cost_usd|sum(interactions.cost_usd); filter: interactions.provider=OpenAI
ai_cpm | debugging tasks | measure: interactions.total_tasks|count(interactions); filter: interactions.task_type=debugging || source: interactions; filter: interactions.task_type=debugging
ai_cpm | LinkedIn CPM | measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm); filter: cpm_benchmarks.channel=linkedin|cpm_benchmarks.channel_label=LinkedIn || field: cpm_benchmarks.cpm; filter: cpm_benchmarks.channel=linkedin|cpm_benchmarks.channel_label=LinkedIn
ai_cpm | TikTok ad prices by month | measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm); group: cpm_benchmarks.month|cpm_benchmarks.month_name|cpm_benchmarks.period|cpm_benchmarks.period_sort; filter: cpm_benchmarks.channel=tiktok|cpm_benchmarks.channel_label=TikTok || measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm); group: cpm_benchmarks.year, cpm_benchmarks.month|cpm_benchmarks.month_name; filter: cpm_benchmarks.channel=tiktok|cpm_benchmarks.channel_label=TikTok || view: cpm_benchmarks.by_channel_month|cpm_benchmarks.blended_monthly|cpm_benchmarks.seasonal_pattern; filter: cpm_benchmarks.channel=tiktok|cpm_benchmarks.channel_label=TikTok || field: cpm_benchmarks.cpm, cpm_benchmarks.month|cpm_benchmarks.month_name|cpm_benchmarks.period; filter: cpm_benchmarks.channel=tiktok|cpm_benchmarks.channel_label=TikTok
ai_cpm | CPM in December | measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm)|cpm_benchmarks.min_cpm|cpm_benchmarks.max_cpm; filter: cpm_benchmarks.month_name=December|cpm_benchmarks.month || field: cpm_benchmarks.cpm; filter: cpm_benchmarks.month_name=December|cpm_benchmarks.month
ai_cpm | tasks on the subscription plan | measure: interactions.total_tasks|count(interactions); filter: interactions.cost_model=subscription || source: interactions; filter: interactions.cost_model=subscription
ai_cpm | count | measure: interactions.total_tasks|cpm_benchmarks.record_count|count(interactions)|count(cpm_benchmarks)
ai_cpm | date | field: interactions.created_at|interactions.month_year|cpm_benchmarks.period
ai_cpm | cost | field: interactions.cost_usd || measure: interactions.total_cost_usd|sum(interactions.cost_usd)
ai_cpm | ROI by provider | view: interactions.roi_by_provider || measure: interactions.roi_multiple; group: interactions.provider || measure: interactions.roi_multiple; group: interactions.provider, interactions.tool
ai_cpm | tasks by type | view: interactions.quality_by_task_type || measure: interactions.total_tasks|count(interactions); group: interactions.task_type
ai_cpm | monthly value trend | view: interactions.value_trend || measure: interactions.total_value_usd|sum(interactions.value_usd); group: interactions.month_year|interactions.created_at@month
ai_cpm | average CPM by channel and year | view: cpm_benchmarks.annual_by_channel || measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm); group: cpm_benchmarks.channel|cpm_benchmarks.channel_label, cpm_benchmarks.year || measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm); group: cpm_benchmarks.channel, cpm_benchmarks.channel_label, cpm_benchmarks.year
ai_cpm | CPM by month across all channels | view: cpm_benchmarks.blended_monthly|cpm_benchmarks.seasonal_pattern || measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm); group: cpm_benchmarks.month|cpm_benchmarks.month_name|cpm_benchmarks.period|cpm_benchmarks.period_sort || measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm); group: cpm_benchmarks.year, cpm_benchmarks.month|cpm_benchmarks.month_name
ai_cpm | CPM year over year | view: cpm_benchmarks.yoy_comparison|cpm_benchmarks.annual_by_channel || measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm); group: cpm_benchmarks.year
ai_cpm | CPM for each channel every month | view: cpm_benchmarks.by_channel_month || measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm); group: cpm_benchmarks.channel|cpm_benchmarks.channel_label, cpm_benchmarks.month|cpm_benchmarks.month_name|cpm_benchmarks.period || measure: cpm_benchmarks.avg_cpm|avg(cpm_benchmarks.cpm); group: cpm_benchmarks.channel|cpm_benchmarks.channel_label, cpm_benchmarks.year, cpm_benchmarks.month|cpm_benchmarks.month_name
`;
