-- A version on every game, moved on by every commit that changes it (issue 20).
--
-- Why: several bot processes may share one PostgreSQL store, each keeping games parsed in
-- memory.  A commit updates the game only "WHERE version = <the version it read>", so a
-- process holding a stale copy is refused (and re-reads the game) instead of applying an
-- order on a state that is no longer the head, or overwriting a seat another process gave.
-- (Numbered 0007: 0006 is the reminders' migration, written at the same time.)
ALTER TABLE games ADD COLUMN version INTEGER NOT NULL DEFAULT 0;
