/**
 * Writes `src/retrieval/text/places_data.json`: the country codes of ISO
 * 3166-1 (alpha-2, alpha-3 and the names) and the United States' state codes
 * of ISO 3166-2, read from the Debian `iso-codes` package's JSON files, so
 * that `get_context` can read "Texas" as `TX` and "Canadian" as `CA` in a
 * field of such codes (src/retrieval/text/places.ts). Run again when
 * iso-codes changes:
 *
 *   apt-get install -y iso-codes && bun scripts/build_places.ts [/usr/share/iso-codes/json]
 *
 * @module
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

interface Country { alpha_2: string; alpha_3: string; name: string; common_name?: string; official_name?: string }
interface Subdivision { code: string; name: string; type: string }

const dir = process.argv[2] ?? "/usr/share/iso-codes/json";
const countries = (JSON.parse(readFileSync(join(dir, "iso_3166-1.json"), "utf8")) as { "3166-1": Country[] })["3166-1"];
const subdivisions = (JSON.parse(readFileSync(join(dir, "iso_3166-2.json"), "utf8")) as { "3166-2": Subdivision[] })["3166-2"];

/** Names a person writes: the common name, else the name unless it is the inverted "Korea, Republic of" form. */
const names = (c: Country) => [...new Set([c.common_name, c.name.includes(",") ? undefined : c.name].filter((n): n is string => n !== undefined))];

const data = {
  source: "Debian iso-codes (ISO 3166-1 and ISO 3166-2), built by scripts/build_places.ts",
  countries: countries.map((c) => ({ codes: [c.alpha_2, c.alpha_3], names: names(c) })).filter((c) => c.names.length > 0),
  usStates: subdivisions.filter((s) => s.code.startsWith("US-") && (s.type === "State" || s.type === "District"))
    .map((s) => ({ code: s.code.slice(3), names: [s.name] })),
};
const out = join(import.meta.dir, "..", "src", "retrieval", "text", "places_data.json");
writeFileSync(out, `${JSON.stringify(data)}\n`);
console.log(`wrote ${out}: ${data.countries.length} countries, ${data.usStates.length} states`);
