-- The hash chain of every game's record (issue 29): each step and each audit entry keeps
-- the hash of the record written before it (prev_hash) and its own (hash), computed by
-- bot/chain.py when it is written; games.chain_head is the hash of the game's last record,
-- which every public announcement shows (its first 16 hex digits) and /game end posts whole.
-- Records written before this version have no hash (NULL); their games' chains start at
-- the first record written after it.

ALTER TABLE step_log ADD COLUMN prev_hash TEXT;
ALTER TABLE step_log ADD COLUMN hash TEXT;
ALTER TABLE audit ADD COLUMN prev_hash TEXT;
ALTER TABLE audit ADD COLUMN hash TEXT;
ALTER TABLE games ADD COLUMN chain_head TEXT NOT NULL DEFAULT '';

-- The steps view shows the new columns too.
DROP VIEW steps;

CREATE VIEW steps AS
SELECT s.id, s.game_id, s.seq, s.parent_seq, s.kind, s.actor_id, s.actor_name, s.side,
       s.action_json, s.dice_json, s.events_json, s.state_json, s.reveals, s.snapshot,
       s.turn_part, s.interaction_id, r.audit_id AS reverted_by, s.rerolls, s.created_at,
       s.prev_hash, s.hash
FROM step_log s LEFT JOIN step_reverts r ON r.game_id = s.game_id AND r.seq = s.seq;
