-- Webhook secrets encrypted at rest (docs/decisions.md#secrets-encrypted-at-rest). A sealed
-- secret is base64(iv, ciphertext, tag) under the key named by secret_key_id; a row whose
-- secret_key_id is null holds its secret as given (written before encryption, or with no key
-- configured). `migrate` seals those rows in place when a key is configured. A sealed 256-character
-- secret is longer than 256 characters, so the column's bound moves from the secret's to the
-- sealed form's (the API still takes at most 256 characters).
ALTER TABLE webhooks ADD COLUMN secret_key_id text CHECK (secret_key_id ~ '^[0-9a-f]{16}$');
ALTER TABLE webhooks DROP CONSTRAINT webhooks_secret_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_secret_stored_length CHECK (char_length(secret) BETWEEN 1 AND 2048);
ALTER TABLE webhooks ADD CONSTRAINT webhooks_secret_key_with_secret CHECK (secret_key_id IS NULL OR secret IS NOT NULL);
