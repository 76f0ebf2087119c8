-- Retrieval index of model entities (get_context, POST /retrieval/context).
--
-- One row per model entity, written by src/retrieval/indexer.ts after a
-- publish commits: the text that was embedded, its lexical terms, the indexed
-- values of `#(index)` dimensions and the embedding.
--
-- `embedding` has no fixed dimension, so the embedding model can change
-- (EMBEDDING_MODEL) without a migration: every vector records its `model`,
-- and the service creates at start one partial HNSW index per active model
-- over `embedding::vector(<dimension>)` (see src/retrieval/vector_index.ts).
-- `content_hash` (sha256 of model and text) lets a re-index reuse a vector
-- instead of embedding the same text again.
CREATE TABLE entity_embeddings (
  entity_id uuid PRIMARY KEY REFERENCES model_entities (id) ON DELETE CASCADE,
  version uuid NOT NULL REFERENCES package_versions (id) ON DELETE CASCADE,
  -- the embedded text and the stems ranking matches (entity_text.ts LexicalTerms)
  text text NOT NULL,
  lexical_terms jsonb NOT NULL DEFAULT '{}',
  -- `#(index)` dimensions: [{ "value": "...", "count": 12 }], most frequent first
  indexed_values jsonb,
  -- null when the text has no known word or no model was available (lexical only)
  model text,
  content_hash text NOT NULL,
  embedding vector,
  indexed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK ((model IS NULL) = (embedding IS NULL))
);
CREATE INDEX entity_embeddings_by_version ON entity_embeddings (version);
CREATE INDEX entity_embeddings_by_hash ON entity_embeddings (model, content_hash);
