import { describe, expect, test } from "bun:test";
import type { ModelMetadata } from "../../src/engine/compile/metadata.ts";
import { scopeTerms, scoreEntity } from "../../src/retrieval/ranking/entity_score.ts";
import { entitiesFromMetadata, type EntityRecord } from "../../src/retrieval/index/entity_text.ts";
import type { Lexicon } from "../../src/retrieval/text/lexicon.ts";
import { phraseTerms } from "../../src/retrieval/ranking/phrase_terms.ts";
import { stem } from "../../src/retrieval/text/text_terms.ts";
import { dim, msr, source } from "../bench/retrieval_packages.ts";

const META: ModelMetadata = {
  modelPath: "hr.malloy",
  sources: [
    source("employees", "Employees of the company", [
      dim("dept_name", "string", "Department of the employee"),
      dim("term_reason", "string", "Why the employee left"),
      dim("office_code", "string"),
      msr("headcount", "Employees on the payroll"),
    ]),
  ],
  queries: [],
};
const ENTITIES = entitiesFromMetadata(META, {}, { values: { "employees.office_code": ["BER", "LDN"], "employees.dept_name": ["Customer Support"] } });
const byName = (name: string): EntityRecord => ENTITIES.find((e) => e.name === name)!;
/** A lexicon that relates every word to fixed words. */
const LEXICON: Lexicon = {
  dir: "test",
  related: (w) => (w === "staff" ? ["employee", "faculty", "crew"] : []),
  derivationBases: () => [],
  has: () => true,
};

describe("scopeTerms", () => {
  test("IDF: a term many entities share weighs less than a rare one, an absent one most", () => {
    const { idf } = scopeTerms(ENTITIES);
    expect(idf(stem("employee"))).toBeLessThan(idf(stem("payroll")));
    expect(idf(stem("payroll"))).toBeLessThan(idf("nowhere"));
    expect(scopeTerms(ENTITIES)).toBe(scopeTerms(ENTITIES)); // memoized per array
  });

  test("matchable holds name, name-pair and doc stems, not unrelated words", () => {
    const { matchable } = scopeTerms(ENTITIES);
    expect(matchable.has(stem("headcount"))).toBe(true);
    expect(matchable.has(`${stem("department")} ${stem("name")}`)).toBe(true);
    expect(matchable.has(stem("payroll"))).toBe(true);
    expect(matchable.has(stem("crew"))).toBe(false);
  });
});

describe("phraseTerms", () => {
  test("related words that no entity in scope can meet are dropped", () => {
    const all = phraseTerms("staff", { lexicon: LEXICON });
    expect([...all.related.get(stem("staff"))!.keys()].sort()).toEqual(["crew", "employee", "faculty"].map(stem));
    const pruned = phraseTerms("Staff ", { lexicon: LEXICON, matchable: scopeTerms(ENTITIES).matchable });
    expect([...pruned.related.get(stem("staff"))!.keys()]).toEqual([stem("employee")]);
    expect(pruned.lower).toBe("staff");
    expect(pruned.stemSet.has(stem("staff"))).toBe(true);
  });
});

describe("scoreEntity", () => {
  const idf = scopeTerms(ENTITIES).idf;

  test("reasons are written only at or above minScore", () => {
    const phrase = phraseTerms("employee headcount");
    const kept = scoreEntity(phrase, byName("headcount"), { idf });
    expect(kept.score).toBeGreaterThanOrEqual(0.2);
    expect(kept.matchReason).toContain("name match on 'headcount'");
    const dropped = scoreEntity(phrase, byName("headcount"), { idf, minScore: 0.99 });
    expect(dropped.score).toBe(kept.score);
    expect(dropped.matchReason).toBe("below threshold");
  });

  test("short indexed codes must stand as words; longer values match as word runs", () => {
    expect(scoreEntity(phraseTerms("staff in BER"), byName("office_code"), { idf }).matchedValue).toBe("BER");
    expect(scoreEntity(phraseTerms("staff in BERLIN"), byName("office_code"), { idf }).value).toBe(0);
    expect(scoreEntity(phraseTerms("ber"), byName("office_code"), { idf }).value).toBe(0); // codes are case-sensitive
    expect(scoreEntity(phraseTerms("tickets of customer support"), byName("dept_name"), { idf }).matchedValue).toBe("Customer Support");
  });

  test("a name written as an identifier inside the phrase", () => {
    const match = scoreEntity(phraseTerms("count by term_reason please"), byName("term_reason"), { idf });
    expect(match.lexical).toBe(0.98);
    expect(scoreEntity(phraseTerms("count by term_reasons"), byName("term_reason"), { idf }).lexical).toBeLessThan(0.98);
  });
});
