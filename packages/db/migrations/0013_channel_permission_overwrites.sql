-- Channel permission overwrites, as Discord's: per channel, a role (type 0; the @everyone role's
-- id is the guild's id) or a member (type 1) gets bits denied and allowed on top of its guild
-- permissions. The gateway applies them (services/gateway/src/permissions) to every check made
-- on a channel or on a webhook of one.
CREATE TABLE channel_permission_overwrites (
  channel_id bigint NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  target_id bigint NOT NULL,
  type smallint NOT NULL CHECK (type IN (0, 1)),
  allow bigint NOT NULL DEFAULT 0,
  deny bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (channel_id, target_id)
);
