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

DROP VIEW steps;

-- Every column of step_log (the two added ones included) and whether the step is reverted.
CREATE VIEW steps AS
SELECT s.*, r.audit_id AS reverted_by
FROM step_log s LEFT JOIN step_reverts r ON r.game_id = s.game_id AND r.seq = s.seq;
