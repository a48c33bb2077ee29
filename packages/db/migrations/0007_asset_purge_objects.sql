-- A purge deletes rows first, in one transaction with its audit entries, then the objects.
-- The keys still to delete are kept on the purge, so a retry after a crash between the two
-- deletes the same objects instead of finding the rows gone and forgetting them.
ALTER TABLE asset_purges ADD COLUMN object_keys text[] CHECK (array_position(object_keys, NULL) IS NULL);
