/**
 * The fourth held-out set's models: three more public schemas used by no
 * other set (Microsoft's AdventureWorks OLTP sample: sales, production and
 * HR; the Ergast Formula 1 database; Lending Club's accepted-loans file),
 * with the schemas' own column names (AdventureWorks' PascalCase such as
 * TaxAmt, CommissionPct, SalesYTD; Ergast's camelCase such as grid,
 * fastestLapTime, dob; Lending Club's abbreviations such as loan_amnt,
 * int_rate, dti, revol_util, inq_last_6mths kept), a few `#(doc)` lines and
 * `# label` tags as a modeler would add. Written with their questions
 * (test/eval/heldout4_questions.ts) and committed before any score was run
 * on them: changes made after that point are judged on the older sets and
 * reported on this one.
 * @module
 */
import { evalPackage, type EvalPackage } from "./schema.ts";

const TERRITORIES = "Northwest; Northeast; Central; Southwest; Southeast; Canada; France; Germany; Australia; United Kingdom";
const DEPARTMENTS = "Engineering; Tool Design; Sales; Marketing; Purchasing; Research and Development; Production; Production Control; " +
  "Human Resources; Finance; Information Services; Document Control; Quality Assurance; Facilities and Maintenance; Shipping and Receiving; Executive";
const SUBCATEGORIES = "Mountain Bikes; Road Bikes; Touring Bikes; Helmets; Jerseys; Gloves; Tires and Tubes; Handlebars; Pedals; Bottles and Cages";

const ADVENTUREWORKS: EvalPackage = evalPackage("adventureworks", "adventureworks.malloy", "AdventureWorks: a bicycle maker's sales, products and staff", {
  salesterritory: {
    fields: ["TerritoryID n", `Name s = ${TERRITORIES}`, "CountryRegionCode s = US; CA; FR; DE; AU; GB", "Group s = North America; Europe; Pacific",
      "SalesYTD n", "SalesLastYear n", "CostYTD n", "CostLastYear n"],
  },
  shipmethod: {
    fields: ["ShipMethodID n", "Name s = XRQ - TRUCK GROUND; ZY - EXPRESS; OVERSEAS - DELUXE; OVERNIGHT J-FAST; CARGO TRANSPORT 5", "ShipBase n", "ShipRate n"],
  },
  productcategory: { fields: ["ProductCategoryID n", "Name s = Bikes; Components; Clothing; Accessories"] },
  productsubcategory: { fields: ["ProductSubcategoryID n", "ProductCategoryID n", `Name s = ${SUBCATEGORIES}`] },
  product: {
    joins: { subcategory: "productsubcategory", category: "productcategory" },
    fields: ["ProductID n", "Name s", "ProductNumber s", "MakeFlag b # label=\"Made in house\"", "FinishedGoodsFlag b",
      "Color s = Black; Silver; Red; Yellow; Blue; Multi; White; Grey; Silver/Black", "SafetyStockLevel n", "ReorderPoint n", "StandardCost n",
      "ListPrice n", "Size s", "SizeUnitMeasureCode s", "WeightUnitMeasureCode s", "Weight n", "DaysToManufacture n",
      "ProductLine s | R road, M mountain, T touring, S standard = R; M; T; S", "Class s | H high, M medium, L low = H; M; L",
      "Style s | W womens, M mens, U universal = W; M; U", "ProductSubcategoryID n", "ProductModelID n", "SellStartDate t", "SellEndDate t",
      "DiscontinuedDate t", "product_count m", "avg_list_price m"],
  },
  person: {
    fields: ["BusinessEntityID n", "PersonType s | SC store contact, IN individual customer, SP sales person, EM employee, VC vendor contact, GC general contact = IN; SC; EM; SP; VC; GC",
      "Title s", "FirstName s", "MiddleName s", "LastName s", "Suffix s", "EmailPromotion n"],
  },
  department: {
    fields: ["DepartmentID n", `Name s = ${DEPARTMENTS}`,
      "GroupName s = Research and Development; Sales and Marketing; Inventory Management; Manufacturing; Quality Assurance; Executive General and Administration"],
  },
  employee: {
    joins: { person: "person" },
    fields: ["BusinessEntityID n", "NationalIDNumber s", "LoginID s", "OrganizationLevel n", "JobTitle s", "BirthDate d", "MaritalStatus s = M; S",
      "Gender s = M; F", "HireDate d", "SalariedFlag b", "VacationHours n", "SickLeaveHours n", "CurrentFlag b", "headcount m",
      "headcount_by_title v"],
  },
  employeedepartmenthistory: {
    joins: { employee: "employee", department: "department" },
    fields: ["BusinessEntityID n", "DepartmentID n", "ShiftID n", "StartDate d", "EndDate d"],
  },
  employeepayhistory: {
    joins: { employee: "employee" },
    fields: ["BusinessEntityID n", "RateChangeDate t", "Rate n # label=\"Hourly rate\"", "PayFrequency n | 1 monthly, 2 biweekly", "avg_rate m"],
  },
  salesperson: {
    joins: { employee: "employee", territory: "salesterritory" },
    fields: ["BusinessEntityID n", "TerritoryID n", "SalesQuota n", "Bonus n", "CommissionPct n", "SalesYTD n", "SalesLastYear n", "total_quota m"],
  },
  salesorderheader: {
    joins: { territory: "salesterritory", salesperson: "salesperson", shipmethod: "shipmethod" },
    fields: ["SalesOrderID n", "RevisionNumber n", "OrderDate t", "DueDate t", "ShipDate t",
      "Status n | 1 in process, 2 approved, 3 backordered, 4 rejected, 5 shipped, 6 cancelled", "OnlineOrderFlag b # label=\"Ordered online\"",
      "SalesOrderNumber s", "PurchaseOrderNumber s", "AccountNumber s", "CustomerID n", "SalesPersonID n", "TerritoryID n", "ShipMethodID n",
      "CreditCardApprovalCode s", "SubTotal n", "TaxAmt n", "Freight n", "TotalDue n", "Comment s", "order_count m",
      "total_sales m | Sum of TotalDue", "avg_order_value m", "online_order_share m", "sales_by_territory v", "orders_by_month v"],
  },
  salesorderdetail: {
    joins: { header: "salesorderheader", product: "product" },
    fields: ["SalesOrderID n", "SalesOrderDetailID n", "CarrierTrackingNumber s", "OrderQty n", "ProductID n", "SpecialOfferID n", "UnitPrice n",
      "UnitPriceDiscount n", "LineTotal n", "units_sold m", "line_revenue m", "avg_unit_discount m", "top_products v"],
  },
});

const F1_COUNTRIES = "UK; Italy; Germany; Monaco; Belgium; France; Spain; Brazil; USA; Japan; Australia; Canada; Hungary; Bahrain";
const NATIONALITIES = "British; German; Brazilian; French; Italian; Finnish; Spanish; Dutch; Australian; American";

const FORMULA1: EvalPackage = evalPackage("formula1", "formula1.malloy", "Ergast Formula 1 database: races, drivers, teams and results since 1950", {
  circuits: {
    fields: ["circuitId n", "circuitRef s", "name s", "location s", `country s = ${F1_COUNTRIES}`, "lat n", "lng n", "alt n | Altitude in metres",
      "url s", "circuit_count m"],
  },
  races: {
    joins: { circuit: "circuits" },
    fields: ["raceId n", "year n", "round n", "circuitId n",
      "name s = Monaco Grand Prix; British Grand Prix; Italian Grand Prix; Belgian Grand Prix; German Grand Prix; Japanese Grand Prix; Brazilian Grand Prix",
      "date d", "time s", "url s", "race_count m", "races_by_year v"],
  },
  drivers: {
    fields: ["driverId n", "driverRef s", "number n", "code s", "forename s", "surname s", "dob d", `nationality s = ${NATIONALITIES}`, "url s",
      "driver_count m"],
  },
  constructors: {
    fields: ["constructorId n", "constructorRef s", "name s = Ferrari; McLaren; Williams; Mercedes; Red Bull; Renault; Lotus; Brabham; Tyrrell",
      `nationality s = ${NATIONALITIES}`, "url s", "constructor_count m"],
  },
  status: {
    fields: ["statusId n", "status s = Finished; +1 Lap; +2 Laps; Engine; Accident; Collision; Gearbox; Spun off; Retired; Disqualified"],
  },
  results: {
    joins: { race: "races", driver: "drivers", constructor: "constructors", status: "status" },
    fields: ["resultId n", "raceId n", "driverId n", "constructorId n", "number n", "grid n | Starting position", "position n", "positionText s",
      "positionOrder n", "points n", "laps n", "time s", "milliseconds n", "fastestLap n", "rank n", "fastestLapTime s", "fastestLapSpeed n",
      "statusId n", "total_points m", "win_count m | Results with position 1", "podium_count m", "dnf_count m # label=\"Retirements\"",
      "avg_grid m", "driver_leaderboard v", "constructor_leaderboard v"],
  },
  qualifying: {
    joins: { race: "races", driver: "drivers", constructor: "constructors" },
    fields: ["qualifyId n", "raceId n", "driverId n", "constructorId n", "number n", "position n", "q1 s", "q2 s", "q3 s", "pole_count m"],
  },
  pit_stops: {
    joins: { race: "races", driver: "drivers" },
    fields: ["raceId n", "driverId n", "stop n", "lap n", "time s", "duration s", "milliseconds n", "stop_count m", "avg_stop_seconds m"],
  },
  lap_times: {
    joins: { race: "races", driver: "drivers" },
    fields: ["raceId n", "driverId n", "lap n", "position n", "time s", "milliseconds n", "best_lap_ms m"],
  },
  driver_standings: {
    joins: { race: "races", driver: "drivers" },
    fields: ["driverStandingsId n", "raceId n", "driverId n", "points n", "position n", "positionText s", "wins n"],
  },
});

const PURPOSES = "debt_consolidation; credit_card; home_improvement; other; major_purchase; small_business; car; medical; moving; vacation; house; " +
  "wedding; renewable_energy; educational";
const STATUSES = "Fully Paid; Charged Off; Current; Late (31-120 days); In Grace Period; Late (16-30 days); Default";

const LENDINGCLUB: EvalPackage = evalPackage("lendingclub", "lendingclub.malloy", "Lending Club accepted loans, 2007-2018", {
  loans: {
    doc: "One row per loan issued through Lending Club",
    fields: ["id n", "member_id n", "loan_amnt n", "funded_amnt n", "funded_amnt_inv n", "term s = 36 months; 60 months", "int_rate n",
      "installment n", "grade s # label=\"LC grade\" = A; B; C; D; E; F; G", "sub_grade s = A1; A5; B3; C1; C4; D2; E5; F1; G3",
      "emp_title s", "emp_length s = < 1 year; 1 year; 2 years; 3 years; 5 years; 10+ years",
      "home_ownership s = RENT; OWN; MORTGAGE; OTHER; NONE", "annual_inc n", "verification_status s = Verified; Source Verified; Not Verified",
      "issue_d d", `loan_status s = ${STATUSES}`, "pymnt_plan s = n; y", `purpose s = ${PURPOSES}`, "title s", "zip_code s",
      "addr_state s = CA; NY; TX; FL; IL; NJ; PA; OH; GA; VA", "dti n | Monthly debt payments divided by monthly income", "delinq_2yrs n",
      "earliest_cr_line d", "fico_range_low n", "fico_range_high n", "inq_last_6mths n", "open_acc n", "pub_rec n", "revol_bal n", "revol_util n",
      "total_acc n", "initial_list_status s = w; f", "out_prncp n", "total_pymnt n", "total_rec_prncp n", "total_rec_int n",
      "total_rec_late_fee n", "recoveries n", "last_pymnt_d d", "last_pymnt_amnt n", "application_type s = Individual; Joint App",
      "pub_rec_bankruptcies n", "loan_count m", "total_funded m", "avg_int_rate m", "avg_dti m",
      "default_rate m | Share of loans charged off", "loans_by_grade v", "loans_by_purpose v", "issuance_by_month v"],
  },
});

/** All packages of the fourth held-out set. */
export const HELDOUT4_PACKAGES: EvalPackage[] = [ADVENTUREWORKS, FORMULA1, LENDINGCLUB];
