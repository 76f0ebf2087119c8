/**
 * The tenth held-out set's models: four Malloy models written outside the
 * project and published on GitHub, on subjects no other set uses,
 * transcribed as their metadata would list them:
 * - `cellar`: a wine collector's cellar (CellarTracker exports of three
 *   synthetic cellars), lloydtabb/cellar, cellar.malloy and storage.malloy
 *   at commit 10653200916d9242f24adfb869df67625c15b409: the five
 *   `*_table` sources over the parquet files, extended by cellars, wines,
 *   tasting_notes, bottles and purchases; columns as scripts/build_data.py
 *   (same commit) writes them;
 * - `github_history`: a software project's history (commits, files touched,
 *   tags, issues, pull requests, releases, author identities of three
 *   malloydata repositories), malloydata/malloyyo,
 *   examples/github-history/index.malloy at commit
 *   3cab281843391ff48c447f4cf2b01631be875045, with its `#"` doc lines as
 *   docs; columns as examples/github-history/extract/git_history.py,
 *   build_parquet.py and link.py (commit
 *   a983af37cb89421790c7518f8cc75206d7d66a14) write them;
 * - `subscriptions`: a SaaS subscription book (plans, MRR, seats, churn),
 *   malloydata/publisher, examples/html-data-app/subscriptions.malloy at
 *   commit 446baf1de73178bab41c29004c1f9464d5416e70, with its `#(doc)`
 *   lines and tags; columns as its `accounts` view selects them;
 * - `ai_cpm`: an AI-assistant usage tracker beside advertising CPM
 *   benchmarks, rodbrathwaite79/cpm-malloy-model, index.malloy at commit
 *   12ed48f315f73eca77e14a23e0ab1d9b05704264; the interactions table's
 *   columns as the same repository's ai_tracker.malloy (commit
 *   58e01dddc33aa16189e93c723cf75258d639a82e) selects them, the
 *   benchmarks' as index.malloy's views name them.
 *
 * Kept as the models write them: source, field, measure and view names,
 * joins, extends, docs and tags. Listed values stand for what a run
 * indexes; they are plausible (the synthetic cellars, the repositories'
 * conventional-commit types, the generated subscriptions and the trackers'
 * providers are not all in the snapshots), not exhaustive.
 *
 * Simplified: array columns (issues' labels and assignees, pull requests'
 * requested_reviewers, releases' pr_numbers, commits' parents,
 * coauthor_emails and signed_off_by) are left out, as the schema has no
 * array type; the views reading them keep their names. Nested views
 * and `having:` clauses are not represented beyond the view's name. Fields of a join's join are reachable in queries but not
 * listed on the joining source (one level), as with every set.
 *
 * Written with their questions (test/eval/heldout10_questions.ts) and
 * expected shapes (test/eval/shapes/heldout10.ts) blind: without reading
 * the retrieval code or any of its output, and committed before any score
 * was run on them.
 * @module
 */
import { evalPackage, type EvalPackage } from "./schema.ts";

const CELLAR_KEYS = "veteran; diarist; newcomer";
const WINE_TYPES = "Red; White; White - Sparkling; Rosé; Rosé - Sparkling; White - Sweet/Dessert; Red - Fortified";
const WINE_COUNTRIES = "France; USA; Italy; Spain; Germany; Portugal; Australia; Austria";
const WINE_REGIONS = "Bordeaux; Burgundy; Champagne; Rhône; Loire Valley; Alsace; California; Oregon; Washington; Piedmont; Tuscany; Rioja; " +
  "Mosel; Douro; South Australia; Wachau";
const SUB_REGIONS = "Côte de Nuits; Côte de Beaune; Médoc; Napa Valley; Sonoma County; Willamette Valley; Montagne de Reims; Côte des Blancs; " +
  "Langhe; Northern Rhône; Southern Rhône; Vallée de la Marne";
const VARIETALS = "Pinot Noir; Chardonnay; Cabernet Sauvignon; Red Bordeaux Blend; Champagne Blend; Nebbiolo; Syrah; Riesling; Sangiovese; " +
  "Grenache Blend; Zinfandel; Chenin Blanc; Tempranillo; Port Blend; Grüner Veltliner";
const MASTER_VARIETALS = "Pinot Noir; Chardonnay; Cabernet Sauvignon; Champagne Blend; Nebbiolo; Syrah; Riesling; Sangiovese; Grenache; Tempranillo";
const SIZES = "750ml; 1.5L; 375ml; 3.0L";
const STORES = "Wine.com; K&L Wine Merchants; Zachys; Acker Merchants; Hart Davis Hart; Winery mailing list; Total Wine; Flatiron Wines; " +
  "Chambers Street Wines; Benchmark Wine Group";
const LOCATIONS = "Cellar; Basement rack; Wine fridge; Off-site storage; Kitchen";
const STATUSES = "In cellar; Drunk; Sold; Given away; Lost; Flawed";
const STYLES = "Sparkling; Red; White; Rosé; Other";
const PRICE_BANDS = "Under $25; $25–50; $50–100; $100–250; $250–500; $500+";

/** The wine columns every CellarTracker-shaped table carries. */
const WINE_COLUMNS = ["vintage n", "is_non_vintage b", "wine s", "producer s", `wine_type s = ${WINE_TYPES}`, `varietal s = ${VARIETALS}`,
  "designation s", "vineyard s", `country s = ${WINE_COUNTRIES}`, `region s = ${WINE_REGIONS}`, `sub_region s = ${SUB_REGIONS}`, "appellation s"];

const CELLAR: EvalPackage = evalPackage("cellar", "cellar.malloy", undefined, {
  cellars_table: {
    fields: [`cellar s = ${CELLAR_KEYS}`, "cellar_name s = The Auction Veteran; The Allocation Diarist; The Champagne Newcomer", "cellar_blurb s"],
  },
  wines_table: { fields: ["wine_id n", ...WINE_COLUMNS] },
  notes_table: {
    fields: [`cellar s = ${CELLAR_KEYS}`, "note_id n", "wine_id n", "tasting_date d", "rating n", "tasting_note s", "defective b", "event_id n",
      "event_title s", "event_date d", "event_location s", ...WINE_COLUMNS, `master_varietal s = ${MASTER_VARIETALS}`],
  },
  purchases_table: {
    fields: [`cellar s = ${CELLAR_KEYS}`, "purchase_id n", "wine_id n", "purchase_date d", "delivery_date d", `store_name s = ${STORES}`,
      "order_number s", "delivered b", "bottle_price n", "quantity n", "remaining n", "lot_cost n", `bottle_size s = ${SIZES}`, ...WINE_COLUMNS,
      "color s = Red; White; Rosé", "category s = Dry; Sparkling; Sweet/Dessert; Fortified", `master_varietal s = ${MASTER_VARIETALS}`],
  },
  bottles_table: {
    fields: ["bottle_key s", `cellar s = ${CELLAR_KEYS}`, "wine_id n", `status s = ${STATUSES}`, "in_cellar b", "purchase_date d",
      `store_name s = ${STORES}`, "order_number s", "exit_date d", "occasion s", "revenue n", "bottle_price n", `bottle_size s = ${SIZES}`,
      `location s = ${LOCATIONS}`, "bin s", "bottle_note s", ...WINE_COLUMNS],
  },
  cellars: { extends: "cellars_table", fields: [] },
  wines: { extends: "wines_table", fields: [] },
  tasting_notes: {
    extends: "notes_table",
    joins: { owner: "cellars" },
    fields: [`style s = ${STYLES}`, "vintage_label s", "is_event b",
      "score_band s = Outstanding (95+); Excellent (93–94); Very good (90–92); Good (87–89); Ordinary (<87)",
      "note_count m", "avg_rating m", "best_rating m", "rated_wine_count m", "event_count m",
      "by_producer v", "by_region v", "ratings_over_time v", "score_distribution v", "highest_rated v", "recent_notes v", "tastings v"],
  },
  bottles: {
    extends: "bottles_table",
    joins: { owner: "cellars", notes: "tasting_notes" },
    fields: ["shelf s", `style s = ${STYLES}`, "vintage_label s", "bottle_age n", "years_held n", "age_when_opened n", `price_band s = ${PRICE_BANDS}`,
      "price_band_rank n",
      "bottle_count m", "on_hand m", "cellar_value m", "avg_bottle_price m", "dearest_bottle m", "magnums m", "drunk m", "value_drunk m",
      "avg_price_drunk m", "sold m", "sale_revenue m", "lost m", "given_away m", "wine_count m", "wines_on_hand m", "producer_count m",
      "region_count m", "rating m", "note_count m",
      "by_region v", "by_style v", "by_producer v", "by_country v", "by_vintage v", "by_price_band v", "by_location v", "by_size v",
      "deep_holdings v", "last_bottles v", "never_tasted v", "oldest_on_hand v", "drinking_by_year v", "drinking_by_month v", "by_status v",
      "drunk_by_region v", "drunk_by_producer v", "by_weekday v", "recent_pours v", "holding_time v"],
  },
  purchases: {
    extends: "purchases_table",
    joins: { owner: "cellars" },
    fields: [`style s = ${STYLES}`, "vintage_label s", "days_to_delivery n", `price_band s = ${PRICE_BANDS}`,
      "lot_count m", "bottles_bought m", "total_spend m", "avg_bottle_price m", "dearest_bottle m", "order_count m", "store_count m", "wine_count m",
      "undelivered_bottles m", "undelivered_value m", "avg_days_to_delivery m",
      "spend_by_year v", "spend_by_month v", "by_store v", "by_region v", "by_style v", "region_mix_by_year v", "seasonality v", "in_transit v",
      "recent_orders v", "biggest_lots v"],
  },
});

const REPOS = "malloydata/malloy; malloydata/malloy-vscode-extension; malloydata/malloyyo";
const COMMIT_TYPES = "feat; fix; chore; docs; refactor; test; ci; build; perf; style";

const GITHUB_HISTORY: EvalPackage = evalPackage("github_history", "index.malloy", undefined, {
  identities: {
    doc: "Git author emails, each resolved to a GitHub login where that was possible. One person usually commits under several addresses; " +
      "`person` is the name to group by, and `match_source`/`confidence` say how the login was established.",
    fields: ["email s", "name s", "login s", "match_source s = noreply-address; squash-merge; name-match; unmatched", "confidence n",
      "evidence_commits n", "competing_logins n", "commits n", "first_commit_at t", "last_commit_at t", "is_bot b",
      "person s | The login where we have one, otherwise the name they commit under.", "is_identified b",
      "address_count m", "commits_from_address m | Commits made from this address."],
  },
  issues: {
    doc: "Issues (not pull requests) filed on any of the repos, with body and labels.",
    fields: [`repo s = ${REPOS}`, "issue_number n", "title s", "body s", "state s = open; closed", "author_login s", "author_id n", "author_is_bot b",
      "label_count n", "comment_count n", "created_at t", "updated_at t", "closed_at t", "state_reason s = completed; not_planned; reopened",
      "milestone s", "title_length n", "body_length n", "has_body b", "url s",
      "is_open b", "is_unanswered b | Filed and never replied to.",
      "issue_count m", "open_issues m", "unanswered m", "reporters m | Distinct people who filed issues.", "avg_comments m",
      "by_label v | Issue volume by label. Unlabelled issues group under null.",
      "opened_by_month v | Issues filed per month, and how many of them are still open.", "top_reporters v | Who files the most issues."],
  },
  pull_requests: {
    doc: "Pull requests across the repos. Diff sizes are NOT here -- the list API omits them; join through `commits.pr` for the lines a PR " +
      "actually changed.",
    fields: [`repo s = ${REPOS}`, "pr_number n", "title s", "body s", "state s = open; closed", "is_draft b", "is_merged b", "author_login s",
      "author_id n", "author_is_bot b", "label_count n", "created_at t", "updated_at t", "closed_at t", "merged_at t", "base_ref s = main; master",
      "base_sha s", "head_ref s", "head_sha s", "head_repo s", "from_fork b", "title_length n", "body_length n", "url s",
      "is_open b", "hours_to_merge n | Hours from opening to merge; null for one that never landed.", "hours_to_close n",
      "outcome s | merged / open / closed unmerged. = merged; open; closed unmerged",
      "pr_count m", "merged_prs m", "merge_rate m", "fork_prs m", "authors m", "avg_hours_to_merge m",
      "by_author v | Who opens pull requests, and how often they land.", "merged_by_month v | Merge volume and turnaround per month.",
      "outside_contributions v | Contributions arriving from forks -- the outside-contributor signal."],
  },
  releases: {
    doc: "Published GitHub releases. `pr_numbers` is pulled out of the release notes, so a release can be joined to the pull requests it shipped.",
    fields: [`repo s = ${REPOS}`, "id n", "tag_name s", "name s", "body s", "major n", "minor n", "patch n", "published_at t", "is_prerelease b",
      "is_draft b", "author_login s", "author_is_bot b", "body_length n", "url s",
      "release_count m", "prs_shipped m | Pull requests named in the release notes.", "cadence v | Releases per month."],
  },
  tags: {
    doc: "Every git tag, annotated or not, with the version parsed out of its name.",
    fields: [`repo s = ${REPOS}`, "tag s", "sha s", "is_annotated b", "tagged_at t", "tagger_name s", "tagger_email s", "subject s", "version s",
      "tag_count m", "by_month v"],
  },
  commit_files: {
    doc: "One row per file touched by a commit, with that file's share of the diff.",
    fields: [`repo s = ${REPOS}`, "sha s", "path s", "old_path s", "is_rename b", "top_dir s = packages; test; docs; src; scripts; .github; demo",
      "directory s", "file_name s", "extension s = .ts; .tsx; .md; .json; .malloy; .py; .yml; .js; .sql; .css; .g4",
      "is_test b", "is_docs b", "insertions n", "deletions n", "is_binary b", "authored_at t", "author_email s",
      "area s | Tests and docs first, then the top-level directory. = tests; docs; (root); packages; src; scripts; .github; demo", "churn n",
      "file_changes m", "files_touched m | Distinct files, as opposed to the number of times they were touched.", "lines_added m", "lines_removed m",
      "churn_total m", "hottest_files v | The files that change most often.", "by_extension v | Which file types the work goes into."],
  },
  commits: {
    doc: "Every commit on every ref of every repo, with its diffstat, the pull request it landed through, and the person who wrote it.",
    joins: { person: "identities", pr: "pull_requests", files: "commit_files" },
    fields: [`repo s = ${REPOS}`, "sha s", "short_sha s", "tree s", "parent_count n", "is_merge b", "is_root b", "on_default_branch b",
      "default_branch_ref s = origin/main; origin/master; HEAD", "author_name s", "author_email s", "authored_at t", "committer_name s",
      "committer_email s", "committed_at t", "subject s", "body s", "message_lines n", "pr_number n", `commit_type s = ${COMMIT_TYPES}`,
      "commit_scope s", "is_breaking b", "coauthor_count n", "is_claude_assisted b", "files_changed n", "insertions n", "deletions n",
      "net_lines n", "binary_files n",
      `kind s | Conventional-commit type, where the author used one. = ${COMMIT_TYPES}; untyped`, "change_size s = tiny; small; medium; large",
      "landed_via_pr b",
      "commit_count m", "committers m | Distinct commit-author addresses (see identities for people).", "lines_added m", "lines_removed m",
      "net_line_change m", "total_files_changed m", "merge_commits m", "claude_assisted m | Commits carrying a Claude co-author trailer.",
      "by_month v | Commit and line volume per month.", "top_contributors v | Who writes the code, with their addresses folded together.",
      "by_kind v | Conventional-commit type mix.", "hot_areas v | Where the churn lands, across tests, docs and the top-level directories.",
      "merged_pr_sizes v | Merged pull requests with the diff the API does not give you: PR metadata on the left, the real size of what " +
        "landed on the right."],
  },
});

const SUBSCRIPTIONS: EvalPackage = evalPackage("subscriptions", "subscriptions.malloy", undefined, {
  subscriptions: {
    fields: ["subscription_id n", "account_name s", "plan s = Starter; Growth; Pro; Enterprise",
      "industry s = Software; Financial Services; Healthcare; Retail; Education; Manufacturing; Media; Logistics",
      "country s = United States; United Kingdom; Germany; Canada; France; Australia; Netherlands; Japan; India; Brazil",
      "seats n", "mrr n", "status s = Active; Trial; Churned", "started_at d",
      "account_count m | Distinct accounts", "active_count m | Active subscriptions", "churned_count m | Churned subscriptions",
      "active_mrr m | Monthly recurring revenue from active subscriptions # currency",
      "new_mrr m | New MRR booked (sum of MRR for subscriptions that started in scope) # currency",
      "avg_mrr m | Average MRR per active account # currency", "total_seats m | Seats sold on active subscriptions",
      "churn_rate m | Share of accounts that have churned # percent",
      "kpis v | KPI tiles: active MRR, active subscriptions, and churn rate # big_value",
      "mrr_by_month v | New MRR by signup month # line_chart", "plan_mix v | Account mix by plan # bar_chart",
      "mrr_by_plan v | Active MRR by plan # bar_chart", "mrr_by_industry v | Active MRR by industry # bar_chart",
      "mrr_by_country v | Active MRR by country # bar_chart", "accounts v | Account detail rows",
      "overview v | Overview dashboard: KPIs, MRR trend, and plan mix # dashboard { columns=2 }"],
  },
});

const AI_CPM: EvalPackage = evalPackage("ai_cpm", "index.malloy", undefined, {
  interactions: {
    fields: ["id n", "project s = cpm-benchmarks; guild-agent; client-portal; internal-tools", "provider s = Anthropic; OpenAI; Google; Cursor; GitHub",
      "tool s = Claude Code; Claude.ai; ChatGPT; Gemini; Cursor; Copilot",
      "task_type s = coding; debugging; writing; research; data analysis; design; documentation; planning",
      "description s", "hours_estimate n", "value_usd n", "first_pass b", "corrections n", "cost_model s = subscription; free; api; per-seat",
      "cost_usd n", "session_id s", "created_at t",
      "month_year s",
      "total_tasks m", "total_hours m", "total_value_usd m", "total_cost_usd m", "total_corrections m", "first_pass_pct m", "roi_multiple m",
      "roi_by_provider v", "quality_by_task_type v", "value_trend v", "summary v"],
  },
  cpm_benchmarks: {
    fields: ["channel s = meta; google_search; google_display; youtube; tiktok; linkedin; x; pinterest; ctv; programmatic",
      "channel_label s = Meta (Facebook/Instagram); Google Search; Google Display Network; YouTube; TikTok; LinkedIn; X (Twitter); Pinterest; " +
        "Connected TV; Programmatic Display",
      "year n", "month n", "month_name s = January; February; March; April; May; June; July; August; September; October; November; December",
      "cpm n", "period s", "period_sort n",
      "avg_cpm m", "min_cpm m", "max_cpm m", "record_count m",
      "by_channel_month v", "annual_by_channel v", "blended_monthly v", "channel_ranking v", "seasonal_pattern v", "yoy_comparison v"],
  },
});

/** All packages of the tenth held-out set. */
export const HELDOUT10_PACKAGES: EvalPackage[] = [CELLAR, GITHUB_HISTORY, SUBSCRIPTIONS, AI_CPM];
