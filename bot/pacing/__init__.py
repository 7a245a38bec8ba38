"""Pacing a play-by-post game (issue 19): deadlines, reminders, away players, substitutes
and the turn digest.  See :mod:`bot.pacing.runner` for the background work and
:mod:`bot.pacing.commands` for ``/game pace``, ``/game deadline``, ``/mod extend`` …."""
