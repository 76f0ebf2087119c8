import { describe, expect, test } from "bun:test";
import { splitCompound } from "../../src/retrieval/text/compound_words.ts";

const DICTIONARY = new Set(["sign", "up", "stock", "out", "carrier", "sig", "head", "count", "headcount", "check", "in"]);
const isWord = (w: string) => DICTIONARY.has(w);

describe("splitCompound", () => {
  test("splits a word the dictionary lacks into two words it has", () => {
    expect(splitCompound("signup", isWord)).toEqual(["sign", "up"]);
    expect(splitCompound("stockout", isWord)).toEqual(["stock", "out"]);
    expect(splitCompound("checkin", isWord)).toEqual(["check", "in"]);
  });
  test("keeps known words, unsplittable words, short words and non-letters whole", () => {
    expect(splitCompound("headcount", isWord)).toEqual(["headcount"]);
    expect(splitCompound("carrier", isWord)).toEqual(["carrier"]);
    expect(splitCompound("zzyzxq", isWord)).toEqual(["zzyzxq"]);
    expect(splitCompound("upin", isWord)).toEqual(["upin"]);
    expect(splitCompound("sign2up", isWord)).toEqual(["sign2up"]);
  });
  test("splits a vowelless abbreviation off a word it has, and nothing else", () => {
    expect(splitCompound("mktsegment", (w) => w === "segment")).toEqual(["mkt", "segment"]);
    expect(splitCompound("cststock", isWord)).toEqual(["cst", "stock"]);
    // A head with a vowel, or a tail the dictionary lacks, stays glued.
    expect(splitCompound("mokstock", isWord)).toEqual(["mokstock"]);
    expect(splitCompound("mktsegment", isWord)).toEqual(["mktsegment"]);
  });
  test("an inflected or agent form of a known word is not a compound", () => {
    const known = new Set(["rat", "ers", "rate", "ship", "pin", "shipping"]);
    expect(splitCompound("raters", (w) => known.has(w))).toEqual(["raters"]);
    expect(splitCompound("ratters", (w) => known.has(w) && w !== "rate")).toEqual(["ratters"]);
    expect(splitCompound("shippings", (w) => known.has(w))).toEqual(["shippings"]);
    expect(splitCompound("ratsers", (w) => known.has(w) || w === "sers")).toEqual(["rat", "sers"]);
  });
  test("prefers the most balanced split", () => {
    const words = new Set(["a", "bcdef", "abc", "def"]);
    expect(splitCompound("abcdef", (w) => words.has(w), { minPart: 1 })).toEqual(["abc", "def"]);
  });
});
