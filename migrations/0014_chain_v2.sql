-- The chain holds against an operator with the database (issue 45).
--
-- chain_format: the hashing scheme of the game's chain (bot/chain.py).  Games started
-- before this version keep 'referee-chain/1' (a genesis naming the scenario by its key);
-- new games start 'referee-chain/2', whose genesis binds the scenario file's whole SHA-256.
-- chain_count: how many records (steps and audit entries) the chain holds; every public
-- announcement shows it with the head and with how many records its command wrote, so the
-- verifier can require every record between two announcements to be one the channel saw.
ALTER TABLE games ADD COLUMN chain_format TEXT NOT NULL DEFAULT 'referee-chain/1';
ALTER TABLE games ADD COLUMN chain_count INTEGER NOT NULL DEFAULT 0;

UPDATE games SET chain_count =
    (SELECT COUNT(*) FROM step_log s WHERE s.game_id = games.id AND s.hash IS NOT NULL)
  + (SELECT COUNT(*) FROM audit a WHERE a.game_id = games.id AND a.hash IS NOT NULL);
