-- OAuth 2.1 authorization server for MCP clients: dynamically registered public
-- clients (RFC 7591), grants (one per completed authorization: the "family" of
-- its code and refresh tokens), single-use authorization codes and rotating
-- refresh tokens. Codes and refresh tokens are stored as SHA-256 hashes only.

CREATE TABLE oauth_clients (
  client_id text PRIMARY KEY,
  client_name text NOT NULL DEFAULT '',
  redirect_uris jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One authorization of one user for one client and one MCP resource. Revoking it
-- (refresh token reuse, code reuse, POST /oauth/revoke) ends its refresh tokens and
-- the access tokens issued under it (the MCP endpoint checks the grant).
CREATE TABLE oauth_grants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  client_id text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  resource text NOT NULL,
  scope text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

CREATE TABLE oauth_codes (
  code_hash text PRIMARY KEY,
  grant_id uuid NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz
);

CREATE TABLE oauth_refresh_tokens (
  token_hash text PRIMARY KEY,
  grant_id uuid NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL,
  -- Set when the token was exchanged for a new one; presenting it again is reuse.
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_refresh_tokens_by_grant ON oauth_refresh_tokens (grant_id);
CREATE INDEX oauth_codes_by_grant ON oauth_codes (grant_id);
CREATE INDEX oauth_codes_expiry ON oauth_codes (expires_at);
