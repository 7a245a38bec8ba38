-- Scenarios from files (issue 27).
--
-- A game set up from a club's scenario file keeps the file's text with it, so the game
-- plays, exports and replays even after the file left the server's library (NULL: a
-- built-in scenario, named by games.scenario).  The text's SHA-256 is posted at /game new
-- beside the dice seed's hash.
ALTER TABLE games ADD COLUMN scenario_text TEXT;

-- A server's own scenarios (/mod scenario add:, /game scenarios).  Removing one marks it
-- removed and keeps the row: nothing is deleted, and games started on it hold their text.
CREATE TABLE scenario_library (
    id            INTEGER PRIMARY KEY,
    guild_id      TEXT    NOT NULL,   -- the server (a DM: "dm:" and the channel id)
    system        TEXT    NOT NULL,
    name          TEXT    NOT NULL,   -- what /game new scenario: takes
    title         TEXT    NOT NULL,
    text          TEXT    NOT NULL,
    sha256        TEXT    NOT NULL,
    added_by      TEXT    NOT NULL,
    added_by_name TEXT    NOT NULL,
    added_at      TEXT    NOT NULL,
    removed_by    TEXT,
    removed_at    TEXT
);
CREATE UNIQUE INDEX scenario_library_name ON scenario_library (guild_id, system, name)
    WHERE removed_at IS NULL;
