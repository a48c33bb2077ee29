-- A webhook message's sender-given delivery id (X-GitHub-Delivery) is its dedupe key: unique per
-- webhook, taken by the worker in the statement that stores the message (webhook-messages.ts),
-- so of the deliveries with one key exactly one posts. On the message row rather than in a table
-- of its own: a key costs the insert one entry of a partial index instead of a heap row, two
-- index entries and a foreign-key check (PostgreSQL CPU per stored message, batches of 16:
-- +3.5 µs against +13 µs), and nothing has to expire it: the key lives as long as the message
-- it posted (past the 7 days decisions §12 asks for; GitHub redelivers within 3), and a
-- delivery that never stored a message never held one.
ALTER TABLE messages ADD COLUMN delivery_id text CHECK (char_length(delivery_id) BETWEEN 1 AND 200);
CREATE UNIQUE INDEX messages_webhook_delivery_id_key ON messages (webhook_id, delivery_id) WHERE delivery_id IS NOT NULL;
DROP TABLE webhook_deliveries;
