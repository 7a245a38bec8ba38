-- Announcements the bot owes a channel: the reply to a committed step that neither the
-- interaction nor channel.send could deliver (the bot lacked a permission, Discord was
-- down).  It is delivered with the next reply in that channel, its ping included, then
-- deleted.
CREATE TABLE owed_announcements (
    id          INTEGER PRIMARY KEY,
    channel_id  TEXT    NOT NULL,
    reply_json  TEXT    NOT NULL,
    created_at  TEXT    NOT NULL
);
CREATE INDEX owed_announcements_channel ON owed_announcements (channel_id, id);
