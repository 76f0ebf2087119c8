/**
 * Loading, once per process and off the start path, what the first run's
 * retrieval step and the first `get_context` would otherwise wait for: the
 * embedding model and the lexicon (each takes a second or more on a busy
 * host).
 * @module
 */
import { getEmbedder } from "./embedding/embedder.ts";
import { loadLexicon } from "./text/lexicon.ts";

/** Loads the embedding model and the lexicon; never throws (a failed load is retried by its first real use). */
export async function warmRetrieval(): Promise<void> {
  await getEmbedder().catch(() => null);
  try {
    loadLexicon();
  } catch {
    // the first search loads it again and reports what is wrong
  }
}
