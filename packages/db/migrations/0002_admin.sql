-- Admin principals, their API keys, bans and the audit log (decisions §2, §4, §5).

-- Admins are principals of their own (not users) holding a set of ACL strings; `*` grants all.
CREATE TABLE admin_users (
  id bigint PRIMARY KEY,
  name text NOT NULL UNIQUE CHECK (char_length(name) BETWEEN 1 AND 100),
  acls text[] NOT NULL DEFAULT '{}' CHECK (array_position(acls, NULL) IS NULL),
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Key material is `fa_<id>_<32 base62>`; only the SHA-256 of the whole key is stored.
-- A request must satisfy both the key's ACLs and its owner's current ACLs.
CREATE TABLE admin_api_keys (
  id bigint PRIMARY KEY,
  admin_user_id bigint NOT NULL REFERENCES admin_users (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  key_hash bytea NOT NULL CHECK (octet_length(key_hash) = 32),
  acls text[] NOT NULL DEFAULT '{}' CHECK (array_position(acls, NULL) IS NULL),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  expires_at timestamptz,
  CHECK (expires_at IS NULL OR expires_at > created_at)
);
-- The caller's own keys, newest first.
CREATE INDEX admin_api_keys_admin_user_id_idx ON admin_api_keys (admin_user_id, id DESC);

-- Bans carry their canonical value (email lower-cased, phone E.164) as the key, so add and
-- remove are idempotent however the value was written. A ban whose expires_at has passed no
-- longer applies; readers filter on it.
CREATE TABLE email_bans (
  value text PRIMARY KEY CHECK (value = lower(value) AND char_length(value) BETWEEN 3 AND 254),
  reason text CHECK (char_length(reason) <= 512),
  expires_at timestamptz,
  created_by bigint REFERENCES admin_users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_bans_created_at_idx ON email_bans (created_at DESC, value DESC);

CREATE TABLE phone_bans (
  value text PRIMARY KEY CHECK (value ~ '^\+[1-9][0-9]{1,14}$'),
  reason text CHECK (char_length(reason) <= 512),
  expires_at timestamptz,
  created_by bigint REFERENCES admin_users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX phone_bans_created_at_idx ON phone_bans (created_at DESC, value DESC);

-- `network` is canonical (cidr masks host bits; a single address is a /32 or /128), so
-- `2001:0db8::1` and `2001:db8::1` are the same ban. `display` keeps the form first given.
CREATE TABLE ip_bans (
  id bigint PRIMARY KEY,
  network cidr NOT NULL UNIQUE,
  display text NOT NULL CHECK (char_length(display) BETWEEN 1 AND 64),
  reason text CHECK (char_length(reason) <= 512),
  expires_at timestamptz,
  created_by bigint REFERENCES admin_users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
-- "Is this address or range covered?" (`network >>= $1`) without a scan.
CREATE INDEX ip_bans_network_gist_idx ON ip_bans USING gist (network inet_ops);
CREATE INDEX ip_bans_created_at_idx ON ip_bans (created_at DESC, id DESC);

-- Entries are history: the admin that acted is kept, so an admin with entries cannot be
-- deleted (remove their ACLs instead). metadata is a flat string-to-string map.
CREATE TABLE audit_logs (
  id bigint PRIMARY KEY,
  admin_user_id bigint NOT NULL REFERENCES admin_users (id) ON DELETE RESTRICT,
  target_type text NOT NULL CHECK (char_length(target_type) BETWEEN 1 AND 64),
  target_id text NOT NULL CHECK (char_length(target_id) BETWEEN 1 AND 128),
  action text NOT NULL CHECK (char_length(action) BETWEEN 1 AND 100),
  audit_log_reason text CHECK (char_length(audit_log_reason) BETWEEN 1 AND 512),
  metadata jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(metadata) = 'object'),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- Full-text search (decisions §5). The 'simple' configuration keeps identifiers intact
  -- (no stemming), so queries must use it too: to_tsquery('simple', …) or
  -- websearch_to_tsquery('simple', …). Weights rank the action and target above the reason
  -- and metadata for sort_by=relevance.
  search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('simple', action || ' ' || target_type || ' ' || target_id), 'A')
    || setweight(to_tsvector('simple', coalesce(audit_log_reason, '')), 'B')
    || setweight(jsonb_to_tsvector('simple', metadata, '["string"]'), 'C')
  ) STORED
);
CREATE INDEX audit_logs_search_idx ON audit_logs USING gin (search);
CREATE INDEX audit_logs_created_at_idx ON audit_logs (created_at DESC, id DESC);
CREATE INDEX audit_logs_admin_user_id_idx ON audit_logs (admin_user_id, created_at DESC);
CREATE INDEX audit_logs_target_idx ON audit_logs (target_type, target_id, created_at DESC);
CREATE INDEX audit_logs_action_idx ON audit_logs (action, created_at DESC);
