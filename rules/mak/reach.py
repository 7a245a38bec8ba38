"""Whether a card's objectives can be reached (issue 46: the playability proof's hook).

O.G.P. item 3's ``hold`` points ask a side to have a unit in a hex when the game ends: at
least one of that side's ground units must be able to walk, roll or hover there from where
it sets up or enters (12.1), over terrain its movement form may enter (7.1.8).  Flying
units (10.0) hold no hex.  A point no unit of its side can ever reach is named at its hex.
"""

from __future__ import annotations

from rules.core.errors import RuleError
from rules.core.hexes import Hex, neighbours, parse_number
from rules.core.scenariofile import Loc
from rules.mak.battlefield import Battlefield, battlefield, field_key
from rules.mak.data import Movement, ScenarioSpec, UnitStats, charts
from rules.mak.deployment import entry_hexes, parse_deploy


def _open_to(field: Battlefield, form: Movement, h: Hex) -> bool:
    """7.1.8: whether ``form`` may enter ``h`` (a cost, not prohibited)."""
    return charts().terrain_of(field.terrain.get(h, "clear")).cost.get(form) is not None


def _reached(field: Battlefield, form: Movement, starts: list[Hex]) -> set[Hex]:
    """Every hex ``form`` may reach from ``starts``, over terrain it may enter."""
    seen = {h for h in starts if h in field.hexes and _open_to(field, form, h)}
    todo = list(seen)
    while todo:
        here = todo.pop()
        for there in neighbours(here):
            if there in field.hexes and there not in seen and _open_to(field, form, there):
                seen.add(there)
                todo.append(there)
    return seen


def unreachable(spec: ScenarioSpec, known: dict[str, UnitStats]) -> list[tuple[Loc, str]]:
    """``points`` of kind ``hold`` that no ground unit of their side (``known``: the card's
    unit types) can reach."""
    holds = [(i, p) for i, p in enumerate(spec.points) if p.kind == "hold"]
    if not holds:
        return []
    field = battlefield(tuple(spec.boards), field_key(spec.key))
    reach: dict[str, set[Hex]] = {"merc": set(), "strahl": set()}
    for side in spec.sides:
        for line in side.forces:
            stats = known.get(line.unit)
            if stats is None or stats.aeronautical:
                continue
            try:
                starts = entry_hexes(field.layout, parse_deploy(line.deploy))
            except RuleError:
                continue
            reach[side.key] |= _reached(field, stats.move_form, starts)
    out: list[tuple[Loc, str]] = []
    for i, point in holds:
        try:
            h = field.layout.hex_of(parse_number(point.hex))
        except RuleError:
            continue  # named by the card's checks
        if h not in reach[point.side]:
            out.append((("points", i, "hex"), f"no {point.side} ground unit can reach {point.hex} "
                        "from where it sets up or enters (7.1.8: terrain its movement form may "
                        "not enter), so this hold point could never be scored."))
    return out
