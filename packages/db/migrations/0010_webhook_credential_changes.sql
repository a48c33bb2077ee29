-- Gateway processes keep the webhooks they executed (id, token, secret) in memory as they keep
-- admin keys (0009), on the same change feed (services/gateway/src/change-feed.ts): any
-- statement that could make a cached webhook answer an execution differently notifies at its
-- commit, whoever runs it, with its transaction id, so the API's deletion and secret change can
-- wait for every process to have applied it. Deleting a guild or channel deletes its webhooks
-- by cascade, which fires this trigger too. Inserts need nothing (a webhook nobody executed is
-- not cached), nor do name, avatar or channel changes (the worker reads those at delivery).
CREATE TRIGGER webhooks_credentials_changed
  AFTER UPDATE OF id, token, secret OR DELETE OR TRUNCATE ON webhooks
  FOR EACH STATEMENT EXECUTE FUNCTION admin_auth_changed();
