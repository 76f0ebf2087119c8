-- The query log: one row per query through REST, MCP or an in-package app
-- (src/query_log/). Rows are kept QUERY_LOG_DAYS days (pruned periodically).
CREATE TABLE query_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  at timestamptz NOT NULL,
  principal text NOT NULL,
  via text NOT NULL CHECK (via IN ('rest', 'mcp', 'app')),
  environment_name text NOT NULL,
  package_name text NOT NULL,
  version_id text,
  model_path text NOT NULL,
  query text,
  query_name text,
  source_name text,
  bound_attributes jsonb NOT NULL DEFAULT '[]',
  rows integer,
  ms real NOT NULL,
  status text NOT NULL CHECK (status IN ('ok', 'error', 'refused', 'timeout')),
  error text
);

CREATE INDEX query_log_by_org ON query_log (org_id, id DESC);
CREATE INDEX query_log_by_at ON query_log (at);
