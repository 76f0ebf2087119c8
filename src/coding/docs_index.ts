/**
 * The coding API's documentation corpus: our markdown docs (`docs/*.md`)
 * split into passages at their headings, indexed in memory on first use.
 *
 * Ranking blends a BM25 score over stemmed words (titles count twice), the
 * share of the query's words found in the passage's title, and the cosine
 * similarity of embeddings (the shared retrieval embedder) when a model is
 * available: `0.5 * bm25 / max(bm25) + 0.3 * title + 0.2 * cosine`; without a
 * model `0.7 * bm25 / max(bm25) + 0.3 * title`. A passage with no query word in common
 * and a low cosine (< 0.5) is not a match.
 * @module
 */
import { readdir, readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { getEmbedder } from "../retrieval/embedding/embedder.ts";
import { EmbeddingServiceError } from "../retrieval/embedding/remote_embedder.ts";
import { STOP_WORDS, expandAbbreviations, stem, words } from "../retrieval/text/text_terms.ts";

/** Folder of the documentation the coding API serves. */
const DOCS_DIR: string = join(import.meta.dir, "..", "..", "docs");

/** One passage: the text under one heading of one document. */
export interface DocPassage {
  /** Heading path, e.g. `Modeling guide > Measures`. */
  title: string;
  /** Markdown of the section (without its heading line). */
  text: string;
  /** Document it comes from, e.g. `docs/modeling_guide.md`. */
  source: string;
}

/** A passage with its relevance to a query. */
export interface ScoredPassage extends DocPassage {
  /** Relevance from 0 to 1, rounded to three decimals. */
  score: number;
}

interface IndexedPassage extends DocPassage {
  terms: Map<string, number>;
  titleTerms: Set<string>;
  length: number;
  vector: Float32Array | null;
}

interface DocsIndex {
  passages: IndexedPassage[];
  /** Documents holding each term. */
  documentFrequency: Map<string, number>;
  averageLength: number;
  embed: ((texts: string[]) => Promise<(Float32Array | null)[]>) | null;
}

const indexes = new Map<string, Promise<DocsIndex>>();

/**
 * Splits a markdown document into passages at `#`, `##` and `###` headings
 * (fenced code is never split). A passage's title joins the document title
 * and its heading; empty sections are dropped.
 */
export function splitMarkdown(markdown: string, source: string): DocPassage[] {
  const passages: DocPassage[] = [];
  let docTitle = basename(source).replace(/\.md$/, "").replace(/_/g, " ");
  let heading: string | null = null;
  let lines: string[] = [];
  let fenced = false;
  const flush = () => {
    const text = lines.join("\n").trim();
    if (text !== "") passages.push({ title: heading === null ? docTitle : `${docTitle} > ${heading}`, text, source });
    lines = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const m = fenced ? null : /^(#{1,3})\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) {
      flush();
      if (m[1] === "#") {
        docTitle = m[2]!;
        heading = null;
      } else heading = m[2]!;
      continue;
    }
    lines.push(line);
  }
  flush();
  return passages;
}

/** Stemmed words of a text for BM25 (stop words dropped, abbreviations expanded, duplicates kept). */
export function docTerms(text: string): string[] {
  const raw = words(text).filter((w) => !STOP_WORDS.has(w) && (w.length > 1 || /\d/.test(w)));
  return expandAbbreviations(raw).filter((w) => !STOP_WORDS.has(w)).map(stem);
}

function countTerms(terms: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

async function buildIndex(dir: string): Promise<DocsIndex> {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".md")).sort();
  const passages: IndexedPassage[] = [];
  for (const file of files) {
    const markdown = await readFile(join(dir, file), "utf8");
    for (const p of splitMarkdown(markdown, `docs/${file}`)) {
      const terms = [...docTerms(p.title), ...docTerms(p.title), ...docTerms(p.text)];
      passages.push({ ...p, terms: countTerms(terms), titleTerms: new Set(docTerms(p.title.split(" > ").at(-1)!)), length: terms.length, vector: null });
    }
  }
  const documentFrequency = new Map<string, number>();
  for (const p of passages) for (const t of p.terms.keys()) documentFrequency.set(t, (documentFrequency.get(t) ?? 0) + 1);
  const averageLength = passages.reduce((n, p) => n + p.length, 0) / Math.max(1, passages.length);
  let embedder = await getEmbedder();
  if (embedder) {
    // an embeddings server (EMBEDDING_BASE_URL) failing now: the docs are searched by words only
    const vectors = await embedder.embed(passages.map((p) => `${p.title}. ${p.text.replace(/```[\s\S]*?```/g, " ")}`))
      .catch((error: unknown) => {
        if (error instanceof EmbeddingServiceError) return null;
        throw error;
      });
    if (vectors) passages.forEach((p, i) => (p.vector = vectors[i] ?? null));
    else embedder = null;
  }
  return { passages, documentFrequency, averageLength, embed: embedder ? (texts) => embedder.embed(texts) : null };
}

function docsIndex(dir: string): Promise<DocsIndex> {
  let index = indexes.get(dir);
  if (!index) {
    index = buildIndex(dir);
    index.catch(() => indexes.delete(dir));
    indexes.set(dir, index);
  }
  return index;
}

function bm25(index: DocsIndex, passage: IndexedPassage, query: string[]): number {
  const k1 = 1.2;
  const b = 0.75;
  const n = index.passages.length;
  let score = 0;
  for (const term of new Set(query)) {
    const tf = passage.terms.get(term) ?? 0;
    if (tf === 0) continue;
    const df = index.documentFrequency.get(term) ?? 0;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    score += idf * (tf * (k1 + 1)) / (tf + k1 * (1 - b + b * passage.length / index.averageLength));
  }
  return score;
}

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

/** Verbs of how-to questions that say nothing about the topic (stemmed). */
const QUESTION_VERBS = new Set(["add", "defin", "creat", "writ", "mak", "make", "use", "goe", "go", "put", "work", "way", "exampl"].map((w) => w));

/** Options of {@link searchDocs}. */
export interface SearchDocsOptions {
  /** Most passages returned; default 5. */
  limit?: number;
  /** Folder of markdown documents; default {@link DOCS_DIR}. */
  dir?: string;
}

/**
 * The passages of the documentation that best answer a query, best first;
 * empty when nothing matches.
 *
 * @example
 * const [best] = await searchDocs("how do I define a measure");
 */
export async function searchDocs(query: string, options: SearchDocsOptions = {}): Promise<ScoredPassage[]> {
  const index = await docsIndex(options.dir ?? DOCS_DIR);
  const terms = docTerms(query).filter((t) => !QUESTION_VERBS.has(t));
  const asked = new Set(terms);
  const lexical = index.passages.map((p) => bm25(index, p, terms));
  const top = Math.max(0, ...lexical);
  const [queryVector] = index.embed
    ? await index.embed([query]).catch((error: unknown) => {
      if (error instanceof EmbeddingServiceError) return [null];
      throw error;
    })
    : [null];
  const scored: ScoredPassage[] = [];
  index.passages.forEach((p, i) => {
    const lex = top > 0 ? lexical[i]! / top : 0;
    const title = asked.size > 0 ? [...asked].filter((t) => p.titleTerms.has(t)).length / asked.size : 0;
    const sem = queryVector && p.vector ? Math.max(0, cosine(queryVector, p.vector)) : 0;
    if (lex === 0 && sem < 0.5) return;
    const score = queryVector ? 0.5 * lex + 0.3 * title + 0.2 * sem : 0.7 * lex + 0.3 * title;
    scored.push({ title: p.title, text: p.text, source: p.source, score: Math.round(score * 1000) / 1000 });
  });
  scored.sort((a, b) => b.score - a.score || a.title.localeCompare(b.title));
  return scored.slice(0, Math.max(1, options.limit ?? 5));
}

/** Fenced ` ```malloy ` blocks of a markdown text. */
export function malloyBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```malloy\s*\n([\s\S]*?)```/g)].map((m) => m[1]!.trimEnd());
}
