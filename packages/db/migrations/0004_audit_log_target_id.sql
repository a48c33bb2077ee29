-- Audit-log filter by target id alone (decisions §5; the new Fluxer panel sends target_id
-- without target_type). audit_logs_target_idx leads with target_type, so without this index
-- that filter (and its exact count) is a sequential scan of the whole log.
CREATE INDEX audit_logs_target_id_idx ON audit_logs (target_id, created_at DESC, id DESC);
