-- Reverted marks move out of the wide step rows into a narrow table of their own.
--
-- Why: a step row carries the whole state as JSON (kilobytes), and SQLite rewrites a whole
-- row to change one column, so marking 1,000 steps reverted rewrote megabytes (issue 7:
-- a rollback of 1,000 steps within 50 ms).  Now a rollback inserts 1,000 small rows and a
-- roll-forward deletes them; the step rows themselves are written once and never changed.
--
-- `steps` becomes a view with the same columns as before (reverted_by included), so every
-- reader, the export and the tools keep working; writers use `step_log` and `step_reverts`.

CREATE TABLE step_log (
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
    rerolls        INTEGER,            -- for kind 'reroll': the seq it re-resolved
    created_at     TEXT    NOT NULL,
    UNIQUE (game_id, seq)
);

INSERT INTO step_log (id, game_id, seq, parent_seq, kind, actor_id, actor_name, side,
                      action_json, dice_json, events_json, state_json, reveals, snapshot,
                      turn_part, interaction_id, rerolls, created_at)
SELECT id, game_id, seq, parent_seq, kind, actor_id, actor_name, side, action_json, dice_json,
       events_json, state_json, reveals, snapshot, turn_part, interaction_id, rerolls, created_at
FROM steps;

-- A step is reverted while it has a row here; audit_id is the rollback, undo or reroll that
-- did it.
CREATE TABLE step_reverts (
    game_id  INTEGER NOT NULL,
    seq      INTEGER NOT NULL,
    audit_id INTEGER NOT NULL REFERENCES audit (id),
    PRIMARY KEY (game_id, seq),
    FOREIGN KEY (game_id, seq) REFERENCES step_log (game_id, seq)
) WITHOUT ROWID;

INSERT INTO step_reverts (game_id, seq, audit_id)
SELECT game_id, seq, reverted_by FROM steps WHERE reverted_by IS NOT NULL;

DROP TABLE steps;

CREATE VIEW steps AS
SELECT s.id, s.game_id, s.seq, s.parent_seq, s.kind, s.actor_id, s.actor_name, s.side,
       s.action_json, s.dice_json, s.events_json, s.state_json, s.reveals, s.snapshot,
       s.turn_part, s.interaction_id, r.audit_id AS reverted_by, s.rerolls, s.created_at
FROM step_log s LEFT JOIN step_reverts r ON r.game_id = s.game_id AND r.seq = s.seq;
