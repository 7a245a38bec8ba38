-- A league player's reliability counts deadlines (issue 44): of the deadlines their league
-- games set them (one a turn-part the game's pace gave one), how many they met and how
-- many passed while the game waited on them.  Counted with the game's end, in its
-- transaction, from the game's deadline notices (scheduled_messages, migration 0006).
ALTER TABLE league_members ADD COLUMN deadlines_met INTEGER NOT NULL DEFAULT 0;
ALTER TABLE league_members ADD COLUMN deadlines_missed INTEGER NOT NULL DEFAULT 0;
