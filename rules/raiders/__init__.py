"""Raiders (Decision Games mini-game system): solitaire raids and campaigns, key ``raiders``.

The bot plays the hostiles and the card decks; the one seat, ``raiders``, gives the orders the
rules leave to the player.  See :mod:`rules.raiders.system`.
"""

from rules.core.registry import register
from rules.raiders.system import SYSTEM, RaidersSystem

register(SYSTEM)

__all__ = ["SYSTEM", "RaidersSystem"]
