-- Each side's "since your last order", stored with the head (issue 23, point 3).
--
-- Why: a ping or a reminder used to read the last 200 steps of the log, state JSON and all,
-- at every turn hand-over, so an order cost more the longer the game.  The service now
-- carries every side's summary along (bot/summaries.py) and stores it in the same UPDATE
-- that moves the head, in the order's own transaction: a restart or a second process reads
-- it back with the game.  NULL: a game stored before this migration; rebuilt from its log
-- the first time it is opened.
ALTER TABLE games ADD COLUMN summaries_json TEXT;
