-- Domain data the admin and webhook planes act on (decisions §11). There is no public write
-- API for these tables here: the CLI seeds them and workers (bulk add, webhooks) extend them.
-- Every id is a bigint snowflake made by the application; every time is timestamptz.

CREATE TABLE users (
  id bigint PRIMARY KEY,
  username text NOT NULL CHECK (char_length(username) BETWEEN 1 AND 32),
  discriminator smallint NOT NULL DEFAULT 0 CHECK (discriminator BETWEEN 0 AND 9999),
  global_name text CHECK (char_length(global_name) BETWEEN 1 AND 32),
  avatar_hash text CHECK (char_length(avatar_hash) BETWEEN 1 AND 64),
  banner_hash text CHECK (char_length(banner_hash) BETWEEN 1 AND 64),
  -- Stored lower-cased, as email bans compare them.
  email text CHECK (email = lower(email) AND char_length(email) BETWEEN 3 AND 254),
  -- Strict E.164, as phone bans compare them.
  phone text CHECK (phone ~ '^\+[1-9][0-9]{1,14}$'),
  flags bigint NOT NULL DEFAULT 0,
  bot boolean NOT NULL DEFAULT false,
  system boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (email) WHERE email IS NOT NULL;

-- User and bot tokens. Only the SHA-256 of the token is stored (see @switchboard/auth).
CREATE TABLE user_tokens (
  token_hash bytea PRIMARY KEY CHECK (octet_length(token_hash) = 32),
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('user', 'bot')),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_ip inet,
  last_seen_at timestamptz
);
CREATE INDEX user_tokens_user_id_idx ON user_tokens (user_id);
-- Retroactive IP bans revoke tokens with `last_seen_ip <<= $range` in one statement.
CREATE INDEX user_tokens_last_seen_ip_idx ON user_tokens USING gist (last_seen_ip inet_ops);

CREATE TABLE guilds (
  id bigint PRIMARY KEY,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  -- A user who owns a guild cannot be deleted until ownership moves.
  owner_id bigint NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  icon_hash text CHECK (char_length(icon_hash) BETWEEN 1 AND 64),
  banner_hash text CHECK (char_length(banner_hash) BETWEEN 1 AND 64),
  splash_hash text CHECK (char_length(splash_hash) BETWEEN 1 AND 64),
  embed_splash_hash text CHECK (char_length(embed_splash_hash) BETWEEN 1 AND 64),
  features text[] NOT NULL DEFAULT '{}' CHECK (array_position(features, NULL) IS NULL),
  verification_level smallint NOT NULL DEFAULT 0 CHECK (verification_level BETWEEN 0 AND 4),
  default_message_notifications smallint NOT NULL DEFAULT 0 CHECK (default_message_notifications BETWEEN 0 AND 1),
  explicit_content_filter smallint NOT NULL DEFAULT 0 CHECK (explicit_content_filter BETWEEN 0 AND 2),
  -- Maintained by the members triggers below; never written by application code.
  member_count integer NOT NULL DEFAULT 0 CHECK (member_count >= 0),
  max_members integer NOT NULL DEFAULT 250000 CHECK (max_members > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX guilds_owner_id_idx ON guilds (owner_id);

-- Channel types as Discord's: 0 text, 1 DM, 2 voice, 3 group DM, 4 category, 5 announcement,
-- 13 stage, 15 forum. DMs (1, 3) are the only channels outside a guild.
CREATE TABLE channels (
  id bigint PRIMARY KEY,
  guild_id bigint REFERENCES guilds (id) ON DELETE CASCADE,
  type smallint NOT NULL CHECK (type IN (0, 1, 2, 3, 4, 5, 13, 15)),
  name text CHECK (char_length(name) BETWEEN 1 AND 100),
  topic text CHECK (char_length(topic) <= 1024),
  nsfw boolean NOT NULL DEFAULT false,
  position integer NOT NULL DEFAULT 0,
  parent_id bigint REFERENCES channels (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((guild_id IS NULL) = (type IN (1, 3))),
  CHECK (guild_id IS NULL OR name IS NOT NULL)
);
CREATE INDEX channels_guild_id_idx ON channels (guild_id, position);
CREATE INDEX channels_parent_id_idx ON channels (parent_id) WHERE parent_id IS NOT NULL;

-- Permissions are a Discord-style bit field (ADMINISTRATOR = 1<<3, MANAGE_WEBHOOKS = 1<<29).
-- The @everyone role of a guild has the guild's id as its own id.
CREATE TABLE roles (
  id bigint PRIMARY KEY,
  guild_id bigint NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
  permissions bigint NOT NULL DEFAULT 0,
  color integer NOT NULL DEFAULT 0 CHECK (color BETWEEN 0 AND 16777215),
  position integer NOT NULL DEFAULT 0,
  hoist boolean NOT NULL DEFAULT false,
  mentionable boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX roles_guild_id_idx ON roles (guild_id, position);

-- role_ids never lists the @everyone role: every member has it.
CREATE TABLE members (
  guild_id bigint NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role_ids bigint[] NOT NULL DEFAULT '{}' CHECK (array_position(role_ids, NULL) IS NULL),
  nick text CHECK (char_length(nick) BETWEEN 1 AND 32),
  avatar_hash text CHECK (char_length(avatar_hash) BETWEEN 1 AND 64),
  banner_hash text CHECK (char_length(banner_hash) BETWEEN 1 AND 64),
  joined_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (guild_id, user_id)
);
-- "Guilds of a user" (the MAX_GUILDS cap of bulk adds) and user archives.
CREATE INDEX members_user_id_idx ON members (user_id);

-- guilds.member_count follows the members table, one UPDATE per statement (not per row), so
-- a set-based bulk add of 1000 members touches the guild row once.
CREATE FUNCTION members_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE guilds g SET member_count = g.member_count + n.count
  FROM (SELECT guild_id, count(*) AS count FROM inserted_members GROUP BY guild_id) n
  WHERE g.id = n.guild_id;
  RETURN NULL;
END $$;

CREATE FUNCTION members_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE guilds g SET member_count = greatest(g.member_count - n.count, 0)
  FROM (SELECT guild_id, count(*) AS count FROM deleted_members GROUP BY guild_id) n
  WHERE g.id = n.guild_id;
  RETURN NULL;
END $$;

CREATE TRIGGER members_count_insert AFTER INSERT ON members
  REFERENCING NEW TABLE AS inserted_members FOR EACH STATEMENT EXECUTE FUNCTION members_count_inserted();
CREATE TRIGGER members_count_delete AFTER DELETE ON members
  REFERENCING OLD TABLE AS deleted_members FOR EACH STATEMENT EXECUTE FUNCTION members_count_deleted();

CREATE TABLE messages (
  id bigint PRIMARY KEY,
  channel_id bigint NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  -- Denormalised from the channel (null in DMs) so guild-wide reads need no join.
  guild_id bigint REFERENCES guilds (id) ON DELETE CASCADE,
  author_id bigint REFERENCES users (id) ON DELETE SET NULL,
  -- No foreign key: messages outlive the webhook that posted them, as on Discord.
  webhook_id bigint,
  -- Author snapshot of a webhook message, taken at send time (reference webhooks §4).
  webhook_name text CHECK (char_length(webhook_name) BETWEEN 1 AND 80),
  webhook_avatar_hash text CHECK (char_length(webhook_avatar_hash) BETWEEN 1 AND 64),
  -- A remote avatar given by the payload (avatar_url, icon_url): stored, never fetched.
  webhook_avatar_url text CHECK (char_length(webhook_avatar_url) <= 2048),
  type smallint NOT NULL DEFAULT 0,
  content text NOT NULL DEFAULT '' CHECK (char_length(content) <= 4000),
  embeds jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(embeds) = 'array'),
  flags integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  edited_at timestamptz,
  CHECK (webhook_id IS NULL OR (author_id IS NULL AND webhook_name IS NOT NULL))
);
-- Newest-first pages of a channel, and streaming a channel by id for archives.
CREATE INDEX messages_channel_id_id_idx ON messages (channel_id, id DESC);
-- User archives, and ON DELETE SET NULL when a user goes.
CREATE INDEX messages_author_id_idx ON messages (author_id, id) WHERE author_id IS NOT NULL;

-- Emoji and sticker objects live at storage_key (`emojis/<id>`, `stickers/<id>`).
CREATE TABLE emojis (
  id bigint PRIMARY KEY,
  guild_id bigint NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name ~ '^[A-Za-z0-9_]{2,32}$'),
  animated boolean NOT NULL DEFAULT false,
  creator_id bigint REFERENCES users (id) ON DELETE SET NULL,
  storage_key text NOT NULL UNIQUE CHECK (char_length(storage_key) BETWEEN 1 AND 1024),
  content_type text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX emojis_guild_id_idx ON emojis (guild_id);

-- format_type as Discord's: 1 png, 2 apng, 3 lottie, 4 gif.
CREATE TABLE stickers (
  id bigint PRIMARY KEY,
  guild_id bigint NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  name text NOT NULL CHECK (char_length(name) BETWEEN 2 AND 30),
  description text CHECK (char_length(description) <= 100),
  tags text[] NOT NULL DEFAULT '{}' CHECK (array_position(tags, NULL) IS NULL),
  format_type smallint NOT NULL DEFAULT 1 CHECK (format_type BETWEEN 1 AND 4),
  animated boolean NOT NULL DEFAULT false,
  creator_id bigint REFERENCES users (id) ON DELETE SET NULL,
  storage_key text NOT NULL UNIQUE CHECK (char_length(storage_key) BETWEEN 1 AND 1024),
  content_type text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stickers_guild_id_idx ON stickers (guild_id);

-- Every stored image of a guild (current and previous), so a purge finds every object.
-- guilds.<kind>_hash names the current one.
CREATE TABLE guild_assets (
  id bigint PRIMARY KEY,
  guild_id bigint NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('icon', 'banner', 'splash', 'embed_splash', 'discovery_splash')),
  hash text NOT NULL CHECK (char_length(hash) BETWEEN 1 AND 64),
  storage_key text NOT NULL UNIQUE CHECK (char_length(storage_key) BETWEEN 1 AND 1024),
  content_type text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (guild_id, kind, hash)
);

-- type 1 incoming, 2 channel follower. The token is returned by every webhook route, so it
-- is stored as is (64 url-safe characters); compare it in constant time.
CREATE TABLE webhooks (
  id bigint PRIMARY KEY,
  type smallint NOT NULL DEFAULT 1 CHECK (type IN (1, 2)),
  guild_id bigint NOT NULL REFERENCES guilds (id) ON DELETE CASCADE,
  channel_id bigint NOT NULL REFERENCES channels (id) ON DELETE CASCADE,
  -- The creator shown as `user`; a deleted creator leaves the webhook working.
  creator_id bigint REFERENCES users (id) ON DELETE SET NULL,
  name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 80),
  avatar_hash text CHECK (char_length(avatar_hash) BETWEEN 1 AND 64),
  token text NOT NULL CHECK (token ~ '^[A-Za-z0-9_-]{64}$'),
  -- Optional shared secret verifying X-Hub-Signature-256 / Sentry-Hook-Signature.
  secret text CHECK (char_length(secret) BETWEEN 1 AND 256),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_channel_id_idx ON webhooks (channel_id, id);
CREATE INDEX webhooks_guild_id_idx ON webhooks (guild_id, id);

-- Dedupe of inbound deliveries (X-GitHub-Delivery and the like): the insert of the key is the
-- atomic claim, taken before any side effect (`INSERT … ON CONFLICT DO NOTHING RETURNING`).
CREATE TABLE webhook_deliveries (
  webhook_id bigint NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  delivery_id text NOT NULL CHECK (char_length(delivery_id) BETWEEN 1 AND 200),
  source text NOT NULL CHECK (source IN ('plain', 'codehost', 'errortracker', 'chatapp')),
  -- The message the delivery produced, once stored. No foreign key: messages may be deleted
  -- in bulk (channel, guild) and must not scan this table to do so.
  message_id bigint,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (webhook_id, delivery_id)
);
-- Pruning of old dedupe keys.
CREATE INDEX webhook_deliveries_created_at_idx ON webhook_deliveries (created_at);
