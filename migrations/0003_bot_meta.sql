-- Small facts the bot keeps about itself between runs, e.g. the fingerprint of the command
-- tree last sent to Discord (so a restart does not re-sync unchanged commands: Discord
-- rate-limits command syncs).

CREATE TABLE bot_meta (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
