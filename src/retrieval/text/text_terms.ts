/**
 * Word-level helpers shared by entity indexing and ranking: splitting field
 * names into words, expanding abbreviations common in field names, a light
 * English stemmer and a stop-word list.
 *
 * @module
 */

/**
 * Abbreviations that modelers and warehouse schemas commonly use in field
 * names, with their expansion. A general table (data-warehouse naming
 * conventions), not tied to any package.
 */
export const FIELD_ABBREVIATIONS: ReadonlyMap<string, string> = new Map(Object.entries({
  acct: "account", addr: "address", adj: "adjusted", amt: "amount", amnt: "amount", approx: "approximate",
  arr: "arrival", attr: "attribute", avg: "average", bal: "balance", bday: "birthday", bldg: "building",
  cat: "category", cd: "code", cfg: "configuration", chg: "change", cnt: "count", co: "company",
  cogs: "cost of goods sold", comm: "commission", comp: "compensation", conv: "conversion",
  ct: "count", ctry: "country", cty: "city", cur: "current", curr: "currency", cust: "customer",
  del: "delivery", dept: "department", dep: "departure", desc: "description", dest: "destination",
  dist: "distance", div: "division", dob: "date of birth", doc: "document", dt: "date", dttm: "date time",
  dur: "duration", emp: "employee", empl: "employee", eta: "estimated arrival", exp: "expense",
  ext: "external", fac: "facility", fin: "finance", flg: "flag", freq: "frequency", fy: "fiscal year",
  geo: "geography", gmv: "gross merchandise value", hq: "headquarters", hrs: "hours", hr: "hour",
  id: "identifier", idx: "index", ind: "indicator", info: "information", int: "internal", inv: "inventory",
  kpi: "key performance indicator", lang: "language", lat: "latitude", lng: "longitude", lon: "longitude",
  loc: "location", ltv: "lifetime value", max: "maximum", med: "median", mfr: "manufacturer",
  mgr: "manager", mgmt: "management", min: "minimum", mins: "minutes", mo: "month", mth: "month",
  msg: "message", mtd: "month to date", nbr: "number", nm: "name", no: "number", num: "number",
  org: "organization", ord: "order", orig: "origin", pct: "percent", perc: "percent", perf: "performance",
  pmt: "payment", pos: "position", prev: "previous", prc: "price", prod: "product", pts: "points",
  qty: "quantity", qtr: "quarter", rcpt: "receipt", rec: "record", ref: "reference", reg: "region",
  rep: "representative", req: "request", rev: "revenue", sal: "salary", sec: "seconds", seg: "segment",
  seq: "sequence", sku: "stock keeping unit product", src: "source", std: "standard", stddev: "standard deviation",
  stat: "status", sts: "status", svc: "service", tel: "telephone", temp: "temperature", term: "termination",
  tgt: "target", tot: "total", ttl: "total", ts: "timestamp", tz: "time zone", uom: "unit of measure",
  usr: "user", val: "value", var: "variance", vol: "volume", wk: "week", wt: "weight", yoy: "year over year",
  yr: "year", yrs: "years", ytd: "year to date", zip: "postal code",
}));

/** Words that carry no meaning for matching a question to a field. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a an the this that these those what which who whom whose how why when where is are was were be been being
do does did done can could would should will shall may might must have has had i me my we our us you your it
its they them their he she his her there here show shows give tell list find get display return please want
need know see let lets all any some much many more also just only very so then if not no yes of in on at by
for to from with without per each every across and or nor but as into about over under than vs versus via
between within during since until before after whether one ones me us top most least`
    .split(/\s+/).filter((w) => w.length > 0),
);

/**
 * Splits a field or source name into lowercase words: snake_case, kebab-case,
 * dotted join paths, camelCase and letter/digit boundaries.
 *
 * @example
 * splitName("avgArrDelay_min") // ["avg", "arr", "delay", "min"]
 */
export function splitName(name: string): string[] {
  return name
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([a-zA-Z])(?=\d)/g, "$1 ")
    .replace(/(\d)(?=[a-zA-Z])/g, "$1 ")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);
}

/**
 * Expands abbreviations word by word (each word to its expansion, or itself).
 *
 * @example
 * expandAbbreviations(["avg", "arr", "delay"]) // ["average", "arrival", "delay"]
 */
export function expandAbbreviations(words: readonly string[]): string[] {
  return words.flatMap((w) => (FIELD_ABBREVIATIONS.get(w) ?? w).split(" "));
}

/** Lowercase words of free text (letters and digits runs), camelCase split. */
export function words(text: string): string[] {
  return splitName(text);
}

/**
 * Light English stemmer: folds plurals, `-ing`, `-ed`, adverbs' `-ly`, `-ies`, and a
 * few derivational endings so that `delays`, `delayed`, `delaying` meet, and
 * `arrivals`/`arrival`, `cancelled`/`cancellation` meet. A `-ly` that is part of
 * the word stays (`supply`, `family`, `daily`: after a vowel or `p`).
 *
 * @example
 * stem("deliveries") // "delivery"
 */
export function stem(word: string): string {
  let w = word.toLowerCase();
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) w = w.slice(0, -3) + "y";
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  else if (/(ches|shes|xes|zes)$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ation") && w.length > 7) w = w.slice(0, -5);
  else if (w.endsWith("ing") && w.length > 5) w = restoreE(w.slice(0, -3));
  else if (w.endsWith("ed") && w.length > 4) w = restoreE(w.slice(0, -2));
  else if (w.endsWith("ly") && w.length > 5 && !/([aiouy]|p)ly$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("ment") && w.length > 7) w = w.slice(0, -4);
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("ll") && w.length > 5) w = w.slice(0, -1);
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
}

/**
 * The `e` an `-ed`/`-ing` ending dropped from a three-letter
 * consonant-vowel-consonant stem (`rat` -> `rate`, `hir` -> `hire`), so that
 * `rated`, `rating` and `rate` meet (a four-letter word keeps its `e`).
 */
function restoreE(w: string): string {
  return /^[^aeiouy][aeiou][^aeiouwxy]$/.test(w) ? `${w}e` : w;
}

/**
 * Stemmed content words of a text (stop words and single characters dropped,
 * duplicates removed, order kept).
 *
 * @example
 * contentStems("Number of delayed flights") // ["number", "delay", "flight"]
 */
export function contentStems(text: string, options: { expand?: boolean } = {}): string[] {
  const raw = words(text).filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\d/.test(w)));
  const expanded = options.expand ? expandAbbreviations(raw) : raw;
  return [...new Set(expanded.filter((w) => !STOP_WORDS.has(w)).map(stem))];
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** True when `text` holds `name` as a whole identifier (`delivery_delay_days`, `carriers.code`): no word character or dot before it, no word character after. */
export function containsIdentifier(text: string, name: string): boolean {
  const at = text.indexOf(name);
  if (at < 0) return false;
  const before = text[at - 1];
  const after = text[at + name.length];
  return !(before && /[\w.]/.test(before)) && !(after && /\w/.test(after));
}

/** True when `word` occurs in `text` (case-sensitive) with no letter or digit on either side. */
export function containsWord(text: string, word: string): boolean {
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1];
    const after = text[at + word.length];
    if (!(before && LETTER_OR_DIGIT.test(before)) && !(after && LETTER_OR_DIGIT.test(after))) return true;
  }
  return false;
}
