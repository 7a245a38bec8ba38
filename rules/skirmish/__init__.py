"""Platoon skirmish (system key ``skirmish``): WWII platoons of teams on a table in inches.

The registry finds ``SYSTEM`` here; see :mod:`rules.skirmish.system`.
"""

from rules.skirmish.system import PlatoonSkirmish

SYSTEM = PlatoonSkirmish()

__all__ = ["SYSTEM", "PlatoonSkirmish"]
