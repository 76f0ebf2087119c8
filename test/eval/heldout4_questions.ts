/**
 * The fourth held-out set's questions (models in
 * test/eval/heldout4_packages.ts), written as users would ask them and
 * committed before any score was run on them. Same line format and
 * categories as test/eval/questions.ts; `noword` questions share no word
 * (after stemming) with the target's name, doc or label. Never tuned on.
 * @module
 */
import { parseQuestions, type EvalQuestion } from "./questions.ts";

const RAW = `
noword | adventureworks | shipping charge on an order | salesorderheader.Freight
noword | adventureworks | levy on the sale | salesorderheader.TaxAmt
noword | adventureworks | full amount the buyer has to pay | salesorderheader.TotalDue || salesorderheader.total_sales
noword | adventureworks | purchases placed through the website | salesorderheader.OnlineOrderFlag || salesorderheader.online_order_share
noword | adventureworks | how many pieces on each line | salesorderdetail.OrderQty
noword | adventureworks | markdown given on each item | salesorderdetail.UnitPriceDiscount || salesorderdetail.avg_unit_discount
noword | adventureworks | courier's parcel reference | salesorderdetail.CarrierTrackingNumber
noword | adventureworks | what we spend to build one unit | product.StandardCost
noword | adventureworks | catalogue amount for a bicycle | product.ListPrice || product.avg_list_price
noword | adventureworks | do we build it ourselves or buy it from a vendor | product.MakeFlag
noword | adventureworks | minimum inventory before we restock | product.ReorderPoint || product.SafetyStockLevel
noword | adventureworks | lead time to produce an item | product.DaysToManufacture
noword | adventureworks | kind of riding the bike is built for | product.ProductLine
noword | adventureworks | who the apparel is designed for | product.Style
noword | adventureworks | quality tier | product.Class
noword | adventureworks | what hue is the frame | product.Color
noword | adventureworks | when it was pulled from the catalogue | product.SellEndDate || product.DiscontinuedDate
noword | adventureworks | role of a staff member | employee.JobTitle || employee.headcount_by_title
noword | adventureworks | married or single | employee.MaritalStatus
noword | adventureworks | when staff joined the company | employee.HireDate
noword | adventureworks | paid time off left | employee.VacationHours
noword | adventureworks | days off for illness | employee.SickLeaveHours
noword | adventureworks | still works here | employee.CurrentFlag
noword | adventureworks | on a wage rather than hourly | employee.SalariedFlag
noword | adventureworks | what staff earn | employeepayhistory.Rate || employeepayhistory.avg_rate
noword | adventureworks | revenue goal assigned to each rep | salesperson.SalesQuota || salesperson.total_quota
noword | adventureworks | cut a rep gets on each deal | salesperson.CommissionPct
noword | adventureworks | extra pay for hitting targets | salesperson.Bonus
noword | adventureworks | takings so far this fiscal period in each region | salesterritory.SalesYTD || salesperson.SalesYTD
noword | adventureworks | continent a region belongs to | salesterritory.Group
noword | adventureworks | best-selling items | salesorderdetail.top_products || salesorderdetail.units_sold
noword | adventureworks | typical basket size in dollars | salesorderheader.avg_order_value
noword | adventureworks | seasonality of purchases | salesorderheader.orders_by_month
noword | adventureworks | day or night crew | employeedepartmenthistory.ShiftID
syn | adventureworks | date the order was placed | salesorderheader.OrderDate
syn | adventureworks | tax amount on an order | salesorderheader.TaxAmt
syn | adventureworks | list price of a product | product.ListPrice
syn | adventureworks | employee birth date | employee.BirthDate
syn | adventureworks | commission percentage of salespeople | salesperson.CommissionPct
value | adventureworks | orders shipped by cargo transport | shipmethod.Name=CARGO TRANSPORT 5
value | adventureworks | black products | product.Color=Black
value | adventureworks | sales in the Southwest territory | salesterritory.Name=Southwest
value | adventureworks | European territories | salesterritory.Group=Europe
value | adventureworks | mountain bikes | productsubcategory.Name=Mountain Bikes
value | adventureworks | employees in engineering | department.Name=Engineering
trap | adventureworks | product name | product.Name
trap | adventureworks | order date | salesorderheader.OrderDate
trap | adventureworks | total amount | salesorderheader.TotalDue || salesorderheader.total_sales || salesorderdetail.LineTotal
trap | adventureworks | number of orders | salesorderheader.order_count
join | adventureworks | territory of each order | salesterritory.Name
join | adventureworks | product category of order lines | productcategory.Name
join | adventureworks | department of an employee | department.Name
kind | adventureworks | how many employees | employee.headcount
kind | adventureworks | sales by territory | salesorderheader.sales_by_territory
kind | adventureworks | average order value | salesorderheader.avg_order_value
kind | adventureworks | top products | salesorderdetail.top_products
noword | formula1 | where the driver lined up before lights out | results.grid
noword | formula1 | finishing place in a race | results.position || results.positionOrder || results.positionText
noword | formula1 | championship tally from a race | results.points || results.total_points
noword | formula1 | how many times around the track | results.laps
noword | formula1 | quickest tour of the track in a race | results.fastestLapTime || results.fastestLap || lap_times.best_lap_ms
noword | formula1 | cars that didn't make it to the flag | results.dnf_count || status.status
noword | formula1 | why the car stopped | status.status || results.statusId
noword | formula1 | victories | results.win_count || driver_standings.wins
noword | formula1 | top-three finishes | results.podium_count
noword | formula1 | where drivers usually line up | results.avg_grid || results.grid
noword | formula1 | tyre changes | pit_stops.stop_count || pit_stops.stop
noword | formula1 | how long the crew took to service the car | pit_stops.duration || pit_stops.avg_stop_seconds || pit_stops.milliseconds
noword | formula1 | Saturday time trials | qualifying || qualifying.position || qualifying.q1 || qualifying.q2 || qualifying.q3
noword | formula1 | times lining up at the very front | qualifying.pole_count
noword | formula1 | how old is the racer | drivers.dob
noword | formula1 | which country a racer comes from | drivers.nationality
noword | formula1 | three-letter abbreviation on the timing screen | drivers.code
noword | formula1 | digits painted on the car | drivers.number || results.number || qualifying.number
noword | formula1 | given name of a racer | drivers.forename
noword | formula1 | family name of a racer | drivers.surname
noword | formula1 | which team built the car | constructors.name
noword | formula1 | team standings | results.constructor_leaderboard
noword | formula1 | who leads the title fight | results.driver_leaderboard || driver_standings.points || driver_standings.position
noword | formula1 | elevation of the venue | circuits.alt
noword | formula1 | map coordinates of the venue | circuits.lat || circuits.lng
noword | formula1 | town the track is in | circuits.location
noword | formula1 | which weekend of the season | races.round
noword | formula1 | calendar per season | races.races_by_year
noword | formula1 | gap to the winner | results.time || results.milliseconds
noword | formula1 | running order on each tour of the track | lap_times.position
syn | formula1 | starting grid position | results.grid
syn | formula1 | speed of the quickest lap | results.fastestLapSpeed
syn | formula1 | driver date of birth | drivers.dob
syn | formula1 | number of pole positions | qualifying.pole_count
syn | formula1 | circuit altitude | circuits.alt
value | formula1 | Ferrari results | constructors.name=Ferrari
value | formula1 | British drivers | drivers.nationality=British
value | formula1 | engine failures | status.status=Engine
value | formula1 | Monaco Grand Prix | races.name=Monaco Grand Prix
value | formula1 | races held in Italy | circuits.country=Italy
trap | formula1 | driver name | drivers.forename || drivers.surname || drivers.driverRef
trap | formula1 | race date | races.date
trap | formula1 | points | results.points || driver_standings.points || results.total_points
trap | formula1 | lap time | lap_times.time || lap_times.milliseconds || results.fastestLapTime
join | formula1 | circuit country of each result | circuits.country
join | formula1 | nationality of pole sitters | drivers.nationality
join | formula1 | team name in qualifying | constructors.name
kind | formula1 | how many races | races.race_count
kind | formula1 | driver leaderboard | results.driver_leaderboard
kind | formula1 | total points | results.total_points
kind | formula1 | races by year | races.races_by_year
noword | lendingclub | how much the borrower asked for | loans.loan_amnt
noword | lendingclub | cost of borrowing | loans.int_rate || loans.avg_int_rate
noword | lendingclub | monthly payment | loans.installment
noword | lendingclub | how long to pay it back | loans.term
noword | lendingclub | credit quality bucket | loans.grade || loans.sub_grade
noword | lendingclub | borrower's job | loans.emp_title
noword | lendingclub | years at current employer | loans.emp_length
noword | lendingclub | renter or homeowner | loans.home_ownership
noword | lendingclub | yearly earnings | loans.annual_inc
noword | lendingclub | was the income checked | loans.verification_status
noword | lendingclub | what the money is for | loans.purpose
noword | lendingclub | where the borrower lives | loans.addr_state || loans.zip_code
noword | lendingclub | how stretched the borrower's budget is | loans.dti || loans.avg_dti
noword | lendingclub | missed payments recently | loans.delinq_2yrs
noword | lendingclub | how long they've had credit | loans.earliest_cr_line
noword | lendingclub | recent credit checks | loans.inq_last_6mths
noword | lendingclub | court judgments and liens | loans.pub_rec || loans.pub_rec_bankruptcies
noword | lendingclub | revolving debt owed | loans.revol_bal
noword | lendingclub | how maxed out their cards are | loans.revol_util
noword | lendingclub | principal still owed | loans.out_prncp
noword | lendingclub | interest collected so far | loans.total_rec_int
noword | lendingclub | cash clawed back from bad debts | loans.recoveries
noword | lendingclub | borrowers who never paid back | loans.default_rate || loans.loan_status
noword | lendingclub | when the money went out | loans.issue_d
noword | lendingclub | size of the latest repayment | loans.last_pymnt_amnt
noword | lendingclub | single or co-borrowers | loans.application_type
noword | lendingclub | what investors put in | loans.funded_amnt_inv
noword | lendingclub | lending volume by risk tier | loans.loans_by_grade
noword | lendingclub | what people borrow for most | loans.loans_by_purpose || loans.purpose
noword | lendingclub | credit score | loans.fico_range_low || loans.fico_range_high
syn | lendingclub | interest rate on the loan | loans.int_rate
syn | lendingclub | loan amount requested | loans.loan_amnt
syn | lendingclub | annual income of the borrower | loans.annual_inc
syn | lendingclub | debt to income ratio | loans.dti
syn | lendingclub | employment length | loans.emp_length
value | lendingclub | charged off loans | loans.loan_status=Charged Off
value | lendingclub | loans for debt consolidation | loans.purpose=debt_consolidation
value | lendingclub | 60 month loans | loans.term=60 months
value | lendingclub | grade A loans | loans.grade=A
value | lendingclub | borrowers who rent | loans.home_ownership=RENT
value | lendingclub | joint applications | loans.application_type=Joint App
trap | lendingclub | loan amount | loans.loan_amnt || loans.funded_amnt || loans.funded_amnt_inv
trap | lendingclub | status | loans.loan_status || loans.verification_status
trap | lendingclub | issue date | loans.issue_d
kind | lendingclub | how many loans | loans.loan_count
kind | lendingclub | loans by grade | loans.loans_by_grade
kind | lendingclub | average interest rate | loans.avg_int_rate
kind | lendingclub | monthly issuance | loans.issuance_by_month
`;

/** Every question of the fourth held-out set, in file order. */
export const HELDOUT4_QUESTIONS: EvalQuestion[] = parseQuestions(RAW);
