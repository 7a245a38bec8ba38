"""Raid and Riposte (system key ``rr``): Lock 'n Load's area-map game, Tannenbruck 1985.

Importing the package registers the system; see :mod:`rules.rr.system`.
"""

from rules.core.registry import register
from rules.rr.system import RaidAndRiposte

SYSTEM = register(RaidAndRiposte())

__all__ = ["SYSTEM", "RaidAndRiposte"]
