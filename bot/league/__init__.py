"""Club seasons (issue 44): leagues across games and systems, their pairings, results,
ratings and standings.

* :mod:`bot.league.ratings`: the rating of one result, by OpenSkill's Weng-Lin
  (Plackett-Luce) model: the one place a figure moves.
* :mod:`bot.league.outcomes`: how a game ended for a league (a win by the rules, a draw, a
  concession, a deadline loss), read from its last state and its ending audit entry.
* :mod:`bot.league.records`: the league's rows (migration 0013) and their SQL.
* :mod:`bot.league.pairing`: round robin and Swiss pairing of a round.
* :mod:`bot.league.ending`: the rows a game's end writes, in the end's own transaction.
* :mod:`bot.league.history`: a league's export and the recomputation of its ratings from
  the games' logs.
* :mod:`bot.league.commands`: ``/league …``.
"""
