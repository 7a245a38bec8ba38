-- The first schema: games, seats, the append-only step log, the audit trail and the
-- interactions already answered.  Steps are never deleted: rollback, undo and reroll mark
-- them reverted (reverted_by -> the audit row that did it), so every change can be undone.

CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    channel_id    TEXT    NOT NULL,
    guild_id      TEXT,
    system        TEXT    NOT NULL,
    scenario      TEXT    NOT NULL,
    options_json  TEXT    NOT NULL DEFAULT '{}',
    status        TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'ended')),
    seed          BLOB    NOT NULL,              -- secret until /game end (provable dice)
    seed_hash     TEXT    NOT NULL,              -- posted at /game new
    dice_counter  INTEGER NOT NULL DEFAULT 0,    -- next roll index; never rewound
    head_seq      INTEGER NOT NULL DEFAULT 0,    -- the current step
    state_json    TEXT    NOT NULL,              -- the state after head_seq (a cache of it)
    last_mention  TEXT,                          -- the turn-part last announced with a ping
    created_by    TEXT,
    created_at    TEXT    NOT NULL,
    ended_at      TEXT
);
-- One active game per channel or thread.
CREATE UNIQUE INDEX games_active_channel ON games (channel_id) WHERE status = 'active';

CREATE TABLE seats (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    side      TEXT    NOT NULL,
    user_id   TEXT    NOT NULL,
    user_name TEXT    NOT NULL,
    PRIMARY KEY (game_id, side)
);

CREATE TABLE audit (
    id             INTEGER PRIMARY KEY,
    game_id        INTEGER NOT NULL REFERENCES games (id),
    actor_id       TEXT    NOT NULL,
    actor_name     TEXT    NOT NULL,
    action         TEXT    NOT NULL,   -- rollback, reroll, undo, seat, kick, end
    reason         TEXT    NOT NULL DEFAULT '',
    data_json      TEXT    NOT NULL DEFAULT '{}',
    created_at     TEXT    NOT NULL
);

CREATE TABLE steps (
    id             INTEGER PRIMARY KEY,
    game_id        INTEGER NOT NULL REFERENCES games (id),
    seq            INTEGER NOT NULL,
    parent_seq     INTEGER,            -- the head this step was applied to
    kind           TEXT    NOT NULL CHECK (kind IN ('setup', 'order', 'reroll')),
    actor_id       TEXT,
    actor_name     TEXT,
    side           TEXT,
    action_json    TEXT,               -- {"name": ..., "options": {...}}
    dice_json      TEXT    NOT NULL DEFAULT '[]',
    events_json    TEXT    NOT NULL DEFAULT '[]',
    state_json     TEXT    NOT NULL,
    reveals        INTEGER NOT NULL DEFAULT 0,
    snapshot       INTEGER NOT NULL DEFAULT 0,
    turn_part      TEXT    NOT NULL DEFAULT '',
    interaction_id TEXT    UNIQUE,
    reverted_by    INTEGER REFERENCES audit (id),
    rerolls        INTEGER,            -- for kind 'reroll': the seq it re-resolved
    created_at     TEXT    NOT NULL,
    UNIQUE (game_id, seq)
);
CREATE INDEX steps_active ON steps (game_id, reverted_by, seq);

-- Every state-changing command answered, so a repeated delivery gets the same answer.
CREATE TABLE interactions (
    interaction_id TEXT    PRIMARY KEY,
    game_id        INTEGER REFERENCES games (id),
    reply_json     TEXT    NOT NULL,
    created_at     TEXT    NOT NULL
);
