-- Durable package events (GET .../packages/{pkg}/events). Each package stream
-- (environment + package name; the stream outlives a deleted package of the same
-- name, so ids never go back) has a counter row: an event takes the next id with
-- one row-locking UPDATE, so ids increase across restarts and across nodes
-- sharing the database. The last EVENT_HISTORY events per stream are kept for
-- Last-Event-ID replay; on a PostgreSQL server a NOTIFY on 'package_events'
-- wakes the other nodes' streams.
CREATE TABLE package_event_streams (
  env_id uuid NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
  package_name text NOT NULL,
  last_id bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (env_id, package_name)
);

CREATE TABLE package_events (
  env_id uuid NOT NULL,
  package_name text NOT NULL,
  id bigint NOT NULL,
  event text NOT NULL,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (env_id, package_name, id),
  FOREIGN KEY (env_id, package_name) REFERENCES package_event_streams (env_id, package_name) ON DELETE CASCADE
);
