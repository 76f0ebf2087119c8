-- Connections, packages, versions, their stored archives and model metadata.

-- Environment connections. `config` holds the non-secret fields as the API shows
-- them; `secret` holds the secret fields as AES-256-GCM ciphertext (see
-- src/connections/secrets.ts), never plain text.
CREATE TABLE connections (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  env_id uuid NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('duckdb', 'postgres', 'mysql', 'bigquery', 'snowflake', 'trino', 'motherduck')),
  config jsonb NOT NULL DEFAULT '{}',
  secret text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (env_id, name)
);

ALTER TABLE packages
  ADD COLUMN metadata jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN latest_version uuid,
  ADD COLUMN created_by uuid REFERENCES users (id) ON DELETE SET NULL;

-- Package archives, content-addressed: identical zips are stored once.
CREATE TABLE package_blobs (
  sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  bytes bytea NOT NULL,
  size bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE package_versions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  package_id uuid NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
  version_id text NOT NULL CHECK (version_id ~ '^[0-9]+\.[0-9]+\.[0-9]+$'),
  archive_status text NOT NULL DEFAULT 'unarchive' CHECK (archive_status IN ('archive', 'unarchive', 'error_state')),
  index_status text NOT NULL DEFAULT 'unknown' CHECK (index_status IN ('unknown', 'indexing', 'indexed', 'failed')),
  blob_sha256 text NOT NULL REFERENCES package_blobs (sha256),
  -- the package.json-like `package` part and publisher.json of this publish
  manifest jsonb NOT NULL DEFAULT '{}',
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (package_id, version_id)
);
CREATE INDEX package_versions_by_blob ON package_versions (blob_sha256);

ALTER TABLE packages ADD CONSTRAINT packages_latest_version_fkey
  FOREIGN KEY (latest_version) REFERENCES package_versions (id) ON DELETE SET NULL;

-- One row per compiled model file of a version: its metadata as
-- src/engine/metadata.ts describes it (sources, fields, views, queries).
CREATE TABLE version_models (
  version uuid NOT NULL REFERENCES package_versions (id) ON DELETE CASCADE,
  model_path text NOT NULL,
  metadata jsonb NOT NULL,
  PRIMARY KEY (version, model_path)
);

-- One row per source, dimension, measure, view and named query of a version's
-- models: what retrieval searches (it adds embeddings to these rows).
CREATE TABLE model_entities (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  version uuid NOT NULL REFERENCES package_versions (id) ON DELETE CASCADE,
  package_id uuid NOT NULL REFERENCES packages (id) ON DELETE CASCADE,
  env_id uuid NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
  model_path text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('source', 'dimension', 'measure', 'view', 'query')),
  name text NOT NULL,
  -- dotted path from the source (`carriers.nickname`); the name for sources and queries
  path text NOT NULL,
  source_name text,
  field_type text,
  data_type text,
  description text,
  indexed boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX model_entities_by_version ON model_entities (version, model_path);
CREATE INDEX model_entities_by_env ON model_entities (env_id, package_id);
