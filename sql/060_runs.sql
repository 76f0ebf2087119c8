-- Runs: the build queue of package versions, and what runs build.
--
-- A run is one row, claimed by any node with FOR UPDATE SKIP LOCKED
-- (src/runs/store.ts claimRun). Its units run in order (table units, then
-- index units) and every state change is a committed row, so a node that dies
-- leaves a `running` run with a stale `heartbeat_at`: the next claim on any
-- node marks it failed (src/runs/store.ts failStaleRuns).

CREATE TABLE runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  package_id uuid NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
  version uuid NOT NULL REFERENCES package_versions (id) ON DELETE CASCADE,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled')),
  -- null: a full run (every persist source, every indexed dimension, and the
  -- retrieval index); otherwise { "sources": [...], "dimensions": [...] }
  scope jsonb,
  cancel_requested boolean NOT NULL DEFAULT false,
  -- the version's index_status before the run set it `indexing` (restored by a
  -- run that ends without building every index); null when the run builds no index
  prior_index_status text,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  started_at timestamptz,
  finished_at timestamptz,
  error text,
  -- node (app context id) that claimed it, and its last sign of life
  claimed_by text,
  heartbeat_at timestamptz
);
CREATE INDEX runs_by_package ON runs (package_id, created_at DESC, id DESC);
CREATE INDEX runs_queued ON runs (created_at) WHERE state = 'queued';
CREATE INDEX runs_in_flight ON runs (version) WHERE state IN ('queued', 'running');

CREATE TABLE run_units (
  run uuid NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
  position int NOT NULL,
  kind text NOT NULL CHECK (kind IN ('table', 'index')),
  -- table: the source name; index: `source.dimension.path`
  target text NOT NULL,
  model_path text NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'succeeded', 'failed', 'cancelled', 'skipped')),
  row_count bigint,
  value_count int,
  started_at timestamptz,
  finished_at timestamptz,
  error text,
  PRIMARY KEY (run, position)
);

-- One row per version and `#(index)` dimension: its latest build. `status`
-- `built` only once its values are committed (with `entity_embeddings.indexed_values`).
CREATE TABLE indexes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  version uuid NOT NULL REFERENCES package_versions (id) ON DELETE CASCADE,
  model_path text NOT NULL,
  source_name text NOT NULL,
  dimension text NOT NULL,
  status text NOT NULL CHECK (status IN ('building', 'built', 'failed', 'cancelled')),
  value_count int,
  -- [{ "value": "...", "count": 12 }], most frequent first (the last build's)
  indexed_values jsonb,
  run uuid REFERENCES runs (id) ON DELETE SET NULL,
  built_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (version, model_path, source_name, dimension)
);
CREATE INDEX indexes_by_recency ON indexes (version, updated_at DESC, id DESC);

-- One row per version and `#@ persist` source: its latest materialization.
-- `location` is relative to DATA_DIR (Parquet written by src/engine/parquet_writer.ts).
CREATE TABLE materializations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  version uuid NOT NULL REFERENCES package_versions (id) ON DELETE CASCADE,
  model_path text NOT NULL,
  source_name text NOT NULL,
  connection text NOT NULL,
  format text NOT NULL DEFAULT 'parquet',
  location text NOT NULL,
  status text NOT NULL CHECK (status IN ('building', 'built', 'failed', 'cancelled')),
  row_count bigint,
  run uuid REFERENCES runs (id) ON DELETE SET NULL,
  built_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (version, model_path, source_name)
);
CREATE INDEX materializations_by_recency ON materializations (version, updated_at DESC, id DESC);
