/**
 * Expected shapes of the first next step for the fourth held-out set
 * (test/eval/heldout4_questions.ts), format of test/eval/shape_format.ts.
 * Written from the questions and test/eval/heldout4_packages.ts only, before
 * any next_steps output was seen.
 * @module
 */

/** Shapes of every question of the set. */
export const HELDOUT4 = `
adventureworks | shipping charge on an order | field: salesorderheader.Freight || measure: sum(salesorderheader.Freight)|avg(salesorderheader.Freight)
adventureworks | levy on the sale | field: salesorderheader.TaxAmt || measure: sum(salesorderheader.TaxAmt)
adventureworks | full amount the buyer has to pay | field: salesorderheader.TotalDue || measure: salesorderheader.total_sales
adventureworks | purchases placed through the website | measure: salesorderheader.online_order_share || field: salesorderheader.OnlineOrderFlag || source: salesorderheader; filter: salesorderheader.OnlineOrderFlag=true || measure: salesorderheader.order_count|salesorderheader.total_sales|count(salesorderheader); filter: salesorderheader.OnlineOrderFlag=true
adventureworks | how many pieces on each line | field: salesorderdetail.OrderQty
adventureworks | markdown given on each item | field: salesorderdetail.UnitPriceDiscount || measure: salesorderdetail.avg_unit_discount
adventureworks | courier's parcel reference | field: salesorderdetail.CarrierTrackingNumber
adventureworks | what we spend to build one unit | field: product.StandardCost
adventureworks | catalogue amount for a bicycle | field: product.ListPrice || measure: product.avg_list_price
adventureworks | do we build it ourselves or buy it from a vendor | field: product.MakeFlag
adventureworks | minimum inventory before we restock | field: product.ReorderPoint|product.SafetyStockLevel
adventureworks | lead time to produce an item | field: product.DaysToManufacture
adventureworks | kind of riding the bike is built for | field: product.ProductLine
adventureworks | who the apparel is designed for | field: product.Style
adventureworks | quality tier | field: product.Class
adventureworks | what hue is the frame | field: product.Color
adventureworks | when it was pulled from the catalogue | field: product.SellEndDate|product.DiscontinuedDate
adventureworks | role of a staff member | field: employee.JobTitle || view: employee.headcount_by_title
adventureworks | married or single | field: employee.MaritalStatus
adventureworks | when staff joined the company | field: employee.HireDate
adventureworks | paid time off left | field: employee.VacationHours
adventureworks | days off for illness | field: employee.SickLeaveHours
adventureworks | still works here | field: employee.CurrentFlag
adventureworks | on a wage rather than hourly | field: employee.SalariedFlag
adventureworks | what staff earn | field: employeepayhistory.Rate || measure: employeepayhistory.avg_rate
adventureworks | revenue goal assigned to each rep | field: salesperson.SalesQuota || measure: salesperson.total_quota; group: salesperson.BusinessEntityID|employee.BusinessEntityID|person.LastName|person.FirstName|employee.LoginID
adventureworks | cut a rep gets on each deal | field: salesperson.CommissionPct
adventureworks | extra pay for hitting targets | field: salesperson.Bonus
adventureworks | takings so far this fiscal period in each region | field: salesterritory.SalesYTD || measure: sum(salesterritory.SalesYTD)|sum(salesperson.SalesYTD); group: salesterritory.Name
adventureworks | continent a region belongs to | field: salesterritory.Group
adventureworks | best-selling items | view: salesorderdetail.top_products || measure: salesorderdetail.units_sold|salesorderdetail.line_revenue; group: product.Name|salesorderdetail.ProductID; top
adventureworks | typical basket size in dollars | measure: salesorderheader.avg_order_value|avg(salesorderheader.TotalDue)
adventureworks | seasonality of purchases | view: salesorderheader.orders_by_month || measure: salesorderheader.order_count|salesorderheader.total_sales|count(salesorderheader); group: salesorderheader.OrderDate@month|salesorderheader.OrderDate@month_of_year|salesorderheader.OrderDate@quarter|salesorderheader.OrderDate@quarter_of_year
adventureworks | day or night crew | field: employeedepartmenthistory.ShiftID
adventureworks | date the order was placed | field: salesorderheader.OrderDate
adventureworks | tax amount on an order | field: salesorderheader.TaxAmt
adventureworks | list price of a product | field: product.ListPrice
adventureworks | employee birth date | field: employee.BirthDate
adventureworks | commission percentage of salespeople | field: salesperson.CommissionPct
adventureworks | orders shipped by cargo transport | source: salesorderheader; filter: shipmethod.Name=CARGO TRANSPORT 5 || measure: salesorderheader.order_count|count(salesorderheader); filter: shipmethod.Name=CARGO TRANSPORT 5
adventureworks | black products | source: product; filter: product.Color=Black || measure: product.product_count|count(product); filter: product.Color=Black
adventureworks | sales in the Southwest territory | measure: salesorderheader.total_sales|salesorderheader.order_count|sum(salesorderheader.TotalDue)|count(salesorderheader); filter: salesterritory.Name=Southwest
adventureworks | European territories | source: salesterritory; filter: salesterritory.Group=Europe
adventureworks | mountain bikes | source: product; filter: productsubcategory.Name=Mountain Bikes || measure: product.product_count|count(product); filter: productsubcategory.Name=Mountain Bikes
adventureworks | employees in engineering | source: employeedepartmenthistory; filter: department.Name=Engineering || measure: employee.headcount|count(employee); filter: department.Name=Engineering
adventureworks | product name | field: product.Name
adventureworks | order date | field: salesorderheader.OrderDate
adventureworks | total amount | field: salesorderheader.TotalDue|salesorderdetail.LineTotal || measure: salesorderheader.total_sales|salesorderdetail.line_revenue
adventureworks | number of orders | measure: salesorderheader.order_count|count(salesorderheader)
adventureworks | territory of each order | source: salesorderheader; field: salesterritory.Name
adventureworks | product category of order lines | source: salesorderdetail; field: productcategory.Name
adventureworks | department of an employee | source: employeedepartmenthistory; field: department.Name
adventureworks | how many employees | measure: employee.headcount|count(employee)
adventureworks | sales by territory | view: salesorderheader.sales_by_territory || measure: salesorderheader.total_sales|sum(salesorderheader.TotalDue); group: salesterritory.Name|salesorderheader.TerritoryID
adventureworks | average order value | measure: salesorderheader.avg_order_value|avg(salesorderheader.TotalDue)
adventureworks | top products | view: salesorderdetail.top_products || measure: salesorderdetail.units_sold|salesorderdetail.line_revenue; group: product.Name|salesorderdetail.ProductID; top
formula1 | where the driver lined up before lights out | field: results.grid
formula1 | finishing place in a race | field: results.position|results.positionOrder|results.positionText
formula1 | championship tally from a race | field: results.points || measure: results.total_points
formula1 | how many times around the track | field: results.laps
formula1 | quickest tour of the track in a race | field: results.fastestLapTime|results.fastestLap || measure: lap_times.best_lap_ms
formula1 | cars that didn't make it to the flag | measure: results.dnf_count || field: status.status
formula1 | why the car stopped | field: status.status|results.statusId
formula1 | victories | measure: results.win_count || field: driver_standings.wins
formula1 | top-three finishes | measure: results.podium_count
formula1 | where drivers usually line up | measure: results.avg_grid|avg(results.grid) || field: results.grid
formula1 | tyre changes | measure: pit_stops.stop_count || field: pit_stops.stop
formula1 | how long the crew took to service the car | field: pit_stops.duration|pit_stops.milliseconds || measure: pit_stops.avg_stop_seconds
formula1 | Saturday time trials | source: qualifying
formula1 | times lining up at the very front | measure: qualifying.pole_count
formula1 | how old is the racer | field: drivers.dob
formula1 | which country a racer comes from | field: drivers.nationality
formula1 | three-letter abbreviation on the timing screen | field: drivers.code
formula1 | digits painted on the car | field: drivers.number|results.number|qualifying.number
formula1 | given name of a racer | field: drivers.forename
formula1 | family name of a racer | field: drivers.surname
formula1 | which team built the car | field: constructors.name
formula1 | team standings | view: results.constructor_leaderboard || measure: results.total_points; group: constructors.name|results.constructorId
formula1 | who leads the title fight | view: results.driver_leaderboard || measure: results.total_points; group: drivers.surname|drivers.forename|drivers.driverRef|results.driverId; top || field: driver_standings.points|driver_standings.position
formula1 | elevation of the venue | field: circuits.alt
formula1 | map coordinates of the venue | field: circuits.lat, circuits.lng
formula1 | town the track is in | field: circuits.location
formula1 | which weekend of the season | field: races.round
formula1 | calendar per season | view: races.races_by_year || measure: races.race_count|count(races); group: races.year || field: races.name|races.date, races.year
formula1 | gap to the winner | field: results.time|results.milliseconds
formula1 | running order on each tour of the track | field: lap_times.position
formula1 | starting grid position | field: results.grid
formula1 | speed of the quickest lap | field: results.fastestLapSpeed
formula1 | driver date of birth | field: drivers.dob
formula1 | number of pole positions | measure: qualifying.pole_count
formula1 | circuit altitude | field: circuits.alt
formula1 | Ferrari results | source: results; filter: constructors.name=Ferrari || measure: results.total_points|results.win_count|results.podium_count; filter: constructors.name=Ferrari
formula1 | British drivers | source: drivers; filter: drivers.nationality=British || measure: drivers.driver_count|count(drivers); filter: drivers.nationality=British
formula1 | engine failures | source: results; filter: status.status=Engine || measure: results.dnf_count; filter: status.status=Engine
formula1 | Monaco Grand Prix | filter: races.name=Monaco Grand Prix; source: races|results|qualifying|pit_stops|lap_times|driver_standings
formula1 | races held in Italy | source: races; filter: circuits.country=Italy || measure: races.race_count|count(races); filter: circuits.country=Italy
formula1 | driver name | field: drivers.forename|drivers.surname|drivers.driverRef
formula1 | race date | field: races.date
formula1 | points | field: results.points|driver_standings.points || measure: results.total_points
formula1 | lap time | field: lap_times.time|lap_times.milliseconds|results.fastestLapTime || measure: lap_times.best_lap_ms
formula1 | circuit country of each result | source: results; field: circuits.country
formula1 | nationality of pole sitters | source: qualifying; field: drivers.nationality; filter: qualifying.position=1 || measure: qualifying.pole_count; group: drivers.nationality
formula1 | team name in qualifying | source: qualifying; field: constructors.name
formula1 | how many races | measure: races.race_count|count(races)
formula1 | driver leaderboard | view: results.driver_leaderboard || measure: results.total_points|results.win_count; group: drivers.surname|drivers.forename|drivers.driverRef|results.driverId; top
formula1 | total points | measure: results.total_points|sum(results.points)
formula1 | races by year | view: races.races_by_year || measure: races.race_count|count(races); group: races.year|races.date@year
lendingclub | how much the borrower asked for | field: loans.loan_amnt
lendingclub | cost of borrowing | field: loans.int_rate || measure: loans.avg_int_rate
lendingclub | monthly payment | field: loans.installment
lendingclub | how long to pay it back | field: loans.term
lendingclub | credit quality bucket | field: loans.grade|loans.sub_grade || view: loans.loans_by_grade
lendingclub | borrower's job | field: loans.emp_title
lendingclub | years at current employer | field: loans.emp_length
lendingclub | renter or homeowner | field: loans.home_ownership
lendingclub | yearly earnings | field: loans.annual_inc
lendingclub | was the income checked | field: loans.verification_status
lendingclub | what the money is for | field: loans.purpose || view: loans.loans_by_purpose
lendingclub | where the borrower lives | field: loans.addr_state|loans.zip_code
lendingclub | how stretched the borrower's budget is | field: loans.dti || measure: loans.avg_dti
lendingclub | missed payments recently | field: loans.delinq_2yrs
lendingclub | how long they've had credit | field: loans.earliest_cr_line
lendingclub | recent credit checks | field: loans.inq_last_6mths
lendingclub | court judgments and liens | field: loans.pub_rec|loans.pub_rec_bankruptcies
lendingclub | revolving debt owed | field: loans.revol_bal
lendingclub | how maxed out their cards are | field: loans.revol_util
lendingclub | principal still owed | field: loans.out_prncp || measure: sum(loans.out_prncp)
lendingclub | interest collected so far | field: loans.total_rec_int || measure: sum(loans.total_rec_int)
lendingclub | cash clawed back from bad debts | field: loans.recoveries || measure: sum(loans.recoveries)
lendingclub | borrowers who never paid back | measure: loans.default_rate || source: loans; filter: loans.loan_status=Charged Off|loans.loan_status=Default || measure: loans.loan_count|count(loans); filter: loans.loan_status=Charged Off|loans.loan_status=Default
lendingclub | when the money went out | field: loans.issue_d
lendingclub | size of the latest repayment | field: loans.last_pymnt_amnt
lendingclub | single or co-borrowers | field: loans.application_type
lendingclub | what investors put in | field: loans.funded_amnt_inv || measure: sum(loans.funded_amnt_inv)
lendingclub | lending volume by risk tier | view: loans.loans_by_grade || measure: loans.total_funded|loans.loan_count|sum(loans.loan_amnt)|count(loans); group: loans.grade|loans.sub_grade
lendingclub | what people borrow for most | view: loans.loans_by_purpose || measure: loans.loan_count|loans.total_funded|count(loans); group: loans.purpose; top
lendingclub | credit score | field: loans.fico_range_low|loans.fico_range_high
lendingclub | interest rate on the loan | field: loans.int_rate
lendingclub | loan amount requested | field: loans.loan_amnt
lendingclub | annual income of the borrower | field: loans.annual_inc
lendingclub | debt to income ratio | field: loans.dti || measure: loans.avg_dti
lendingclub | employment length | field: loans.emp_length
lendingclub | charged off loans | source: loans; filter: loans.loan_status=Charged Off || measure: loans.loan_count|loans.total_funded|count(loans); filter: loans.loan_status=Charged Off
lendingclub | loans for debt consolidation | source: loans; filter: loans.purpose=debt_consolidation || measure: loans.loan_count|loans.total_funded|count(loans); filter: loans.purpose=debt_consolidation
lendingclub | 60 month loans | source: loans; filter: loans.term=60 months || measure: loans.loan_count|loans.total_funded|count(loans); filter: loans.term=60 months
lendingclub | grade A loans | source: loans; filter: loans.grade=A || measure: loans.loan_count|loans.total_funded|count(loans); filter: loans.grade=A
lendingclub | borrowers who rent | source: loans; filter: loans.home_ownership=RENT || measure: loans.loan_count|count(loans); filter: loans.home_ownership=RENT
lendingclub | joint applications | source: loans; filter: loans.application_type=Joint App || measure: loans.loan_count|count(loans); filter: loans.application_type=Joint App
lendingclub | loan amount | field: loans.loan_amnt|loans.funded_amnt|loans.funded_amnt_inv || measure: loans.total_funded|sum(loans.loan_amnt)
lendingclub | status | field: loans.loan_status|loans.verification_status
lendingclub | issue date | field: loans.issue_d
lendingclub | how many loans | measure: loans.loan_count|count(loans)
lendingclub | loans by grade | view: loans.loans_by_grade || measure: loans.loan_count|loans.total_funded|count(loans); group: loans.grade
lendingclub | average interest rate | measure: loans.avg_int_rate|avg(loans.int_rate)
lendingclub | monthly issuance | view: loans.issuance_by_month || measure: loans.loan_count|loans.total_funded|sum(loans.loan_amnt)|count(loans); group: loans.issue_d@month
`;
