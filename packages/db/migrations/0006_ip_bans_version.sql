-- A change counter for ip_bans: gateway replicas record it with every full load of their IP
-- ban index (in the same snapshot) and reload only when it moved, so the periodic safety net
-- costs one tiny read when nothing was missed (a change whose publish to Redis failed, or a
-- replica that died between commit and publish). Bumped once per writing statement, in the
-- writer's transaction: a reader sees the new value exactly when it sees the change.
CREATE TABLE ip_bans_version (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version bigint NOT NULL
);
INSERT INTO ip_bans_version (singleton, version) VALUES (true, 0);

CREATE FUNCTION ip_bans_version_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE ip_bans_version SET version = version + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER ip_bans_version_bump
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ip_bans
  FOR EACH STATEMENT EXECUTE FUNCTION ip_bans_version_bump();
