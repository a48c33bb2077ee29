-- Which admin API key acted, beside its owner: an owner has many keys, and after a leak the
-- question is what that one key did. No foreign key: entries are history and outlive the key
-- (deleting a key must not touch them). Null for entries written before this column existed.
ALTER TABLE audit_logs ADD COLUMN api_key_id bigint;
CREATE INDEX audit_logs_api_key_id_idx ON audit_logs (api_key_id, created_at DESC) WHERE api_key_id IS NOT NULL;
-- Operations that workers finish write their audit entry then: they keep the acting key too.
ALTER TABLE asset_purges ADD COLUMN requested_by_key_id bigint;
ALTER TABLE bulk_operations ADD COLUMN requested_by_key_id bigint;
