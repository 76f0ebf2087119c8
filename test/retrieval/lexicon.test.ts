import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_EXCEPTIONS_DIR, loadLexicon, readExceptions } from "../../src/retrieval/text/lexicon.ts";

/** Writes a tiny WordNet database: synsets as [part, words, pointers], pointers as [symbol, synsetIndex, sourceTarget]. */
function writeDict(synsets: Array<[string, string[], Array<[string, number, string]>]>): string {
  const dir = mkdtempSync(join(tmpdir(), "wordnet-"));
  const parts = ["noun", "verb", "adj", "adv"];
  const pos: Record<string, string> = { noun: "n", verb: "v", adj: "a", adv: "r" };
  const header = "  1 This is a test database\n";
  // Offsets are fixed-width, so line lengths do not depend on them: lay out, then fill in.
  const offsets: number[] = [];
  const sizes = new Map(parts.map((p) => [p, header.length]));
  const line = (i: number) => {
    const [part, words, pointers] = synsets[i]!;
    const ptrs = pointers.map(([sym, target, st]) =>
      `${sym} ${String(offsets[target] ?? 0).padStart(8, "0")} ${pos[synsets[target]![0]]} ${st}`);
    return `${String(offsets[i] ?? 0).padStart(8, "0")} 03 ${pos[part]} ${words.length.toString(16).padStart(2, "0")} ${words.map((w) => `${w} 0`).join(" ")} ${String(pointers.length).padStart(3, "0")} ${ptrs.join(" ")}${ptrs.length ? " " : ""}| gloss  \n`;
  };
  synsets.forEach(([part], i) => {
    offsets[i] = sizes.get(part)!;
    sizes.set(part, offsets[i]! + line(i).length);
  });
  for (const part of parts) {
    const lines = synsets.map((s, i) => [s, i] as const).filter(([s]) => s[0] === part).map(([, i]) => line(i));
    writeFileSync(join(dir, `data.${part}`), header + lines.join(""));
    const lemmas = new Map<string, number[]>();
    synsets.forEach(([p, words], i) => {
      if (p === part) for (const w of words) lemmas.set(w.toLowerCase(), [...(lemmas.get(w.toLowerCase()) ?? []), offsets[i]!]);
    });
    const index = [...lemmas].sort().map(([w, offs]) =>
      `${w} ${pos[part]} ${offs.length} 0 ${offs.length} 0 ${offs.map((o) => String(o).padStart(8, "0")).join(" ")}  \n`);
    writeFileSync(join(dir, `index.${part}`), header + index.join(""));
  }
  return dir;
}

const DIR = writeDict([
  ["noun", ["delay", "hold", "postponement"], [["+", 1, "0101"]]], // 0: most frequent sense of "delay"
  ["verb", ["delay", "detain", "hold_up"], [["+", 0, "0101"]]], // 1
  ["adj", ["late"], [["&", 3, "0000"], ["=", 4, "0000"]]], // 2
  ["adj", ["belated", "tardy"], []], // 3
  ["noun", ["lateness"], []], // 4
  ["noun", ["wait"], []], // 5
  ["noun", ["delay", "time_lag"], []], // 6: a rarer third sense of "delay"
  ["verb", ["cancel", "call_off", "scrub"], []], // 7
]);
afterAll(() => { if (!process.env.KEEP_DICT) rmSync(DIR, { recursive: true, force: true }); else console.log(DIR); });

describe("loadLexicon", () => {
  test("synonyms of the most frequent senses, derived forms, similar adjectives and attributes", () => {
    const lexicon = loadLexicon({ dir: DIR, senses: 1 })!;
    expect(lexicon.dir).toBe(DIR);
    // One sense per part of speech: the first noun and the first verb sense.
    expect(lexicon.related("delay").sort()).toEqual(["detain", "hold", "hold up", "postponement"]);
    expect(lexicon.related("late").sort()).toEqual(["belated", "lateness", "tardy"]);
    expect(lexicon.related("unknownword")).toEqual([]);
  });

  test("more senses widen the set; inflected and multi-word forms find their lemma", () => {
    const lexicon = loadLexicon({ dir: DIR, senses: 3 })!;
    expect(lexicon.related("delay")).toEqual(expect.arrayContaining(["detain", "hold up", "time lag"]));
    expect(lexicon.related("delays")).toEqual(lexicon.related("delay"));
    expect(lexicon.related("cancelled")).toEqual(expect.arrayContaining(["call off", "scrub"]));
    expect(lexicon.related("called off")).toEqual(expect.arrayContaining(["cancel", "scrub"]));
  });

  test("has: lemmas and their inflected forms, not unknown words", () => {
    const lexicon = loadLexicon({ dir: DIR, senses: 1 })!;
    expect(lexicon.has("delay")).toBe(true);
    expect(lexicon.has("delays")).toBe(true);
    expect(lexicon.has("hold up")).toBe(true);
    expect(lexicon.has("signup")).toBe(false);
  });

  test("a rarer sense counts when the context holds one of its lemmas' words", () => {
    const dir = writeDict([
      ["noun", ["margin", "border"], []], // most frequent sense
      ["noun", ["gross_profit", "margin"], []], // rarer sense
      ["noun", ["profit", "net_income"], []],
      ["adj", ["profitable"], []],
    ]);
    try {
      const lexicon = loadLexicon({ dir, senses: 1 })!;
      expect(lexicon.related("margin")).toEqual(["border"]);
      expect(lexicon.related("margin", { context: (w) => w === "gross" }).sort()).toEqual(["border", "gross profit"]);
      expect(lexicon.related("margin", { context: (w) => w === "margin" })).toEqual(["border"]);
      // Derivational bases: lemmas only, the word's own base forms excluded.
      expect(lexicon.derivationBases("profitability").sort()).toEqual(["profit", "profitable"]);
      expect(lexicon.derivationBases("profits")).toEqual([]);
      expect(lexicon.derivationBases("profitableness")).toEqual(["profitable"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("irregular forms reach their lemma through the exception lists", () => {
    const dir = writeDict([
      ["verb", ["leave", "go_away", "depart"], []],
      ["adj", ["left"], []], // "left" is a lemma of its own too
      ["verb", ["go", "travel"], []],
      ["noun", ["child", "kid"], []],
    ]);
    try {
      writeFileSync(join(dir, "verb.exc"), "left leave\nwent go\n");
      writeFileSync(join(dir, "noun.exc"), "children child\nmice mouse\n");
      const lexicon = loadLexicon({ dir, senses: 1 })!;
      // The irregular base itself and its synonyms; the word's own senses kept.
      expect(lexicon.related("left").sort()).toEqual(["depart", "go away", "leave"]);
      expect(lexicon.related("went").sort()).toEqual(["go", "travel"]);
      expect(lexicon.related("children").sort()).toEqual(["child", "kid"]);
      // A multi-word lemma inflects its first word irregularly too.
      expect(lexicon.related("went away").sort()).toEqual(["depart", "go away", "leave"]);
      expect(lexicon.has("children")).toBe(true);
      expect(lexicon.has("mice")).toBe(false); // "mouse" is not in the index
      // Without exception lists the irregular form stays unknown.
      const bare = loadLexicon({ dir, senses: 1, exceptionsDir: join(dir, "none") })!;
      expect(bare.related("went")).toEqual([]);
      expect(bare.related("left")).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("readExceptions: every form with its bases; the shipped lists hold WordNet's", () => {
    const dir = mkdtempSync(join(tmpdir(), "wordnet-exc-"));
    try {
      writeFileSync(join(dir, "adj.exc"), "better good well\n\n");
      writeFileSync(join(dir, "adv.exc"), "better well\n");
      expect(Object.fromEntries(readExceptions(dir))).toEqual({ better: ["good", "well"] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const shipped = readExceptions(DEFAULT_EXCEPTIONS_DIR);
    expect(shipped.get("left")).toEqual(["leave"]);
    expect(shipped.get("children")).toEqual(["child"]);
    expect(shipped.size).toBeGreaterThan(5000);
  });

  test("no dictionary means no lexicon", () => {
    expect(loadLexicon({ dir: join(DIR, "missing") })).toBeNull();
  });
});
