-- Long-running admin operations. The row is the source of truth for a job's state
-- (queued → running → completed | failed); the API reads it, not Redis. Workers move it with
-- conditional updates (`UPDATE … WHERE status IN (…) RETURNING`).

-- Archives (decisions §6). subject_id has no foreign key: the record outlives its subject.
CREATE TABLE archives (
  id bigint PRIMARY KEY,
  subject_type text NOT NULL CHECK (subject_type IN ('user', 'guild')),
  subject_id bigint NOT NULL,
  requested_by bigint NOT NULL REFERENCES admin_users (id) ON DELETE RESTRICT,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed', 'expired')),
  progress_percent smallint NOT NULL DEFAULT 0 CHECK (progress_percent BETWEEN 0 AND 100),
  progress_step text CHECK (char_length(progress_step) <= 200),
  storage_key text CHECK (char_length(storage_key) BETWEEN 1 AND 1024),
  file_size bigint CHECK (file_size >= 0),
  content_type text,
  requested_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz,
  failed_at timestamptz,
  error text CHECK (char_length(error) <= 2000),
  -- Retention: when the object is deleted and the record marked expired.
  expires_at timestamptz NOT NULL,
  CHECK (status <> 'completed' OR (completed_at IS NOT NULL AND storage_key IS NOT NULL AND file_size IS NOT NULL)),
  CHECK (status <> 'failed' OR failed_at IS NOT NULL)
);
CREATE INDEX archives_subject_idx ON archives (subject_type, subject_id, id DESC);
CREATE INDEX archives_requested_by_idx ON archives (requested_by, id DESC);
CREATE INDEX archives_type_idx ON archives (subject_type, id DESC);
-- The retention sweep: completed archives past their expiry.
CREATE INDEX archives_expiry_idx ON archives (expires_at) WHERE status = 'completed';

-- Asset purges (decisions §7) and bulk operations (decisions §8): the validated request and,
-- once done, the per-item result, both as the API returns them.
CREATE TABLE asset_purges (
  id bigint PRIMARY KEY,
  requested_by bigint NOT NULL REFERENCES admin_users (id) ON DELETE RESTRICT,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  request jsonb NOT NULL CHECK (jsonb_typeof(request) = 'object'),
  result jsonb,
  audit_log_reason text CHECK (char_length(audit_log_reason) BETWEEN 1 AND 512),
  error text CHECK (char_length(error) <= 2000),
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz,
  CHECK (status <> 'completed' OR (result IS NOT NULL AND completed_at IS NOT NULL))
);
CREATE INDEX asset_purges_requested_by_idx ON asset_purges (requested_by, id DESC);

CREATE TABLE bulk_operations (
  id bigint PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('add_guild_members')),
  requested_by bigint NOT NULL REFERENCES admin_users (id) ON DELETE RESTRICT,
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'completed', 'failed')),
  request jsonb NOT NULL CHECK (jsonb_typeof(request) = 'object'),
  result jsonb,
  audit_log_reason text CHECK (char_length(audit_log_reason) BETWEEN 1 AND 512),
  error text CHECK (char_length(error) <= 2000),
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  completed_at timestamptz,
  CHECK (status <> 'completed' OR (result IS NOT NULL AND completed_at IS NOT NULL))
);
CREATE INDEX bulk_operations_requested_by_idx ON bulk_operations (requested_by, id DESC);
