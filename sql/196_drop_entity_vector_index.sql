-- get_context ranks the stored vectors in memory; no statement reads the
-- per-model HNSW indexes of entity_embeddings, and every run's insert
-- maintained them (about half of its indexing time on the embedded database).
DO $$
DECLARE
  name text;
BEGIN
  FOR name IN SELECT indexname FROM pg_indexes WHERE tablename = 'entity_embeddings' AND indexname LIKE 'entity_embeddings_hnsw_%' LOOP
    EXECUTE format('DROP INDEX IF EXISTS %I', name);
  END LOOP;
END $$;
