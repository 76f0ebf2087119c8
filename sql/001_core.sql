-- Core schema: settings, users, organizations, groups, the containers that carry
-- permissions (environments, packages, workspaces, documents) and one grants table.
CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE settings (
  key text PRIMARY KEY,
  value text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_name text NOT NULL UNIQUE,
  email text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  last_name text NOT NULL DEFAULT '',
  password_hash text,
  system_admin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE organizations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE,
  display_name text NOT NULL DEFAULT '',
  description text NOT NULL DEFAULT '',
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE groups (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, name)
);

-- A member is a user or a nested group; status admin lets it manage the group.
CREATE TABLE group_members (
  group_id uuid NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  member_user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  member_group_id uuid REFERENCES groups (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('admin', 'member')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((member_user_id IS NULL) <> (member_group_id IS NULL))
);
CREATE UNIQUE INDEX group_members_user_key ON group_members (group_id, member_user_id) WHERE member_user_id IS NOT NULL;
CREATE UNIQUE INDEX group_members_group_key ON group_members (group_id, member_group_id) WHERE member_group_id IS NOT NULL;
CREATE INDEX group_members_by_user ON group_members (member_user_id);
CREATE INDEX group_members_by_group ON group_members (member_group_id);

-- Group tokens: API keys acting with the group's permissions. Only the hash is kept.
CREATE TABLE group_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  group_id uuid NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  name text NOT NULL,
  secret_hash text NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (group_id, name)
);

CREATE TABLE environments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, name)
);

CREATE TABLE packages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  env_id uuid NOT NULL REFERENCES environments (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (env_id, name)
);

CREATE TABLE workspaces (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  description text NOT NULL DEFAULT '',
  -- set for a personal workspace: only its owner may use it
  owner_user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, name)
);

CREATE TABLE documents (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  name text NOT NULL,
  content text NOT NULL DEFAULT '',
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One row per permission grant at any level. resource_id is null for the system level.
-- principal_kind 'workspace' is only valid on packages (workspace package access).
CREATE TABLE grants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  resource_kind text NOT NULL CHECK (resource_kind IN ('system', 'organization', 'environment', 'package', 'workspace', 'document')),
  resource_id uuid,
  principal_kind text NOT NULL CHECK (principal_kind IN ('user', 'group', 'workspace')),
  principal_id uuid NOT NULL,
  role text NOT NULL,
  -- a pending access request (requestPermission=true) grants nothing until approved
  pending boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((resource_kind = 'system') = (resource_id IS NULL))
);
CREATE UNIQUE INDEX grants_key ON grants (resource_kind, coalesce(resource_id, '00000000-0000-0000-0000-000000000000'::uuid), principal_kind, principal_id);
CREATE INDEX grants_by_principal ON grants (principal_kind, principal_id);

-- Grants point at resources and principals of several tables; drop them with their target.
CREATE FUNCTION drop_grants_of() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM grants WHERE resource_id = OLD.id OR principal_id = OLD.id;
  RETURN OLD;
END $$;
CREATE TRIGGER users_drop_grants AFTER DELETE ON users FOR EACH ROW EXECUTE FUNCTION drop_grants_of();
CREATE TRIGGER organizations_drop_grants AFTER DELETE ON organizations FOR EACH ROW EXECUTE FUNCTION drop_grants_of();
CREATE TRIGGER groups_drop_grants AFTER DELETE ON groups FOR EACH ROW EXECUTE FUNCTION drop_grants_of();
CREATE TRIGGER environments_drop_grants AFTER DELETE ON environments FOR EACH ROW EXECUTE FUNCTION drop_grants_of();
CREATE TRIGGER packages_drop_grants AFTER DELETE ON packages FOR EACH ROW EXECUTE FUNCTION drop_grants_of();
CREATE TRIGGER workspaces_drop_grants AFTER DELETE ON workspaces FOR EACH ROW EXECUTE FUNCTION drop_grants_of();
CREATE TRIGGER documents_drop_grants AFTER DELETE ON documents FOR EACH ROW EXECUTE FUNCTION drop_grants_of();
