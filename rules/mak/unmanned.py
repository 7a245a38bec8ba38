"""Unmanned units (16.0): who may spot and fire indirect, and the NeuSpotter's memory unit.

* 16.1: an unmanned unit spots, fires indirect or calls artillery only with a command unit
  (a unit marked PC in the scenario, or a manned version).
* 16.2.2: from December 2884 a destroyed NeuSpotter drops its AMU in its hex;
  16.2.3: a Strahl infantry or Type I unit ending its move there collects it, and scores
  1 victory point by leaving the map with it; 16.2.4: a Mercenary unit entering the hex may
  destroy it; 16.2.5: a NeuSpotter carrying an AMU moves at half its allowance.
"""

from __future__ import annotations

from rules.mak.data import UnitStats

AMU_POINTS = 1  # 16.2.2


def may_spot(unit: UnitStats, commanded: bool) -> bool:
    """16.1: unmanned units spot (and fire indirect) only under command."""
    return not unit.unmanned or commanded


def may_collect_amu(unit: UnitStats, side: str) -> bool:
    """16.2.3: a Strahl infantry or Type I unit."""
    return side == "strahl" and (unit.infantry or unit.unit_class == 1)


def may_destroy_amu(side: str) -> bool:
    """16.2.4: the Mercenary player destroys an AMU by entering its hex."""
    return side == "merc"


def allowance_with_amu(unit: UnitStats, carrying: bool) -> int:
    """16.2.5: half (rounded down) for a NeuSpotter carrying an AMU; no penalty for others."""
    return unit.movement // 2 if carrying and unit.key == "NeuSpotter" else unit.movement
