/**
 * pgvector plumbing of the retrieval index: vector literals, the vector type
 * of a model's dimension, and the per-model partial HNSW index.
 *
 * `entity_embeddings.embedding` is an untyped `vector` so the embedding model
 * can change without a migration. HNSW needs a fixed dimension, so each model
 * gets its own expression index over `embedding::vector(<dimension>)`,
 * restricted to that model's rows. Both PostgreSQL's pgvector 0.8 and PGlite's
 * pgvector accept this; searches must write the same expression
 * (`embedding::vector(n) <=> $1::vector(n)`) for the planner to use it.
 *
 * Vectors go to and come from the database in pgvector's text form through
 * the `pgvector` package's `toSql`/`fromSql` (bound as text, cast with
 * `::vector` in the statement; read back with `embedding::text`).
 *
 * @module
 */
import { fromSql, toSql } from "pgvector";
import type { Sql } from "../../db/database.ts";

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

/** `vector(<dimension>)`, checked, for SQL text (dimensions cannot be bind parameters). */
function vectorType(dimension: number): string {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > 16_000) {
    throw new Error(`embedding dimension ${dimension} is not an integer in 1..16000; check EMBEDDING_MODEL`);
  }
  return `vector(${dimension})`;
}

/** Name of the HNSW index of a model (63 bytes at most, stable per model and dimension). */
async function vectorIndexName(model: string, dimension: number): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${model}\0${dimension}`));
  const hex = [...new Uint8Array(digest)].slice(0, 6).map((b) => b.toString(16).padStart(2, "0")).join("");
  const slug = model.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "").slice(0, 24);
  return `entity_embeddings_hnsw_${slug}_${dimension}_${hex}`;
}

const ensuredBy = new WeakMap<Sql, Map<string, Promise<void>>>();

/**
 * Creates (once per process and database handle) the partial HNSW index of
 * `model` at `dimension`. Safe to call from several nodes: creation runs under
 * an advisory lock with `IF NOT EXISTS`.
 */
export function ensureVectorIndex(db: Sql, model: { model: string; dimension: number }): Promise<void> {
  let ensured = ensuredBy.get(db);
  if (!ensured) ensuredBy.set(db, ensured = new Map());
  const key = `${model.model}\0${model.dimension}`;
  const known = ensured.get(key);
  if (known) return known;
  const promise = (async () => {
    const name = await vectorIndexName(model.model, model.dimension);
    const literal = `'${model.model.replace(/'/g, "''")}'`;
    const type = vectorType(model.dimension);
    await db.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(727002)`;
      await tx.unsafe(`CREATE INDEX IF NOT EXISTS ${name} ON entity_embeddings
        USING hnsw ((embedding::${type}) vector_cosine_ops) WHERE model = ${literal}`);
    });
  })();
  promise.catch(() => ensured.delete(key));
  ensured.set(key, promise);
  return promise;
}
