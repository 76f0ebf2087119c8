-- The embedded database's one session LISTENs on auth_changes (src/db/database.ts):
-- there every auth change also notifies it, and the commit's notification, read
-- in-process before the writer hears of the commit, drops the cached decisions
-- without a freshness check per batch of requests (src/http/auth_cache.ts). On a
-- PostgreSQL server the writing session never listens, so nothing is notified
-- and the behaviour is that of 145_auth_changes.sql.
CREATE OR REPLACE FUNCTION note_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO auth_changes DEFAULT VALUES;
  IF 'auth_changes' = ANY (ARRAY(SELECT pg_listening_channels())) THEN
    PERFORM pg_notify('auth_changes', '');
  END IF;
  RETURN NULL;
END $$;
