/**
 * pgvector plumbing of the retrieval index: vector literals.
 *
 * `entity_embeddings.embedding` is an untyped `vector` so the embedding model
 * can change without a migration. No index is built on it: `get_context`
 * ranks the stored vectors in memory (scoped_entities.ts reads them once per
 * version), and an HNSW index would be maintained on every insert of a run
 * (about half of a run's indexing time on the embedded database) for no
 * statement that reads it.
 *
 * Vectors go to and come from the database in pgvector's text form through
 * the `pgvector` package's `toSql`/`fromSql` (bound as text, cast with
 * `::vector` in the statement; read back with `embedding::text`).
 *
 * @module
 */
import { fromSql, toSql } from "pgvector";

/** The pgvector text form of a vector (`[0.1,0.2,...]`, by `pgvector`'s `toSql`); non-finite components are written as 0. */
export function vectorLiteral(vector: Float32Array): string {
  return toSql(Array.from(vector, (x) => (Number.isFinite(x) ? x : 0)))!;
}

/** A vector read as pgvector text (`embedding::text`), by `pgvector`'s `fromSql`; `undefined` for SQL NULL. */
export function vectorFromSql(text: string | null): Float32Array | undefined {
  if (!text) return undefined;
  const parsed = fromSql(text);
  if (!Array.isArray(parsed)) throw new Error("expected a dense pgvector vector, got a sparse one");
  return Float32Array.from(parsed);
}
