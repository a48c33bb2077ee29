-- Ban audit entries name their target by value, and an email may be 254 characters (an IPv6
-- range or a phone number is shorter): widen target_id from 128 so no target needs a stand-in.
ALTER TABLE audit_logs DROP CONSTRAINT audit_logs_target_id_check;
ALTER TABLE audit_logs ADD CONSTRAINT audit_logs_target_id_check CHECK (char_length(target_id) BETWEEN 1 AND 320);
