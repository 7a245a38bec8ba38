-- Club seasons: leagues, their players, pairings, results and ratings (issue 44).
--
-- A league belongs to a server and runs over games of the systems it names.  A result is
-- written in the transaction that ends its game (or by /league record for a game played
-- outside the schedule) with the ratings it moved, so a league's standings are always
-- those of its ended games; ratings are kept per system and overall ('*').  Nothing is
-- deleted: a player who leaves keeps their rows (left_at), a closed league its tables.
CREATE TABLE leagues (
    id          INTEGER PRIMARY KEY,
    guild_id    TEXT    NOT NULL,
    name        TEXT    NOT NULL,
    systems     TEXT    NOT NULL,                 -- the system keys, comma separated
    rated       INTEGER NOT NULL DEFAULT 1,
    status      TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created_by  TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    closed_at   TEXT
);
-- One open league of a name in a server (a closed one's name may be used again).
CREATE UNIQUE INDEX leagues_open_name ON leagues (guild_id, name) WHERE status = 'open';

CREATE TABLE league_members (
    league_id       INTEGER NOT NULL REFERENCES leagues (id),
    user_id         TEXT    NOT NULL,
    user_name       TEXT    NOT NULL,
    joined_at       TEXT    NOT NULL,
    left_at         TEXT,
    -- Reliability: league games that ended, lost on a deadline, abandoned.
    games           INTEGER NOT NULL DEFAULT 0,
    deadline_losses INTEGER NOT NULL DEFAULT 0,
    abandoned       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (league_id, user_id)
);

CREATE TABLE league_pairings (
    id          INTEGER PRIMARY KEY,
    league_id   INTEGER NOT NULL REFERENCES leagues (id),
    round       INTEGER NOT NULL,
    system      TEXT    NOT NULL,
    first_id    TEXT    NOT NULL,                 -- takes the system's first side
    first_name  TEXT    NOT NULL,
    second_id   TEXT,                             -- NULL: a bye
    second_name TEXT,
    channel_id  TEXT,                             -- the thread its game is played in
    game_id     INTEGER REFERENCES games (id),
    state       TEXT    NOT NULL DEFAULT 'waiting'
                CHECK (state IN ('waiting', 'playing', 'done', 'abandoned', 'bye')),
    created_at  TEXT    NOT NULL
);
CREATE INDEX league_pairings_round ON league_pairings (league_id, round);
CREATE UNIQUE INDEX league_pairings_game ON league_pairings (game_id) WHERE game_id IS NOT NULL;

CREATE TABLE league_results (
    id          INTEGER PRIMARY KEY,
    league_id   INTEGER NOT NULL REFERENCES leagues (id),
    game_id     INTEGER NOT NULL REFERENCES games (id),
    pairing_id  INTEGER REFERENCES league_pairings (id),
    system      TEXT    NOT NULL,
    outcome     TEXT    NOT NULL CHECK (outcome IN ('win', 'draw', 'concession', 'deadline')),
    winner_id   TEXT,                             -- NULL: a draw
    players     TEXT    NOT NULL,                 -- JSON: [{side, user_id, user_name, computer}]
    rated       INTEGER NOT NULL,
    steps       INTEGER NOT NULL,                 -- the game's length in steps
    turns       INTEGER,
    expected    REAL,                             -- the winner's chance before the game
    ratings     TEXT    NOT NULL,                 -- JSON: each player's figures before and after
    recorded_by TEXT    NOT NULL,                 -- 'referee' (its end) or who ran /league record
    created_at  TEXT    NOT NULL,
    UNIQUE (league_id, game_id)
);

CREATE TABLE league_ratings (
    league_id   INTEGER NOT NULL REFERENCES leagues (id),
    pool        TEXT    NOT NULL,                 -- a system key, or '*' for every system
    user_id     TEXT    NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    played      INTEGER NOT NULL DEFAULT 0,
    won         INTEGER NOT NULL DEFAULT 0,
    drawn       INTEGER NOT NULL DEFAULT 0,
    lost        INTEGER NOT NULL DEFAULT 0,
    -- Moved on by every update, which is guarded by it: two games ending at once in two
    -- channels cannot both rate from the same figures (the second is run again).
    version     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (league_id, pool, user_id)
);
