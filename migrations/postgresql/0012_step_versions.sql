-- Which release and which rules made each step (issue 42): the PostgreSQL twin of
-- migrations/0012_step_versions.sql (read that file for why).
--
-- Both columns in one ALTER: a constant default is stored in the catalogue (PostgreSQL 11+),
-- so old rows are filled as "before versioning" without rewriting the table.

ALTER TABLE step_log
    ADD COLUMN release_version TEXT NOT NULL DEFAULT 'before versioning',
    ADD COLUMN rules_version INTEGER;

DROP VIEW steps;

CREATE VIEW steps AS
SELECT s.id, s.game_id, s.seq, s.parent_seq, s.kind, s.actor_id, s.actor_name, s.side,
       s.action_json, s.dice_json, s.events_json, s.state_json, s.reveals, s.snapshot,
       s.turn_part, s.interaction_id, r.audit_id AS reverted_by, s.rerolls, s.created_at,
       s.prev_hash, s.hash, s.release_version, s.rules_version
FROM step_log s LEFT JOIN step_reverts r ON r.game_id = s.game_id AND r.seq = s.seq;
