/**
 * Answer-type cues of question words. Static word vectors have no vector for
 * stop words such as `when` (the default model leaves them out), so "when did
 * people register" embeds exactly like "people register" and loses the one
 * word saying that a date is wanted. Question words are rewritten, for
 * embedding only, into the words that entity texts use for that type of
 * answer (date and time fields carry `date day` / `time date`).
 *
 * @module
 */

/** Question words (as whole words, lowercase) and the answer-type words that stand in for them. */
const ANSWER_TYPE_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bwhen\b/g, "date time"],
  [/\bwhat (?:date|day|year|time)\b/g, "date time"],
];

/**
 * The text to embed for a phrase: question words replaced by their answer
 * type, the rest unchanged.
 *
 * @example
 * phraseEmbeddingText("when did people register") // "date time did people register"
 */
export function phraseEmbeddingText(phrase: string): string {
  let text = phrase.toLowerCase();
  for (const [pattern, words] of ANSWER_TYPE_WORDS) text = text.replace(pattern, words);
  return text;
}
