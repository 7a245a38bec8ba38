"""Line of sight and elevation (6.0) on a :class:`~rules.mak.battlefield.Battlefield`.

* 6.1.1 / 6.1.2: the line runs centre to centre; obstacle terrain (building, forest, hill),
  smoke and fire block it; the viewer's and target's own hexes never do.  Where the line runs
  exactly along a hexside the viewer may take either side (rules/core/hexes.py).
* 6.1.3: a ridgeline or wall crossed blocks the line, except to a Type I target in the hex
  just beyond it, or a Type II target within two hexes beyond it.
* 6.1.5: adjacent units always see each other; 6.1.6: units never block.
* 6.2.2: a hex of height 1 between them blocks unless both ends are at height 1 (obstacle
  terrain blocks "without regard to elevation level", 6.1.2).
* 6.2.3: a viewer or target at height 1 sees over ridges and walls, except one on a side of
  the viewer's or the target's own hex (then 6.1.3 applies).
"""

from __future__ import annotations

from rules.core.hexes import Hex, distance, line_clear
from rules.mak.battlefield import Battlefield


def can_see(field: Battlefield, a: Hex, b: Hex, target_class: int = 1,
            smoke: frozenset[Hex] = frozenset(), fire: frozenset[Hex] = frozenset()) -> bool:
    """Whether a unit in ``a`` has line of sight to a target of Type ``target_class`` in ``b``."""
    if a in fire:
        return False  # 19.4.3: no line of sight out of a fire hex
    n = distance(a, b)
    if n <= 1:
        return True  # 6.1.5
    both_high = field.height(a) >= 1 and field.height(b) >= 1
    high_end = field.height(a) >= 1 or field.height(b) >= 1
    beyond = 1 if target_class == 1 else 2  # 6.1.3: hexes of sight past a ridge or wall

    def hex_ok(i: int, h: Hex) -> bool:
        if h in smoke or h in fire or field.terrain_at(h).blocks:
            return False
        return not (field.elevation.get(h, 0) >= 1 and not both_high)  # 6.2.2

    def side_ok(i: int, x: Hex, y: Hex) -> bool:
        if field.feature(x, y) is None:
            return True
        own_side = x == a or y == b  # on a hexside of the viewer's or target's hex (6.2.3)
        if high_end and not own_side:
            return True
        return n - i < beyond  # the target is within ``beyond`` hexes past the crossing

    return line_clear(a, b, hex_ok, side_ok)


def crosses_ridge(field: Battlefield, a: Hex, b: Hex) -> str | None:
    """5.1.3 1: the hexside feature the attack must cross (every reading of the line), or None."""
    if line_clear(a, b, lambda i, h: True, lambda i, x, y: field.feature(x, y) is None):
        return None
    for kind in ("ridge", "wall"):
        if not line_clear(a, b, lambda i, h: True, lambda i, x, y, k=kind: field.feature(x, y) != k):
            return kind
    return "ridge"
