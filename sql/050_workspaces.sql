-- Workspaces, documents and bookmarks (the tables of workspaces and documents are in
-- 001_core.sql): one personal workspace per user and organization, documents listed
-- by workspace, and each user's bookmarks within an organization.

-- At most one personal workspace per user in an organization ("get or create" is
-- idempotent under concurrent calls).
CREATE UNIQUE INDEX workspaces_personal_key ON workspaces (org_id, owner_user_id) WHERE owner_user_id IS NOT NULL;

CREATE INDEX documents_by_workspace ON documents (workspace_id, name, id);

-- A bookmark belongs to one user in one organization and points at a workspace, a
-- model or a chat conversation by an opaque object id.
CREATE TABLE bookmarks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  bookmark_type text NOT NULL CHECK (bookmark_type IN ('workspace', 'model', 'chat')),
  object_id text NOT NULL,
  name text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, user_id, bookmark_type, object_id)
);
