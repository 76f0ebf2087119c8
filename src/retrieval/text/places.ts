/**
 * Place names for codes: a field whose indexed values are United States
 * state codes (`TX`) or country codes (`CA`, `CAN`) also matches the places'
 * names and the adjectives of their people, so "providers in Texas" finds
 * `state = 'TX'` and "Canadian stations" `country = 'CA'`. A field whose
 * values are country names (`Canada`) matches the adjectives too.
 *
 * The codes and names come from ISO 3166 (places_data.json, built from
 * Debian's iso-codes by scripts/build_places.ts); the everyday names and
 * adjectives below are written here.
 *
 * @module
 */
import data from "./places_data.json" with { type: "json" };

interface Place {
  codes: string[];
  names: string[];
}

/** Everyday names and adjectives of people, by ISO alpha-2 code (`UK` is also read as a code of GB). */
const EVERYDAY: Readonly<Record<string, readonly string[]>> = {
  US: ["USA", "America", "United States of America", "American"],
  GB: ["UK", "Britain", "Great Britain", "British", "England"],
  CA: ["Canadian"], MX: ["Mexican"], BR: ["Brazilian"], AR: ["Argentine", "Argentinian"], CL: ["Chilean"],
  CO: ["Colombian"], PE: ["Peruvian"], VE: ["Venezuelan"], CU: ["Cuban"], FR: ["French"], DE: ["German"],
  IT: ["Italian"], ES: ["Spanish"], PT: ["Portuguese"], NL: ["Dutch", "Holland"], BE: ["Belgian"], CH: ["Swiss"],
  AT: ["Austrian"], SE: ["Swedish"], NO: ["Norwegian"], DK: ["Danish"], FI: ["Finnish"], IE: ["Irish"],
  IS: ["Icelandic"], PL: ["Polish"], CZ: ["Czech"], HU: ["Hungarian"], GR: ["Greek"], TR: ["Turkish"],
  RU: ["Russia", "Russian"], UA: ["Ukrainian"], RO: ["Romanian"], BG: ["Bulgarian"], RS: ["Serbian"],
  HR: ["Croatian"], CN: ["Chinese"], JP: ["Japanese"], KR: ["Korean"], IN: ["Indian"], PK: ["Pakistani"],
  ID: ["Indonesian"], PH: ["Filipino"], TH: ["Thai"], VN: ["Vietnamese"], MY: ["Malaysian"], SG: ["Singaporean"],
  AU: ["Australian"], NZ: ["New Zealander"], ZA: ["South African"], EG: ["Egyptian"], NG: ["Nigerian"],
  KE: ["Kenyan"], ET: ["Ethiopian"], MA: ["Moroccan"], IL: ["Israeli"], IR: ["Iranian"], IQ: ["Iraqi"],
  SA: ["Saudi", "Saudi Arabian"], AE: ["UAE", "Emirati"], JM: ["Jamaican"],
};

const COUNTRIES: Place[] = data.countries.map((c) => ({ codes: c.codes[0] === "GB" ? [...c.codes, "UK"] : c.codes, names: [...c.names, ...(EVERYDAY[c.codes[0]!] ?? [])] }));
const STATES: Place[] = data.usStates.map((s) => ({ codes: [s.code], names: s.names }));

/** A code list of one system: each code, the place it names. */
function byCode(places: readonly Place[]): Map<string, Place> {
  const out = new Map<string, Place>();
  for (const p of places) for (const c of p.codes) out.set(c.toUpperCase(), p);
  return out;
}

const SYSTEMS = [byCode(STATES), byCode(COUNTRIES)] as const;
const COUNTRY_NAMES = new Map(COUNTRIES.flatMap((p) => p.names.map((n) => [n.toLowerCase(), p] as const)));

/** Share of a field's values that must be codes of one system for its codes to stand for places. */
const CODE_SHARE = 0.6;

/**
 * The place names a field's values stand for: `[value, name]` pairs, each
 * name to be matched as if it were the value. Values must mostly (60%, at
 * least three) be codes of one system, US states or countries, chosen by the
 * larger share (states first on a tie, or when the field's name says
 * `state`; countries when it says `country` or `nation`); a country name
 * value adds its people's adjectives.
 *
 * @example
 * placeAliases(["TX", "CA", "NY"], "state") // [["TX", "Texas"], ["CA", "California"], ["NY", "New York"]]
 */
export function placeAliases(values: readonly string[], fieldName = ""): Array<[value: string, name: string]> {
  const out = new Map<string, [string, string]>();
  const add = (v: string, place: Place) => {
    for (const n of place.names) if (n.toLowerCase() !== v.trim().toLowerCase()) out.set(`${v}\u0000${n}`, [v, n]);
  };
  for (const v of values) {
    const p = COUNTRY_NAMES.get(v.trim().toLowerCase());
    if (p) add(v, p);
  }
  if (values.length < 3) return [...out.values()];
  const shares = SYSTEMS.map((codes) => values.filter((v) => codes.has(v.trim().toUpperCase())).length / values.length);
  const named = /state/i.test(fieldName) ? 0 : /country|nation/i.test(fieldName) ? 1 : undefined;
  const system = named !== undefined && shares[named]! >= CODE_SHARE ? named : shares[0]! >= shares[1]! ? 0 : 1;
  if (shares[system]! >= CODE_SHARE) {
    for (const v of values) {
      const place = SYSTEMS[system].get(v.trim().toUpperCase());
      if (place) add(v, place);
    }
  }
  return [...out.values()];
}
