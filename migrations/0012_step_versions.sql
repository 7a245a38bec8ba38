-- Which release and which rules made each step (issue 42).
--
-- A game lasts weeks and the bot is upgraded in between: a fixed ruling can make the same
-- recorded order resolve otherwise.  Every step now records the release that wrote it
-- (bot.VERSION) and its system's rules version (GameSystem.rules_version, with a line in the
-- system's rules/<key>/CHANGELOG.md), so a replay tells a rules change from a forged record
-- (bot/rerun.py) and referee check-games names the rule.  Steps written before this version
-- are filled in as made "before versioning" (no rules version: NULL).  Both are covered by a
-- step's hash when it has a rules version (bot/chain.py), so they cannot be relabelled.

ALTER TABLE step_log ADD COLUMN release_version TEXT NOT NULL DEFAULT 'before versioning';
ALTER TABLE step_log ADD COLUMN rules_version INTEGER;

-- The steps view shows the new columns too.
DROP VIEW steps;

CREATE VIEW steps AS
SELECT s.id, s.game_id, s.seq, s.parent_seq, s.kind, s.actor_id, s.actor_name, s.side,
       s.action_json, s.dice_json, s.events_json, s.state_json, s.reveals, s.snapshot,
       s.turn_part, s.interaction_id, r.audit_id AS reverted_by, s.rerolls, s.created_at,
       s.prev_hash, s.hash, s.release_version, s.rules_version
FROM step_log s LEFT JOIN step_reverts r ON r.game_id = s.game_id AND r.seq = s.seq;
