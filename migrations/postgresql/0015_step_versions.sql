-- Which release and which rules made each step (issue 42): the PostgreSQL twin of
-- migrations/0015_step_versions.sql (read that file for why).
--
-- Both columns in one ALTER: a constant default is stored in the catalogue (PostgreSQL 11+),
-- so old rows are filled as "before versioning" without rewriting the table.

ALTER TABLE step_log
    ADD COLUMN release_version TEXT NOT NULL DEFAULT 'before versioning',
    ADD COLUMN rules_version INTEGER;

DROP VIEW steps;

-- Every column of step_log (the two added ones included) and whether the step is reverted.
CREATE VIEW steps AS
SELECT s.*, r.audit_id AS reverted_by
FROM step_log s LEFT JOIN step_reverts r ON r.game_id = s.game_id AND r.seq = s.seq;
