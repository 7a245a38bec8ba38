"""Raiders (Decision Games mini-game system): solitaire raids and campaigns, key ``raiders``.

The bot plays the hostiles and the card decks; the one seat, ``raiders``, gives the orders the
rules leave to the player.  See :mod:`rules.raiders.system`.
"""

from rules.raiders.system import SYSTEM, RaidersSystem


__all__ = ["SYSTEM", "RaidersSystem"]
