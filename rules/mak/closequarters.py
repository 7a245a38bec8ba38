"""Close quarters combat (9.0): pinning and unarmed combat.

* 9.4.1: one anti-phasing unit is pinned for each phasing unit in the hex;
* 9.4.2: phasing units immobilised or unable to fire do not count;
* 9.4.3: the phasing player decides which units stay unpinned;
* 9.4.4: pinned units may not attack into other hexes (defensive attacks included);
* 9.5: Type I units may fight unarmed at an unmodified 4, after the armed attacks.
"""

from __future__ import annotations

from typing import Iterable


def pinned_count(phasing_able: Iterable[bool], anti_units: int) -> int:
    """How many anti-phasing units are pinned: one per phasing unit able to fire (9.4.1-2)."""
    return min(anti_units, sum(1 for able in phasing_able if able))


def unpinned_choice_needed(phasing_able: Iterable[bool], anti_units: int) -> int:
    """How many anti-phasing units the phasing player names as unpinned (9.4.3); 0: none left."""
    return anti_units - pinned_count(phasing_able, anti_units)
