-- Materializations served to queries, from every node.
--
-- A build writes a Parquet file, stores it content-addressed in
-- `materialization_files` (sha256 of the file, chunks of at most 4 MiB in
-- `materialization_chunks`, like package zips) and then, in one statement,
-- points its `materializations` row at the new hash: that switch is what
-- queries see (src/materializations/serve.ts). Every node caches files
-- locally by hash. A file no row points at any more is deleted with the switch.

CREATE TABLE materialization_files (
  sha256 text PRIMARY KEY,
  size bigint NOT NULL,
  chunks int NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);

CREATE TABLE materialization_chunks (
  sha256 text NOT NULL REFERENCES materialization_files (sha256) ON DELETE CASCADE,
  seq int NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (sha256, seq)
);

-- The file the materialization serves (null before its first build), its
-- columns (Malloy names as written by `select: *`) and the connection of the
-- source it was built from.
ALTER TABLE materializations ADD COLUMN sha256 text REFERENCES materialization_files (sha256);
ALTER TABLE materializations ADD COLUMN columns jsonb;
CREATE INDEX materializations_by_file ON materializations (sha256);

-- Index units: distinct values seen, besides the values kept (`value_count`).
ALTER TABLE run_units ADD COLUMN distinct_count bigint;
ALTER TABLE indexes ADD COLUMN distinct_count bigint;
