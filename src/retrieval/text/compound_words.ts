/**
 * Compound splitting for field-name words: modelers glue words together
 * (`signup`, `stockout`, `checkin`) that neither the word vectors nor WordNet
 * know as one word. A word that the dictionary does not know, but that is two
 * dictionary words written together, is split into them.
 *
 * @module
 */

/** Options of {@link splitCompound}. */
export interface SplitCompoundOptions {
  /** Shortest word considered for splitting; default 5. */
  minLength?: number;
  /** Shortest part of a split; default 2. */
  minPart?: number;
}

/**
 * Splits `word` into two words that `isWord` knows, when `isWord` does not
 * know `word` itself; returns `[word]` otherwise. Among possible splits, the
 * most balanced one wins (its shorter part is longest), so `signup` gives
 * `sign up` rather than `sig nup`.
 *
 * @example
 * splitCompound("signup", (w) => lexicon.has(w)) // ["sign", "up"]
 * splitCompound("carrier", (w) => lexicon.has(w)) // ["carrier"]
 */
export function splitCompound(
  word: string,
  isWord: (word: string) => boolean,
  options: SplitCompoundOptions = {},
): string[] {
  const minLength = options.minLength ?? 5;
  const minPart = options.minPart ?? 2;
  if (word.length < minLength || /[^a-z]/.test(word) || isWord(word) || inflected(word, isWord)) return [word];
  let best: string[] | undefined;
  let bestShort = 0;
  for (let i = minPart; i <= word.length - minPart; i++) {
    const head = word.slice(0, i);
    const tail = word.slice(i);
    const short = Math.min(head.length, tail.length);
    if (short <= bestShort) continue;
    if (isWord(head) && isWord(tail)) {
      best = [head, tail];
      bestShort = short;
    }
  }
  if (best) return best;
  // A vowelless abbreviation glued to a word (`mktsegment`, `cstname`): the word is split off.
  for (let i = minPart; i <= 4 && i <= word.length - 4; i++) {
    const head = word.slice(0, i);
    if (!/[aeiouy]/.test(head) && isWord(word.slice(i))) return [head, word.slice(i)];
  }
  return [word];
}

/** Endings of inflected and agent forms (`raters`, `shipping`), longest first. */
const ENDINGS = ["ers", "ing", "er", "ed", "es", "s"];

/** True when `word` is a known word with an inflection or agent ending (`raters` = `rate` + `rs`), not a compound. */
function inflected(word: string, isWord: (word: string) => boolean): boolean {
  return ENDINGS.some((ending) => {
    if (!word.endsWith(ending) || word.length - ending.length < 3) return false;
    const base = word.slice(0, -ending.length);
    return isWord(base) || isWord(`${base}e`) || (/([b-df-hj-np-tv-z])\1$/.test(base) && isWord(base.slice(0, -1)));
  });
}
