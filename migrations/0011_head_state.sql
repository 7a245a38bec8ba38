-- A game's current state is read from its head step (issue 23).
--
-- games.state_json was a second copy of the head step's state_json, written again by every
-- order: each commit wrote the ~7 KB state twice, and two copies could disagree (logcheck
-- looked for that).  The game's row now names its head (head_seq) and the state is read
-- from that step: one copy, half the bytes per order.
ALTER TABLE games DROP COLUMN state_json;
