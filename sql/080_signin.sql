-- Sign-in protection and revocation.
--
-- users.token_version: every access token we sign carries it (claim `ver`); a
-- password change, an administrator's reset or a removal bumps it, which ends
-- every access token issued before (checked with the user row each request).
-- users.bootstrap: the first system administrator; identity-provider tokens
-- never sign in as this user.
ALTER TABLE users ADD COLUMN token_version integer NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN bootstrap boolean NOT NULL DEFAULT false;
UPDATE users SET bootstrap = true
 WHERE id = (SELECT id FROM users WHERE system_admin ORDER BY created_at, id LIMIT 1);

-- Failed sign-ins per key (`account:<user id or login>`, `address:<client address>`)
-- in a fixed window; shared by every node of the database.
CREATE TABLE signin_failures (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL DEFAULT now(),
  failures integer NOT NULL DEFAULT 0
);
