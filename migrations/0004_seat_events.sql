-- The seat history of every game: who joined, left, was seated, replaced or kicked, and by
-- which audit entry (issue 14).  A kicked user may sit again only when a moderator seats
-- them; a player may end a game mid-way only if nobody else ever held a seat of it.
CREATE TABLE seat_events (
    id         INTEGER PRIMARY KEY,
    game_id    INTEGER NOT NULL REFERENCES games (id),
    side       TEXT,
    user_id    TEXT    NOT NULL,
    user_name  TEXT    NOT NULL,
    event      TEXT    NOT NULL CHECK (event IN ('join', 'leave', 'seat', 'unseat', 'kick')),
    audit_id   INTEGER REFERENCES audit (id),
    created_at TEXT    NOT NULL
);
CREATE INDEX seat_events_game ON seat_events (game_id, id);

-- Games started before this version: whoever sits now is taken to have joined.
INSERT INTO seat_events (game_id, side, user_id, user_name, event, created_at)
SELECT game_id, side, user_id, user_name, 'join', 'before 0004' FROM seats ORDER BY game_id, side;

-- Replies to old interactions are pruned by age (bot/service.py); the age needs an index.
CREATE INDEX interactions_created ON interactions (created_at);
