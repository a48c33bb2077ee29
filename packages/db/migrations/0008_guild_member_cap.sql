-- The member cap as an invariant of the guild row: the members trigger's UPDATE of
-- member_count fails when a statement would take a guild over max_members. Bulk adds then
-- insert without holding the guild row for their whole statement (they take it, like any
-- insert, at the trigger) and retry with fresh counts when a concurrent add took the last slots.
ALTER TABLE guilds ADD CONSTRAINT guilds_member_count_within_max CHECK (member_count <= max_members) NOT VALID;
ALTER TABLE guilds VALIDATE CONSTRAINT guilds_member_count_within_max;
