-- Changes to what authentication and access decisions read, for the caches of
-- those decisions (src/http/auth_cache.ts): the users, the organizations and
-- the containers that carry roles (whose names and ids `effective_rank` walks),
-- groups, memberships, group tokens and grants. Every statement that writes one of
-- the tables below adds a row to auth_changes inside the writing transaction,
-- whichever node, script or client wrote it, so the row becomes visible exactly
-- when the change does. A node reads `epoch:count` before it trusts a cached
-- decision (one check serves the requests that wait for it); a new pair drops
-- its cached decisions. Rows are only inserted (no shared row is locked, so
-- concurrent transactions never wait on each other here); a prune deletes them
-- and bumps the epoch in one transaction, so a pair never repeats.
CREATE TABLE auth_changes (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE auth_epoch (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  epoch bigint NOT NULL DEFAULT 0
);
INSERT INTO auth_epoch DEFAULT VALUES;

CREATE FUNCTION note_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO auth_changes DEFAULT VALUES;
  RETURN NULL;
END $$;

CREATE TRIGGER users_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER organizations_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER groups_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON groups
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER group_members_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON group_members
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER group_tokens_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON group_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER grants_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON grants
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER environments_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON environments
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER packages_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON packages
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER workspaces_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON workspaces
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
CREATE TRIGGER documents_auth_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON documents
  FOR EACH STATEMENT EXECUTE FUNCTION note_auth_change();
