-- Gateway processes keep the admin keys they authenticated (with their owners) in memory,
-- and only while they provably hear every change that could alter an authentication: each
-- LISTENs on this channel (packages/db/src/leased-listener.ts). Any statement that could make a
-- cached key answer differently notifies at its commit, whoever runs it (the API, the CLI, an
-- operator in psql), with its transaction id so the API's key deletion can wait for every
-- process to have applied it. Inserts need nothing: a key nobody has read is not cached, and
-- last_used_at is not part of an authentication.
CREATE FUNCTION admin_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('switchboard_admin_auth', 'c ' || txid_current());
  RETURN NULL;
END
$$;

CREATE TRIGGER admin_api_keys_auth_changed
  AFTER UPDATE OF id, admin_user_id, key_hash, acls, expires_at OR DELETE OR TRUNCATE ON admin_api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION admin_auth_changed();

CREATE TRIGGER admin_users_auth_changed
  AFTER UPDATE OF id, name, acls, created_at OR DELETE OR TRUNCATE ON admin_users
  FOR EACH STATEMENT EXECUTE FUNCTION admin_auth_changed();
