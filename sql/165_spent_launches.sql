-- Launch credentials of in-package apps (src/apps/credentials.ts) open one app
-- page once: the app origin records each one it accepts, by its JWT id, until
-- it expires, and refuses a second post of the same credential (a copied form,
-- a replayed request), on every node of the database.
CREATE TABLE spent_launches (
  jti text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX spent_launches_by_expiry ON spent_launches (expires_at);
