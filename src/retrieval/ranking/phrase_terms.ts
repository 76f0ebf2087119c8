/**
 * A phrase's terms for ranking: its stemmed content words (abbreviations
 * expanded), pairs of consecutive words, and the lexicon words related to
 * each (synonyms, and derivational bases with decayed credit).
 *
 * @module
 */
import type { Lexicon } from "../text/lexicon.ts";
import { expandAbbreviations, stem, STOP_WORDS, words } from "../text/text_terms.ts";

/** The terms of one phrase, computed once and matched against every entity. */
export interface PhraseTerms {
  text: string;
  /** Phrase words, lowercase, joined by one space. */
  normalized: string;
  /** The text trimmed and lowercased. */
  lower: string;
  /** Stemmed content words, abbreviations expanded. */
  stems: string[];
  /** `stems` as a set. */
  stemSet: Set<string>;
  /** Stemmed pairs of consecutive words (`"call off"`), with the stems they cover. */
  pairs: Array<[string, string[]]>;
  /** Lexicon words related to each stem (stemmed; pairs joined by a space), with their credit factor (0..1). */
  related: Map<string, Map<string, number>>;
}

/** Options of {@link phraseTerms}. */
export interface PhraseTermsOptions {
  /** Lexicon for related words (see `loadLexicon`); none: no related words. */
  lexicon?: Lexicon | null;
  /**
   * Terms some entity in scope has where a related word is matched (names,
   * name pairs, docs, heads of related lemmas); related words outside it are
   * left out, as they cannot match. Default: all kept.
   */
  matchable?: ReadonlySet<string>;
}

/** Credit factor of a derivational base of a phrase word (squared for the base's own related words). */
const BASE_FACTOR = 0.75;

/**
 * Terms of a phrase, with the lexicon's related words of each stem and of
 * each pair of consecutive words.
 *
 * @example
 * phraseTerms("late deliveries").stems // ["late", "delivery"]
 */
export function phraseTerms(text: string, options: PhraseTermsOptions = {}): PhraseTerms {
  const lexicon = options.lexicon;
  const raw = words(text);
  const content = expandAbbreviations(raw.filter((w) => !STOP_WORDS.has(w)))
    .filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\d/.test(w)));
  const stems = [...new Set(content.map(stem))];
  const pairs: Array<[string, string[]]> = [];
  for (let i = 0; i + 1 < raw.length; i++) {
    const covered = [raw[i]!, raw[i + 1]!].filter((w) => !STOP_WORDS.has(w)).map(stem);
    if (covered.length > 0) pairs.push([`${stem(raw[i]!)} ${stem(raw[i + 1]!)}`, covered]);
  }
  const related = new Map<string, Map<string, number>>();
  if (lexicon) {
    const lookups = [...content.map((w) => [w, stem(w)] as const)];
    for (let i = 0; i + 1 < raw.length; i++) {
      if (!STOP_WORDS.has(raw[i]!)) lookups.push([`${raw[i]} ${raw[i + 1]}`, `${stem(raw[i]!)} ${stem(raw[i + 1]!)}`]);
    }
    for (const [word, key] of lookups) {
      if (/\d/.test(word)) continue;
      const set = new Map<string, number>();
      const put = (rel: string, factor: number) => {
        const parts = rel.split(/[\s-]+/).filter((w) => w !== "");
        if (parts.length > 2 || (parts.length === 1 && STOP_WORDS.has(rel))) return;
        const s = parts.map(stem).join(" ");
        if ((set.get(s) ?? 0) < factor) set.set(s, factor);
      };
      for (const rel of lexicon.related(word)) put(rel, 1);
      // Derivational bases one hop down (`profitability` -> `profit`), and their related words two hops down, with decay.
      for (const base of word.includes(" ") ? [] : lexicon.derivationBases(word)) {
        put(base, BASE_FACTOR);
        for (const rel of lexicon.related(base)) put(rel, BASE_FACTOR * BASE_FACTOR);
      }
      set.delete(key);
      if (options.matchable) for (const s of set.keys()) if (!options.matchable.has(s)) set.delete(s);
      if (set.size > 0) related.set(key, set);
    }
  }
  return { text, lower: text.trim().toLowerCase(), normalized: raw.join(" "), stems, stemSet: new Set(stems), pairs, related };
}
