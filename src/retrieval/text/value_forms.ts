/**
 * Other forms of indexed values that a question writes instead of the value
 * itself: the words for a sex or gender code ("female users" for `F`), the
 * name of a web domain ("links to github" for `github.com`). Ranking matches
 * these like the value (ranking/scope_index.ts); places are in places.ts.
 *
 * @module
 */

/** Words for the two codes of a sex or gender field. */
const GENDER: Readonly<Record<string, readonly string[]>> = {
  F: ["female", "females", "women", "woman", "ladies", "lady", "girls", "girl"],
  M: ["male", "males", "men", "man", "gentlemen", "boys", "boy"],
};

/** The codes and words a sex or gender field holds besides `F` and `M`. */
const OTHER_GENDER = new Set(["U", "O", "X", "N", "NA", "UNKNOWN", "OTHER", "NONE", ""]);

/** A web domain: an optional `www.` or `m.`, one label, a common top-level domain. */
const DOMAIN = /^(?:www\.|m\.)?([a-z0-9][a-z0-9-]{2,})\.(?:com|org|net|io|co|edu|gov|tv|me|ai|app|dev|info|co\.uk|de|fr)$/i;

/**
 * The other forms of a field's values: `[value, form]` pairs, each form to
 * be matched as if it were the value.
 * - A field whose values are `F` and `M` (or `female` and `male`), with at
 *   most unknown/other codes beside them: the words for each ("women",
 *   "ladies", "men").
 * - A web domain: its name without the top-level domain (`github.com` as
 *   "github", `m.facebook.com` as "facebook").
 *
 * @example
 * valueForms(["F", "M"]) // [["F", "female"], ["F", "females"], ["F", "women"], …, ["M", "boy"]]
 * valueForms(["github.com", "medium.com"]) // [["github.com", "github"], ["medium.com", "medium"]]
 */
export function valueForms(values: readonly string[]): Array<[value: string, form: string]> {
  const out: Array<[string, string]> = [];
  const codes = values.map((v) => v.trim().toUpperCase());
  const code = (v: string) => (v === "FEMALE" ? "F" : v === "MALE" ? "M" : v);
  if (codes.some((v) => code(v) === "F") && codes.some((v) => code(v) === "M") && codes.every((v) => code(v) === "F" || code(v) === "M" || OTHER_GENDER.has(v))) {
    for (const v of values) {
      const words = GENDER[code(v.trim().toUpperCase())] ?? [];
      for (const w of words) if (w !== v.trim().toLowerCase()) out.push([v, w]);
    }
  }
  for (const v of values) {
    const domain = DOMAIN.exec(v.trim());
    if (domain) out.push([v, domain[1]!]);
  }
  return out;
}
