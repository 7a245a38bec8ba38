"""Raid and Riposte (system key ``rr``): Lock 'n Load's area-map game, Tannenbruck 1985.

The registry finds ``SYSTEM`` here; see :mod:`rules.rr.system`.
"""

from rules.rr.system import RaidAndRiposte

SYSTEM = RaidAndRiposte()

__all__ = ["SYSTEM", "RaidAndRiposte"]
