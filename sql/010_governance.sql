-- Governance: invites (organization creation codes) and trusted attributes.

-- An invite lets one authenticated user create one organization. Consumed
-- invites are kept for audit; only unconsumed ones can be revoked (deleted).
CREATE TABLE invites (
  token text PRIMARY KEY CHECK (token ~ '^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$'),
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  consumed_at timestamptz,
  consumed_by uuid REFERENCES users (id) ON DELETE SET NULL,
  org_id uuid REFERENCES organizations (id) ON DELETE SET NULL
);

-- A trusted attribute of an organization: a typed schema with a default,
-- user-scoped values and group-scoped values (lower rank wins).
CREATE TABLE attributes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  org_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  name text NOT NULL,
  type text NOT NULL CHECK (type IN ('string', 'number', 'boolean', 'string_list')),
  default_value jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (org_id, name)
);

CREATE TABLE attribute_user_values (
  attribute_id uuid NOT NULL REFERENCES attributes (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  value jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (attribute_id, user_id)
);

CREATE TABLE attribute_group_values (
  attribute_id uuid NOT NULL REFERENCES attributes (id) ON DELETE CASCADE,
  group_id uuid NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
  value jsonb NOT NULL,
  rank int,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (attribute_id, group_id)
);
CREATE INDEX attribute_group_values_by_group ON attribute_group_values (group_id);
CREATE INDEX attribute_user_values_by_user ON attribute_user_values (user_id);
