-- Pacing a play-by-post game (issue 19): a deadline for each turn-part, reminders, the
-- players who are away, substitutes offered, and every message the bot sends on its own
-- (reminders, a deadline passing, the turn digest).
--
-- Times are ISO-8601 UTC text, as everywhere else in this database.

-- A game's pace: how long each turn-part may take, what happens when its deadline passes,
-- and the current turn-part's deadline.  `part_key` names the turn-part the deadline
-- belongs to ("<step where it began>|<who is waited on, and for what>"), so a deadline
-- and its reminders are never applied to a later turn-part.
CREATE TABLE game_pace (
    game_id      INTEGER PRIMARY KEY REFERENCES games (id),
    hours        REAL,                            -- per turn-part; NULL: only fixed deadlines
    on_deadline  TEXT    NOT NULL DEFAULT 'nothing' CHECK (on_deadline IN ('nothing', 'pass')),
    remind_json  TEXT    NOT NULL DEFAULT '["half", "1h"]',
    part_key     TEXT,
    part_started TEXT,
    deadline_at  TEXT,                            -- NULL: none for this turn-part
    updated_at   TEXT    NOT NULL
);

-- A pace or deadline proposed by a player: it takes effect when every seated player has
-- proposed the same (agreement of all seats).  A moderator's setting needs none.
CREATE TABLE pace_proposals (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    setting    TEXT    NOT NULL,                  -- 'pace' or 'deadline'
    user_id    TEXT    NOT NULL,
    value_json TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (game_id, setting, user_id)
);

-- Players away: no reminders reach them until `until_at`.
CREATE TABLE away (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    user_id   TEXT    NOT NULL,
    user_name TEXT    NOT NULL,
    until_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);

-- A side's player offers it to a substitute, who accepts with /game accept.
CREATE TABLE sub_offers (
    game_id      INTEGER NOT NULL REFERENCES games (id),
    to_user_id   TEXT    NOT NULL,
    to_user_name TEXT    NOT NULL,
    side         TEXT    NOT NULL,
    from_user_id TEXT    NOT NULL,
    created_at   TEXT    NOT NULL,
    PRIMARY KEY (game_id, to_user_id)
);

-- Messages the bot sends on its own, each at most once: `state` goes from 'due' to 'sent'
-- (or 'dropped': the game moved on, the player is away) by one conditional UPDATE
-- (... WHERE state = 'due'), so of several processes exactly one wins each message, and a
-- restart never sends one again.
CREATE TABLE scheduled_messages (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    channel_id  TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('reminder', 'deadline', 'digest')),
    part_key    TEXT    NOT NULL,                 -- the turn-part (digest: 'turn:<n>')
    side        TEXT    NOT NULL DEFAULT '',
    due_at      TEXT    NOT NULL,
    data_json   TEXT    NOT NULL DEFAULT '{}',
    state       TEXT    NOT NULL DEFAULT 'due' CHECK (state IN ('due', 'sent', 'dropped')),
    sent_by     TEXT,                             -- the process that claimed it
    sent_at     TEXT,
    created_at  TEXT    NOT NULL,
    UNIQUE (game_id, kind, part_key, side, due_at)
);
CREATE INDEX scheduled_messages_due ON scheduled_messages (state, due_at);
-- One digest per turn of a game, whichever process notices the turn ended.
CREATE UNIQUE INDEX scheduled_messages_digest ON scheduled_messages (game_id, part_key)
    WHERE kind = 'digest';
